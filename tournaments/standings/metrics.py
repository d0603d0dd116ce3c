"""The metric registry (in the manner of Tabbycat's metric annotators) and the built-in metrics.

A metric has a stable lower_snake_case name, a direction (higher is better, or lower), and either

- `compute(agg) -> Column | Sequence`: one value per entrant, from the Aggregates of the whole
  field (most metrics), or
- `compute_group(agg, group) -> Column | Sequence`: one value per member of `group` (entrant
  indexes), for a *chain-aware* metric whose value depends on who the entrant is tied with
  (head_to_head). The engine calls it once per group of two or more entrants tied on every
  metric before it in the chain (when the metric is not in the chain: once per group sharing a
  final rank); an entrant tied with nobody gets the metric's `alone` value (default 0).

Exact definitions, with the rules for byes and missed rounds: docs/standings.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import compress
from math import gcd, lcm
from types import MappingProxyType
from typing import Any, TypeVar

from .aggregates import Aggregates
from .types import Column, StandingsError


def _fraction(numerator: int, denominator: int) -> Fraction:
    """Fraction(numerator, denominator) for ints, denominator > 0: the gcd here and
    CPython 3.12's constructor for parts already in lowest terms when there is one (the
    public constructor's type dispatch is most of its cost); the same value either way."""
    g = gcd(numerator, denominator)
    if _FROM_COPRIME is None:
        return Fraction(numerator // g, denominator // g)
    made: Fraction = _FROM_COPRIME(numerator // g, denominator // g)
    return made


_FROM_COPRIME = getattr(Fraction, "_from_coprime_ints", None)
_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*\Z")


@dataclass(frozen=True, slots=True)
class Metric:
    name: str
    higher_is_better: bool
    compute: Callable[[Aggregates], Column | Sequence[Any]] | None = None
    compute_group: Callable[[Aggregates, Sequence[int]], Column | Sequence[Any]] | None = None
    integer: bool = False  # a count: values are ints (otherwise exposed as Fractions)
    description: str = ""
    alone: int | Fraction = 0  # chain-aware: the value of an entrant tied with nobody

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise StandingsError("bad-metric", f"metric name {self.name!r} is not lower_snake_case")
        if type(self.higher_is_better) is not bool:
            raise StandingsError("bad-metric", f"{self.name}: higher_is_better must be a bool")
        if (self.compute is None) == (self.compute_group is None):
            raise StandingsError(
                "bad-metric", f"{self.name}: give exactly one of compute and compute_group"
            )
        if type(self.alone) not in ((int,) if self.integer else (int, Fraction)):
            raise StandingsError("bad-metric", f"{self.name}: alone must be an int or Fraction")

    @property
    def chain_aware(self) -> bool:
        return self.compute_group is not None


_REGISTRY: dict[str, Metric] = {}
#: The registry, read-only: name -> Metric, in registration order.
METRICS: Mapping[str, Metric] = MappingProxyType(_REGISTRY)
_BUILT_IN: set[str] = set()


def register_metric(metric: Metric) -> None:
    """Add `metric` to the registry; its name must be new."""
    if not isinstance(metric, Metric):
        raise StandingsError("bad-metric", f"{metric!r} is not a Metric")
    if metric.name in _REGISTRY:
        raise StandingsError("metric-exists", f"a metric named {metric.name!r} is registered")
    _REGISTRY[metric.name] = metric


def unregister_metric(name: str) -> None:
    """Remove a metric added with register_metric (the built-in ones stay)."""
    if name in _BUILT_IN:
        raise StandingsError("bad-metric", f"{name!r} is built in and cannot be removed")
    if name not in _REGISTRY:
        raise StandingsError("unknown-metric", f"no metric named {name!r}")
    del _REGISTRY[name]


_Fn = TypeVar("_Fn", bound=Callable[..., Column | Sequence[Any]])


def _builtin(
    name: str,
    higher_is_better: bool,
    *,
    integer: bool = False,
    group: bool = False,
    description: str = "",
) -> Callable[[_Fn], _Fn]:
    def decorate(fn: _Fn) -> _Fn:
        register_metric(
            Metric(
                name,
                higher_is_better,
                compute=None if group else fn,
                compute_group=fn if group else None,
                integer=integer,
                description=description,
                alone=Fraction(0) if group and not integer else 0,
            )
        )
        _BUILT_IN.add(name)
        return fn

    return decorate


# -- counts ---------------------------------------------------------------------------------------


@_builtin(
    "played", True, integer=True, description="matches played (byes and missed rounds not included)"
)
def _played(agg: Aggregates) -> Column:
    return Column(agg.played)


@_builtin("won", True, integer=True, description="matches won at the table (byes not included)")
def _won(agg: Aggregates) -> Column:
    return Column(agg.won)


@_builtin("drawn", True, integer=True, description="matches drawn")
def _drawn(agg: Aggregates) -> Column:
    return Column(agg.drawn)


@_builtin("lost", False, integer=True, description="matches lost")
def _lost(agg: Aggregates) -> Column:
    return Column(agg.lost)


@_builtin("byes", True, integer=True, description="byes received")
def _byes(agg: Aggregates) -> Column:
    return Column(agg.byes)


@_builtin(
    "wins",
    True,
    integer=True,
    description="tiebreak: matches won at the table; a bye is not a win (same count as `won`)",
)
def _wins(agg: Aggregates) -> Column:
    return Column(agg.won)


@_builtin(
    "hands_won",
    True,
    integer=True,
    description="hands in which the entrant's side made the table's top score (a whist "
    "drive's tiebreak); byes and missed rounds add none",
)
def _hands_won(agg: Aggregates) -> Column:
    return Column(agg.hands)


# -- points ---------------------------------------------------------------------------------------


@_builtin("match_points", True, description="match points, byes and missed-round credits included")
def _match_points(agg: Aggregates) -> Column:
    return Column(agg.mp, agg.mp_den)


@_builtin(
    "points_for",
    True,
    description="the game's own points scored, byes and missed-round credits included",
)
def _points_for(agg: Aggregates) -> Column:
    return Column(agg.pf, agg.pf_den)


@_builtin(
    "points_against",
    False,
    description="the opponents' points (mean of the others at multi-seat tables)",
)
def _points_against(agg: Aggregates) -> Column:
    return Column(agg.pa, agg.pa_den)


@_builtin("point_difference", True, description="points_for - points_against")
def _point_difference(agg: Aggregates) -> Column:
    den = lcm(agg.pf_den, agg.pa_den)
    f, a = den // agg.pf_den, den // agg.pa_den
    return Column([pf * f - pa * a for pf, pa in zip(agg.pf, agg.pa, strict=True)], den)


@_builtin(
    "average_points",
    True,
    description="points_for per round credited (played + byes + missed rounds); 0 when none",
)
def _average_points(agg: Aggregates) -> Column:
    den = agg.pf_den
    out: list[Fraction] = []
    zero = Fraction(0)
    made: dict[tuple[int, int], Fraction] = {}
    for pf, p, b, m in zip(agg.pf, agg.played, agg.byes, agg.missed, strict=True):
        rounds = p + b + m
        if not rounds:
            out.append(zero)
            continue
        f = made.get((pf, rounds))
        if f is None:
            f = made[pf, rounds] = _fraction(pf, den * rounds)
        out.append(f)
    return Column(out)


@_builtin(
    "progressive_score",
    True,
    description="sum over the event's rounds of the "
    "match points accumulated after each round (FIDE's progressive/cumulative score)",
)
def _progressive_score(agg: Aggregates) -> Column:
    rounds = agg.rounds
    later = {r: len(rounds) - k for k, r in enumerate(rounds)}  # how many rounds r' >= r
    den = agg.mp_den
    # A plain loop: in CPython 3.12 its specialised bytecode takes half the time of the
    # map(mul, map(itemgetter), map(later.__getitem__, ...)) chain per entrant it replaces
    # (13.5 M instructions a 1,000 x 9 recompute, about a tenth of it).
    out: list[int] = []
    add = out.append
    if agg.whole:  # the records' own whole match points, times the denominator
        for mine in agg.records:
            s = 0
            for r in mine:
                s += r.match_points.numerator * later[r.round]
            add(s * den)
    else:
        for scaled in agg.results:
            s = 0
            for rec in scaled:
                s += rec[3] * later[rec[1]]
            add(s)
    for i in compress(range(agg.n), agg.missed):  # late entrants: their credited rounds
        e = agg.entrants[i]
        p = e.missed_points
        out[i] += p.numerator * (den // p.denominator) * sum(later[r] for r in e.missed)
    return Column(out, den)


@_builtin(
    "placings",
    False,
    description="sum of finishing places at tables; each bye or missed "
    "round counts as the entrant's own mean place; 0 with no placed match",
)
def _placings(agg: Aggregates) -> Column:
    if not agg.places:  # no placed match at all (two-sided events): 0 for everyone
        return Column([0] * agg.n)
    out: list[Fraction | int] = []
    for i, mine in enumerate(agg.results):
        placed = [rec[5] for rec in mine if rec[5] is not None]
        if not placed:
            out.append(0)
            continue
        total, k = sum(placed), len(placed)
        u = agg.byes[i] + agg.missed[i]
        out.append(Fraction(total * (k + u), k) if u else total)
    return Column(out)


# -- opponents' strength --------------------------------------------------------------------------


def opponent_strength(agg: Aggregates) -> dict[str, Column]:
    """Buchholz, its cuts and Sonneborn-Berger for every entrant, computed together (cached).

    Each result against opponents contributes the mean of its opponents' match points (exact:
    the scale is mp_den * opp_lcm); each bye and missed round contributes a virtual opponent on
    the entrant's own match points. Sonneborn-Berger counts played matches only."""
    cached: dict[str, Column] | None = agg.cache.get("opponent_strength")
    if cached is not None:
        return cached
    scale = agg.opp_lcm
    own = [m * scale for m in agg.mp] if scale != 1 else agg.mp
    mp = dict(zip(agg.ids, own, strict=True))  # by entrant id, as opponents are given
    places = agg.places
    factor = {"win": 2, "draw": 1}  # twice the share of the opponent's score won
    buchholz: list[int] = []
    cut1: list[int] = []
    median: list[int] = []
    sb: list[int] = []
    if agg.opp_lcm == 1 and not places:  # two-sided matches and byes: the short loop
        for i, mine in enumerate(agg.records):
            mine_own = own[i]
            contributions: list[int] = []
            add = contributions.append
            s = 0
            for r in mine:
                opps = r.opponents
                if opps:
                    c = mp[opps[0]]
                    add(c)
                    outcome = r.outcome
                    if outcome == "win":
                        s += c + c
                    elif outcome == "draw":
                        s += c
                else:
                    add(mine_own)
            if agg.missed[i]:
                contributions.extend([mine_own] * agg.missed[i])
            b = sum(contributions)
            k = len(contributions)
            low = min(contributions) if k >= 2 else 0
            buchholz.append(b)
            cut1.append(b - low)
            median.append(b - low - max(contributions) if k >= 3 else b - low)
            sb.append(s)
    else:
        for i, mine in enumerate(agg.records):
            contributions = []
            add = contributions.append
            s = 0
            for r in mine:
                match, outcome, opps, place = r.match, r.outcome, r.opponents, r.place
                if len(opps) == 1:
                    c = mp[opps[0]]
                    add(c)
                    if place is None:
                        s += factor.get(outcome, 0) * c
                        continue
                elif opps:
                    c = sum([mp[o] for o in opps]) // len(opps)  # exact: scale is a multiple
                    add(c)
                    if place is None:
                        s += factor.get(outcome, 0) * c
                        continue
                else:  # a bye: a virtual opponent on the entrant's own score
                    add(own[i])
                    continue
                for o in opps:  # placed at a table: compare places with each opponent
                    theirs = places.get((match, o))
                    if theirs is None:
                        f = factor.get(outcome, 0)
                    else:
                        f = 2 if place < theirs else 1 if place == theirs else 0
                    s += f * mp[o] // len(opps)
            if agg.missed[i]:
                contributions.extend([own[i]] * agg.missed[i])
            b = sum(contributions)
            k = len(contributions)
            low = min(contributions) if k >= 2 else 0
            buchholz.append(b)
            cut1.append(b - low)
            median.append(b - low - max(contributions) if k >= 3 else b - low)
            sb.append(s)
    den = agg.mp_den * scale
    result = {
        "buchholz": Column(buchholz, den),
        "buchholz_cut1": Column(cut1, den),
        "median_buchholz": Column(median, den),
        "sonneborn_berger": Column(sb, 2 * den),
    }
    agg.cache["opponent_strength"] = result
    return result


@_builtin(
    "buchholz",
    True,
    description="sum of the opponents' match points (per match: the mean "
    "over its opponents); a bye or missed round counts as an opponent on one's own score",
)
def _buchholz(agg: Aggregates) -> Column:
    return opponent_strength(agg)["buchholz"]


@_builtin(
    "buchholz_cut1",
    True,
    description="buchholz without the lowest contribution (nothing cut with fewer than 2)",
)
def _buchholz_cut1(agg: Aggregates) -> Column:
    return opponent_strength(agg)["buchholz_cut1"]


@_builtin(
    "median_buchholz",
    True,
    description="buchholz without the highest and the lowest "
    "contribution; with 2, without the lowest (Cut-1); with 0 or 1, buchholz",
)
def _median_buchholz(agg: Aggregates) -> Column:
    return opponent_strength(agg)["median_buchholz"]


@_builtin(
    "sonneborn_berger",
    True,
    description="match points of beaten opponents plus half of "
    "drawn ones; at tables, placed below = beaten, same place = drawn; byes count 0",
)
def _sonneborn_berger(agg: Aggregates) -> Column:
    return opponent_strength(agg)["sonneborn_berger"]


# -- chain-aware ----------------------------------------------------------------------------------


@_builtin(
    "head_to_head",
    True,
    group=True,
    description="match points scored in matches against "
    "the entrants one is tied with (chain-aware: computed per tied group)",
)
def _head_to_head(agg: Aggregates, group: Sequence[int]) -> Column:
    ids = agg.ids
    members = {ids[i] for i in group}
    out: list[int] = []
    if agg.whole:  # the records' own whole match points, times the denominator
        records, den = agg.records, agg.mp_den
        for i in group:
            s = 0
            for r in records[i]:
                if not members.isdisjoint(r.opponents):
                    s += r.match_points.numerator
            out.append(s * den)
        return Column(out, agg.mp_den)
    results = agg.results
    for i in group:
        s = 0
        for rec in results[i]:
            if not members.isdisjoint(rec[4]):
                s += rec[3]
        out.append(s)
    return Column(out, agg.mp_den)


#: The names of the built-in metrics (they cannot be unregistered).
BUILT_IN: frozenset[str] = frozenset(_BUILT_IN)

#: The default tiebreak chain (Swiss, two-sided matches).
DEFAULT_TIEBREAKS: tuple[str, ...] = (
    "match_points",
    "point_difference",
    "buchholz",
    "head_to_head",
    "wins",
)

#: Suggested chains per format (docs/standings.md explains each, with its source). Each ranks by
#: what the format's players play for: a partnership Swiss or round robin by match points; tables
#: of 3-4 (Solo Whist, cutthroat and 3-player Spades) by each player's own total; a whist drive
#: (progressive partnerships) by each player's total points over the evening. `tables_places` is
#: the director's alternative for tables: place points per table first.
DEFAULT_CHAINS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "swiss": DEFAULT_TIEBREAKS,
        "round_robin": (
            "match_points",
            "head_to_head",
            "sonneborn_berger",
            "point_difference",
            "wins",
        ),
        "tables": ("points_for", "placings", "buchholz", "head_to_head"),
        "tables_places": ("match_points", "placings", "points_for", "buchholz", "head_to_head"),
        "progressive": ("points_for", "hands_won", "match_points", "buchholz", "head_to_head"),
    }
)

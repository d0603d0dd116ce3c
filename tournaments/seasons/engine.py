"""A season championship: the table of a series of evenings (plain Python, exact arithmetic).

    rows = season_table(evenings, rule=PLACING, points=(10, 8, 6, 5, 4, 3, 2, 1), best=6)

Each evening is the final standings of one tournament of the series: for every entrant who
played it (a player, or a team, by a key that is the same across evenings), its place (tied
entrants share a place) and its match points. The club chooses the rule:

- `placing`: each evening gives placing points by place — `points[0]` for first, `points[1]`
  for second, …, nothing beyond the list; entrants sharing a place share the points of the places
  they cover (two tied for 2nd of (10, 8, 6, …) get (8 + 6) / 2 = 7 each, exactly);
- `match-points`: each evening gives its match points.

Only the `best` K evenings of each entrant count (all of them when `best` is None). Ties in the
season score are broken by the chain, in order: evenings won, then the best single evening,
then the total over every evening (the ones not counted too), then fewer evenings played;
entrants equal on all of them share a rank.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = [
    "MATCH_POINTS",
    "PLACING",
    "RULES",
    "Evening",
    "SeasonError",
    "SeasonRow",
    "season_table",
]

PLACING = "placing"
MATCH_POINTS = "match-points"
RULES = (PLACING, MATCH_POINTS)
#: The tiebreak chain after the season score, in order (see the module docstring).
CHAIN = ("wins", "best", "total", "fewer_played")


class SeasonError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Evening:
    """One evening's final standings: entrant key -> (place, match points). An evening ranked
    in several fields (a duplicate Mitchell: NS and EW, two winners) gives each entrant's
    field in `fields`; places are shared only within a field."""

    name: str
    results: Mapping[Hashable, tuple[int, Fraction | int]]
    fields: Mapping[Hashable, Hashable] | None = None


@dataclass(slots=True)
class SeasonRow:
    entrant: Hashable
    rank: int = 0
    tied: bool = False
    score: Fraction | int = 0  # the season score: the best K evenings (exact: int when whole)
    wins: int = 0
    best: Fraction | int = 0
    total: Fraction | int = 0
    played: int = 0
    #: Each evening's score (None: not played) and whether it counts among the best K.
    evenings: list[tuple[Fraction | int | None, bool]] = field(default_factory=list)

    def key(self) -> tuple[Any, ...]:
        return (-self.score, -self.wins, -self.best, -self.total, self.played)


def _exact(value: Fraction | int) -> Fraction | int:
    """An int when whole (int arithmetic is many times faster than Fraction's), else the
    Fraction: the same exact value either way."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def _placing(evening: Evening, points: Sequence[Fraction | int]) -> dict[Hashable, Fraction | int]:
    """Placing points, shared by the entrants who share a place."""
    by_place: dict[tuple[Hashable, int], list[Hashable]] = {}
    fields = evening.fields or {}
    for entrant, (place, _mp) in evening.results.items():
        by_place.setdefault((fields.get(entrant), place), []).append(entrant)
    out: dict[Hashable, Fraction | int] = {}
    for (_field, place), tied in by_place.items():
        covered = sum(points[p - 1] for p in range(place, min(place + len(tied), len(points) + 1)))
        share = _exact(
            Fraction(covered, len(tied)) if isinstance(covered, int) else covered / len(tied)
        )
        for entrant in tied:
            out[entrant] = share
    return out


def season_table(
    evenings: Sequence[Evening],
    *,
    rule: str = PLACING,
    points: Sequence[Fraction | int] = (),
    best: int | None = None,
) -> list[SeasonRow]:
    """The season's table, best first (see the module docstring)."""
    if rule not in RULES:
        raise SeasonError("bad-rule", f"the season rule must be one of {RULES}, not {rule!r}")
    if rule == PLACING and not points:
        raise SeasonError("no-points", "placing points need a list of points by place")
    if any(not isinstance(p, int | Fraction) or isinstance(p, bool) or p < 0 for p in points):
        raise SeasonError("bad-points", "placing points are whole or exact numbers, not negative")
    if best is not None and (not isinstance(best, int) or isinstance(best, bool) or best < 1):
        raise SeasonError("bad-best", "best K is a whole number from 1")
    points = [_exact(p) for p in points]
    scored: list[dict[Hashable, Fraction | int]] = []
    for evening in evenings:
        for entrant, (place, mp) in evening.results.items():
            if not isinstance(place, int) or place < 1:
                raise SeasonError("bad-place", f"{evening.name}: {entrant!r} has no place")
            if isinstance(mp, float):
                raise SeasonError("bad-points", "match points are exact (int or Fraction)")
        if rule == PLACING:
            scored.append(_placing(evening, points))
        else:
            scored.append(
                {
                    e: mp if isinstance(mp, int) else _exact(Fraction(mp))
                    for e, (_place, mp) in evening.results.items()
                }
            )
    entrants = list(dict.fromkeys(e for evening in evenings for e in evening.results))
    rows = []
    for entrant in entrants:
        row = SeasonRow(entrant)
        scores = [s.get(entrant) for s in scored]
        present: dict[int, Fraction | int] = {i: x for i, x in enumerate(scores) if x is not None}
        played = list(present)
        # The best K by score, the earlier evening first among equal scores (a stable sort).
        counted = set(sorted(played, key=lambda i: -present[i])[: best or len(played)])
        row.score = _exact(sum((present[i] for i in counted), start=0))
        row.best = max(present.values(), default=0)
        row.total = _exact(sum(present.values(), start=0))
        row.played = len(played)
        row.wins = sum(1 for ev in evenings if ev.results.get(entrant, (0, 0))[0] == 1)
        row.evenings = [(x, i in counted) for i, x in enumerate(scores)]
        rows.append(row)
    rows.sort(key=lambda r: (r.key(), str(r.entrant)))
    for i, row in enumerate(rows):
        if i and row.key() == rows[i - 1].key():
            row.rank, row.tied, rows[i - 1].tied = rows[i - 1].rank, True, True
        else:
            row.rank = i + 1
    return rows

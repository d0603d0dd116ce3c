"""Ranking: compute every registered metric, sort by the tiebreak chain, then by the final key
(seed, then registration order), and share ranks where the whole chain ties."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .aggregates import Aggregates
from .metrics import BUILT_IN, METRICS, Metric, _fraction
from .types import Column, Entrant, Result, Row, StandingsError, Values


def validate_tiebreaks(names: Sequence[str]) -> tuple[str, ...]:
    """The chain as a tuple of registered metric names, or StandingsError:
    "bad-chain" (not a sequence of strings), "empty-chain", "unknown-metric",
    "duplicate-metric"."""
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise StandingsError("bad-chain", "the tiebreaks must be a sequence of metric names")
    chain = tuple(names)
    if not chain:
        raise StandingsError("empty-chain", "the tiebreak chain names no metric")
    seen: set[str] = set()
    for name in chain:
        if not isinstance(name, str):
            raise StandingsError("bad-chain", f"{name!r} is not a metric name")
        if name not in METRICS:
            known = ", ".join(METRICS)
            raise StandingsError("unknown-metric", f"no metric named {name!r} (known: {known})")
        if name in seen:
            raise StandingsError("duplicate-metric", f"{name!r} appears twice in the chain")
        seen.add(name)
    return chain


_EXACT = frozenset({int, Fraction})
_INT_ONLY = frozenset({int})
_FRACTION_ONLY = {Fraction}


def _column(metric: Metric, out: Column | Sequence[Any], size: int) -> Column:
    """A metric's output as a checked Column (the built-in metrics' values are trusted)."""
    col = out if isinstance(out, Column) else Column(out)
    if len(col.values) != size:
        raise StandingsError(
            "bad-metric", f"{metric.name} gave {len(col.values)} values for {size} entrants"
        )
    if type(col.denominator) is not int or col.denominator < 1:
        raise StandingsError("bad-metric", f"{metric.name}: the denominator must be an int >= 1")
    if metric.name not in BUILT_IN and not set(map(type, col.values)) <= _EXACT:
        raise StandingsError(
            "bad-metric", f"{metric.name} gave values that are not int or Fraction"
        )
    return col


def _public(
    metric: Metric, col: Column, memo: dict[int, dict[int | Fraction, Fraction]]
) -> list[Any]:
    """The exposed values: ints for a count metric, Fractions otherwise (exact). `memo` keeps
    the Fractions made so far by denominator: a Fraction costs microseconds to build, and
    columns repeat values (match points, Buchholz) and share them (points for and against)."""
    values, den = col.values, col.denominator
    if metric.integer:
        if metric.name not in BUILT_IN and (den != 1 or not all(type(v) is int for v in values)):
            raise StandingsError("bad-metric", f"{metric.name} is a count but gave non-ints")
        return list(values)
    made = memo.setdefault(den, {})
    if (type(values) is list or type(values) is tuple) and values and type(values[0]) is int:
        new = set(values).difference(made)
        if set(map(type, new)) <= _INT_ONLY:
            # the usual column, ints: only the values not seen yet become Fractions (a value
            # in `made` stands for value / den whatever its type), then one C-level lookup per
            # entrant (the per-value loop below was a tenth of a recompute)
            for v in new:
                made[v] = _fraction(v, den)
            return list(map(made.__getitem__, values))
    if (
        den == 1
        and (type(values) is list or type(values) is tuple)
        and set(map(type, values)) == _FRACTION_ONLY
    ):
        return list(values)  # Fractions already (average_points): nothing to make
    out = []
    for v in values:
        f = made.get(v)
        if f is None:
            if type(v) is int:
                f = Fraction(v) if den == 1 else Fraction(v, den)
            elif type(v) is Fraction:
                f = v if den == 1 else v / den
            else:
                raise StandingsError("bad-metric", f"{metric.name} gave a {type(v).__name__}")
            made[v] = f
        out.append(f)
    return out


def _split(group: list[int], key: Callable[[int], Any]) -> list[list[int]]:
    """`group` sorted by `key`, cut into runs of equal keys."""
    group.sort(key=key)
    runs = [[group[0]]]
    last = key(group[0])
    for i in group[1:]:
        k = key(i)
        if k == last:
            runs[-1].append(i)
        else:
            runs.append([i])
            last = k
    return runs


def compute(
    entrants: Sequence[Entrant], results: Sequence[Result], *, tiebreaks: Sequence[str]
) -> list[Row]:
    """The standings: one Row per entrant, best first."""
    chain = [METRICS[name] for name in validate_tiebreaks(tiebreaks)]
    agg = Aggregates(entrants, results)
    n = agg.n
    if not n:
        return []
    metrics = list(METRICS.values())
    memo: dict[int, dict[int | Fraction, Fraction]] = {}
    raw: dict[str, Sequence[Any]] = {}  # sortable values of the field-wide metrics
    public: dict[str, list[Any]] = {}
    for m in metrics:
        if m.compute is not None:  # a field-wide metric (not chain-aware)
            col = _column(m, m.compute(agg), n)
            raw[m.name] = col.values
            public[m.name] = _public(m, col, memo)
    for m in metrics:
        if m.chain_aware:
            public[m.name] = [None] * n

    def apply_group_metric(m: Metric, groups: list[list[int]]) -> list[list[int]]:
        refined: list[list[int]] = []
        exposed = public[m.name]
        alone = m.alone if m.integer else Fraction(m.alone)
        compute_group = m.compute_group
        assert compute_group is not None  # only chain-aware metrics come here
        for g in groups:
            if len(g) == 1:
                exposed[g[0]] = alone
                refined.append(g)
                continue
            col = _column(m, compute_group(agg, g), len(g))
            for i, v in zip(g, _public(m, col, memo), strict=True):
                exposed[i] = v
            if m.higher_is_better:
                value = {i: -v for i, v in zip(g, col.values, strict=True)}
            else:
                value = dict(zip(g, col.values, strict=True))
            refined.extend(_split(g, value.__getitem__))
        return refined

    groups = [list(range(n))]
    k = 0
    while k < len(chain):
        m = chain[k]
        if m.chain_aware:
            groups = apply_group_metric(m, groups)
            k += 1
            continue
        j = k
        while j < len(chain) and not chain[j].chain_aware:
            j += 1
        columns = [
            raw[c.name] if not c.higher_is_better else [-v for v in raw[c.name]] for c in chain[k:j]
        ]
        keys = columns[0] if len(columns) == 1 else list(zip(*columns, strict=True))
        refined: list[list[int]] = []
        for g in groups:
            if len(g) == 1:
                refined.append(g)
            else:
                refined.extend(_split(g, keys.__getitem__))
        groups = refined
        k = j
    in_chain = {m.name for m in chain}
    for m in metrics:  # chain-aware metrics not in the chain: per group sharing a rank
        if m.chain_aware and m.name not in in_chain:
            apply_group_metric(m, groups)

    ents = agg.entrants

    def final(i: int) -> tuple[Any, ...]:  # the last key, only for entrants sharing a group
        e = ents[i]
        return (e.seed is None, e.seed or 0, e.order, e.id)

    names = [m.name for m in metrics]
    positions = MappingProxyType({name: k for k, name in enumerate(names)})
    by_entrant = list(zip(*[public[name] for name in names], strict=True))
    rows: list[Row] = []
    position = 0
    for g in groups:
        if len(g) > 1:
            g.sort(key=final)
        rank = position + 1
        tied = len(g) > 1
        for i in g:
            rows.append(Row(rank, ents[i].id, Values(positions, by_entrant[i]), tied))
        position += len(g)
    return rows

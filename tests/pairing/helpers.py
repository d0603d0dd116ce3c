"""Shared test helpers: Hypothesis strategies for fields of contenders, and brute-force optima to
compare the engines against on small fields."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations

from hypothesis import strategies as st

from tournaments.pairing import Contender, Draw

SCORE_CAP = 6  # the Swiss score-gap cost is min(d, 6)² for pairs d score groups apart


@st.composite
def fields(
    draw,
    *,
    min_size: int = 2,
    max_size: int = 10,
    history: bool = True,
    points: tuple = (0, 1, 2, 3, 4),
) -> list[Contender]:
    """A field: unique ids, ranks consistent with points (then random), random symmetric
    meetings (as opponents, and some as partners), byes, side balances and sit-outs."""
    n = draw(st.integers(min_size, max_size))
    ids = draw(st.lists(st.integers(1, 10_000), min_size=n, max_size=n, unique=True))
    pts = [draw(st.sampled_from(points)) for _ in ids]
    if draw(st.booleans()):
        pts = [Fraction(p, 2) for p in pts]  # half points, as after draws
    rng = random.Random(draw(st.integers(0, 2**32)))
    order = sorted(range(n), key=lambda i: (-pts[i], rng.random()))
    rank = {i: r for r, i in enumerate(order, 1)}
    opponents: dict[int, set[int]] = {i: set() for i in ids}
    partners: dict[int, set[int]] = {i: set() for i in ids}
    if history:
        density = draw(st.sampled_from([0.0, 0.2, 0.4, 0.6]))
        for a, b in combinations(ids, 2):
            if rng.random() < density:
                kind = partners if rng.random() < 0.3 else opponents
                kind[a].add(b)
                if rng.random() < 0.9:  # records may be one-sided (e.g. after a correction)
                    kind[b].add(a)
    out = []
    for i, cid in enumerate(ids):
        out.append(
            Contender(
                id=cid,
                points=pts[i],
                rank=rank[i],
                opponents=frozenset(opponents[cid]),
                byes=rng.choice([0, 0, 0, 1, 2]) if history else 0,
                first=rng.choice([-2, -1, 0, 0, 1, 2]) if history else 0,
                partners=frozenset(partners[cid]),
                sat_out=rng.choice([0, 0, 0, 1, 2]) if history else 0,
            )
        )
    return out


def shuffled(items: list, seed: int) -> list:
    out = list(items)
    random.Random(seed).shuffle(out)
    return out


# -- Swiss ---------------------------------------------------------------------------------------


def matchings(items: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of an even-sized list."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            yield [(head, other), *tail]


def met(a: Contender, b: Contender) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def swiss_key(field: list[Contender], pairs: list[tuple[int, int]], bye: int | None):
    """(rematches, bye place, score cost) of a pairing, the Swiss engine's top criteria: the
    bye place is the recipient's place in the order (fewest byes, then lowest rank)."""
    by_id = {c.id: c for c in field}
    levels = sorted({c.points for c in field}, reverse=True)
    group = {c.id: levels.index(c.points) for c in field}
    rematches = sum(met(by_id[a], by_id[b]) for a, b in pairs)
    score = sum(min(abs(group[a] - group[b]), SCORE_CAP) ** 2 for a, b in pairs)
    place = 0
    if bye is not None:
        order = sorted(field, key=lambda c: (c.byes, -c.rank))
        place = [c.id for c in order].index(bye)
    return rematches, place, score


def swiss_best(field: list[Contender]):
    """The least swiss_key over every possible pairing (and bye), by brute force."""
    ids = [c.id for c in field]
    best = None
    for bye in ids if len(ids) % 2 else [None]:
        rest = [i for i in ids if i != bye]
        for pairs in matchings(rest):
            key = swiss_key(field, pairs, bye)
            if best is None or key < best:
                best = key
    return best


def draw_key(field: list[Contender], draw: Draw):
    return swiss_key(field, list(draw.tables), draw.byes[0] if draw.byes else None)


# -- tables --------------------------------------------------------------------------------------


def partitions(items: list[int], size: int) -> Iterator[list[tuple[int, ...]]]:
    """Every partition of `items` into tables of `size`."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for others in combinations(rest, size - 1):
        remaining = [p for p in rest if p not in others]
        for tail in partitions(remaining, size):
            yield [(head, *others), *tail]


def seen(a: Contender, b: Contender) -> bool:
    return b.id in a.opponents or a.id in b.opponents or b.id in a.partners or a.id in b.partners


def table_repeats(field: list[Contender], groups) -> int:
    by_id = {c.id: c for c in field}
    return sum(seen(by_id[a], by_id[b]) for g in groups for a, b in combinations(g, 2))


def expected_sit_outs(field: list[Contender], size: int) -> set[int]:
    order = sorted(field, key=lambda c: (c.sat_out, -c.rank))
    return {c.id for c in order[: len(field) % size]}


def partnered(a: Contender, b: Contender) -> bool:
    return b.id in a.partners or a.id in b.partners


def progressive_key(field: list[Contender], seats) -> tuple[int, int]:
    """(repeated partnerships, repeated meetings) of progressive tables (N, E, S, W)."""
    by_id = {c.id: c for c in field}
    again = sum(
        partnered(by_id[t[0]], by_id[t[2]]) + partnered(by_id[t[1]], by_id[t[3]]) for t in seats
    )
    return again, table_repeats(field, seats)


def progressive_best(field: list[Contender], players: list[int]) -> tuple[int, int]:
    """The least progressive_key over every seating of `players` (tables and partnerings)."""
    by_id = {c.id: c for c in field}
    best = None
    for groups in partitions(players, 4):
        again = 0
        for a, b, c, d in groups:
            again += min(
                partnered(by_id[a], by_id[b]) + partnered(by_id[c], by_id[d]),
                partnered(by_id[a], by_id[c]) + partnered(by_id[b], by_id[d]),
                partnered(by_id[a], by_id[d]) + partnered(by_id[b], by_id[c]),
            )
        key = (again, table_repeats(field, groups))
        if best is None or key < best:
            best = key
    return best


def repeat_free_exists(field: list[Contender], seated: list[int], size: int) -> bool:
    """Whether `seated` can be split into tables of `size` with no two who met at one table
    (backtracking, most constrained player first)."""
    by_id = {c.id: c for c in field}
    ok = {a: {b for b in seated if b != a and not seen(by_id[a], by_id[b])} for a in seated}

    def place(free: frozenset[int]) -> bool:
        if not free:
            return True
        head = min(free, key=lambda p: (len(ok[p] & free), p))
        return grow([head], ok[head] & free, free - {head})

    def grow(table: list[int], options: set[int], free: frozenset[int]) -> bool:
        if len(table) == size:
            return place(free)
        for q in sorted(options):
            later = {p for p in options if p > q} & ok[q]
            if grow([*table, q], later, free - {q}):
                return True
        return False

    return place(frozenset(seated))


def new_partners_exist(field: list[Contender], seated: list[int]) -> bool:
    """Whether everyone in `seated` can have a partner they never partnered (a perfect matching
    of the never-partnered graph; any such partnerships can then share tables freely)."""
    by_id = {c.id: c for c in field}
    ok = {a: {b for b in seated if b != a and not partnered(by_id[a], by_id[b])} for a in seated}

    def match(free: frozenset[int]) -> bool:
        if not free:
            return True
        head = min(free, key=lambda p: (len(ok[p] & free), p))
        return any(match(free - {head, q}) for q in sorted(ok[head] & free))

    return match(frozenset(seated))

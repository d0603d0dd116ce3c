"""Keeping apart (Contender.avoid: the same club or family, or a pair the director named): every
engine makes such a pair only when it cannot be avoided without a rematch (or, at tables, a
repeated meeting) — proved against brute force on small fields — and says so in the draw."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Contender, progressive, swiss, tables

from .helpers import fields, matchings, met, partitions, progressive_key, seen, table_repeats


@st.composite
def kept_apart(draw, *, min_size: int, max_size: int, step: int = 1) -> list[Contender]:
    """A field whose entries carry affiliations (a few clubs, most entries in none) and a few
    pairs named to keep apart, as the services hand them over: symmetric avoid sets."""
    field = draw(fields(min_size=min_size, max_size=max_size))
    if step > 1:
        field = field[: len(field) - len(field) % step] or field
    rng = random.Random(draw(st.integers(0, 2**32)))
    clubs = draw(st.integers(1, 3))
    club = {c.id: rng.choice([None, None, *range(clubs)]) for c in field}
    avoid: dict[int, set[int]] = {c.id: set() for c in field}
    for a, b in combinations([c.id for c in field], 2):
        if (club[a] is not None and club[a] == club[b]) or rng.random() < 0.05:
            avoid[a].add(b)
            avoid[b].add(a)
    return [replace(c, avoid=frozenset(avoid[c.id])) for c in field]


def apart(a: Contender, b: Contender) -> bool:
    return b.id in a.avoid or a.id in b.avoid


def swiss_best(field: list[Contender]) -> tuple[int, int]:
    by_id = {c.id: c for c in field}
    ids = [c.id for c in field]
    best = None
    for bye in ids if len(ids) % 2 else [None]:
        for pairs in matchings([i for i in ids if i != bye]):
            key = (
                sum(met(by_id[a], by_id[b]) for a, b in pairs),
                sum(apart(by_id[a], by_id[b]) for a, b in pairs),
            )
            best = key if best is None or key < best else best
    return best


def together(field: list[Contender], groups) -> int:
    by_id = {c.id: c for c in field}
    return sum(apart(by_id[a], by_id[b]) for g in groups for a, b in combinations(g, 2))


@settings(deadline=None)
@given(kept_apart(min_size=2, max_size=9), st.integers(0, 1000))
def test_swiss_makes_no_avoidable_pair_of_entries_to_keep_apart(field, seed):
    draw = swiss(field, seed=seed)
    by_id = {c.id: c for c in field}
    made = (
        sum(met(by_id[a], by_id[b]) for a, b in draw.tables),
        sum(apart(by_id[a], by_id[b]) for a, b in draw.tables),
    )
    assert made == swiss_best(field)
    assert draw.apart == made[1]
    assert sum("kept apart" in note for note in draw.notes) == draw.apart


@settings(deadline=None)
@given(kept_apart(min_size=4, max_size=12), st.sampled_from([3, 4]), st.integers(0, 1000))
def test_tables_make_no_avoidable_meeting_of_entries_to_keep_apart(field, size, seed):
    draw = tables(field, size=size, seed=seed)
    players = [p for t in draw.tables for p in t]
    best = min(
        (table_repeats(field, groups), together(field, groups))
        for groups in partitions(players, size)
    )
    assert (draw.repeats, together(field, draw.tables)) == best
    assert draw.apart == best[1]


@settings(deadline=None)
@given(kept_apart(min_size=8, max_size=8), st.integers(0, 1000))
def test_progressive_tables_make_no_avoidable_meeting_of_entries_to_keep_apart(field, seed):
    draw = progressive(field, seed=seed)
    players = [p for t in draw.tables for p in t]
    by_id = {c.id: c for c in field}

    def partnered(a: int, b: int) -> int:
        return b in by_id[a].partners or a in by_id[b].partners

    best = None
    for groups in partitions(players, 4):
        again = sum(
            min(
                partnered(a, b) + partnered(c, d),
                partnered(a, c) + partnered(b, d),
                partnered(a, d) + partnered(b, c),
            )
            for a, b, c, d in groups
        )
        key = (again, table_repeats(field, groups), together(field, groups))
        best = key if best is None or key < best else best
    assert (*progressive_key(field, draw.tables), together(field, draw.tables)) == best
    assert draw.apart == best[2]


def test_two_clubmates_at_the_top_meet_the_next_pair_instead():
    """The worked example of docs/pairing.md: 1 and 2 are clubmates; 1 v 2 would be the
    closest pairing of the top group, so the Swiss pairs 1 v 3 and 2 v 4 instead."""
    field = [
        Contender(
            id=n, points=2 if n <= 4 else 0, rank=n, avoid=frozenset({2}) if n == 1 else frozenset()
        )
        for n in range(1, 9)
    ]
    plain = swiss([replace(c, avoid=frozenset()) for c in field], seed=1)
    kept = swiss(field, seed=1)
    assert (1, 3) in plain.tables and (2, 4) in plain.tables  # Dutch: top half v bottom half
    assert not any({1, 2} <= set(t) for t in kept.tables)
    assert kept.apart == 0 and kept.repeats == 0


def test_a_pair_kept_apart_is_made_when_the_only_other_pairing_is_a_rematch():
    field = [
        Contender(id=1, points=1, rank=1, opponents=frozenset({3, 4}), avoid=frozenset({2})),
        Contender(id=2, points=1, rank=2),
        Contender(id=3, points=0, rank=3, opponents=frozenset({1})),
        Contender(id=4, points=0, rank=4, opponents=frozenset({1})),
    ]
    draw = swiss(field, seed=0)
    assert (1, 2) in draw.tables and draw.repeats == 0 and draw.apart == 1
    assert "kept apart, unavoidable: 1 v 2" in draw.notes


def test_seen_helper_is_unchanged_by_avoid():
    a = Contender(id=1, points=0, rank=1, avoid=frozenset({2}))
    b = Contender(id=2, points=0, rank=2)
    assert not seen(a, b) and apart(a, b)

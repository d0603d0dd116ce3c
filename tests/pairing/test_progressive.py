"""Progressive partnership tables (whist drive): partners change, opponents rotate, fair
sit-outs; against brute force on small fields, and over simulated events."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import sizes
from tournaments.pairing import Contender, progressive
from tournaments.pairing.simulate import progressive_event

from .helpers import (
    expected_sit_outs,
    fields,
    new_partners_exist,
    progressive_best,
    progressive_key,
    repeat_free_exists,
    shuffled,
)


def check_complete(field, draw) -> None:
    seated = [i for t in draw.tables for i in t] + list(draw.byes)
    assert sorted(seated) == sorted(c.id for c in field)
    assert all(len(t) == 4 for t in draw.tables)
    assert set(draw.byes) == expected_sit_outs(field, 4)


def test_first_round_seats_bands_with_best_and_worst_partnered():
    field = [Contender(id=i, points=0, rank=i) for i in range(1, 10)]
    draw = progressive(field, seed=1)
    # N+S and E+W: 1 partners 4 and 2 partners 3 (even partnerships); 9 sits out.
    assert draw.tables == ((1, 2, 4, 3), (5, 6, 8, 7))
    assert draw.byes == (9,) and draw.repeats == 0


def test_partners_change_at_a_table_of_four_who_all_met():
    # Four players, each has partnered one of the others: the new partnering is the third one.
    field = [
        Contender(id=1, points=0, rank=1, partners=frozenset({2}), opponents=frozenset({3, 4})),
        Contender(id=2, points=0, rank=2, partners=frozenset({1}), opponents=frozenset({3, 4})),
        Contender(id=3, points=0, rank=3, partners=frozenset({4}), opponents=frozenset({1, 2})),
        Contender(id=4, points=0, rank=4, partners=frozenset({3}), opponents=frozenset({1, 2})),
    ]
    draw = progressive(field, seed=3)
    n, e, s, w = draw.tables[0]
    assert {frozenset((n, s)), frozenset((e, w))} in (
        {frozenset((1, 3)), frozenset((2, 4))},
        {frozenset((1, 4)), frozenset((2, 3))},
    )
    assert draw.repeats == 6 and not any("partners again" in note for note in draw.notes)


@settings(max_examples=sizes.examples(100), deadline=None)
@given(fields(min_size=4, max_size=11), st.integers(0, 2**31))
def test_partner_and_meeting_repeats_are_as_few_as_brute_force_finds(field, seed):
    draw = progressive(field, seed=seed)
    check_complete(field, draw)
    seated = sorted(i for t in draw.tables for i in t)
    again, repeats = progressive_key(field, draw.tables)
    assert (again, repeats) == progressive_best(field, seated)
    assert draw.repeats == repeats


@settings(max_examples=sizes.examples(30), deadline=None)
@given(fields(min_size=4, max_size=30), st.integers(0, 2**31), st.integers(0, 2**31))
def test_same_field_and_seed_give_the_same_draw_in_any_input_order(field, seed, order):
    draw = progressive(field, seed=seed)
    assert draw == progressive(shuffled(field, order), seed=seed)
    check_complete(field, draw)
    by_id = {c.id: c for c in field}
    best = [min(by_id[i].rank for i in t) for t in draw.tables]
    assert best == sorted(best)
    for t in draw.tables:
        assert by_id[t[0]].rank == min(by_id[i].rank for i in t)  # N is the best at the table


@st.composite
def partnered_fields(draw) -> list[Contender]:
    """13 to 24 players with a dense history of partnerships (up to 90% of all pairs)."""
    n = draw(st.integers(13, 24))
    density = draw(st.sampled_from([0.5, 0.7, 0.8, 0.9]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    mates = {i: set() for i in range(1, n + 1)}
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            if rng.random() < density:
                mates[a].add(b)
                mates[b].add(a)
    return [
        Contender(id=i, points=0, rank=i, partners=frozenset(mates[i]), sat_out=rng.randrange(2))
        for i in range(1, n + 1)
    ]


@settings(max_examples=sizes.examples(15), deadline=None)
@given(partnered_fields(), st.integers(0, 2**31))
def test_large_fields_get_new_partners_whenever_possible(field, seed):
    draw = progressive(field, seed=seed)
    check_complete(field, draw)
    seated = [i for t in draw.tables for i in t]
    again, _ = progressive_key(field, draw.tables)
    if new_partners_exist(field, seated):
        assert again == 0


@pytest.mark.parametrize("n", [32, 64, 101])
def test_simulated_events_never_repeat_a_partner_or_a_meeting(n):
    reports = progressive_event(n, 7, seed=n)
    for r in reports:
        seated = [i for t in r.draw.tables for i in t]
        assert r.draw.repeats == 0 or not repeat_free_exists(list(r.contenders), seated, 4)
    assert sum(r.draw.repeats for r in reports) <= 4
    partners = Counter()
    for r in reports:
        for nn, e, s, w in r.draw.tables:
            partners[frozenset((nn, s))] += 1
            partners[frozenset((e, w))] += 1
    assert max(partners.values()) == 1
    sat = Counter(i for r in reports for i in r.draw.byes)
    assert max(sat.values(), default=0) <= 1 + min(sat[c.id] for c in reports[0].contenders)


def test_small_drive_repeats_partners_only_when_forced():
    # Eight players, seven rounds: each meets 3 a round, so meetings must repeat from round 3,
    # but partnerships (7 possible per player) need not repeat until round 8.
    reports = progressive_event(8, 7, seed=2)
    partners = Counter()
    for r in reports:
        for nn, e, s, w in r.draw.tables:
            partners[frozenset((nn, s))] += 1
            partners[frozenset((e, w))] += 1
        field = list(r.contenders)
        seated = sorted(i for t in r.draw.tables for i in t)
        assert progressive_key(field, r.draw.tables) == progressive_best(field, seated)
    assert max(partners.values()) == 1

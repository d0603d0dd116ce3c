"""Individual tables of 3 or 4: sit-outs, repeats against brute force, bands, simulated events."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import sizes
from tournaments.pairing import Contender, tables
from tournaments.pairing.simulate import tables_event

from .helpers import (
    expected_sit_outs,
    fields,
    partitions,
    repeat_free_exists,
    shuffled,
    table_repeats,
)


def plain(n: int) -> list[Contender]:
    return [Contender(id=i, points=0, rank=i) for i in range(1, n + 1)]


def check_complete(field, draw, size) -> None:
    seated = [i for t in draw.tables for i in t] + list(draw.byes)
    assert sorted(seated) == sorted(c.id for c in field)
    assert all(len(t) == size for t in draw.tables)
    assert set(draw.byes) == expected_sit_outs(field, size)


# -- worked examples -----------------------------------------------------------------------------


def test_without_history_tables_are_bands_of_the_standings():
    assert tables(plain(12), size=4, seed=1).tables == (
        (1, 2, 3, 4),
        (5, 6, 7, 8),
        (9, 10, 11, 12),
    )
    assert tables(plain(9), size=3, seed=1).tables == ((1, 2, 3), (4, 5, 6), (7, 8, 9))


def test_the_lowest_ranked_sit_out_when_nobody_has_yet():
    draw = tables(plain(10), size=4, seed=1)
    assert draw.byes == (9, 10)
    assert draw.tables == ((1, 2, 3, 4), (5, 6, 7, 8))


def test_nobody_sits_out_twice_while_someone_has_not():
    field = [Contender(id=i, points=0, rank=i, sat_out=1 if i >= 8 else 0) for i in range(1, 11)]
    assert tables(field, size=4, seed=1).byes == (6, 7)


def test_a_band_that_met_is_spread_with_as_little_disturbance_as_possible():
    # 1-4 all met last round; 5-8 too. Each new table takes two from each old one.
    field = [
        Contender(
            id=i,
            points=0,
            rank=i,
            opponents=frozenset(range(1, 5) if i <= 4 else range(5, 9)) - {i},
        )
        for i in range(1, 9)
    ]
    draw = tables(field, size=4, seed=1)
    assert draw.repeats == 4  # two tables of two pairs from each old table: 2 + 2 repeats
    draw3 = tables(field, size=4, seed=2)
    assert draw3.repeats == 4


def test_twelve_players_after_one_round_meet_only_new_opponents():
    # Round 1 was 1-4, 5-8, 9-12: round 2 at tables of 3 can take one from each old table.
    old = [set(range(1, 5)), set(range(5, 9)), set(range(9, 13))]
    field = [
        Contender(id=i, points=0, rank=i, opponents=frozenset(next(t for t in old if i in t) - {i}))
        for i in range(1, 13)
    ]
    draw = tables(field, size=3, seed=5)
    assert draw.repeats == 0
    for table in draw.tables:
        assert len({next(k for k, t in enumerate(old) if i in t) for i in table}) == 3


# -- properties ----------------------------------------------------------------------------------


@settings(max_examples=sizes.examples(120), deadline=None)
@given(fields(min_size=3, max_size=10), st.sampled_from([3, 4]), st.integers(0, 2**31))
def test_repeats_are_as_few_as_brute_force_finds(field, size, seed):
    if len(field) < size:
        return
    draw = tables(field, size=size, seed=seed)
    check_complete(field, draw, size)
    seated = sorted(i for t in draw.tables for i in t)
    best = min(table_repeats(field, p) for p in partitions(seated, size))
    assert draw.repeats == table_repeats(field, draw.tables) == best


@settings(max_examples=sizes.examples(30), deadline=None)
@given(
    fields(min_size=4, max_size=30),
    st.sampled_from([3, 4]),
    st.integers(0, 2**31),
    st.integers(0, 2**31),
)
def test_same_field_and_seed_give_the_same_draw_in_any_input_order(field, size, seed, order):
    draw = tables(field, size=size, seed=seed)
    assert draw == tables(shuffled(field, order), size=size, seed=seed)
    check_complete(field, draw, size)
    by_id = {c.id: c for c in field}
    best = [min(by_id[i].rank for i in t) for t in draw.tables]
    assert best == sorted(best)  # table 1 holds the best-ranked player
    for t in draw.tables:
        assert [by_id[i].rank for i in t] == sorted(by_id[i].rank for i in t)


# -- whole events --------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "size"), [(64, 4), (66, 4), (49, 3), (100, 3)])
def test_simulated_events_have_no_repeat_meetings(n, size):
    reports = tables_event(n, 7, size=size, seed=n)
    for r in reports:
        seated = [i for t in r.draw.tables for i in t]
        assert r.draw.repeats == 0 or not repeat_free_exists(list(r.contenders), seated, size)
    assert [r.draw.repeats for r in reports] == [0] * 7
    sat = Counter(i for r in reports for i in r.draw.byes)
    assert (
        max(sat.values(), default=0) - min((sat[c.id] for c in reports[0].contenders), default=0)
        <= 1
    )  # sit-outs rotate: nobody twice while someone has not


def test_two_hundred_fifty_six_players_seven_rounds_no_repeats():
    reports = tables_event(256, 7, size=4, seed=9)
    assert [r.draw.repeats for r in reports] == [0] * 7

"""Movements: the spec's properties over every supported size (hypothesis), and the sit-out."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.duplicate.engine import DuplicateError, barometer, howell, mitchell, plays, sit_out
from tournaments.duplicate.engine.movements import HOWELL_TABLES, MITCHELL_TABLES, Movement


def meetings(movement: Movement) -> Counter:
    return Counter(
        frozenset((s.ns, s.ew))
        for seats in movement.rounds
        for s in seats
        if s.ns is not None and s.ew is not None
    )


def assert_common_properties(movement: Movement) -> None:
    """No pair plays a board set twice; in a round each pair sits at one table at most (so no
    two pairs meet at two tables); every table seats two different pairs."""
    played = Counter()
    for seats in movement.rounds:
        assert [s.table for s in seats] == list(range(1, movement.tables + 1))
        seated = [p for s in seats for p in (s.ns, s.ew) if p is not None]
        assert len(seated) == len(set(seated))
        for s in seats:
            assert 1 <= s.board_set <= movement.sets
            for pair in (s.ns, s.ew):
                if pair is not None:
                    played[pair, s.board_set] += 1
    assert max(played.values()) == 1


def set_counts(movement: Movement) -> Counter:
    return Counter(s.board_set for seats in movement.rounds for s in seats)


@pytest.mark.parametrize("tables", list(MITCHELL_TABLES))
@given(data=st.data())
def test_mitchell_has_the_spec_properties_at_every_size(tables, data):
    even = data.draw(st.sampled_from(["skip", "relay"]))
    full = mitchell(tables, even=even)
    rounds = data.draw(st.integers(1, len(full.rounds)))
    movement = mitchell(tables, even=even, rounds=rounds)
    assert movement.rounds == full.rounds[:rounds]
    assert_common_properties(movement)
    met = meetings(movement)
    assert max(met.values()) == 1  # every NS meets every EW at most once
    ns, ew = set(movement.fields["NS"]), set(movement.fields["EW"])
    assert all(len(pair & ns) == 1 and len(pair & ew) == 1 for pair in met)
    counts = set_counts(movement)
    if movement.kind != "mitchell-relay" or rounds == tables:
        assert set(counts) == set(range(1, movement.sets + 1)) or rounds < tables
        assert len(set(counts.values())) == 1  # every board set played as often
    if rounds == len(full.rounds) and movement.kind != "mitchell-skip":
        assert len(met) == len(ns) * len(ew)  # exactly once without a skip
    if tables % 2 == 0:
        assert movement.kind == f"mitchell-{even}"
        assert len(full.rounds) == (tables - 1 if even == "skip" else tables)


@pytest.mark.parametrize("tables", list(HOWELL_TABLES))
@given(data=st.data())
def test_howell_has_the_spec_properties_at_every_size(tables, data):
    complete = howell(tables)
    assert len(complete.rounds) == 2 * tables - 1
    rounds = data.draw(st.integers(1, 2 * tables - 1))
    movement = howell(tables, rounds=rounds)
    assert_common_properties(movement)
    met = meetings(movement)
    assert max(met.values()) == 1  # each pair meets every other at most once
    if rounds == 2 * tables - 1:
        assert set(met) == {frozenset(p) for p in combinations(range(1, 2 * tables + 1), 2)}
    counts = set_counts(movement)
    assert set(counts) == set(range(1, movement.sets + 1))
    assert len(set(counts.values())) == 1
    assert movement.fields == {"all": tuple(range(1, 2 * tables + 1))}


@pytest.mark.parametrize("tables", list(HOWELL_TABLES))
def test_complete_howell_moves_single_copies_where_the_offsets_allow(tables):
    movement = howell(tables)
    per_round = max(max(Counter(s.board_set for s in seats).values()) for seats in movement.rounds)
    assert per_round == movement.copies
    assert movement.copies == {2: 2, 3: 3, 5: 2}.get(tables, 1)
    # every pair sits NS and EW about equally often
    for pair in movement.pairs:
        ns = sum(1 for seats in movement.rounds for s in seats if s.ns == pair)
        assert abs(ns - (len(movement.rounds) - ns)) <= 2


@pytest.mark.parametrize("tables", list(MITCHELL_TABLES))
@given(data=st.data())
def test_barometer_plays_one_set_at_every_table_each_round(tables, data):
    rounds = data.draw(st.integers(1, 2 * tables - 1))
    movement = barometer(tables, rounds=rounds)
    assert_common_properties(movement)
    assert max(meetings(movement).values()) == 1
    for number, seats in enumerate(movement.rounds, 1):
        assert {s.board_set for s in seats} == {number}
    assert movement.copies == tables


def test_mitchell_of_three_tables_by_hand():
    m = mitchell(3)
    assert [[(s.ns, s.ew, s.board_set) for s in seats] for seats in m.rounds] == [
        [(1, 4, 1), (2, 5, 2), (3, 6, 3)],
        [(1, 6, 2), (2, 4, 3), (3, 5, 1)],
        [(1, 5, 3), (2, 6, 1), (3, 4, 2)],
    ]


def test_even_mitchell_relay_shares_a_set_between_the_end_tables_and_rests_one():
    m = mitchell(4, even="relay")
    for seats in m.rounds:
        assert seats[0].board_set == seats[3].board_set
        assert len({s.board_set for s in seats}) == 3  # one set on the bye stand


def test_a_missing_pair_gives_its_opponents_a_sit_out():
    m = mitchell(5, pairs=9)
    absent = [s for seats in m.rounds for s in seats if s.ew is None]
    assert len(absent) == 5 and {s.ns for s in absent} == {1, 2, 3, 4, 5}
    played = plays(m, 3)
    assert all(10 not in (p.ns, p.ew) for p in played)
    assert len(played) == (25 - 5) * 3
    # each NS pair sits out exactly one round: 4 of 5 rounds played
    assert Counter(p.ns for p in played) == dict.fromkeys(range(1, 6), 12)


def test_a_late_pair_takes_the_missing_seat_from_its_first_round():
    m = sit_out(howell(4), 8, rounds=range(1, 3))
    for number, seats in enumerate(m.rounds, 1):
        seated = {p for s in seats for p in (s.ns, s.ew)}
        assert (8 in seated) == (number >= 3)
    assert_common_properties(m)


def test_bad_sizes_are_refused_with_a_code():
    for call in (
        lambda: mitchell(1),
        lambda: howell(9),
        lambda: howell(4, rounds=8),
        lambda: mitchell(4, even="arrow"),
        lambda: sit_out(mitchell(3), 7),
        lambda: mitchell(3, pairs=4),
    ):
        with pytest.raises(DuplicateError) as error:
            call()
        assert error.value.code in {"bad-tables", "bad-rounds", "bad-movement", "bad-pair"}


def test_plays_expands_sets_into_boards():
    m = mitchell(3)
    first = [p for p in plays(m, 2) if p.round == 1]
    assert [(p.table, p.ns, p.ew, p.board) for p in first] == [
        (1, 1, 4, 1),
        (1, 1, 4, 2),
        (2, 2, 5, 3),
        (2, 2, 5, 4),
        (3, 3, 6, 5),
        (3, 3, 6, 6),
    ]

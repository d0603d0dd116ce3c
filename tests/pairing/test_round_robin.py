"""Round robin: FIDE's Berger tables, byes for odd fields, double round robins."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import sizes
from tournaments.pairing import PairingError, round_robin, round_robin_rounds

# FIDE Handbook C.05, Annex 1 (Berger tables): white (first side) named first, board 1 first.
FIDE_4 = {
    1: ((1, 4), (2, 3)),
    2: ((4, 3), (1, 2)),
    3: ((2, 4), (3, 1)),
}
FIDE_6 = {
    1: ((1, 6), (2, 5), (3, 4)),
    2: ((6, 4), (5, 3), (1, 2)),
    3: ((2, 6), (3, 1), (4, 5)),
    4: ((6, 5), (1, 4), (2, 3)),
    5: ((3, 6), (4, 2), (5, 1)),
}


@pytest.mark.parametrize(("n", "table"), [(4, FIDE_4), (6, FIDE_6)])
def test_matches_fide_berger_tables(n, table):
    ids = list(range(1, n + 1))
    assert round_robin_rounds(n) == n - 1
    for r, expected in table.items():
        draw = round_robin(ids, r)
        assert draw.tables == expected
        assert draw.byes == () and draw.repeats == 0


def test_ids_are_mapped_in_the_given_order():
    draw = round_robin([40, 10, 30, 20], 1)
    assert draw.tables == ((40, 20), (10, 30))  # players 1-4 and 2-3


def test_odd_field_gives_a_bye_to_whoever_meets_the_dummy():
    # Five players: the dummy is player 6, so each round's "1-6"-style game is a bye.
    byes = [round_robin([1, 2, 3, 4, 5], r).byes for r in range(1, 6)]
    assert byes == [(1,), (4,), (2,), (5,), (3,)]
    assert round_robin_rounds(5) == 5


def test_double_round_robin_repeats_the_cycle_with_sides_swapped():
    assert round_robin_rounds(4, double=True) == 6
    for r in range(1, 4):
        first = round_robin([1, 2, 3, 4], r, double=True).tables
        second = round_robin([1, 2, 3, 4], r + 3, double=True).tables
        assert second == tuple((b, a) for a, b in first)


@settings(max_examples=sizes.examples(40), deadline=None)
@given(st.integers(2, 40), st.booleans())
def test_every_pair_meets_once_per_cycle_and_sides_balance(n, double):
    ids = [i * 3 + 1 for i in range(n)]
    rounds = round_robin_rounds(n, double=double)
    met: dict[frozenset, int] = {}
    firsts = dict.fromkeys(ids, 0)
    for r in range(1, rounds + 1):
        draw = round_robin(ids, r, double=double)
        seated = [i for t in draw.tables for i in t] + list(draw.byes)
        assert sorted(seated) == sorted(ids)
        assert len(draw.byes) == n % 2
        for a, b in draw.tables:
            met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
            firsts[a] += 1
            firsts[b] -= 1
    assert met == {frozenset(p): 2 if double else 1 for p in combinations(ids, 2)}
    assert max(abs(v) for v in firsts.values()) <= (0 if double else 1 + n % 2)


def test_one_thousand_entrants_pair_every_round():
    ids = list(range(1, 1001))
    draw = round_robin(ids, 999)
    assert len(draw.tables) == 500 and draw.byes == ()


@pytest.mark.parametrize(
    ("ids", "round_number", "code"),
    [
        ([1], 1, "too-few-entrants"),
        ([], 1, "too-few-entrants"),
        ([1, 2, 2], 1, "duplicate-id"),
        ([1, "2"], 1, "bad-id"),
        ([1, True], 1, "bad-id"),
        ([1, 2, 3, 4], 0, "round-out-of-range"),
        ([1, 2, 3, 4], 4, "round-out-of-range"),
        ([1, 2, 3, 4], 1.0, "bad-round"),
        ("1234", 1, "bad-contenders"),
    ],
)
def test_bad_input_raises_pairing_error_with_a_stable_code(ids, round_number, code):
    with pytest.raises(PairingError) as caught:
        round_robin(ids, round_number)
    assert caught.value.code == code


def test_round_count_of_too_few_entrants_is_an_error():
    with pytest.raises(PairingError) as caught:
        round_robin_rounds(1)
    assert caught.value.code == "too-few-entrants"

"""The seeded knockout bracket (tournaments.pairing.knockout): worked brackets for 5, 8, 12 and
16 entrants, byes to the top seeds, results carried through, the third-place match, and for
every field size the bracket's promises (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import PairingError, advance, bracket, seed_lines

# Entrant ids 101, 102, … in seed order: seed n is 100 + n.


def seeds(n: int) -> list[int]:
    return [100 + s for s in range(1, n + 1)]


def firsts(board) -> list[tuple]:
    return [(m.top and m.top - 100, m.bottom and m.bottom - 100) for m in board.rounds[0]]


def play_chalk(board):
    """Every match won by the better seed, round by round."""
    while True:
        ready = [m for r in board.rounds for m in r if m.ready]
        if not ready:
            return board
        results = {(m.round, m.index): min(m.top, m.bottom) for r in board.rounds for m in r
                   if m.winner is not None and not m.bye}
        results |= {(m.round, m.index): min(m.top, m.bottom) for m in ready}
        board = advance(board, results)


def test_eight_seeds_meet_one_v_eight_four_v_five_two_v_seven_three_v_six():
    assert seed_lines(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert firsts(bracket(seeds(8))) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_five_entrants_give_byes_to_the_top_three():
    board = bracket(seeds(5))
    assert firsts(board) == [(1, None), (4, 5), (2, None), (3, None)]
    assert [m.bye for m in board.rounds[0]] == [True, False, True, True]
    assert [(m.top, m.bottom) for m in board.rounds[1]] == [(101, None), (102, 103)]
    assert [m.ready for m in board.rounds[1]] == [False, True]


def test_twelve_entrants_give_byes_to_the_top_four():
    board = bracket(seeds(12))
    assert board.size == 16
    byes = sorted((m.top or m.bottom) - 100 for m in board.rounds[0] if m.bye)
    assert byes == [1, 2, 3, 4]
    assert firsts(board)[:2] == [(1, None), (8, 9)]


def test_sixteen_entrants_play_four_rounds_and_the_favourites_reach_the_final():
    board = play_chalk(bracket(seeds(16), third_place=True))
    assert len(board.rounds) == 4
    semis = [(m.top - 100, m.bottom - 100) for m in board.rounds[2]]
    assert semis == [(1, 4), (2, 3)]
    final, third = board.rounds[3]
    assert (final.top, final.bottom, final.winner) == (101, 102, 101)
    assert (third.third_place, third.top, third.bottom, third.winner) == (True, 104, 103, 103)
    assert board.champion == 101


def test_an_upset_carries_the_winner_forward_and_a_changed_result_recomputes():
    board = bracket(seeds(4))
    upset = advance(board, {(1, 1): 104, (1, 2): 102})
    assert (upset.final.top, upset.final.bottom) == (104, 102)
    corrected = advance(board, {(1, 1): 101, (1, 2): 102})
    assert (corrected.final.top, corrected.final.bottom) == (101, 102)


def test_a_winner_outside_the_match_or_a_match_not_made_is_refused():
    board = bracket(seeds(4))
    with pytest.raises(PairingError) as outside:
        advance(board, {(1, 1): 102})
    with pytest.raises(PairingError) as early:
        advance(board, {(2, 1): 101})
    with pytest.raises(PairingError) as missing:
        advance(board, {(3, 1): 101})
    assert [e.value.code for e in (outside, early, missing)] == [
        "not-in-match", "match-not-made", "no-such-match"]
    with pytest.raises(PairingError):
        bracket([1])
    with pytest.raises(PairingError):
        bracket([1, 1])


@given(st.integers(2, 130))
def test_every_field_size_seeds_a_fair_bracket(n):
    board = bracket(seeds(n))
    size = board.size
    assert size >= n > size // 2 or n == size
    placed = [e for m in board.rounds[0] for e in (m.top, m.bottom) if e is not None]
    assert sorted(placed) == seeds(n), "every entrant once"
    byes = sorted((m.top or m.bottom) - 100 for m in board.rounds[0] if m.bye)
    assert byes == list(range(1, size - n + 1)), "byes to the top seeds"
    assert not any(m.top is None and m.bottom is None for m in board.rounds[0])
    done = play_chalk(board)
    assert done.champion == 101
    if n >= 2:
        assert {done.final.top, done.final.bottom} == {101, 102}

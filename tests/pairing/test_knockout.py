"""The seeded knockout bracket (tournaments.knockout.engine): worked brackets for 5, 8, 12 and
16 entrants, byes to the top seeds, results carried through, the third-place match, and for
every field size the bracket's promises (hypothesis); the top cut's line and the places."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.knockout.engine import (
    FINAL_KEY,
    Standing,
    advance,
    bracket,
    cut,
    placings,
    seed_lines,
)
from tournaments.pairing import PairingError

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
        results = {
            (m.round, m.index): min(m.top, m.bottom)
            for r in board.rounds
            for m in r
            if m.winner is not None and not m.bye
        }
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
        "not-in-match",
        "match-not-made",
        "no-such-match",
    ]
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


# -- the top cut and the places ------------------------------------------------------------------

CHAIN = ["match_points", "point_difference", "buchholz"]


def standing(entrant, rank, mp, diff=0, buchholz=0):
    return Standing(
        entrant, rank, {"match_points": mp, "point_difference": diff, "buchholz": buchholz}
    )


def test_a_cut_without_a_tie_at_the_line_seeds_by_place_and_names_no_tiebreak():
    rows = [standing(1, 1, 6), standing(2, 2, 4), standing(3, 3, 2), standing(4, 4, 0)]
    top = cut(rows, 2, CHAIN)
    assert (top.seeded, top.line, top.decided_by, top.tie_at_line) == ((1, 2), (), None, False)


def test_a_tie_at_the_line_is_shown_and_the_first_tiebreak_that_separates_decides():
    rows = [
        standing(1, 1, 6),
        standing(2, 2, 4, 120),
        standing(3, 3, 4, 80),
        standing(4, 4, 4, 80, 9),
        standing(5, 5, 2),
    ]
    top = cut(rows, 3, CHAIN)
    assert top.seeded == (1, 2, 3)
    assert top.line == (2, 3, 4), "every entrant level on match points with the last one in"
    assert top.decided_by == "buchholz", "difference ties 3 and 4: Buchholz separates them"


def test_a_tie_through_the_whole_chain_is_decided_by_the_final_key():
    rows = [standing(1, 1, 6), standing(2, 2, 4, 10, 3), standing(3, 2, 4, 10, 3)]
    top = cut(rows, 2, CHAIN)
    assert (top.seeded, top.line, top.decided_by) == ((1, 2), (2, 3), FINAL_KEY)


def test_a_cut_of_the_whole_field_or_more_than_it():
    rows = [standing(1, 1, 2), standing(2, 2, 0)]
    assert cut(rows, 2, CHAIN).seeded == (1, 2)
    with pytest.raises(PairingError) as short:
        cut(rows, 4, CHAIN)
    with pytest.raises(PairingError) as tiny:
        cut(rows, 1, CHAIN)
    assert (short.value.code, tiny.value.code) == ("too-few-entrants", "bad-size")


def test_places_from_a_played_bracket_with_and_without_a_third_place_match():
    with_third = play_chalk(bracket(seeds(8), third_place=True))
    assert placings(with_third) == {101: 1, 102: 2, 103: 3, 104: 4, 105: 5, 106: 5, 107: 5, 108: 5}
    without = play_chalk(bracket(seeds(8)))
    assert placings(without) == {101: 1, 102: 2, 103: 3, 104: 3, 105: 5, 106: 5, 107: 5, 108: 5}
    assert placings(bracket(seeds(8))) == {}, "nothing is placed before it is played"


@given(st.integers(2, 70), st.booleans())
def test_every_entrant_of_a_finished_bracket_has_a_place_and_one_champion(n, third):
    done = play_chalk(bracket(seeds(n), third_place=third))
    places = placings(done)
    assert sorted(places) == seeds(n)
    assert list(places.values()).count(1) == 1
    assert places[101] == 1


@st.composite
def standings(draw):
    """Standings rows best first: values drawn small so that ties are common; ranks shared
    where the whole chain ties."""
    n = draw(st.integers(3, 30))
    keys = sorted((tuple(draw(st.integers(0, 3)) for _ in CHAIN) for _ in range(n)), reverse=True)
    rows, rank = [], 0
    for k, key in enumerate(keys):
        if k == 0 or key != keys[k - 1]:
            rank = k + 1
        rows.append(Standing(k + 1, rank, dict(zip(CHAIN, key, strict=True))))
    return rows


@given(standings(), st.sampled_from([2, 4, 8]))
def test_a_cut_keeps_the_standings_order_and_names_the_tiebreak_that_drew_its_line(rows, size):
    if len(rows) < size:
        with pytest.raises(PairingError):
            cut(rows, size, CHAIN)
        return
    top = cut(rows, size, CHAIN)
    assert list(top.seeded) == [r.entrant for r in rows[:size]], "seeded by their places"
    if len(rows) == size:
        assert top.decided_by is None
        return
    last, first_out = rows[size - 1], rows[size]
    level = last.values["match_points"] == first_out.values["match_points"]
    assert top.tie_at_line == level
    if not level:
        assert top.decided_by is None
        return
    assert set(top.line) == {
        r.entrant for r in rows if r.values["match_points"] == last.values["match_points"]
    }
    if top.decided_by == FINAL_KEY:
        assert all(last.values[m] == first_out.values[m] for m in CHAIN)
    else:
        at = CHAIN.index(top.decided_by)
        assert all(last.values[m] == first_out.values[m] for m in CHAIN[:at])
        assert last.values[top.decided_by] != first_out.values[top.decided_by]

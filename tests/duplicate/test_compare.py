"""Comparisons worked by hand: matchpoints, the spec's Neuberg check, a tied board, a board
played once, adjusted results, cross-IMPs and Butler on a 5-result board, rankings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.duplicate.engine import (
    ERROR_CODES,
    SPADES_IMPS,
    WHIST_IMPS,
    DuplicateError,
    ImpScale,
    Result,
    matchpoints,
    neuberg,
    score_event,
)

# A 5-table board (Spades, board_compare own): NS 71, 62, 62, 33, -40; EW 10 at every table
# except 40 at the last.
FIVE = [
    Result(
        board=1, ns=ns, ew=ns + 5, ns_score=score, ew_score=40 if ns == 5 else 10, table=ns, round=1
    )
    for ns, score in zip(range(1, 6), (71, 62, 62, 33, -40), strict=True)
]


def points(event, board=1):
    return [(line.ns_points, line.ew_points) for line in event.travellers[board].lines]


def test_matchpoints_two_per_result_beaten_one_per_tie():
    assert matchpoints([71, 62, 62, 33, -40]) == [8, 5, 5, 2, 0]
    event = score_event(results=FIVE)
    assert [p[0] for p in points(event)] == [8, 5, 5, 2, 0]
    assert [p[1] for p in points(event)] == [3, 3, 3, 3, 8]  # EW: four tie, one top
    assert event.travellers[1].top == 8


def test_neuberg_the_specs_check_a_sole_top_of_10_where_11_expected_is_19_9_of_20():
    assert neuberg(18, 11, 10) == Fraction(199, 10)
    results = [Result(board=1, ns=i, ew=20 + i, ns_score=i, ew_score=-i) for i in range(1, 11)]
    event = score_event(results=results, expected=11)
    top_line = event.travellers[1].lines[-1]
    assert top_line.ns_points == Fraction(199, 10)
    assert event.travellers[1].top == 20


def test_a_tied_board_gives_everyone_half_the_top():
    results = [Result(board=1, ns=i, ew=10 + i, ns_score=60, ew_score=61) for i in range(1, 5)]
    event = score_event(results=results)
    assert points(event) == [(3, 3)] * 4
    assert all(s.percentage == 50 for s in event.rankings["all"])
    assert all(s.place == 1 and s.tied and s.place_text == "1=" for s in event.rankings["all"])


def test_a_board_played_once_scores_half_the_top_by_neuberg():
    results = [*FIVE, Result(board=2, ns=1, ew=6, ns_score=100, ew_score=-20)]
    event = score_event(results=results)  # 5 expected (the most any board has)
    assert event.travellers[2].top == 8
    assert points(event, 2) == [(4, 4)]  # (0 + 1) x 5 / 1 - 1 = 4: 50 %


def test_adjusted_results_take_their_share_of_the_top_and_the_rest_are_factored():
    results = [
        *FIVE[:4],
        Result(board=1, ns=5, ew=10, ns_adjusted="average-plus", ew_adjusted="average-minus"),
    ]
    event = score_event(results=results)
    got = points(event)
    # the adjusted table: 60 % and 40 % of the top of 8
    assert got[4] == (Fraction(24, 5), Fraction(16, 5))
    # the four played: 71 62 62 33 -> 6 3 3 0, factored to five: (MP + 1) x 5 / 4 - 1
    assert [p[0] for p in got[:4]] == [Fraction(31, 4), 4, 4, Fraction(1, 4)]
    card = event.cards[5]
    assert card[0].adjusted == "average-plus" and card[0].score is None
    assert event.rankings["all"][0].pair == 1


def test_average_is_half_the_top_and_in_imps_zero():
    results = [
        *FIVE[:4],
        Result(board=1, ns=5, ew=10, ns_adjusted="average", ew_adjusted="average"),
    ]
    assert points(score_event(results=results))[4] == (4, 4)
    assert points(score_event(results=results, method="butler"))[4] == (0, 0)
    imps = score_event(
        results=[
            *FIVE[:4],
            Result(board=1, ns=5, ew=10, ns_adjusted="average-plus", ew_adjusted="average-minus"),
        ],
        method="cross-imps",
    )
    assert points(imps)[4] == (3, -3)


def test_cross_imps_by_hand_on_a_5_result_board():
    """WBF table on 5 x the Spades difference. 71 against 62, 62, 33, -40: differences 9, 9,
    38, 111 -> 45, 45, 190, 555 -> 1, 1, 5, 11 IMPs = 18, over 4 comparisons: 4.5. 62: -1, 0,
    4 (29 -> 145), 11 (102 -> 510) = 14 -> 3.5. 33: -5, -4, -4, 8 (73 -> 365) = -5 -> -1.25.
    -40: -11, -11, -11, -8 = -41 -> -10.25."""
    event = score_event(results=FIVE, method="cross-imps", scale=SPADES_IMPS)
    ns = [p[0] for p in points(event)]
    assert ns == [Fraction(9, 2), Fraction(7, 2), Fraction(7, 2), Fraction(-5, 4), Fraction(-41, 4)]
    assert sum(ns) == 0


def test_butler_by_hand_on_a_5_result_board():
    """Datum: drop 71 and -40, the average of 62, 62, 33 is 157/3 = 52 1/3. 71: +18 2/3 -> 93 1/3
    -> 3 IMPs; 62: +9 2/3 -> 48 1/3 -> 1; 33: -19 1/3 -> 96 2/3 -> -3; -40: -92 1/3 -> 461 2/3
    -> -10."""
    event = score_event(results=FIVE, method="butler", scale=SPADES_IMPS)
    assert event.travellers[1].datum["NS"] == Fraction(157, 3)
    assert [p[0] for p in points(event)] == [3, 1, 1, -3, -10]
    assert event.travellers[1].datum["EW"] == 10  # drop one 10 and the 40
    assert [p[1] for p in points(event)] == [0, 0, 0, 0, 4]  # 30 -> 150 -> 4


def test_whist_imps_are_one_per_trick_of_difference():
    results = [
        Result(board=1, ns=i, ew=10 + i, ns_score=v, ew_score=-v)
        for i, v in enumerate((2, 1, -1), 1)
    ]
    event = score_event(results=results, method="cross-imps", scale=WHIST_IMPS)
    assert [p[0] for p in points(event)] == [2, Fraction(1, 2), Fraction(-5, 2)]
    assert WHIST_IMPS.imps(-3) == -3


def test_imp_scale_boundaries_follow_the_wbf_table():
    assert [SPADES_IMPS.imps(d) for d in (0, 3, 4, 10, -10, 800, 1000)] == [0, 0, 1, 2, -2, 24, 24]
    with pytest.raises(DuplicateError) as error:
        ImpScale("bad", Fraction(1), (50, 20))
    assert error.value.code == "bad-scale"


def test_mitchell_fields_rank_ns_and_ew_apart_with_ties_sharing_the_place():
    # two boards; NS 1 and 2 tie at the top of the NS field
    results = [
        Result(board=1, ns=1, ew=4, ns_score=50, ew_score=-50),
        Result(board=1, ns=2, ew=5, ns_score=40, ew_score=-40),
        Result(board=1, ns=3, ew=6, ns_score=30, ew_score=-30),
        Result(board=2, ns=1, ew=5, ns_score=10, ew_score=-10),
        Result(board=2, ns=2, ew=6, ns_score=20, ew_score=-20),
        Result(board=2, ns=3, ew=4, ns_score=0, ew_score=0),
    ]
    event = score_event(results=results, fields={"NS": (1, 2, 3), "EW": (4, 5, 6)})
    ns = [(s.place_text, s.pair, s.total, s.percentage) for s in event.rankings["NS"]]
    assert ns == [("1=", 1, 6, 75), ("1=", 2, 6, 75), ("3", 3, 0, 0)]
    ew = [(s.place_text, s.pair, s.total) for s in event.rankings["EW"]]
    # EW: 4 scored 0 then 4, 5 scored 2 and 2, 6 scored 4 then 0: all 4 of 8
    assert ew == [("1=", 4, 4), ("1=", 5, 4), ("1=", 6, 4)]
    card = event.cards[1]
    assert [(c.board, c.direction, c.opponents, c.score, c.points) for c in card] == [
        (1, "NS", 4, 50, 4),
        (2, "NS", 5, 10, 2),
    ]


def test_bad_results_are_refused_with_a_code():
    for results, code in (
        ([Result(board=1, ns=1, ew=2)], "bad-result"),
        (
            [Result(board=1, ns=1, ew=2, ns_adjusted="average-plus-plus", ew_adjusted="average")],
            "bad-adjustment",
        ),
        ([Result(board=1, ns=1, ew=1, ns_score=1, ew_score=1)], "bad-result"),
        ([Result(board=1, ns=1, ew=2, ns_score=1.5, ew_score=1)], "bad-result"),
    ):
        with pytest.raises(DuplicateError) as error:
            score_event(results=results)
        assert error.value.code == code
    with pytest.raises(DuplicateError):
        score_event(results=FIVE, method="total-points")


@pytest.mark.parametrize("method", ["matchpoints", "cross-imps", "butler"])
def test_a_whole_mitchell_evening_balances(method):
    """A 7-table Mitchell, 3 boards a round, every board played 7 times: on every board the
    direction's matchpoints add up to A x (A - 1) and cross-IMPs to 0; every pair has a card
    line for each of its 21 boards; the NS field's percentages average 50 with net scores."""
    from tournaments.duplicate.engine import mitchell
    from tournaments.duplicate.engine.simulate import simulated_results

    movement = mitchell(7)
    results = simulated_results(movement, 3, seed=4, compare="net")
    event = score_event(results=results, method=method, fields=movement.fields)
    assert len(event.travellers) == 21
    for traveller in event.travellers.values():
        ns = [line.ns_points for line in traveller.lines]
        if method == "matchpoints":
            assert sum(ns) == 7 * 6
            assert all(line.ns_points + line.ew_points == 12 for line in traveller.lines)
        elif method == "cross-imps":
            assert sum(ns) == 0
    assert all(len(lines) == 21 for lines in event.cards.values())
    if method == "matchpoints":
        pcts = [s.percentage for s in event.rankings["NS"]]
        assert sum(pcts) / 7 == 50


scores = st.lists(st.integers(-300, 300), min_size=1, max_size=15)


@given(values=scores)
def test_matchpoints_of_a_direction_add_up_to_a_times_a_minus_1(values):
    mps = matchpoints(values)
    n = len(values)
    assert sum(mps) == n * (n - 1)
    assert all(0 <= mp <= 2 * (n - 1) for mp in mps)
    # a better score never gets fewer matchpoints
    for (a, ma), (b, mb) in zip(
        sorted(zip(values, mps, strict=True)),
        sorted(zip(values, mps, strict=True))[1:],
        strict=False,
    ):
        assert (a < b and ma < mb) or (a == b and ma == mb)


@given(values=scores, extra=st.integers(0, 5))
def test_neuberg_keeps_the_board_average_at_half_the_expected_top(values, extra):
    n = len(values)
    e = n + extra
    factored = [neuberg(mp, e, n) for mp in matchpoints(values)]
    assert sum(factored) / n == e - 1  # the average result is still 50 % of 2 x (E - 1)


@given(
    values=st.lists(st.integers(-300, 300), min_size=2, max_size=12),
    method=st.sampled_from(["cross-imps", "butler"]),
)
def test_imps_are_zero_sum_on_a_board_with_cross_imps_and_ordered_with_both(values, method):
    results = [
        Result(board=1, ns=i, ew=100 + i, ns_score=v, ew_score=-v) for i, v in enumerate(values, 1)
    ]
    event = score_event(results=results, method=method, scale=SPADES_IMPS)
    got = [line.ns_points for line in event.travellers[1].lines]
    if method == "cross-imps":
        assert sum(got) == 0
    ranked = sorted(zip(values, got, strict=True))
    assert all(a[1] <= b[1] for a, b in zip(ranked, ranked[1:], strict=False))


# -- impossible input (issue 30, finding 10): refused with the engine's error and its code ----


def refused(code, **kwargs):
    with pytest.raises(DuplicateError) as error:
        score_event(**kwargs)
    assert error.value.code == code, error.value
    assert code in ERROR_CODES
    return error.value


def test_a_pair_with_two_results_on_one_board_is_refused_in_either_direction():
    once_each_way = [
        Result(board=1, ns=1, ew=2, ns_score=1, ew_score=0),
        Result(board=1, ns=3, ew=1, ns_score=1, ew_score=0),  # pair 1 again, now EW
    ]
    refused("pair-twice", results=once_each_way)
    twice_ns = [
        Result(board=1, ns=1, ew=2, ns_score=1, ew_score=0),
        Result(board=1, ns=1, ew=4, ns_score=1, ew_score=0),
    ]
    refused("pair-twice", results=twice_ns)
    # the same pairs on two boards are two results, as a round of two boards has
    score_event(results=[once_each_way[0], Result(board=2, ns=1, ew=2, ns_score=0, ew_score=1)])


def test_fewer_results_expected_than_a_board_has_is_refused_not_scored_below_zero():
    three = [
        Result(board=1, ns=1, ew=2, ns_score=3, ew_score=0),
        Result(board=1, ns=3, ew=4, ns_score=1, ew_score=0),
        Result(board=1, ns=5, ew=6, ns_score=0, ew_score=0),
    ]
    refused("bad-expected", results=three, expected=2)
    refused("bad-expected", results=three, expected={1: 2})
    assert score_event(results=three, expected=3).travellers[1].top == 4
    assert score_event(results=three, expected={2: 1}).travellers[1].expected == 3


@pytest.mark.parametrize("expected", [0, -1, True, 1.5, "3", Fraction(3)])
def test_an_expected_count_that_is_not_a_whole_number_from_1_is_refused(expected):
    results = [Result(board=1, ns=1, ew=2, ns_score=3, ew_score=0)]
    refused("bad-expected", results=results, expected=expected)
    refused("bad-expected", results=results, expected={1: expected})


def test_a_result_with_both_scores_and_an_adjustment_is_refused():
    refused(
        "bad-result",
        results=[
            Result(
                board=1,
                ns=1,
                ew=2,
                ns_score=3,
                ew_score=0,
                ns_adjusted="average",
                ew_adjusted="average",
            )
        ],
    )
    refused(
        "bad-result",
        results=[
            Result(board=1, ns=1, ew=2, ew_score=0, ns_adjusted="average", ew_adjusted="average")
        ],
    )


@pytest.mark.parametrize("pair", [None, 0, -3, True, "1", 1.0])
def test_a_pair_that_is_not_a_pair_number_is_refused_not_a_type_error(pair):
    results = [
        Result(board=1, ns=pair, ew=2, ns_score=3, ew_score=0),
        Result(board=1, ns=3, ew=4, ns_score=3, ew_score=0),
    ]
    refused("bad-pair", results=results)
    results[0] = Result(board=1, ns=1, ew=pair, ns_score=3, ew_score=0)
    refused("bad-pair", results=results)


@pytest.mark.parametrize("board", [0, -1, None, True, "1", 1.0])
def test_a_board_that_is_not_numbered_from_1_is_refused(board):
    refused("bad-board", results=[Result(board=board, ns=1, ew=2, ns_score=3, ew_score=0)])


boards = st.lists(st.lists(st.integers(-50, 50), min_size=1, max_size=6), min_size=1, max_size=4)


@given(scores=boards, extra=st.integers(0, 3), adjusted=st.booleans())
def test_matchpoints_stay_between_0_and_the_top_and_percentages_between_0_and_100(
    scores, extra, adjusted
):
    """Whatever the evening (expected at or above each board's results, adjusted results among
    them), no line is below 0 or above its top and no pair below 0 % or above 100 %."""
    results = []
    for board, values in enumerate(scores, 1):
        for i, v in enumerate(values, 1):
            if adjusted and i == 1:
                results.append(
                    Result(
                        board=board,
                        ns=i,
                        ew=100 + i,
                        ns_adjusted="average-plus",
                        ew_adjusted="average-minus",
                    )
                )
            else:
                results.append(Result(board=board, ns=i, ew=100 + i, ns_score=v, ew_score=-v))
    expected = max(len(v) for v in scores) + extra
    event = score_event(results=results, expected=expected)
    for traveller in event.travellers.values():
        for line in traveller.lines:
            assert 0 <= line.ns_points <= traveller.top
            assert 0 <= line.ew_points <= traveller.top
    for standing in event.rankings["all"]:
        assert 0 <= standing.percentage <= 100


@given(
    scores=st.lists(st.integers(-50, 50), min_size=2, max_size=8),
    short=st.integers(1, 7),
)
def test_any_expected_count_below_a_boards_results_is_refused(scores, short):
    results = [
        Result(board=1, ns=i, ew=100 + i, ns_score=v, ew_score=-v) for i, v in enumerate(scores, 1)
    ]
    expected = len(scores) - short
    code = "bad-expected"
    with pytest.raises(DuplicateError) as error:
        score_event(results=results, expected=expected)
    assert error.value.code == code


@given(
    pairs=st.lists(st.integers(1, 6), min_size=2, max_size=8),
)
def test_any_board_naming_a_pair_twice_is_refused(pairs):
    """Results built from a list of pair numbers, two to a table: refused exactly when a pair
    number comes twice (a pair playing itself included)."""
    if len(pairs) % 2:
        pairs = pairs[:-1]
    results = [
        Result(board=1, ns=ns, ew=ew, ns_score=1, ew_score=0)
        for ns, ew in zip(pairs[::2], pairs[1::2], strict=True)
    ]
    if len(set(pairs)) == len(pairs):
        score_event(results=results)
    else:
        with pytest.raises(DuplicateError) as error:
            score_event(results=results)
        assert error.value.code in ("pair-twice", "bad-result")

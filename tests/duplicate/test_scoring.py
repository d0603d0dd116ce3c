"""The score of one board at one table: worked examples of every board_scoring variant, Whist
with and without honours, board_compare, and the board check (docs/duplicate.md has them)."""

from __future__ import annotations

import random

import pytest

from games.records import check_hand
from games.simulate.whist import random_hand
from tournaments.duplicate.engine import DuplicateError, board_score, default_compare
from tournaments.duplicate.engine.boards import Board


def spades(dealer: str, calls: dict[str, str], tricks: dict[str, int]) -> dict:
    order = "NESW"
    first = (order.index(dealer) + 1) % 4
    seats = [order[(first + i) % 4] for i in range(4)]
    return {
        "dealer": dealer,
        "calls": [{"seat": s, "call": calls[s]} for s in seats],
        "tricks": tricks,
    }


# Example 1: NS set with a nil made. N deals; E 4, S nil, W 6, N 5: NS's contract is N's 5
# (S's nil apart), EW's is 6. N 4, S 0 (nil made), E 5, W 4: NS took 4 of 5 (set), EW 9 of 6.
SET_WITH_NIL = spades(
    "N", {"E": "4", "S": "nil", "W": "6", "N": "5"}, {"N": 4, "E": 5, "S": 0, "W": 4}
)
# Example 2: a failed nil. E 3, S nil, W 4, N 4; N 5, S 1 (nil failed), E 3, W 4: NS took 6 of 4
# (2 bags, S's trick counts for the side), EW 7 of 4 (3 bags).
FAILED_NIL = spades(
    "N", {"E": "3", "S": "nil", "W": "4", "N": "4"}, {"N": 5, "E": 3, "S": 1, "W": 4}
)
# Card Game Academy's own example: both sides bid 6; NS took 6, EW 7 -> NS 61 (+60, +1 for
# the bag EW took).
CGA_EXAMPLE = spades(
    "N", {"E": "3", "S": "3", "W": "6", "N": "6"}, {"N": 3, "E": 4, "S": 3, "W": 3}
)


@pytest.mark.parametrize(
    ("record", "variant", "ns", "ew"),
    [
        # standard: the engine from 0-0: NS +100 (nil) -50 (set) = 50; EW 60 + 3 bags = 63
        (SET_WITH_NIL, "standard", 50, 63),
        # cga: NS 100 (nil) + 3 (EW's bags); EW 60 + 50 (NS's failed bid) - 3 (own bags)
        (SET_WITH_NIL, "cga", 103, 107),
        # andrews: NS 100; EW 60 + 50 - 3
        (SET_WITH_NIL, "andrews", 100, 107),
        # standard: NS 40 + 2 - 100 = -58; EW 40 + 3 = 43
        (FAILED_NIL, "standard", -58, 43),
        # cga: NS 40 - 2 + 3 = 41; EW 40 + 100 (S's failed nil) - 3 + 2 = 139
        (FAILED_NIL, "cga", 41, 139),
        # andrews: NS 40 - 2 = 38; EW 40 + 100 - 3 = 137
        (FAILED_NIL, "andrews", 38, 137),
        (CGA_EXAMPLE, "cga", 61, 59),
        (CGA_EXAMPLE, "standard", 60, 61),
        (CGA_EXAMPLE, "andrews", 60, 59),
    ],
)
def test_spades_board_scoring_worked_examples(record, variant, ns, ew):
    score = board_score(game="spades", rules="standard", record=record, board_scoring=variant)
    assert (score.ns, score.ew) == (ns, ew)


def test_spades_standard_has_no_sandbag_penalty_on_one_board():
    # NS bid 2 and took 13: 11 bags. With the sandbag rule on (limit 10) a game would take 100
    # off (the engine alone: 31 - 100); one board does not.
    rules = {"preset": "standard", "options": {"sandbag": True, "sandbag_limit": 10}}
    record = spades(
        "N", {"E": "nil", "S": "1", "W": "nil", "N": "2"}, {"N": 7, "E": 0, "S": 6, "W": 0}
    )
    in_a_game = check_hand({"format": "hand/1", "game": "spades", **record}, rules=rules)
    assert in_a_game["score"] == {"NS": 31 - 100, "EW": 200}
    score = board_score(game="spades", rules=rules, record=record)
    assert (score.ns, score.ew) == (20 + 11, 200)  # both EW nils made


def test_blind_and_moon_parts_use_the_rules_values():
    rules = {
        "preset": "standard",
        "options": {"moon": True, "blind_bid_min": 6, "blind_bid_behind": 0},
    }
    record = {
        "dealer": "N",
        "calls": [
            {"side": "EW", "call": "blind-6"},
            {"seat": "S", "call": "3"},
            {"seat": "N", "call": "moon"},
        ],
        "tricks": {"N": 5, "E": 4, "S": 2, "W": 2},
    }
    # standard: NS's moon failed (-200), EW's blind 6 made exactly (doubled: +120)
    standard = board_score(game="spades", rules=rules, record=record)
    assert (standard.ns, standard.ew) == (-200, 120)
    # cga and andrews: the failed moon scores 0 to NS and its value 200 to EW; no bags
    for variant in ("cga", "andrews"):
        score = board_score(game="spades", rules=rules, record=record, board_scoring=variant)
        assert (score.ns, score.ew) == (0, 320)


def test_compare_own_and_net():
    score = board_score(game="spades", rules="standard", record=SET_WITH_NIL)
    assert score.compared("own") == (50, 63)
    assert score.compared("net") == (-13, 13)
    assert default_compare("spades") == "own" and default_compare("whist") == "net"


WHIST = {"dealer": "E", "trump": "H", "tricks": {"NS": 8, "EW": 5}, "honours": {"NS": 3, "EW": 1}}


def test_whist_scores_odd_tricks_and_honours_only_when_asked():
    plain = board_score(game="whist", rules="short-whist", record=WHIST)
    assert (plain.ns, plain.ew) == (2, 0)  # 8 tricks: 2 odd tricks; honours not counted
    assert plain.compared("net") == (2, -2)
    honours = board_score(game="whist", rules="short-whist", record=WHIST, board_honours=True)
    assert (honours.ns, honours.ew) == (4, 0)  # + 2 for three honours
    # without honours the summary record need not state them
    bare = {k: v for k, v in WHIST.items() if k != "honours"}
    assert board_score(game="whist", rules="short-whist", record=bare).ns == 2


def test_whist_revoke_penalty_counts_on_the_board():
    record = {
        "dealer": "N",
        "trump": "S",
        "tricks": {"NS": 7, "EW": 6},
        "revokes": [{"seat": "E", "count": 1}],
        "penalty": "transfer",
    }
    score = board_score(game="whist", rules="short-whist", record=record)
    assert (score.ns, score.ew) == (3 + 1, 0)
    assert score.compared("net") == (4, -4)


def test_a_full_record_must_carry_the_boards_deal_and_dealer():
    record = random_hand(random.Random(5), dealer="S")
    board = Board(
        number=3,
        dealer="S",
        hands={s: tuple(record["deal"][s]) for s in "NESW"},
        turned=record["turned"],
    )
    score = board_score(game="whist", rules="short-whist", record=record, board=board)
    assert score.ns - score.ew == max(record["tricks"]["NS"] - 6, 0) - max(
        record["tricks"]["EW"] - 6, 0
    )
    other = Board(number=4, dealer="W", hands=board.hands, turned=board.turned)
    with pytest.raises(DuplicateError) as error:
        board_score(game="whist", rules="short-whist", record=record, board=other)
    assert error.value.code == "board-mismatch"
    swapped = Board(
        number=3,
        dealer="S",
        hands={**board.hands, "N": board.hands["E"], "E": board.hands["N"]},
        turned=board.turned,
    )
    with pytest.raises(DuplicateError) as error:
        board_score(game="whist", rules="short-whist", record=record, board=swapped)
    assert error.value.code == "board-mismatch"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"game": "solo-whist", "rules": "phillips", "record": {}}, "bad-game"),
        (
            {"game": "spades", "rules": "standard", "record": SET_WITH_NIL, "board_scoring": "x"},
            "bad-option",
        ),
        ({"game": "spades", "rules": "network-spades", "record": SET_WITH_NIL}, "bad-rules"),
        (
            {
                "game": "spades",
                "rules": "standard",
                "record": {**SET_WITH_NIL, "tricks": {"N": 4, "E": 5, "S": 0, "W": 5}},
            },
            "bad-record",
        ),
    ],
)
def test_bad_input_is_refused_with_a_code(kwargs, code):
    with pytest.raises(DuplicateError) as error:
        board_score(**kwargs)
    assert error.value.code == code
    if code == "bad-record":
        assert error.value.detail["code"] == "tricks-do-not-sum"


def test_a_spades_full_record_of_the_board_is_scored_and_its_cards_may_be_spelt_freely():
    from games.simulate.spades import random_hand as random_spades_hand

    record = random_spades_hand(random.Random(8), dealer="E")
    board = Board(number=2, dealer="E", hands={s: tuple(record["deal"][s]) for s in "NESW"})
    lower = {
        **record,
        "deal": {s: [c.lower() for c in cards] for s, cards in record["deal"].items()},
    }
    standard = board_score(game="spades", rules="standard", record=lower, board=board)
    in_a_game = check_hand(record)
    assert (standard.ns, standard.ew) == (in_a_game["score"]["NS"], in_a_game["score"]["EW"])
    assert standard.tricks == record["tricks"]
    cga = board_score(
        game="spades", rules="standard", record=record, board=board, board_scoring="cga"
    )
    # cga moves points between the sides but never creates bag points: NS + EW is the sum of
    # the made and failed parts' values
    assert cga.ns + cga.ew >= 0

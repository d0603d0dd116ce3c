"""Boards: the dealer by number, seeded deals, the Whist turned card, board sets."""

from __future__ import annotations

import pytest

from games.records import check_hand
from tournaments.duplicate.engine import (
    DuplicateError,
    board_set,
    board_sets,
    deal_board,
    deal_boards,
)
from tournaments.duplicate.engine.boards import Board, dealer_of, set_of


def test_dealer_goes_round_with_the_board_number():
    assert [dealer_of(n) for n in range(1, 10)] == list("NESWNESWN")


def test_the_same_seed_gives_the_same_boards_and_another_seed_others():
    assert deal_boards(42, 8) == deal_boards(42, 8)
    assert deal_boards("club night", 3) == deal_boards("club night", 3)
    assert deal_boards(42, 8) != deal_boards(43, 8)
    assert deal_board(42, 5) == deal_boards(42, 8)[4]


@pytest.mark.parametrize("game", ["spades", "whist"])
def test_every_board_deals_the_whole_pack_in_four_hands_of_13(game):
    for board in deal_boards(7, 12, game):
        cards = [c for seat in "NESW" for c in board.hands[seat]]
        assert all(len(board.hands[s]) == 13 for s in "NESW")
        assert len(set(cards)) == 52
        assert board.dealer == dealer_of(board.number)


def test_whist_turned_card_is_in_the_dealers_hand_and_spades_has_none():
    for board in deal_boards(7, 8, "whist"):
        assert board.turned in board.hands[board.dealer]
    assert all(b.turned is None for b in deal_boards(7, 4, "spades"))


def test_a_dealt_whist_board_is_what_the_engine_reads_in_a_full_record():
    """The board's dealer, deal and turned card make a full record the engine accepts (here
    with every trick claimed at once)."""
    board = deal_board(3, 2, "whist")
    record = {
        "format": "hand/1",
        "game": "whist",
        "rules": "short-whist",
        **board.record_fields(),
        "play": [],
        "claim": {"seat": "N", "tricks": 7},
    }
    result = check_hand(record)
    assert result["ok"], result
    assert result["tricks"] == {"NS": 7, "EW": 6}


def test_board_sets_number_boards_consecutively():
    assert board_set(1, 3) == (1, 2, 3)
    assert board_set(4, 3) == (10, 11, 12)
    assert board_sets(2, 2) == [(1, 2), (3, 4)]
    assert [set_of(b, 3) for b in (1, 3, 4, 27)] == [1, 1, 2, 9]


def test_bad_boards_and_games_are_refused():
    for call, code in (
        (lambda: dealer_of(0), "bad-board"),
        (lambda: deal_board(1, 1, "solo-whist"), "bad-game"),
        (lambda: deal_board(1.5, 1), "bad-seed"),
    ):
        with pytest.raises(DuplicateError) as error:
            call()
        assert error.value.code == code


def test_record_fields_carry_dealer_deal_and_turned():
    board = Board(number=1, dealer="N", hands={s: () for s in "NESW"}, turned="5H")
    assert board.record_fields() == {"dealer": "N", "deal": {s: [] for s in "NESW"}, "turned": "5H"}


def test_a_seeded_board_is_the_same_in_every_release():
    """Pinned: a club that prints boards from a seed must get them again from the same seed."""
    board = deal_board("tricktable", 1, "whist")
    assert board.dealer == "N"
    assert board.hands["N"] == GOLDEN_NORTH
    assert board.turned == GOLDEN_TURNED


GOLDEN_NORTH = ("KS", "9S", "7S", "AH", "TH", "9H", "8H", "4H", "3H", "KD", "7D", "6D", "2C")
GOLDEN_TURNED = "9S"  # board 1 is dealt by N: N's last card

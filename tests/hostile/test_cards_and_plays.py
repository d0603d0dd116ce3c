"""Impossible cards, duplicate cards and illegal plays sent as a table's hand: each is 422
`invalid-hand` with the rules engine's own error (its stable code, and the trick, seat and card
an illegal play breaks the rules at — spades.md §4, hand-records.md), and nothing is stored.
The stateless check endpoint gives the same errors with 200 and `ok: false`.

The records are random legal full Spades records (games/fuzzing.py) bent in one place; the
engine's own fuzz run of the same idea is tests/games/test_fuzz.py.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.fuzzing import legal_hand
from tests.tournaments.builders import HAND_1, spades_hand

from .conftest import Play, post_json, refused, submit, the_shared_play, unchanged

pytestmark = pytest.mark.django_db


#: The module's match in play, built once (conftest.SharedPlay).
play, pending = the_shared_play()


SUITS = "SHDC"


def full_record(seed: int = 0) -> dict:
    """A legal full Spades record (deal, calls, every trick) as a scorer would send it."""
    record = legal_hand(seed, "spades", "standard")
    return {k: v for k, v in record.items() if k not in ("format", "game", "rules")}


def suit(card: str) -> str:
    return card[-1]


def owners(record: dict) -> dict[str, str]:
    return {card: seat for seat, cards in record["deal"].items() for card in cards}


def held_before(record: dict, trick: int) -> dict[str, set[str]]:
    """What each seat still holds when trick `trick` (0-based) starts."""
    played = {card for done in record["play"][:trick] for card in done}
    return {seat: set(cards) - played for seat, cards in record["deal"].items()}


def engine_errors(play: Play, record: dict, key: str) -> list[dict]:
    """Submit the record as table 1's NS scorer: 422 `invalid-hand`, nothing stored; the
    engine's errors."""
    with unchanged():
        body = refused(
            submit(play.scorer, play.match, record, key=f"hostile-{key}"), 422, "invalid-hand"
        )
    assert isinstance(body["details"], list) and body["details"], body
    for error in body["details"]:
        assert isinstance(error["code"], str) and isinstance(error["message"], str)
    return body["details"]


def checked(play: Play, record: dict) -> dict:
    hand = {"format": "hand/1", "game": "spades", "rules": "standard", **record}
    response = post_json(play.anon, "/api/v1/hands/check", hand)
    assert response.status_code == 200, response.content
    return response.json()


def test_the_unbent_full_record_is_accepted(play):
    response = submit(play.scorer, play.match, full_record(), key="full-record-ok")
    assert response.status_code == 201, response.content
    assert response.json()["result"]["ok"] is True


# -- impossible and duplicate cards ---------------------------------------------------------------


IMPOSSIBLE = [
    "1S",
    "ZZ",
    "11H",
    "AZ",
    "",
    "S",
    "10",
    "A S",
    "BJ",
    5,
    None,
    True,  # NUL: see
    # test_json_bodies (refused before the engine: PostgreSQL cannot store it)
    ["AS"],
    {"card": "AS"},
]


@pytest.mark.parametrize("card", IMPOSSIBLE, ids=repr)
def test_an_impossible_card_in_the_deal_is_422_bad_card(play, card):
    record = full_record()
    record["deal"]["N"][0] = card
    [error] = engine_errors(play, record, "impossible-card")
    # a joker exists, but not in a pack without jokers: an impossible deal, not a bad spelling
    assert error["code"] == ("bad-deal" if card == "BJ" else "bad-card"), error
    assert error["seat"] == "N"
    assert checked(play, record)["errors"] == [error]


@pytest.mark.parametrize("card", ["1S", "ZZ", "", None])
def test_an_impossible_card_in_the_play_is_422_naming_the_trick(play, card):
    record = full_record()
    record["play"][4][2] = card
    [error] = engine_errors(play, record, "impossible-played")
    assert error["code"] == "bad-card" and error["trick"] == 5, error


def spellings(card: str) -> list[str]:
    rank, suit_letter = card[:-1], card[-1]
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit_letter]
    long_rank = "10" if rank == "T" else rank
    return [card.lower(), f" {card} ", f"{long_rank}{symbol}", f"{rank.lower()}{suit_letter}"]


@pytest.mark.parametrize("which", range(4))
def test_a_card_in_another_accepted_spelling_is_the_same_card(play, which):
    """Decided (hand-records.md: input is forgiving): lower case, `10`, suit symbols and
    surrounding spaces name the same card; `"AS "` is the ace of spades, not a new card."""
    record = full_record()
    record["deal"]["N"][0] = spellings(record["deal"]["N"][0])[which]
    response = submit(play.scorer, play.match, record, key="spelling-" + str(which))
    assert response.status_code == 201, response.content
    assert response.json()["result"]["ok"] is True


def test_a_card_dealt_twice_is_422_bad_deal_naming_the_card(play):
    record = full_record()
    twice = record["deal"]["N"][0]
    record["deal"]["W"][0] = twice
    [error] = engine_errors(play, record, "dealt-twice")
    assert error["code"] == "bad-deal" and error["card"] == twice, error


def test_a_card_dealt_twice_in_another_spelling_is_still_a_duplicate(play):
    record = full_record()
    twice = record["deal"]["N"][0]
    record["deal"]["W"][0] = spellings(twice)[0]
    [error] = engine_errors(play, record, "dealt-twice-spelt")
    assert error["code"] == "bad-deal" and error["card"] == twice, error


def test_a_card_played_twice_is_422_card_not_held(play):
    record = full_record()
    again = record["play"][0][0]
    record["play"][3][owner_index(record, 3, owners(record)[again])] = again
    errors = engine_errors(play, record, "played-twice")
    assert errors[0]["code"] == "card-not-held" and errors[0]["card"] == again, errors
    assert errors[0]["trick"] == 4


def owner_index(record: dict, trick: int, seat: str) -> int:
    """Where in trick `trick` the seat's card is (its position in the playing order)."""
    seat_of = owners(record)
    return next(i for i, card in enumerate(record["play"][trick]) if seat_of[card] == seat)


@pytest.mark.parametrize(
    "change,code",
    [
        (lambda r: r["deal"].update(N=r["deal"]["N"][:12]), "bad-deal"),
        (lambda r: r["deal"].pop("W"), "bad-deal"),
        (lambda r: r["deal"].update(X=[]), "bad-deal"),
        (lambda r: r["deal"].update(N="AS KS"), "bad-deal"),
        (lambda r: r.update(deal=[]), "bad-deal"),
        (lambda r: r["play"].__setitem__(0, r["play"][0][:3]), "bad-trick"),
        (lambda r: r["play"].append(r["play"][0]), "too-many-tricks"),
        (lambda r: r.update(play=r["play"][:12]), "play-incomplete"),
        (lambda r: r.update(tricks={"N": 13, "E": 0, "S": 0, "W": 0}), "tricks-mismatch"),
    ],
    ids=[
        "12 cards",
        "no W",
        "fifth seat",
        "string hand",
        "deal a list",
        "3-card trick",
        "14 tricks",
        "12 tricks",
        "tricks mismatch",
    ],
)
def test_an_impossible_deal_or_play_shape_is_422_with_its_code(play, change, code):
    record = full_record()
    change(record)
    errors = engine_errors(play, record, "bad-shape")
    assert errors[0]["code"] == code, errors


# -- illegal plays --------------------------------------------------------------------------------


def revoke(record: dict) -> tuple[dict, int, str, str] | None:
    """The record with one follower playing another suit while holding the suit led:
    (record, trick, seat, card), or None when no trick allows it."""
    seat_of = owners(record)
    for t, trick in enumerate(record["play"]):
        holding = held_before(record, t)
        led = suit(trick[0])
        for j, card in enumerate(trick[1:], 1):
            seat = seat_of[card]
            if suit(card) != led:
                continue
            other = sorted(c for c in holding[seat] - set(trick) if suit(c) != led)
            if other:
                bent = copy.deepcopy(record)
                bent["play"][t][j] = other[0]
                return bent, t + 1, seat, other[0]
    return None


def test_not_following_suit_when_able_is_422_must_follow_suit_naming_trick_seat_and_card(play):
    bent, trick, seat, card = next(r for s in range(20) if (r := revoke(full_record(s))))
    [error] = engine_errors(play, bent, "revoke")
    assert error["code"] == "must-follow-suit"
    assert (error["trick"], error["seat"], error["card"]) == (trick, seat, card)
    assert checked(play, bent)["errors"] == [error]


def test_playing_a_card_another_seat_holds_is_422_card_not_held(play):
    record = full_record()
    first = record["play"][0]
    leader = owners(record)[first[0]]
    stolen = first[1]  # the next player's card, led by the leader instead
    record["play"][0] = [stolen, first[1], first[2], first[3]]
    errors = engine_errors(play, record, "not-held")
    assert errors[0]["code"] == "card-not-held"
    assert (errors[0]["trick"], errors[0]["seat"], errors[0]["card"]) == (1, leader, stolen)


def spade_lead(record: dict) -> tuple[dict, str, str] | None:
    """The record with the first trick led by a spade the leader holds (spades not broken,
    the leader holding other suits too): (record, seat, card), or None."""
    first = record["play"][0]
    leader = owners(record)[first[0]]
    hand = record["deal"][leader]
    spades = sorted(c for c in hand if suit(c) == "S")
    if suit(first[0]) == "S" or not spades or all(suit(c) == "S" for c in hand):
        return None
    bent = copy.deepcopy(record)
    bent["play"][0][0] = spades[0]
    return bent, leader, spades[0]


def test_leading_a_spade_before_spades_are_broken_is_422_spades_not_broken(play):
    bent, leader, card = next(r for s in range(20) if (r := spade_lead(full_record(s))))
    [error] = engine_errors(play, bent, "spade-lead")
    assert error["code"] == "spades-not-broken"
    assert (error["trick"], error["seat"], error["card"]) == (1, leader, card)


def test_a_leader_holding_only_spades_may_lead_one():
    """The exception in spades.md §1: a leader with nothing but spades leads one (checked by
    the engine directly; a deal like this is built by hand)."""
    from games.records import check_hand

    deal = {
        "N": [r + "H" for r in "AKQJT98765432"],
        "E": [r + "S" for r in "AKQJT98765432"],
        "S": [r + "D" for r in "AKQJT98765432"],
        "W": [r + "C" for r in "AKQJT98765432"],
    }
    plays = [[f"{r}S", f"{r}D", f"{r}C", f"{r}H"] for r in "AKQJT98765432"]
    record = {
        "format": "hand/1",
        "game": "spades",
        "rules": "standard",
        "dealer": "N",
        "deal": deal,
        "calls": [
            {"seat": s, "call": c} for s, c in zip("ESWN", ["13", "0", "nil", "0"], strict=True)
        ],
        "play": plays,
    }
    result = check_hand(record)
    assert result["ok"] is True, result
    assert result["tricks"] == {"N": 0, "E": 13, "S": 0, "W": 0}


# -- summary records ------------------------------------------------------------------------------


SUMMARY: list[tuple[str, Any, str]] = [
    (
        "tricks do not sum",
        spades_hand("N", ["4", "3", "7", "6"], {"N": 4, "E": 4, "S": 3, "W": 3}),
        "tricks-do-not-sum",
    ),
    (
        "bid of 14",
        spades_hand("N", ["14", "3", "7", "6"], {"N": 3, "E": 4, "S": 3, "W": 3}),
        "bid-not-allowed",
    ),
    (
        "negative bid",
        spades_hand("N", ["-1", "3", "7", "6"], {"N": 3, "E": 4, "S": 3, "W": 3}),
        "bad-call",
    ),
    (
        "second partner below the first",
        spades_hand("N", ["4", "3", "2", "6"], {"N": 3, "E": 4, "S": 3, "W": 3}),
        "bid-too-low",
    ),
    (
        "double nil when not behind",
        spades_hand("N", ["double-nil", "3", "7", "6"], {"N": 3, "E": 0, "S": 7, "W": 3}),
        "not-eligible",
    ),
    ("calls out of turn", {**HAND_1, "calls": list(reversed(HAND_1["calls"]))}, "call-out-of-turn"),
    ("negative tricks", {**HAND_1, "tricks": {"N": -1, "E": 6, "S": 4, "W": 4}}, "bad-format"),
    ("tricks as text", {**HAND_1, "tricks": {"N": "3", "E": 4, "S": 3, "W": 3}}, "bad-format"),
    ("a dealer who is not a seat", {**HAND_1, "dealer": "X"}, "bad-seat"),
]


@pytest.mark.parametrize("name,record,code", SUMMARY, ids=[c[0] for c in SUMMARY])
def test_an_illegal_summary_record_is_422_with_the_engine_code(play, name, record, code):
    errors = engine_errors(play, record, "summary-" + name.replace(" ", "-"))
    assert errors[0]["code"] == code, (name, errors)


def test_a_hand_dealt_out_of_rotation_is_422_wrong_dealer(play):
    first = submit(play.td, play.match, key="rotation-1", side="")
    assert first.status_code == 201
    wrong = spades_hand("W", ["4", "3", "6", "6"], {"N": 3, "E": 4, "S": 4, "W": 2})
    [error] = engine_errors(play, wrong, "rotation-2")
    assert error["code"] == "wrong-dealer"


def test_a_before_state_that_disagrees_with_the_match_is_422_bad_state(play):
    record = {**HAND_1, "before": {"score": {"NS": 400, "EW": 0}, "bags": {"NS": 0, "EW": 0}}}
    [error] = engine_errors(play, record, "bad-before")
    assert error["code"] == "bad-state"


def test_a_hand_after_the_match_is_won_is_422_match_over(play):
    from tournaments.models import Match

    bids = {"N": "0", "E": "7", "S": "0", "W": "7"}  # EW bid 7 and take all 13: +76 a hand
    dealer = "N"
    for number in range(1, 10):
        order = "NESW"[("NESW".index(dealer) + 1) :] + "NESW"[: "NESW".index(dealer) + 1]
        hand = spades_hand(dealer, [bids[seat] for seat in order], {"N": 0, "E": 6, "S": 0, "W": 7})
        response = submit(play.td, play.match, hand, key=f"match-over-{number}", side="")
        assert response.status_code == 201, response.content
        play.match.refresh_from_db()
        if play.match.state == Match.State.FINISHED:
            break
        dealer = "NESW"[("NESW".index(dealer) + 1) % 4]
    assert play.match.state == Match.State.FINISHED
    with unchanged():
        refused(
            submit(play.td, play.match, HAND_1, key="match-over-late", side=""), 422, "match-over"
        )

"""The side-swap attack at individual tables, through the API (issue 28, item 2): each player is
a side, proved by their own PIN. A hand is entered as the PIN's player whatever the phone says,
and confirmed by a player who is neither the one who entered it, nor its declarer, nor the
declarer's partner of that hand (Solo Whist's prop and cop); in cutthroat and 3-player Spades
(no declarer), by any player but the one who entered it."""

from __future__ import annotations

import pytest

from tests.tournaments.builders import make_match, side_pin
from tournaments.models import HandSubmission

from .conftest import assert_error, client_with, table_token

pytestmark = pytest.mark.django_db

#: dealer N: E proposes, S accepts: E declares, S is the partner; N and W defend.
PROP_COP = {
    "dealer": "N",
    "calls": [
        {"seat": "E", "call": "prop"},
        {"seat": "S", "call": "cop"},
        {"seat": "W", "call": "pass"},
        {"seat": "N", "call": "pass"},
    ],
    "turned": "5H",
    "tricks": {"ES": 9},
}
CUTTHROAT = {
    "dealer": "N",
    "calls": [
        {"seat": "E", "call": "3"},
        {"seat": "S", "call": "4"},
        {"seat": "W", "call": "2"},
        {"seat": "N", "call": "3"},
    ],
    "tricks": {"N": 3, "E": 4, "S": 2, "W": 4},
}
THREE = {
    "dealer": "N",
    "calls": [{"seat": "E", "call": "6"}, {"seat": "S", "call": "5"}, {"seat": "N", "call": "5"}],
    "tricks": {"N": 5, "E": 6, "S": 6},
}


def phone(match):
    _, secret = table_token(match.table)
    return client_with(f"Table {secret}")


def enter(client, match, record, pin: str, side: str | None = None, key="ind-0001-abcdef"):
    body = {"record": record, "pin": pin, **({"side": side} if side else {})}
    return client.post(
        f"/api/v1/matches/{match.pk}/hands", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


def answer(client, match, verb: str, pin: str):
    body = {"pin": pin, "version": 1, **({"reason": "x"} if verb == "reject" else {})}
    return client.post(f"/api/v1/matches/{match.pk}/hands/1/{verb}", body, format="json")


@pytest.mark.parametrize(
    ("rules", "record", "seats", "entering", "refused", "answerer"),
    [
        # Solo Whist: N enters; N (own), E (declarer) and S (the acceptor) may not answer
        (
            "phillips",
            PROP_COP,
            4,
            "N",
            {"N": "own-side", "E": "declarer-side", "S": "declarer-side"},
            "W",
        ),
        # the declarer enters: the partner may not answer for the declarer's side
        ("phillips", PROP_COP, 4, "E", {"E": "own-side", "S": "declarer-side"}, "N"),
        # cutthroat Spades: any player but the one who entered it
        ("network-spades", CUTTHROAT, 4, "S", {"S": "own-side"}, "W"),
        # 3-player Spades
        ("pagat-3p", THREE, 3, "E", {"E": "own-side"}, "N"),
    ],
    ids=["solo-whist-defender-enters", "solo-whist-declarer-enters", "cutthroat", "3-player"],
)
def test_the_side_swap_attack_at_an_individual_table(
    director, rules, record, seats, entering, refused, answerer
):
    game = "solo-whist" if rules == "phillips" else "spades"
    match = make_match(director, game=game, rules=rules, fmt="individual")
    assert match.seats.count() == seats
    client = phone(match)
    mine = side_pin(match, entering)
    other = next(seat for seat in "NESW"[:seats] if seat != entering)
    # the phone says another player: refused, nothing stored
    assert_error(enter(client, match, record, mine, side=other), 403, "side-pin-mismatch")
    assert not HandSubmission.objects.exists()
    stored = enter(client, match, record, mine)
    assert stored.status_code == 201, stored.content
    assert stored.json()["submitted_side"] == entering
    for seat, code in refused.items():
        for verb in ("confirm", "reject"):
            assert_error(answer(client, match, verb, side_pin(match, seat)), 403, code)
    assert HandSubmission.objects.get().status == "pending"
    done = answer(client, match, "confirm", side_pin(match, answerer))
    assert done.status_code == 200, done.content
    current = HandSubmission.objects.get()
    assert (current.status, current.decided_side) == ("confirmed", answerer)

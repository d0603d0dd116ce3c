"""The other side really confirms (issue 14 point 1): one table token submitted a hand as NS and
confirmed it as EW, because the side came from the request body. Now, unless the tournament
chose to trust the table's phone (`confirmation = "same-phone"`), confirming or rejecting needs
the answering side's PIN (printed on its entry's card); wrong PINs change nothing and are
throttled per table; directors need none."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.builders import side_pin
from tournaments.models import Entry, HandSubmission, Tournament
from tournaments.services import hands as hand_service

from .conftest import Play, post_json, refused, submit, unchanged

pytestmark = pytest.mark.django_db


def answer(play: Play, action: str, body: dict, who=None):
    return post_json(who or play.scorer, play.hand_url(1, action), {"version": 1, **body})


def wrong_pin(play: Play) -> str:
    """A PIN that no entry of the tournament holds."""
    taken = set(Entry.objects.filter(tournament=play.tournament).values_list("pin", flat=True))
    return next(f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in taken)


def status() -> str:
    return HandSubmission.objects.get(is_current=True).status


def test_the_attack_one_token_submits_as_ns_and_confirms_as_ew_is_refused(pending):
    """The exact attack from the issue: POST …/hands with side NS, then …/hands/1/confirm with
    side EW and the same `Authorization: Table …` — refused, and nothing changes."""
    with unchanged():
        refused(answer(pending, "confirm", {"side": "EW"}), 403, "side-pin-required")
        refused(answer(pending, "reject", {"side": "EW", "reason": "x"}), 403, "side-pin-required")
    assert status() == "pending"


def test_the_other_sides_pin_confirms(pending):
    response = answer(pending, "confirm", {"side": "EW", "pin": side_pin(pending.match, "EW")})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"
    assert HandSubmission.objects.get(is_current=True).decided_side == "EW"


def test_the_other_sides_pin_rejects(pending):
    body = {"side": "EW", "pin": side_pin(pending.match, "EW"), "reason": "we took 4"}
    response = answer(pending, "reject", body)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "rejected"


def test_the_submitting_sides_own_pin_cannot_confirm_for_the_other_side(pending):
    with unchanged():
        body = {"side": "EW", "pin": side_pin(pending.match, "NS")}
        refused(answer(pending, "confirm", body), 403, "side-pin-wrong")
        body = {"side": "NS", "pin": side_pin(pending.match, "NS")}
        refused(answer(pending, "confirm", body), 403, "own-side")
    assert status() == "pending"


def test_a_wrong_pin_is_refused_and_changes_nothing(pending):
    with unchanged():
        body = {"side": "EW", "pin": wrong_pin(pending)}
        refused(answer(pending, "confirm", body), 403, "side-pin-wrong")
        refused(answer(pending, "reject", {**body, "reason": "x"}), 403, "side-pin-wrong")
    assert status() == "pending"


def test_wrong_pins_are_throttled_per_table_then_even_the_right_one_waits(pending):
    wrong = {"side": "EW", "pin": wrong_pin(pending)}
    for _ in range(hand_service.PIN_TRIES):
        refused(answer(pending, "confirm", wrong), 403, "side-pin-wrong")
    right = {"side": "EW", "pin": side_pin(pending.match, "EW")}
    with unchanged():
        body = refused(answer(pending, "confirm", right), 429, "side-pin-locked")
    assert body["details"]["retry_after"] == hand_service.PIN_LOCK_SECONDS
    # another table is not locked out by this one's guesses
    other = pending.other_match
    assert submit(pending.other_scorer, other, key="other-table-1").status_code == 201
    other_body = {"side": "EW", "pin": side_pin(other, "EW"), "version": 1}
    response = post_json(pending.other_scorer, pending.hand_url(1, "confirm", other), other_body)
    assert response.status_code == 200, response.content
    # the director still confirms the locked table's hand
    assert answer(pending, "confirm", {}, who=pending.td).status_code == 200


def test_a_tournament_that_trusts_the_phone_confirms_with_the_token_alone(pending):
    Tournament.objects.filter(pk=pending.tournament.pk).update(confirmation="same-phone")
    response = answer(pending, "confirm", {"side": "EW"})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"


def test_a_director_confirms_without_a_pin_by_api_token(pending):
    response = answer(pending, "confirm", {}, who=pending.td)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"


def test_a_director_confirms_without_a_pin_signed_in(pending):
    browser = Client()
    browser.force_login(pending.director.user)
    response = browser.post(
        pending.hand_url(1, "confirm"),
        {"side": "EW", "version": 1},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert status() == "confirmed"


def test_every_entry_has_a_pin_unique_in_its_tournament(play):
    pins = list(Entry.objects.filter(tournament=play.tournament).values_list("pin", flat=True))
    assert all(len(pin) == 4 and pin.isdigit() for pin in pins)
    assert len(set(pins)) == len(pins)


def test_the_pin_mode_is_the_default_and_shown_by_the_api(play):
    assert play.tournament.confirmation == "pin"
    body = play.anon.get(f"/api/v1/tournaments/{play.slug}").json()
    assert body["confirmation"] == "pin"


def test_a_director_chooses_the_trusting_mode_over_the_api(play):
    response = play.td.patch(
        f"/api/v1/tournaments/{play.slug}", {"confirmation": "same-phone"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["confirmation"] == "same-phone"
    with unchanged():
        refused(
            play.td.patch(
                f"/api/v1/tournaments/{play.slug}", {"confirmation": "nobody"}, format="json"
            ),
            400,
            "invalid",
        )

"""Each side proves who it is, for every action (issue 28, items 2 and 3).

The attack of issue 28: with the table's token and only its own PIN, NS submitted a hand as EW
(`side` in the body) and then confirmed it with its own PIN as NS. Now the side is the PIN's:
entering a hand needs the PIN of an entry seated at the match (the side is that entry's, a
stated side must agree), confirming or rejecting needs the answering side's, which may not be
the side that entered the hand. Wrong PINs are counted per entry (a budget of 20 an hour,
whatever phones and addresses try them) and per client (a growing wait), not one table-wide
wall; a director clears a table. Directors need no PIN; `same-phone` trusts the phone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F
from django.test import Client, override_settings
from django.utils import timezone

from config.cache import redis_cache
from tests.tournaments.builders import HAND_2, side_pin
from tournaments.models import AuditEvent, Entry, HandSubmission, PinFailure, Tournament
from tournaments.services import Actor, NotAllowed, side_pins

from .conftest import Play, post_json, refused, submit, table_token, the_shared_play, unchanged

pytestmark = pytest.mark.django_db


#: The module's match in play, built once (conftest.SharedPlay).
play, pending = the_shared_play()


def answer(play: Play, action: str, body: dict, who=None, **extra):
    return post_json(who or play.scorer, play.hand_url(1, action), {"version": 1, **body}, **extra)


def wrong_pin(play: Play) -> str:
    """A PIN that no entry of the tournament holds."""
    taken = set(Entry.objects.filter(tournament=play.tournament).values_list("pin", flat=True))
    return next(f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in taken)


def status() -> str:
    return HandSubmission.objects.get(is_current=True).status


def pins(play: Play) -> tuple[str, str]:
    return side_pin(play.match, "NS"), side_pin(play.match, "EW")


def later(seconds: float) -> None:
    """Let `seconds` pass for the wrong PINs counted so far (their times move back)."""
    PinFailure.objects.update(at=F("at") - timedelta(seconds=seconds))


# -- the side is the PIN's ----------------------------------------------------------------------


def test_the_side_swap_attack_is_refused(play):
    """NS, holding the table's token and its own PIN only, enters a hand as EW and then
    confirms it with its own PIN: both refused, nothing stored or confirmed."""
    ns, _ = pins(play)
    with unchanged():
        refused(submit(play.scorer, play.match, side="EW", pin=ns, key="swap-key-1"), 403)
    assert not HandSubmission.objects.exists()
    stored = submit(play.scorer, play.match, side="", pin=ns, key="swap-key-2")
    assert stored.status_code == 201, stored.content
    assert stored.json()["submitted_side"] == "NS"  # the PIN's side, whatever was said
    with unchanged():
        refused(answer(play, "confirm", {"side": "NS", "pin": ns}), 403, "own-side")
        refused(answer(play, "confirm", {"pin": ns}), 403, "own-side")
        refused(answer(play, "confirm", {"side": "EW", "pin": ns}), 403, "own-side")
        refused(answer(play, "reject", {"pin": ns, "reason": "x"}), 403, "own-side")
    assert status() == "pending"


def test_a_stated_side_that_is_not_the_pins_is_refused_with_its_code(play):
    ns, _ = pins(play)
    with unchanged():
        body = refused(submit(play.scorer, play.match, side="EW", pin=ns), 403)
    assert body["code"] == "side-pin-mismatch"


def test_entering_a_hand_needs_the_pin_of_an_entry_at_the_match(play):
    other_ns = side_pin(play.other_match, "NS")  # an entry at another table
    with unchanged():
        refused(submit(play.scorer, play.match, pin=""), 403, "side-pin-required")
        refused(submit(play.scorer, play.match, side="", pin=""), 403, "side-pin-required")
        refused(submit(play.scorer, play.match, pin=wrong_pin(play)), 403, "side-pin-wrong")
        refused(submit(play.scorer, play.match, pin=other_ns), 403, "side-pin-wrong")
    assert not HandSubmission.objects.exists()


def test_a_wrong_pin_entering_a_hand_is_counted_though_the_hand_is_refused(play):
    """The submission tests the PIN inside its own transaction, with the match locked: a wrong
    one is refused, yet its failures (one for each entry it was tested against) are committed,
    while no hand is stored and the match does not go into play; the right PIN then stores."""
    state = play.match.state
    refused(submit(play.scorer, play.match, pin=wrong_pin(play), key="wrong-pin-1"), 403)
    assert PinFailure.objects.filter(entry__seats__match=play.match).count() == 2
    assert not HandSubmission.objects.exists()
    play.match.refresh_from_db()
    assert play.match.state == state
    ns, _ = pins(play)
    stored = submit(play.scorer, play.match, side="", pin=ns, key="right-pin-1")
    assert stored.status_code == 201, stored.content
    assert PinFailure.objects.count() == 2  # a right PIN is never counted


def test_either_side_enters_with_its_own_pin_and_the_same_pin_serves_every_hand(play):
    ns, ew = pins(play)
    first = submit(play.scorer, play.match, side="", pin=ew, key="by-ew-key-1")
    assert first.status_code == 201, first.content
    assert first.json()["submitted_side"] == "EW"
    assert answer(play, "confirm", {"pin": ns}).status_code == 200  # NS answers EW's hand
    second = submit(play.scorer, play.match, HAND_2, side="", pin=ew, key="by-ew-key-2")
    assert second.status_code == 201, second.content
    assert second.json()["submitted_side"] == "EW"


def test_the_other_sides_pin_confirms_and_the_side_is_its(pending):
    _, ew = pins(pending)
    response = answer(pending, "confirm", {"pin": ew})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"
    assert HandSubmission.objects.get(is_current=True).decided_side == "EW"


def test_the_other_sides_pin_rejects(pending):
    _, ew = pins(pending)
    response = answer(pending, "reject", {"side": "EW", "pin": ew, "reason": "we took 4"})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "rejected"


def test_an_answer_without_a_pin_or_with_a_wrong_one_changes_nothing(pending):
    with unchanged():
        refused(answer(pending, "confirm", {"side": "EW"}), 403, "side-pin-required")
        refused(answer(pending, "reject", {"side": "EW", "reason": "x"}), 403, "side-pin-required")
        body = {"side": "EW", "pin": wrong_pin(pending)}
        refused(answer(pending, "confirm", body), 403, "side-pin-wrong")
        refused(answer(pending, "reject", {**body, "reason": "x"}), 403, "side-pin-wrong")
    assert status() == "pending"


def test_a_tournament_that_trusts_the_phone_takes_the_side_as_said(play):
    Tournament.objects.filter(pk=play.tournament.pk).update(confirmation="same-phone")
    stored = submit(play.scorer, play.match, side="NS", pin="")
    assert stored.status_code == 201, stored.content
    response = answer(play, "confirm", {"side": "EW"})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"


def test_a_director_enters_and_confirms_without_a_pin(play):
    response = submit(play.td, play.match, side="", pin="", key="td-hand-1")
    assert response.status_code == 201, response.content
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


# -- wrong PINs: a growing wait per client, a budget per entry ------------------------------------


def test_the_side_that_typed_wrong_retries_at_once_with_its_right_pin(pending):
    """Two wrong PINs (the other side's typed by mistake is not even one) cost no wait."""
    ns, ew = pins(pending)
    refused(answer(pending, "confirm", {"pin": ns}), 403, "own-side")  # not counted
    for _ in range(side_pins.FREE):
        body = refused(answer(pending, "confirm", {"pin": wrong_pin(pending)}), 403)
        assert body["code"] == "side-pin-wrong" and body["details"]["retry_after"] == 0
    response = answer(pending, "confirm", {"pin": ew})
    assert response.status_code == 200, response.content


def test_a_phone_that_keeps_typing_wrong_waits_longer_each_time_then_the_right_pin_works(pending):
    _, ew = pins(pending)
    wrong = {"pin": wrong_pin(pending)}
    for _ in range(side_pins.FREE):
        refused(answer(pending, "confirm", wrong), 403, "side-pin-wrong")
    waits = []
    for _ in range(4):
        body = refused(answer(pending, "confirm", wrong), 403, "side-pin-wrong")
        waits.append(body["details"]["retry_after"])
        with unchanged():  # too soon: even the right PIN waits, and the wait is not counted
            response = answer(pending, "confirm", {"pin": ew})
            body = refused(response, 429, "side-pin-wait")
        assert response["Retry-After"] == str(body["details"]["retry_after"])
        assert 0 < body["details"]["retry_after"] <= waits[-1]
        later(waits[-1])
    assert waits == sorted(waits) and len(set(waits)) == 4 and waits[0] <= 5  # growing
    assert PinFailure.objects.values("at").distinct().count() == side_pins.FREE + 4
    response = answer(pending, "confirm", {"pin": ew})  # the wait is over: the right PIN works
    assert response.status_code == 200, response.content


def test_no_more_than_twenty_guesses_an_hour_whatever_phones_addresses_or_headers(pending):
    """Rotating addresses, headers and table tokens: every guess is counted against the
    entries it was tried on; after 20 in the hour no PIN of theirs is tried any more."""
    tokens = [pending.scorer_secret] + [table_token(pending.match.table)[1] for _ in range(2)]
    guesses = [f"{n:04d}" for n in range(10_000)]
    ns, ew = pins(pending)
    guesses = [g for g in guesses if g not in (ns, ew)]
    tried = 0
    for n in range(side_pins.BUDGET + 5):
        client = Client(HTTP_AUTHORIZATION=f"Table {tokens[n % len(tokens)]}")
        response = answer(
            pending,
            "confirm",
            {"pin": guesses[n]},
            who=client,
            REMOTE_ADDR=f"10.0.{n // 200}.{n % 200 + 1}",
            HTTP_X_FORWARDED_FOR=f"192.168.7.{n + 1}",
            HTTP_USER_AGENT=f"phone {n}",
        )
        if response.status_code == 403:
            tried += 1
            continue
        body = refused(response, 429, "side-pin-locked")
        assert int(response["Retry-After"]) == body["details"]["retry_after"] > 0
    assert tried == side_pins.BUDGET
    assert status() == "pending"
    # locked: the right PIN is not tried either (nothing is learnt about it)
    refused(answer(pending, "confirm", {"pin": ew}, REMOTE_ADDR="10.9.9.9"), 429, "side-pin-locked")
    later(side_pins.WINDOW.total_seconds())  # an hour later, the budget is there again
    response = answer(pending, "confirm", {"pin": ew}, REMOTE_ADDR="10.9.9.9")
    assert response.status_code == 200, response.content


def test_one_entrys_used_up_budget_stops_neither_the_other_sides_pin_nor_other_tables(pending):
    ns, ew = pins(pending)
    ew_entry = pending.match.seats.get(side="EW").entry_id
    PinFailure.objects.bulk_create(  # 20 guesses at EW's PIN, at another match of EW's
        PinFailure(entry_id=ew_entry, client="elsewhere", at=timezone.now())
        for _ in range(side_pins.BUDGET)
    )
    # EW's PIN, and a wrong one, get the same answer: EW's budget is used up
    refused(answer(pending, "confirm", {"pin": ew}), 429, "side-pin-locked")
    refused(answer(pending, "confirm", {"pin": wrong_pin(pending)}), 429, "side-pin-locked")
    # NS's PIN is still tried (and is NS's: it may enter a hand, not answer its own)
    refused(answer(pending, "confirm", {"pin": ns}), 403, "own-side")
    # another table's scorers are not touched
    other = pending.other_match
    assert submit(pending.other_scorer, other, key="other-table-1").status_code == 201
    other_body = {"pin": side_pin(other, "EW"), "version": 1}
    response = post_json(pending.other_scorer, pending.hand_url(1, "confirm", other), other_body)
    assert response.status_code == 200, response.content
    # the director confirms the locked table's hand without a PIN
    assert answer(pending, "confirm", {}, who=pending.td).status_code == 200


def test_the_director_clears_a_locked_table_in_the_audit_trail(pending):
    _, ew = pins(pending)
    for n in range(side_pins.BUDGET):
        refused(
            answer(pending, "confirm", {"pin": wrong_pin(pending)}, REMOTE_ADDR=f"10.1.0.{n + 1}"),
            403,
            "side-pin-wrong",
        )
    assert side_pins.pin_troubles([pending.match.pk])[pending.match.pk].locked
    refused(answer(pending, "confirm", {"pin": ew}), 429, "side-pin-locked")
    with pytest.raises(NotAllowed):  # a table's scorer cannot clear it
        side_pins.clear_pin_failures(match=pending.match, actor=Actor(table=1))
    cleared = side_pins.clear_pin_failures(match=pending.match, actor=pending.director)
    # each guess was tried on both entries (two rows), and is counted once, as on the screens
    assert cleared == side_pins.BUDGET
    assert side_pins.pin_troubles([pending.match.pk]) == {}
    event = AuditEvent.objects.get(action="pins-cleared")
    assert event.data["table"] == 1 and event.data["failures"] == cleared
    assert side_pins.pin_troubles([pending.match.pk]) == {}
    response = answer(pending, "confirm", {"pin": ew})
    assert response.status_code == 200, response.content


DEAD = "redis://127.0.0.1:1/0"  # nothing listens on port 1: the cache is down


def test_with_the_cache_down_guessing_is_still_counted_never_a_server_error(pending):
    """The budget is in the database, not the cache: a cache outage neither opens the door
    (unlimited guesses) nor shuts out the honest table, and nothing answers 500."""
    _, ew = pins(pending)
    statuses = []
    with override_settings(CACHES={"default": redis_cache(DEAD)}):
        for n in range(side_pins.BUDGET + 3):
            response = answer(
                pending, "confirm", {"pin": wrong_pin(pending)}, REMOTE_ADDR=f"10.2.0.{n + 1}"
            )
            refused(response, (403, 429), {"side-pin-wrong", "side-pin-locked"})
            statuses.append(response.status_code)
            if response.status_code == 429:
                assert int(response["Retry-After"]) > 0
        assert statuses.count(403) == side_pins.BUDGET and statuses[-3:] == [429] * 3
        refused(answer(pending, "confirm", {"pin": ew}), 429, "side-pin-locked")
    assert status() == "pending"

"""After wrong PINs the phone is told to wait a moment; once the wait is over the right PIN can
be typed and confirms the hand (issue 28: the keypad kept the wrong PIN's four digits and took no
more, so an honest side could not type its PIN again). Real Chromium at 390 x 844."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_scoring import HAND_1, open_table
from tests.tournaments.builders import make_director, make_match, scorer, side_pin
from tournaments import services
from tournaments.models import HandSubmission
from tournaments.services import side_pins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_after_a_wait_for_wrong_pins_the_right_pin_can_be_typed_and_confirms(page, live_server):
    director = make_director()
    match = make_match(director)
    open_table(page, live_server, match, director)
    services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="wait-hand-1"
    )
    decision = page.locator("form.decide[data-number='1']")
    decision.get_by_role("button", name="Confirm hand 1").click()
    keypad = decision.locator("[data-keypad]")
    pin = decision.locator("input[name=pin]")
    right = side_pin(match, "EW")
    wrong = next(p for p in ("1111", "2222", "3333") if p not in (right, side_pin(match, "NS")))

    def type_pin(digits: str) -> None:
        for digit in digits:
            keypad.get_by_role("button", name=digit, exact=True).click()

    for _ in range(side_pins.FREE + 1):  # the last of these starts the phone's first wait
        type_pin(wrong)
        expect(decision.locator(".decide-message")).to_contain_text(
            "not the PIN of an entry at this table"
        )
        expect(pin).to_have_value("")
    type_pin(wrong)  # within the wait: refused without being tested
    expect(decision.locator(".decide-message")).to_contain_text("try again in a moment")
    message = decision.locator(".decide-message")
    expect(message).to_contain_text(re.compile(r"You can try again in [1-5] s\."))  # how long
    expect(pin).to_have_value("")  # cleared: the keypad can take the right PIN

    page.wait_for_timeout(side_pins.WAITS[0] * 1000 + 500)  # the wait the server set is over
    type_pin(right)
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    assert HandSubmission.objects.get().status == "confirmed"


def test_after_a_locked_pin_the_phone_still_follows_the_table(page, live_server):
    """Issue 28 item 3: after any refusal the phone keeps its live updates. The table's PINs
    are locked (20 wrong PINs this hour from other phones): the right PIN is refused with the
    lock, and the director's confirmation still reaches the phone without a reload."""
    from tournaments.models import Entry
    from tournaments.services import Actor, ServiceError

    director = make_director()
    match = make_match(director)
    open_table(page, live_server, match, director)
    first = services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="lock-hand-1"
    ).submission
    taken = set(Entry.objects.values_list("pin", flat=True))
    free = (f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in taken)
    for n in range(side_pins.BUDGET):
        guesser = Actor(table=match.table_id, pin=next(free), client=f"10.7.0.{n + 1}")
        with pytest.raises(ServiceError):
            side_pins.prove_side(match, guesser)
    decision = page.locator("form.decide[data-number='1']")
    decision.get_by_role("button", name="Confirm hand 1").click()
    keypad = decision.locator("[data-keypad]")
    for digit in side_pin(match, "EW"):
        keypad.get_by_role("button", name=digit, exact=True).click()
    expect(decision.locator(".decide-message")).to_contain_text("ask the director")
    assert HandSubmission.objects.get().status == "pending"
    services.confirm_hand(submission=first, actor=director, expected_version=1)
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    expect(page.locator("form.decide")).to_have_count(0)

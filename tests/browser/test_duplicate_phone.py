"""The duplicate phone in real Chromium at 390 x 844 (issue 28): the round clock counts down
above the panel, Call the director reaches the director, the PIN is typed unseen on a keypad,
the bids start empty; in English and Japanese."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.duplicate.builders import make_event
from tests.tournaments.builders import make_director
from tournaments.duplicate import services as dup
from tournaments.models import DirectorCall
from tournaments.room.services import set_clock, start_clock
from tournaments.services.table_access import issue_round_tokens

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_duplicate_phone_has_the_clock_the_call_and_a_hidden_pin(
    browser, live_server, screenshot, accessibility, language
):
    td = make_director()
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    set_clock(round=round_, actor=td, minutes=30, last_hand_minutes=5)
    start_clock(round=round_, actor=td)
    secret = issue_round_tokens(round=round_, actor=td)[round_.tables.get(number=1).pk]
    context = browser.new_context(
        locale="ja-JP" if language == "ja" else "en-US", viewport={"width": 390, "height": 844}
    )
    try:
        phone = context.new_page()
        phone.goto(f"{live_server.url}/duplicate/{tournament.slug}/table/1/#token={secret}")
        clock = phone.locator("[data-clock] [data-clock-time]")
        expect(clock).to_have_text(re.compile(r"^(29|30):\d\d$"))
        form = phone.locator("form.score-form")
        expect(form).to_be_visible()
        for seat in "NESW":  # the bids start empty (nothing pre-filled)
            expect(form.locator(f"select[name=call_{seat}]")).to_have_value("")
        expect(form.locator("[data-pad-answers] .pad-answer.empty")).to_have_count(8)
        screenshot(phone, f"duplicate-phone-clock-{language}")
        assert accessibility(phone) == []

        phone.locator("#call-details summary").click()
        phone.locator("#call-send").click()
        expect(phone.locator("#call-status")).not_to_be_empty()
        assert DirectorCall.objects.filter(table__round=round_, table__number=1).count() == 1

        # NS enters a board on the pad; its PIN and EW's answer on keypads that hide the PIN
        keys = form.locator("[data-pad-keys]")
        for value in ("3", "3", "3", "4", "3", "4", "3"):  # bids from the dealer's left; tricks
            keys.get_by_role("button", name=value, exact=True).click()
        pin = round_.tables.get(number=1).match.seats.get(side="NS").entry.pin
        for digit in pin:
            form.locator(f"[data-pin-sheet] .key[data-key='{digit}']").click()
        expect(phone.locator(".board-pending")).to_be_visible()
        phone.locator(".dup-decide button[value=confirm]").click()
        pin = phone.locator(".dup-decide input.pin-input")  # the answering side's PIN
        expect(pin).to_have_attribute("type", "password")
        expect(pin).to_have_attribute("inputmode", "none")  # the keypad, not the keyboard
        screenshot(phone, f"duplicate-phone-confirm-{language}")
        assert accessibility(phone) == []
    finally:
        context.close()

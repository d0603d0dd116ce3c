"""A hand refused when sent says why where the scorer looks: on a phone (390 x 844) opening its
table card, the refusal under Send is brought into view (issue 28: after wrong PINs the PIN sheet
closed on "try again in a moment" written below the fold, and the screen showed nothing)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_table_card import club_night
from tests.tournaments.builders import make_director
from tournaments import services
from tournaments.models import Entry
from tournaments.services import side_pins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_wait_after_wrong_pins_is_said_on_the_screen(page, live_server):
    director = make_director()
    tournament = club_night(director)
    card, secret = services.print_cards(tournament=tournament, numbers=[1], actor=director)[1]
    first = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=first, actor=director)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + services.card_path(card, tournament, secret))
    framed = page.frame_locator("#card-match")
    expect(framed.locator("#scoring")).to_have_attribute("data-ready", "true")
    pins = set(Entry.objects.filter(tournament=tournament).values_list("pin", flat=True))
    wrong = next(p for p in ("1111", "2222", "3333", "4444", "5555") if p not in pins)

    for bid in ("2", "3", "3", "4", "3", "3", "3"):  # four bids, N's, E's, S's tricks: sent
        framed.locator(f"#pad-keys .pad-key[data-value='{bid}']").click()
    keypad = framed.locator(".keypad[data-keypad='entry-pin']")
    status = framed.locator("#submit-status")
    for _ in range(side_pins.FREE + 1):  # wrong PINs: the sheet asks again each time
        for digit in wrong:
            keypad.locator(f".key[data-key='{digit}']").click()
        expect(status).to_contain_text("not the PIN of an entry at this table")
    for digit in wrong:  # within the phone's wait: refused untested, and the sheet closes
        keypad.locator(f".key[data-key='{digit}']").click()
    expect(status).to_contain_text("try again in a moment")
    expect(status).to_contain_text(re.compile(r"You can try again in \d+ s\."))  # how long
    expect(status).to_be_in_viewport()

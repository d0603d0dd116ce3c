"""Registering from a phone (390 x 844) in real Chromium (issue 28): the form is on the first
screen, the rules fold below it, and after entering the confirmation is on the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.pages.test_public import event
from tests.tournaments.builders import make_director

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_phone_registers_with_the_form_first_and_sees_its_confirmation(
    browser, live_server, screenshot, accessibility, language
):
    tournament = event(make_director("td"), teams=3, hands=4)
    context = browser.new_context(
        locale="ja-JP" if language == "ja" else "en-US", viewport={"width": 390, "height": 844}
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tournament.slug}/")
        assert in_view(page, page.locator("#register"))
        assert in_view(page, page.locator("#id_player_1"))
        expect(page.locator("ul.rules")).to_be_hidden()  # folded under the form
        screenshot(page, f"public-register-phone-{language}")
        assert accessibility(page) == []
        page.locator("details.rules-details summary").click()
        expect(page.locator("ul.rules li").first).to_be_visible()

        page.locator("#id_team_name").fill("Moonshot")
        page.locator("#id_player_1").fill("Aiko")
        page.locator("#id_player_2").fill("Ben")
        page.locator("form.register button[type=submit]").click()
        message = page.locator(".messages li")
        expect(message).to_contain_text("Moonshot")
        assert in_view(page, message)
        screenshot(page, f"public-registered-phone-{language}")
        page.set_viewport_size({"width": 1366, "height": 768})
        screenshot(page, f"public-registered-laptop-{language}")
        assert accessibility(page) == []
    finally:
        context.close()

"""The director's entries page on a laptop (1366 x 768) in real Chromium (issue 28): each
entry's PIN and its Withdraw button are on the screen without scrolling sideways, in English
and Japanese."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from .test_director import PASSWORD, make, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_pins_and_withdraw_are_on_a_laptops_screen(
    page, live_server, screenshot, accessibility, language
):
    td = get_user_model().objects.create_user("aiko", password=PASSWORD)
    page.set_viewport_size(LAPTOP)
    tournament = make(td, teams=6)
    sign_in(page, live_server, f"/director/{tournament.slug}/entries/")
    if language == "ja":
        page.context.add_cookies(
            [{"name": "django_language", "value": "ja", "url": live_server.url}]
        )
        page.reload()
        page.locator("html[lang=ja]").wait_for()
    page.locator("#entries-table").wait_for()
    width = LAPTOP["width"]
    for selector in ("td.pin code", "button.danger"):
        cells = page.locator(f"#entries-table tbody {selector}")
        assert cells.count() == 6
        for i in range(cells.count()):
            box = cells.nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (
                selector,
                box,
            )
    screenshot(page, f"entries-laptop-{language}")
    assert accessibility(page) == []

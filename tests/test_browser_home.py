"""A real browser (Debian's Chromium, driven by Playwright) switches the home page to Japanese."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_switch_home_page_to_japanese(page, live_server):
    page.goto(live_server.url + "/")
    assert page.title().startswith("TrickTable")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_text("German Whist", exact=True).is_visible()

    with page.expect_navigation():
        page.get_by_role("button", name="日本語").click()

    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.get_by_text("ジャーマン ホイスト", exact=True).is_visible()
    assert page.get_by_text("スペード", exact=True).is_visible()

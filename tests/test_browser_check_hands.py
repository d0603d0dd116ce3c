"""In real Chromium: load a demo match into the checker, check it, read the result."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_demo_spades_match_is_checked_in_the_browser(page, live_server):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Check hand records").click()
    page.get_by_role("link", name="a Spades match").click()
    assert page.get_by_label("Hand records (JSON)").input_value().startswith("{")
    page.get_by_role("button", name="Check").click()
    results = page.locator("#results")
    results.wait_for()
    assert "1 of 1 record is valid" in results.inner_text()
    assert results.locator("table.hands tbody tr").count() > 1
    assert results.get_by_text("Winner").is_visible()

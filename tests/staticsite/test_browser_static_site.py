"""The exported site opened from disk (file://) in Chromium with JavaScript off, on a phone and
on a desktop screen: its styles load, its tables are there, its links and the language switch
lead from page to page."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests.tournaments.conftest import play_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (390, 844), "desktop": (1920, 1080)}


@pytest.mark.parametrize("size", SIZES)
def test_the_site_reads_from_disk_without_javascript(
    size, browser, swiss, director, tmp_path, screenshot
):
    tournament = swiss(6, rounds=3)
    play_round(tournament, director)
    play_round(tournament, director, seed=2)
    site = tmp_path / "site"
    call_command("export_site", tournament.slug, str(site))

    width, height = SIZES[size]
    context = browser.new_context(
        locale="en-US", viewport={"width": width, "height": height}, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto((site / "index.html").as_uri())
        assert page.locator("h1").first.inner_text().strip() == tournament.name
        # The stylesheet came along: the header wears the club's colour.
        header = page.locator("header").first
        assert header.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(11, 110, 79)"
        screenshot(page, f"static-site-event-{size}")

        page.get_by_role("link", name="Standings").first.click()
        assert page.url.endswith(f"/t/{tournament.slug}/standings/index.html")
        rows = page.locator("table tbody tr")
        assert rows.count() == 6
        screenshot(page, f"static-site-standings-{size}")

        page.locator("nav.lang a[hreflang=ja]").click()
        assert page.url.endswith(f"/ja/t/{tournament.slug}/standings/index.html")
        assert page.locator("html").get_attribute("lang") == "ja"
        assert "順位表" in page.locator("h1").first.inner_text()
        assert page.locator("table tbody tr").count() == 6
        screenshot(page, f"static-site-standings-ja-{size}")

        page.locator("nav.lang a[hreflang=en]").click()
        assert page.url.endswith(f"/t/{tournament.slug}/standings/index.html")
        assert "/ja/" not in page.url
    finally:
        context.close()

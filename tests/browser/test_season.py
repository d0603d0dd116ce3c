"""The season pages in real Chromium: the table follows a change to the season without a reload
(the "season" announcement on a member tournament's event stream), and the page and the
projector are screenshotted on a phone, a laptop and a 1920×1080 projector, in English and
Japanese, with no axe-core violation."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.season_data import winter_season
from tournaments.live import event_log
from tournaments.seasons import services as seasons
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture(autouse=True)
def in_process(settings):
    settings.REDIS_URL = None
    event_log.clear_local()
    yield
    event_log.clear_local()


@pytest.fixture
def season():
    director = Actor(user=get_user_model().objects.create_user("td", password="x"))
    return winter_season(director), director


def aiko_score(page) -> str:
    row = page.locator("table.season-table tbody tr", has_text="Aiko Sato")
    return row.locator("td.score").inner_text()


def test_the_season_table_follows_a_change_of_rule_without_a_reload(page, live_server, season):
    series, director = season
    page.goto(f"{live_server.url}/seasons/{series.slug}/")
    assert aiko_score(page) == "28"
    assert page.locator("td.dropped").count() == 4  # one dropped evening each but Eve's
    shown = page.locator("#season-live [data-version]").get_attribute("data-version")
    seasons.update_series(actor=director, series=series, best=2)
    page.wait_for_function(
        "(shown) => document.querySelector('#season-live [data-version]').dataset.version "
        "!== shown",
        arg=shown,
    )
    assert aiko_score(page) == "20"
    assert page.locator("[data-live-events]").get_attribute("data-live-mode") == "sse"


def test_the_season_page_and_projector_screenshot_and_pass_axe_in_english_and_japanese(
    page, live_server, season, screenshot, accessibility
):
    series, _director = season
    views = [
        ("season-phone", f"/seasons/{series.slug}/", PHONE),
        ("season-laptop", f"/seasons/{series.slug}/", LAPTOP),
        ("season-projector", f"/seasons/{series.slug}/projector/", PROJECTOR),
    ]
    for language in ("en", "ja"):
        if language == "ja":
            page.goto(live_server.url + "/")
            with page.expect_navigation():
                page.get_by_role("button", name="日本語").click()
        for name, url, viewport in views:
            page.set_viewport_size(viewport)
            page.goto(live_server.url + url)
            assert page.locator("html").get_attribute("lang") == language
            assert page.locator("table.season-table tbody tr").count() == 5
            screenshot(page, f"{name}-{language}")
            assert accessibility(page) == [], (name, language)
    assert page.get_by_text("シーズン得点").first.is_visible()


def test_the_projector_fits_the_table_on_a_1920_by_1080_screen(page, live_server, season):
    series, _director = season
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{live_server.url}/seasons/{series.slug}/projector/")
    table = page.locator("table.season-table").bounding_box()
    assert table["x"] + table["width"] <= PROJECTOR["width"]
    assert table["y"] + table["height"] <= PROJECTOR["height"]


def test_the_directors_season_pages_pass_axe_and_add_an_evening(
    page, live_server, season, screenshot, accessibility
):
    from tests.conftest import sign_in_browser
    from tests.season_data import evening

    series, director = season
    extra = evening(director, "Night 5", day=29)
    sign_in_browser(page, live_server, director.user)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server.url}/seasons/")
    assert page.get_by_role("button", name="Create season").is_visible()
    assert accessibility(page) == []
    page.goto(f"{live_server.url}/seasons/{series.slug}/manage/")
    screenshot(page, "season-manage-en")
    assert accessibility(page) == []
    page.get_by_label("Tournament").select_option(label=extra.name)
    page.get_by_role("button", name="Add evening").click()
    page.wait_for_load_state()
    assert page.get_by_role("link", name="Night 5").is_visible()
    assert accessibility(page) == []

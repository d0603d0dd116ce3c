"""The projectors on a 1920 x 1080 screen (issue 28): the season projector shows as many rows
as the screen holds (it showed 13), and no Japanese column header breaks inside a word
(マッチポイン/ト)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.season_data import evening, played
from tournaments.live import event_log
from tournaments.seasons import services as seasons
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture(autouse=True)
def in_process(settings):
    settings.REDIS_URL = None
    event_log.clear_local()
    yield
    event_log.clear_local()


def big_season(players: int = 40, nights: int = 4):
    director = Actor(user=get_user_model().objects.create_user("td", password="x"))
    series = seasons.create_series(
        actor=director,
        name="Long winter season",
        game="german-whist",
        rule="placing",
        points=[10, 8, 6, 5, 4],
        best=3,
    )
    names = [f"Player {n:02d} Longname" for n in range(1, players + 1)]
    for night in range(1, nights + 1):
        tournament = evening(director, f"Night {night}", day=7 * night)
        order = names[night:] + names[:night]
        played(tournament, [(name, i, players - i) for i, name in enumerate(order, 1)])
        seasons.add_tournament(actor=director, series=series, tournament=tournament)
    seasons.recompute(series_id=series.pk)
    return series


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_season_projector_fills_a_1080p_screen(page, live_server, screenshot, language):
    series = big_season()
    page.set_viewport_size(PROJECTOR)
    if language == "ja":
        page.context.add_cookies(
            [{"name": "django_language", "value": "ja", "url": live_server.url}]
        )
    page.goto(f"{live_server.url}/seasons/{series.slug}/projector/")
    page.wait_for_function("() => document.querySelector('table[data-page]') !== null")
    rows = page.locator("table.season-table tbody tr:visible")
    shown = rows.count()
    bottom = rows.nth(shown - 1).bounding_box()
    screenshot(page, f"season-projector-40-{language}")
    assert bottom["y"] + bottom["height"] <= PROJECTOR["height"]
    assert shown >= 24, shown


HEADER_LINES = """() => [...document.querySelectorAll('main.projector thead th')]
  .filter(th => th.textContent.trim() && !/\\s/.test(th.textContent.trim()))
  .map(th => {
    const range = document.createRange();
    range.selectNodeContents(th);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
      .map(r => Math.round(r.top)));
    const clipped = th.scrollWidth > th.clientWidth;  // cut with "…"
    return [th.textContent.trim(), clipped ? 0 : tops.size];
  })"""


@pytest.mark.parametrize(
    "viewport", [PROJECTOR, {"width": 1600, "height": 900}, {"width": 1280, "height": 720}]
)
def test_no_japanese_projector_header_breaks_inside_a_word(
    page, live_server, screenshot, viewport, built_once
):
    from tournaments.demo import club as demo
    from tournaments.models import Tournament

    built_once("spades-6-teams", lambda: demo.build_spades(7, teams=6, played=1))
    tournament = Tournament.objects.get(name="Friday Night Spades")
    page.set_viewport_size(viewport)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    page.locator("html[lang=ja]").wait_for()
    headers = page.evaluate(HEADER_LINES)
    assert "マッチポイント" in [text for text, _lines in headers]
    assert [text for text, lines in headers if lines != 1] == []  # whole, on one line
    screenshot(page, f"projector-ja-{viewport['width']}")

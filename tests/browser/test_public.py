"""The public pages in real Chromium: the standings follow a confirmed hand without a reload
(over the server-sent events stream, and by polling when there is no EventSource), the
projector pages through a long table, and every page is screenshotted and passes the
accessibility basics, in English and Japanese."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.demo import club as demo
from tournaments.demo import simulate
from tournaments.live import event_log
from tournaments.models import Entry, Match, Tournament
from tournaments.services import Actor, PlayerSpec

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PROJECTOR = {"width": 1600, "height": 900}


@pytest.fixture(autouse=True)
def in_process(settings):
    """No Redis: standings are recomputed in-process and events stay in this process, where
    the live server's thread reads them."""
    settings.REDIS_URL = None
    event_log.clear_local()
    yield
    event_log.clear_local()


def director() -> Actor:
    user = get_user_model().objects.create_user("td", password="x")
    return Actor(user=user, label="td")


def duel(show_provisional: bool = False) -> tuple[Tournament, Match, Actor]:
    """Two Spades teams in round 1 of a Swiss, a match of two hands, one already confirmed."""
    td = director()
    tournament = services.create_tournament(
        actor=td,
        name="Duel",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=2,
        match_length="hands",
        match_hands=2,
        show_provisional=show_provisional,
    )
    services.open_registration(tournament=tournament, actor=td)
    for n, names in enumerate((("Aiko", "Ben"), ("Chika", "Dan")), 1):
        services.register_entry(
            tournament=tournament,
            actor=td,
            name=f"Team {n}",
            players=[PlayerSpec(p) for p in names],
        )
    round_ = services.generate_round(tournament=tournament, actor=td)
    services.publish_round(round=round_, actor=td)
    match = Match.objects.get(round=round_)
    simulate.play_hand(match, random.Random(5))
    return tournament, match, td


def match_points(page) -> list[str]:
    """The match points column of the standings table, top to bottom."""
    headers = page.locator(".standings-table thead th").all_inner_texts()
    column = headers.index("Match points") + 1
    return page.locator(f".standings-table tbody tr td:nth-child({column})").all_inner_texts()


def finish_the_match(match: Match) -> None:
    """The second hand, submitted by one side and confirmed by the other: the match ends."""
    simulate.play_hand(match, random.Random(6))
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED


def test_standings_follow_a_confirmed_hand_over_the_event_stream(page, live_server):
    tournament, match, _td = duel()
    page.goto(f"{live_server.url}/t/{tournament.slug}/standings/")
    assert match_points(page) == ["0", "0"]
    region = page.locator("#standings-live")
    assert region.get_attribute("aria-live") == "polite"
    assert page.locator("[data-live-events]").get_attribute("data-live-mode") == "sse"
    page.evaluate("window.notReloaded = true")
    version = int(page.locator("[data-version]").get_attribute("data-version"))

    finish_the_match(match)

    # The dev server answers each stream request briefly (retry: 5 s); the event comes with
    # the next reconnection and the fragment is swapped in.
    page.wait_for_function(
        "v => Number(document.querySelector('[data-version]').dataset.version) > v",
        arg=version,
    )
    assert sorted(match_points(page)) == ["0", "2"]
    assert page.evaluate("window.notReloaded") is True
    assert page.locator("[data-live-events]").get_attribute("data-live-mode") == "sse"


def test_standings_poll_their_fragment_without_event_source(page, live_server):
    tournament, match, _td = duel()
    page.add_init_script("delete window.EventSource")
    page.clock.install()  # Playwright's fake timers: the 15 s poll comes when the test says
    page.goto(f"{live_server.url}/t/{tournament.slug}/standings/")
    assert page.locator("[data-live-events]").get_attribute("data-live-mode") == "polling"
    page.evaluate("window.notReloaded = true")

    finish_the_match(match)
    page.clock.run_for(15_500)  # the page polls every 15 s

    page.wait_for_function(
        "() => [...document.querySelectorAll('.standings-table tbody td')]"
        ".some(td => td.textContent.trim() === '2')",
    )
    assert sorted(match_points(page)) == ["0", "2"]
    assert page.evaluate("window.notReloaded") is True


def test_standings_work_with_javascript_off(browser, live_server):
    tournament, _match, _td = duel()
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tournament.slug}/standings/")
        assert page.locator(".standings-table tbody tr").count() == 2
        assert page.locator("[data-live-events]").get_attribute("data-live-mode") is None
    finally:
        context.close()


def test_the_projector_pages_through_a_long_table(page, live_server, built_once):
    built_once("spades-8-teams", lambda: demo.build_spades(7, teams=8, played=1))
    tournament = Tournament.objects.get(name="Friday Night Spades")
    page.set_viewport_size(PROJECTOR)
    # Playwright's fake timers: the page turns when the test says, not when the machine gets to
    # it (on a loaded machine a real second could pass between two reads of the rows).
    page.clock.install()
    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/?rows=3&seconds=1")
    rows = page.locator("table[data-paginate=standings] tbody tr")
    assert rows.count() == 8
    indicator = page.locator("[data-page-indicator=standings]")
    assert indicator.inner_text() == "Page 1 of 3"
    first = page.locator("table[data-paginate=standings] tbody tr:visible").all_inner_texts()
    assert len(first) == 3
    page.clock.run_for(1000)
    page.wait_for_function(
        "() => document.querySelector('[data-page-indicator=standings]').textContent"
        " === 'Page 2 of 3'",
    )
    second = page.locator("table[data-paginate=standings] tbody tr:visible").all_inner_texts()
    assert len(second) == 3 and set(second).isdisjoint(first)
    page.clock.run_for(1000)
    page.wait_for_function(
        "() => document.querySelector('[data-page-indicator=standings]').textContent"
        " === 'Page 3 of 3'",
    )
    assert page.locator("table[data-paginate=standings] tbody tr:visible").count() == 2
    page.clock.run_for(1000)
    page.wait_for_function(
        "() => document.querySelector('[data-page-indicator=standings]').textContent"
        " === 'Page 1 of 3'",
    )
    assert not page.locator("body > header").is_visible()  # no site chrome on the screen


def test_the_projector_fits_its_pages_to_the_screen(page, live_server, built_once):
    built_once("spades-8-teams", lambda: demo.build_spades(7, teams=8, played=1))
    tournament = Tournament.objects.get(name="Friday Night Spades")
    # A short screen (eight entries fit on a 1280×720 one since issue 15: see test_room.py).
    page.set_viewport_size({"width": 1280, "height": 380})
    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    rows = page.locator("table[data-paginate=standings] tbody tr:visible")
    shown = rows.count()
    assert 3 <= shown < 8
    bottom = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll("
        "'table[data-paginate=standings] tbody tr')].filter(r => !r.hidden)"
        ".map(r => r.getBoundingClientRect().bottom))"
    )
    assert bottom <= 380
    assert re.fullmatch(
        r"Page 1 of \d", page.locator("[data-page-indicator=standings]").inner_text()
    )


def a_club_evening() -> dict:
    """The demo's Spades Swiss (a round in play) and Solo Whist evening, small."""
    spades = demo.build_spades(7, teams=6, played=1)
    solo = demo.build_solo_whist(7, players=8, rounds=1)
    match = (
        Match.objects.filter(round__tournament=spades, round__number=1, is_bye=False)
        .order_by("table__number")
        .first()
    )
    player = Entry.objects.filter(tournament=spades).first().team.first
    return {
        "home": "/",
        "tournament": f"/t/{spades.slug}/",
        "round": f"/t/{spades.slug}/rounds/2/",
        "standings": f"/t/{spades.slug}/standings/",
        "match": f"/t/{spades.slug}/matches/{match.pk}/",
        "player": f"/players/{player.pk}/",
        "leaderboard": "/leaderboards/spades/",
        "solo-round": f"/t/{solo.slug}/rounds/1/",
        "projector": f"/t/{spades.slug}/projector/",
    }


def test_every_public_page_screenshots_and_passes_the_accessibility_basics(
    page, live_server, screenshot, accessibility
):
    pages = a_club_evening()
    for name, url in pages.items():
        page.set_viewport_size(PROJECTOR if name == "projector" else {"width": 390, "height": 844})
        page.goto(live_server.url + url)
        if name == "match":
            page.locator("details.play summary").first.click()  # the play, trick by trick
        screenshot(page, f"public-{name}")
        assert accessibility(page) == [], name
    page.set_viewport_size(DESKTOP)
    page.goto(live_server.url + pages["standings"])
    screenshot(page, "public-standings-desktop")
    assert accessibility(page) == []


def test_the_pages_in_japanese(page, live_server, screenshot, accessibility):
    pages = a_club_evening()
    page.goto(live_server.url + "/")
    with page.expect_navigation():
        page.get_by_role("button", name="日本語").click()
    for name in ("home", "tournament", "standings", "match", "player", "projector"):
        page.set_viewport_size(PROJECTOR if name == "projector" else {"width": 390, "height": 844})
        page.goto(live_server.url + pages[name])
        assert page.locator("html").get_attribute("lang") == "ja"
        screenshot(page, f"public-{name}-ja")
        assert accessibility(page) == [], name
    page.goto(live_server.url + pages["tournament"])
    assert page.get_by_text("スイス式").first.is_visible()


def test_registering_a_team_in_the_browser(page, live_server, accessibility, screenshot):
    td = director()
    tournament = services.create_tournament(
        actor=td, name="Open Spades", game="spades", rules="hoyle", format="swiss", rounds=3
    )
    services.open_registration(tournament=tournament, actor=td)
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    page.get_by_label("Team name (optional)").fill("Moonshot")
    page.get_by_label("Player", exact=True).fill("Aiko")
    page.get_by_label("Partner", exact=True).fill("Ben")
    screenshot(page, "public-register")
    assert accessibility(page) == []
    with page.expect_navigation():
        page.get_by_role("button", name="Enter our team").click()
    assert page.get_by_text("Moonshot is entered. See you at the table!").is_visible()
    assert page.locator("section[aria-labelledby=entries]").get_by_text("Moonshot").is_visible()
    page.get_by_label("Player", exact=True).fill("Aiko")
    page.get_by_label("Partner", exact=True).fill("Chika")
    with page.expect_navigation():
        page.get_by_role("button", name="Enter our team").click()
    assert page.get_by_role("alert").inner_text() == (
        "One of these players is already entered in this tournament."
    )
    assert accessibility(page) == []

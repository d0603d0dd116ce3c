"""A Swiss that ends in a top-8 knockout, in real Chromium, from the last Swiss round to the
final: the director reads the cut list (with the tie at the line, if any, in words), confirms it
and pairs the quarter-finals from the dashboard; a spectator's bracket page and the projector
follow every result over the event stream without a reload; the final crowns a champion.
Screenshots on a phone, a laptop and the projector (1920×1080), in English and Japanese, and
axe-core finds nothing on any of them."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import sign_in_browser
from tests.knockout.helpers import play_out
from tests.tournaments.conftest import finish_round
from tournaments import services
from tournaments.knockout import services as knockout
from tournaments.live import event_log
from tournaments.models import Match, Round
from tournaments.services import Actor, PlayerSpec

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}
TEAMS = [
    "Nil Desperandum",
    "Bag Ladies",
    "Spade Runners",
    "Blind Ambition",
    "Moonshot",
    "The Sandbaggers",
    "Trump Cards",
    "Big Slick",
    "Double Trouble",
    "Late Bidders",
]


@pytest.fixture(autouse=True)
def in_process(settings):
    settings.REDIS_URL = None
    event_log.clear_local()
    yield
    event_log.clear_local()


def cup() -> tuple:
    """Ten teams, a Swiss of three rounds (one hand a match), a top-8 cut with a third-place
    match and a consolation Swiss; the first two rounds closed, the last Swiss round in play."""
    user = get_user_model().objects.create_user("td", password="x")
    td = Actor(user=user, label="td")
    tournament = services.create_tournament(
        actor=td,
        name="Spring Cup",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=3,
        match_length="hands",
        match_hands=1,
        seed=4,
    )
    services.set_knockout(
        tournament=tournament,
        actor=td,
        top_cut=8,
        length="hands",
        count=1,
        third_place=True,
        consolation=True,
    )
    services.open_registration(tournament=tournament, actor=td)
    for n, name in enumerate(TEAMS):
        services.register_entry(
            tournament=tournament,
            actor=td,
            name=name,
            players=[PlayerSpec(f"Player {n}a"), PlayerSpec(f"Player {n}b")],
        )
    for seed in range(3):
        round_ = services.generate_round(tournament=tournament, actor=td)
        services.publish_round(round=round_, actor=td)
        if seed < 2:
            finish_round(round_, td, seed=seed)
    tournament.refresh_from_db()
    return tournament, td, user


def play_the_round(tournament, td, seed: int) -> Round:
    """The tables play the current knockout round out (the consolation tables too)."""
    round_ = tournament.round_set.order_by("-number").first()
    rng = random.Random(seed)
    for match in Match.objects.filter(round=round_, is_bye=False).order_by("table__number"):
        if match.bracket_round is not None:
            play_out(match, rng)
        else:
            services.finish_match(match=play_out_one(match, rng), actor=td)
    return round_


def play_out_one(match: Match, rng: random.Random) -> Match:
    from tournaments.demo.simulate import play_hand

    play_hand(match, rng)
    match.refresh_from_db()
    return match


def shots(
    page,
    live_server,
    screenshot,
    accessibility,
    name: str,
    path: str,
    sizes=(("phone", PHONE), ("laptop", LAPTOP)),
) -> None:
    for label, size in sizes:
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}{path}")
        screenshot(page, f"knockout-{name}-{label}")
        assert accessibility(page) == [], f"{name} {label}"
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], (
            f"{name} {label}: the bracket scrolls sideways in its box, never the page"
        )


def test_a_swiss_with_a_top_8_cut_from_the_last_swiss_round_to_the_final(
    page, live_server, another_page, screenshot, accessibility
):
    tournament, td, user = cup()
    slug = tournament.slug
    sign_in_browser(page, live_server, user)

    # The last Swiss round ends: the director closes it and sees the cut.
    last = tournament.round_set.get(number=3)
    finish_round(last, td, seed=9)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server.url}/director/{slug}/")
    link = page.get_by_role("link", name="Confirm the cut list…")
    assert link.is_visible()
    link.click()
    listed = knockout.cut_list(tournament=tournament)
    rows = page.locator("table.cut-list").first.locator("tbody tr")
    assert rows.count() == 8
    assert rows.nth(0).locator("th").inner_text().startswith(listed.entries[0].entry.name)
    if listed.decided_by:
        assert page.locator(".cut-line-note").is_visible()
    screenshot(page, "knockout-cut-list-laptop")
    assert accessibility(page) == []
    page.set_viewport_size(PHONE)
    screenshot(page, "knockout-cut-list-phone")
    assert accessibility(page) == []

    # A spectator opens the bracket before it exists; it appears once the cut is confirmed.
    spectator = another_page(viewport=PHONE)
    spectator.goto(f"{live_server.url}/t/{slug}/bracket/")
    assert spectator.get_by_text("The bracket is made when the director").is_visible()
    spectator.evaluate("window.notReloaded = true")
    projector = another_page(viewport=PROJECTOR)
    projector.goto(f"{live_server.url}/t/{slug}/bracket/projector/")
    projector.evaluate("window.notReloaded = true")
    # The room's own projector shows the Swiss standings until the cut, then the bracket.
    room = another_page(viewport=PROJECTOR)
    room.goto(f"{live_server.url}/t/{slug}/projector/")
    assert room.locator("#projector-standings").is_visible()
    assert room.locator("#projector-live .bracket-match").count() == 0
    room.evaluate("window.notReloaded = true")

    page.get_by_label("I checked this list against the standings").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm the list and make the bracket").click()
    assert page.get_by_text("The cut is confirmed").is_visible()
    spectator.locator(".bracket-match").first.wait_for()
    assert spectator.locator("#bracket-live h2").first.inner_text() == "Quarter-finals"
    room.locator("#projector-live .bracket-match").first.wait_for()
    assert room.locator("#projector-standings").count() == 0
    assert room.evaluate("window.notReloaded") is True

    # The director pairs the quarter-finals from the dashboard and publishes them.
    page.goto(f"{live_server.url}/director/{slug}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Pair round 4").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Publish round 4").click()
    quarter = tournament.round_set.get(number=4)
    assert quarter.matches.filter(bracket_round=1).count() == 4
    assert quarter.matches.filter(bracket_round__isnull=True, is_bye=False).count() == 1

    # Results arrive at the tables: the spectator's bracket and the projector follow them.
    for number, seed, decided in ((4, 1, 4), (5, 2, 6), (6, 3, 8)):
        if number > 4:
            round_ = services.generate_round(tournament=tournament, actor=td)
            services.publish_round(round=round_, actor=td)
        play_the_round(tournament, td, seed)
        services.close_round(round=tournament.round_set.get(number=number), actor=td)
        for viewer, live in (
            (spectator, "#bracket-live"),
            (projector, "#bracket-live"),
            (room, "#projector-live"),
        ):
            viewer.wait_for_function(
                f"document.querySelectorAll('{live} .bracket-line.won').length >= {decided}",
            )
            assert viewer.evaluate("window.notReloaded") is True
        if number == 5:
            screenshot(spectator, "knockout-bracket-semis-phone")
    tournament.refresh_from_db()
    board = knockout.board(tournament)
    assert board.complete
    champion = tournament.entries.get(pk=board.bracket.champion).name
    projector.wait_for_function("document.querySelector('.bracket-champion') !== null")
    assert champion in projector.locator(".bracket-champion").inner_text()
    assert spectator.locator(".bracket-third .bracket-line.won").count() == 1
    screenshot(projector, "knockout-bracket-projector")
    assert accessibility(projector) == []
    assert projector.evaluate("document.documentElement.scrollHeight") <= 1080, (
        "the whole bracket on one projector screen"
    )
    room.wait_for_function("document.querySelector('#projector-live .bracket-champion')")
    assert champion in room.locator("#projector-live .bracket-champion").inner_text()
    assert room.locator("#projector-live .bracket-round").count() == 3
    assert room.locator("#projector-live .bracket-third .bracket-line.won").count() == 1
    screenshot(room, "knockout-room-projector")
    assert accessibility(room) == []
    assert room.evaluate("document.documentElement.scrollHeight") <= 1080, (
        "the round's tables and the whole bracket on one projector screen"
    )
    assert room.evaluate("document.documentElement.scrollWidth") <= 1920

    # Every bracket page, in English and Japanese.
    shots(page, live_server, screenshot, accessibility, "bracket", f"/t/{slug}/bracket/")
    shots(page, live_server, screenshot, accessibility, "director", f"/director/{slug}/knockout/")
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    shots(page, live_server, screenshot, accessibility, "bracket-ja", f"/t/{slug}/bracket/")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.get_by_role("heading", name="決勝", exact=True).is_visible()
    shots(
        page,
        live_server,
        screenshot,
        accessibility,
        "projector-ja",
        f"/t/{slug}/bracket/projector/",
        sizes=(("projector", PROJECTOR),),
    )
    shots(
        page,
        live_server,
        screenshot,
        accessibility,
        "room-projector-ja",
        f"/t/{slug}/projector/",
        sizes=(("projector", PROJECTOR),),
    )
    assert page.locator("#projector-bracket").inner_text() == "トーナメント表"
    shots(
        page, live_server, screenshot, accessibility, "director-ja", f"/director/{slug}/knockout/"
    )


def test_the_new_tournament_form_asks_what_the_chosen_format_uses(
    page, live_server, screenshot, accessibility
):
    """A knockout is not asked for rounds nor a cut; a Swiss is asked for its top cut and the
    knockout's settings; another format for neither. Hidden parts are disabled (not sent)."""
    from tournaments.models import Tournament

    user = get_user_model().objects.create_user("td", password="x")
    sign_in_browser(page, live_server, user)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server.url}/director/")
    form = page.locator("form[data-rules-form]")
    rounds, cut = form.locator("input[name=rounds]"), form.locator("[name=knockout-top_cut]")
    length = form.locator("[name=knockout-length]")
    assert rounds.is_visible() and cut.is_visible() and length.is_visible()  # a Swiss

    form.locator("select[name=format]").select_option("knockout")
    assert not rounds.is_visible() and rounds.is_disabled()
    assert not cut.is_visible() and cut.is_disabled()
    assert length.is_visible() and length.is_enabled()
    form.locator("#knockout-settings").scroll_into_view_if_needed()
    screenshot(page, "knockout-new-tournament-laptop")
    assert accessibility(page) == []

    form.locator("select[name=format]").select_option("round-robin")
    assert rounds.is_visible() and not length.is_visible() and length.is_disabled()

    form.locator("select[name=format]").select_option("swiss")
    form.locator("input[name=name]").fill("Autumn Cup")
    rounds.fill("4")
    cut.select_option("4")
    length.select_option("best-of")
    form.locator("input[name=knockout-count]").fill("3")
    form.locator("input[name=knockout-third_place]").check()
    page.set_viewport_size(PHONE)
    form.locator("#knockout-settings").scroll_into_view_if_needed()
    screenshot(page, "knockout-new-tournament-phone")
    assert accessibility(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    with page.expect_navigation():
        form.get_by_role("button", name="Create tournament").click()
    cup = Tournament.objects.get(name="Autumn Cup")
    assert (cup.rounds, cup.top_cut, cup.knockout_length, cup.knockout_count, cup.third_place) == (
        4,
        4,
        "best-of",
        3,
        True,
    )

"""In real Chromium (a phone's viewport unless stated): a director signs in, registers a team,
pairs and publishes a round, follows the tables' progress, and corrects a hand; the house
options follow the chosen game without a page load. Each page passes the accessibility basics
and leaves a screenshot."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.tournaments.builders import HAND_1
from tournaments import services
from tournaments.demo import simulate
from tournaments.models import Match, Round, Tournament
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-club-password"


@pytest.fixture
def td(db):
    return get_user_model().objects.create_user("aiko", password=PASSWORD)


def sign_in(page, live_server, next_path: str = "/director/") -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.get_by_label("Username").fill("aiko")
    page.get_by_label("Password").fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()


def make(user, *, teams: int) -> Tournament:
    actor = Actor(user=user)
    tournament = services.create_tournament(
        actor=actor,
        name="Friday Spades",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=3,
        venue="Club room",
    )
    services.open_registration(tournament=tournament, actor=actor)
    for n in range(1, teams + 1):
        services.register_entry(
            tournament=tournament,
            actor=actor,
            players=[f"Player {n}A", f"Player {n}B"],
            name=f"Team {n}",
        )
    return tournament


def test_a_director_registers_pairs_publishes_and_follows_a_round(
    page, live_server, td, screenshot, accessibility
):
    tournament = make(td, teams=3)
    sign_in(page, live_server)

    assert page.get_by_role("heading", name="Director", exact=True).is_visible()
    screenshot(page, "director-home")
    assert accessibility(page) == []

    page.get_by_role("link", name="Friday Spades").click()
    page.get_by_role("link", name="Manage entries").click()
    page.get_by_label("Player", exact=True).fill("Mai Ito")
    page.get_by_label("Partner", exact=True).fill("Tom Evans")
    page.get_by_label("Team name").fill("Moonshot")
    with page.expect_navigation():
        page.get_by_role("button", name="Register the team").click()
    assert page.get_by_text("Moonshot is entered.").is_visible()
    assert page.get_by_role("row", name="Moonshot").is_visible()
    assert accessibility(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways page

    page.get_by_role("link", name="Dashboard").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Pair round 1").click()
    assert page.get_by_role("heading", name="Review the draft").is_visible()
    assert page.locator("table.data tbody tr").count() == 2
    screenshot(page, "director-round-draft")
    assert accessibility(page) == []

    with page.expect_navigation():
        page.get_by_role("button", name="Publish round 1").click()
    assert page.get_by_text("Round 1 is published").is_visible()

    round_ = Round.objects.get(tournament=tournament, number=1)
    rng = random.Random(5)
    first, second = Match.objects.filter(round=round_).order_by("table__number")
    simulate.play_match(first, rng, hands=2, director=Actor(user=td))
    simulate.play_hand(second, rng, confirm=False)

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/director/{tournament.slug}/")
    progress = page.locator("#progress")
    table_1 = progress.get_by_role("row", name="1", exact=False).first
    assert "Finished" in table_1.inner_text()
    footer = progress.locator("tfoot").inner_text()
    assert "1 of 2 matches finished" in footer
    queue = page.locator("#queue")
    assert "Awaiting confirmation" in queue.inner_text()
    screenshot(page, "director-dashboard")
    assert accessibility(page) == []

    for tab in ("Setup", "Entries", "Audit trail"):
        with page.expect_navigation():
            page.get_by_role("navigation", name="Tournament").get_by_role("link", name=tab).click()
        expect(page.get_by_role("heading", name=tab, exact=True)).to_be_visible()
        page.locator("details").evaluate_all("(all) => all.forEach(d => d.open = true)")
        assert accessibility(page) == [], tab
    assert page.get_by_text("round-published").is_visible()


def test_a_director_corrects_a_hand_with_a_reason(page, live_server, td, screenshot, accessibility):
    tournament = make(td, teams=2)
    director = Actor(user=td)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    match = Match.objects.get(round=round_)
    services.submit_hand(match=match, actor=director, record=HAND_1)
    path = f"/director/{tournament.slug}/matches/{match.pk}/hands/1/"
    sign_in(page, live_server, path)

    assert page.get_by_role("heading", name="Correct this hand").is_visible()
    page.get_by_role("radio", name="Advanced: the record as JSON").check()
    record = page.get_by_label("Hand record (JSON)")
    record.fill(record.input_value().replace('"N": 3', '"N": 4').replace('"E": 4', '"E": 3'))
    page.get_by_label("Reason for the correction").fill("North miscounted their tricks")
    screenshot(page, "director-hand-correction")
    assert accessibility(page) == []
    with page.expect_navigation():
        page.get_by_role("button", name="Save the correction").click()

    assert page.get_by_text("Hand 1 corrected.").is_visible()
    history = page.locator("ol.versions")
    assert "Version 2" in history.inner_text()
    assert "North miscounted their tricks" in history.inner_text()


def test_the_house_options_follow_the_game_without_a_page_load(
    page, live_server, td, accessibility
):
    sign_in(page, live_server)
    page.get_by_label("Name", exact=True).fill("Whist drive")
    assert page.get_by_role("button", name="Show the options of this game and preset").is_hidden()

    page.get_by_label("Game", exact=True).select_option("whist")
    preset = page.get_by_label("Rule preset")
    preset.locator("option[value=long-whist]").wait_for(state="attached")
    preset.select_option("long-whist")
    page.locator("input[name=options_for][value='whist:long-whist']").wait_for(state="attached")
    page.locator("details.options summary").click()

    assert page.get_by_label("Play rubbers").is_checked()
    assert page.get_by_label("Target score").input_value() == "10"
    assert page.get_by_label("Name", exact=True).input_value() == "Whist drive"
    assert accessibility(page) == []

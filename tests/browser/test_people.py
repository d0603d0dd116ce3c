"""One person across clubs in real Chromium, on a phone (390 × 844) and a laptop (1366 × 768),
in English and Japanese: South's director types the claim code Aiko brings from North on
South's page of her, links the records, and her person's page lists both clubs' events;
nothing wider than the screen; screenshotted and checked against the accessibility basics."""

from __future__ import annotations

import pytest

from tests.clubs.people_builders import club_event, director_of
from tournaments.models import Club, Player, Tournament, home_club
from tournaments.people import services as people

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-test-password-7"
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.fixture
def clubs(settings):
    settings.REDIS_URL = None
    home_club()
    north = Club.objects.create(name="North Spades Club", slug="north")
    south = Club.objects.create(name="South Whist Circle", slug="south")
    north_td = director_of(north, "north-td", PASSWORD)
    south_td = director_of(south, "south-td", PASSWORD)
    club_event(
        north_td, "North Monday", [("Aiko Tanaka", "Ben Ode"), ("Cai Lun", "Dee Moss")], day=2
    )
    club_event(
        south_td, "South Friday", [("Aiko Tanaka", "Eve Stone"), ("Fay Ng", "Gus Hart")], day=6
    )
    at_north = Player.objects.get(club=north, name="Aiko Tanaka")
    at_south = Player.objects.get(club=south, name="Aiko Tanaka")
    code = people.issue_claim_code(actor=north_td, player=at_north).code
    return at_south, code


def sign_in(page, live_server, username: str, next_path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").last.click()
    assert page.url.endswith(next_path)


@pytest.mark.parametrize("size", ["phone", "laptop"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_director_links_a_person_and_their_page_lists_both_clubs(
    page, live_server, clubs, screenshot, accessibility, language, size
):
    at_south, code = clubs
    page.set_viewport_size(SIZES[size])
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    member = f"/c/south/director/members/{at_south.pk}/clubs/"
    sign_in(page, live_server, "south-td", member)
    page.locator(f"html[lang={language}]").wait_for()
    page.locator("#claim-code").fill(code.lower())
    page.locator("#claim-confirm").check()
    assert page.evaluate(OVERFLOW) <= 0
    screenshot(page, f"people-link-{size}-{language}")
    assert accessibility(page) == []
    with page.expect_navigation():
        page.locator("form:has(#claim-code) button[type=submit]").click()
    assert page.locator("ul.linked-records li").count() == 2
    assert "North Spades Club" in page.locator("ul.linked-records").inner_text()
    assert page.evaluate(OVERFLOW) <= 0
    screenshot(page, f"people-linked-{size}-{language}")
    assert accessibility(page) == []
    with page.expect_navigation():
        page.locator("a[href^='/people/']").first.click()
    assert "/people/" in page.url
    assert page.locator("h2").all_inner_texts()[:2] == ["North Spades Club", "South Whist Circle"]
    assert page.locator("table.data tbody tr").count() == 2
    assert page.evaluate(OVERFLOW) <= 0
    screenshot(page, f"people-person-{size}-{language}")
    assert accessibility(page) == []


def test_pin_slips_print_each_players_claim_code(page, live_server, clubs, screenshot):
    north_event = Tournament.objects.get(name="North Monday")
    page.set_viewport_size(SIZES["laptop"])
    slips = f"/c/north/director/{north_event.slug}/print/pins/"
    sign_in(page, live_server, "north-td", slips)
    assert page.locator(".pin-slip .claim").count() == 0
    with page.expect_navigation():
        page.get_by_role("button", name="Print with claim codes").click()
    assert page.locator(".pin-slip .claim").count() == 4  # two teams of two
    screenshot(page, "people-pin-slips-laptop-en")

"""A member's page on a phone (390 × 844), in English and Japanese: a duplicate evening and a
Swiss evening published from the room, the rating's history chart drawn in the page (SVG, no
script needed), the personal score card, and finding oneself by name; nothing wider than the
screen; screenshotted and checked against the accessibility basics."""

from __future__ import annotations

import pytest

from tournaments.demo import club as demo
from tournaments.models import DuplicatePair, Tournament
from tournaments.publishing import payload, services
from tournaments.services import Actor
from tournaments.services import ratings as club_ratings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

#: How far the page is wider than the phone's screen (0: it fits).
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def publish(key, tournament: Tournament, slug: str) -> Tournament:
    document = payload.build(tournament)
    document["tournament"]["slug"] = slug  # room and site share the test database
    document["seasons"] = []
    services.receive(key=key, slug=slug, document=document)
    return Tournament.objects.get(slug=slug)


@pytest.fixture
def member(settings, django_user_model):
    settings.REDIS_URL = None
    owner = django_user_model.objects.create_user("site-director")
    key, _secret = services.create_key(actor=Actor(user=owner))
    site = publish(key, demo.build_duplicate_spades(4, tables=3), "duplicate-night")
    club_ratings.recompute(game=site.game)
    pair = DuplicatePair.objects.filter(tournament=site).order_by("number").first()
    return pair.entry.team.first


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_members_page_reads_on_a_phone(
    page, live_server, member, screenshot, accessibility, language
):
    if language == "ja":
        page.goto(live_server.url + "/")
        with page.expect_navigation():
            page.get_by_role("button", name="日本語").click()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/players/")
    page.get_by_role("searchbox").fill(member.name.split()[0])
    with page.expect_navigation():
        page.get_by_role("searchbox").press("Enter")
    assert page.evaluate(OVERFLOW) <= 0
    suffix = "" if language == "en" else "-ja"
    screenshot(page, f"member-search-phone{suffix}")
    assert accessibility(page) == []
    with page.expect_navigation():
        # (the room's own player of that name is found too: room and site share the database)
        page.locator(f'a[href="/players/{member.pk}/"]').click()
    assert page.url.endswith(f"/players/{member.pk}/")
    assert page.locator("h1").inner_text() == member.name
    assert page.locator("figure.chart svg polyline").count() >= 1  # the rating's history
    card = page.locator("table.score-card").first
    assert card.locator("tbody tr").count() >= 1
    assert page.evaluate(OVERFLOW) <= 0
    screenshot(page, f"member-phone{suffix}")
    assert accessibility(page) == []

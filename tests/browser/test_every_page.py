"""Every page of TrickTable passes axe-core at WCAG 2.1 AA with zero violations: the public
pages, the director's pages, the printing and import pages, the checker, the scoring page and
the error pages, on the demo's tournaments — in English on a phone and in Japanese on a laptop
(and the projector at 1920×1080)."""

from __future__ import annotations

import pytest

from tests import demo_club
from tests.conftest import sign_in_browser
from tournaments import services
from tournaments.demo import club as demo
from tournaments.models import Match, Round, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}


def addresses() -> dict[str, str]:
    """One address of every kind of page, on the demo's data."""
    spades = Tournament.objects.get(name="Friday Night Spades")
    cup = Tournament.objects.get(name="Spring Spades Cup")
    solo = Tournament.objects.get(game="solo-whist")
    duplicate = Tournament.objects.get(game="spades", format="duplicate")
    barometer = Tournament.objects.get(game="whist", format="duplicate")
    d, b = duplicate.slug, barometer.slug
    played = Round.objects.filter(tournament=spades, state=Round.State.CLOSED).first()
    match = Match.objects.filter(round=played, is_bye=False).first()
    table = Table.objects.filter(round__tournament=spades).order_by("-round__number").first()
    director = demo.director_actor()
    _token, secret = services.issue_table_token(table=table, actor=director)
    s, o = spades.slug, solo.slug
    return {
        "home": "/",
        "tournament": f"/t/{s}/",
        "standings": f"/t/{s}/standings/",
        "round": f"/t/{s}/rounds/{played.number}/",
        "match": f"/t/{s}/matches/{match.pk}/",
        "solo-standings": f"/t/{o}/standings/",
        "player": f"/players/{match.seats.first().entry.team.first_id}/",
        "leaderboard": "/leaderboards/spades/",
        "checker": "/check/",
        "not-found": "/t/no-such-tournament/",
        "director-home": "/director/",
        "dashboard": f"/director/{s}/",
        "setup": f"/director/{s}/setup/",
        "entries": f"/director/{s}/entries/",
        "director-round": f"/director/{s}/rounds/{played.number}/",
        "director-match": f"/director/{s}/matches/{match.pk}/",
        "director-hand": f"/director/{s}/matches/{match.pk}/hands/1/",
        "audit": f"/director/{s}/audit/",
        "import-entries": f"/director/{s}/import/entries/",
        "duplicate-new": "/director/duplicate/new/",
        "duplicate-director": f"/director/{b}/duplicate/",
        "duplicate-boards": f"/director/{d}/duplicate/print/boards/",
        "duplicate-guide": f"/director/{d}/duplicate/print/guide/",
        "duplicate-ranking": f"/duplicate/{d}/",
        "duplicate-barometer": f"/duplicate/{b}/",
        "duplicate-traveller": f"/duplicate/{d}/boards/1/",
        "duplicate-card": f"/duplicate/{d}/pairs/1/",
        "duplicate-deals": f"/duplicate/{d}/deals/",
        "duplicate-table": f"/duplicate/{b}/table/1/",
        "import-hands": f"/director/{s}/import/hands/",
        "print-cards": f"/director/{s}/print/round/{table.round.number}/cards/",
        "scoring": services.scoring_path(table, secret),
        "bracket": f"/t/{cup.slug}/bracket/",
        "bracket-projector": f"/t/{cup.slug}/bracket/projector/",
        "knockout": f"/director/{cup.slug}/knockout/",
        "knockout-setup": f"/director/{s}/knockout/",
        "members-search": "/players/?q=an",
        "members-director": "/director/members/?q=an",
        "people-members": "/director/members/clubs/?q=an",
        "people-member": f"/director/members/{match.seats.first().entry.team.first_id}/clubs/",
        "print-pins": f"/director/{s}/print/pins/",
        "club-directors": "/director/club/",
        "club-archive": "/director/club/archive/",
        "federation-club": "/director/federation/",
        "federation": "/federation/",
        "clubs": "/clubs/",
    }


#: The pages in groups of a few, each group a test of its own (in both languages): the groups run
#: on whichever pytest-xdist worker is free, instead of one test visiting every page in turn.
GROUPS = {
    "public": ("home", "tournament", "standings", "round", "match", "solo-standings", "player"),
    "public-more": (
        "leaderboard",
        "checker",
        "not-found",
        "members-search",
        "bracket",
        "bracket-projector",
    ),
    "director": (
        "director-home",
        "dashboard",
        "setup",
        "entries",
        "director-round",
        "director-match",
    ),
    "director-more": (
        "director-hand",
        "audit",
        "import-entries",
        "import-hands",
        "print-cards",
        "knockout",
        "knockout-setup",
        "members-director",
    ),
    "duplicate-director": (
        "duplicate-new",
        "duplicate-director",
        "duplicate-boards",
        "duplicate-guide",
        "duplicate-ranking",
    ),
    "duplicate-public": (
        "duplicate-barometer",
        "duplicate-traveller",
        "duplicate-card",
        "duplicate-deals",
        "duplicate-table",
        "scoring",
    ),
    "clubs": (
        "people-members",
        "people-member",
        "print-pins",
        "club-directors",
        "club-archive",
        "federation-club",
        "federation",
        "clubs",
    ),
}
LANGUAGES = {"en": PHONE, "ja": LAPTOP}


def on_the_demo(page, live_server, built_once) -> dict[str, str]:
    """The demo club (`manage.py demo`, built once per run), the browser signed in as its
    director; returns every page's address."""
    built_once(demo_club.NAME, demo_club.build)
    pages = addresses()
    sign_in_browser(page, live_server, demo.director_actor().user)
    return pages


def speak(page, live_server, language: str) -> None:
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )


@pytest.mark.parametrize("group", GROUPS)
def test_every_page_passes_axe_in_english_on_a_phone_and_japanese_on_a_laptop(
    page, live_server, built_once, accessibility, screenshot, group
):
    pages = on_the_demo(page, live_server, built_once)
    grouped = [name for names in GROUPS.values() for name in names]
    assert sorted(grouped) == sorted(pages), "every page is in exactly one group"
    found = {}
    for language, viewport in LANGUAGES.items():
        speak(page, live_server, language)
        page.set_viewport_size(viewport)
        for name in GROUPS[group]:
            page.goto(f"{live_server.url}{pages[name]}")
            problems = accessibility(page)
            if problems:
                found[f"{name} ({language})"] = problems
                screenshot(page, f"axe-{name}-{language}")
    assert found == {}


def test_the_projector_passes_axe_at_1920_by_1080_in_japanese(
    page, live_server, built_once, accessibility
):
    on_the_demo(page, live_server, built_once)
    speak(page, live_server, "ja")
    page.set_viewport_size(PROJECTOR)
    spades = Tournament.objects.get(name="Friday Night Spades")
    page.goto(f"{live_server.url}/t/{spades.slug}/projector/")
    assert accessibility(page) == []

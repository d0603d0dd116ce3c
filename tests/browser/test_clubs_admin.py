"""Running clubs in real Chromium at 1366 × 768, in English and Japanese: the administrator's
list of clubs and a club's page, an invitation made and opened by the new director in another
browser, the club's directors' page, the installation's front page and a suspended club's
page. Each page fits the screen, passes the accessibility basics and leaves a screenshot."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.conftest import patient, sign_in_browser
from tournaments import services
from tournaments.clubs import running
from tournaments.models import home_club
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
LOCALES = {"en": "en-US", "ja": "ja-JP"}
HEADINGS = {
    "manage": {"en": "The site's clubs", "ja": "サイトのクラブ"},
    "join": {"en": "An invitation to direct a club", "ja": "クラブのディレクターへの招待"},
    "directors": {"en": "The club's directors", "ja": "クラブのディレクター"},
    "front": {"en": "Clubs on this site", "ja": "このサイトのクラブ"},
    "suspended": {"en": "This club is suspended", "ja": "このクラブは停止中です"},
}
FITS = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


@pytest.fixture
def installation(db):
    home_club()
    admin = get_user_model().objects.create_superuser("site-admin")
    actor = Actor(user=admin)
    north = running.create_club(actor=actor, name="North Spades Club", slug="north")
    north_td = get_user_model().objects.create_user("north-td")
    north.directors.add(north_td)
    services.create_tournament(
        actor=Actor(user=north_td, club=north),
        name="Friday Spades",
        game="spades",
        rules={"preset": "standard"},
        format="swiss",
        rounds=3,
    )
    quiet = running.create_club(actor=actor, name="Quiet Whist Club", slug="quiet")
    running.suspend_club(actor=actor, club=quiet, reason="The club asked for a pause.")
    return admin


def looked_at(tab, kind: str, lang: str, screenshot, accessibility) -> None:
    expect(tab.locator("h1")).to_have_text(HEADINGS[kind][lang])
    assert tab.locator("html").get_attribute("lang") == lang
    assert tab.evaluate(FITS), f"{kind} {lang} scrolls sideways"
    screenshot(tab, f"clubs-{kind}-{lang}-laptop")
    assert accessibility(tab) == [], (kind, lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_administrator_invites_a_clubs_director_who_joins(
    page, live_server, installation, screenshot, accessibility, lang
):
    browser = page.context.browser
    admin_context = patient(browser.new_context(locale=LOCALES[lang], viewport=LAPTOP))
    newcomer_context = patient(browser.new_context(locale=LOCALES[lang], viewport=LAPTOP))
    try:
        tab = admin_context.new_page()
        sign_in_browser(tab, live_server, installation)
        tab.goto(f"{live_server.url}/clubs/manage/")
        expect(tab.locator("tr[data-club='quiet'] .badge")).to_be_visible()
        looked_at(tab, "manage", lang, screenshot, accessibility)

        tab.locator("tr[data-club='north'] a").click()
        tab.locator("#invite-label").fill("Aiko")
        tab.locator("form[action$='/invite/'] button").click()
        link = tab.locator("[data-invitation-link]")
        expect(link).to_be_visible()
        assert tab.evaluate(FITS)
        screenshot(tab, f"clubs-manage-club-{lang}-laptop")
        assert accessibility(tab) == []
        address = link.inner_text()

        newcomer = newcomer_context.new_page()
        newcomer.goto(address)
        looked_at(newcomer, "join", lang, screenshot, accessibility)
        newcomer.locator("#id_username").fill(f"aiko-{lang}")
        newcomer.locator("#id_password1").fill("kettle-Pharaoh-97")
        newcomer.locator("#id_password2").fill("kettle-Pharaoh-97")
        newcomer.locator("form.setup button").click()
        expect(newcomer).to_have_url(f"{live_server.url}/c/north/director/club/")
        expect(newcomer.locator(".messages li")).to_be_visible()
        looked_at(newcomer, "directors", lang, screenshot, accessibility)

        tab.goto(f"{live_server.url}/clubs/")
        looked_at(tab, "front", lang, screenshot, accessibility)
        answer = tab.goto(f"{live_server.url}/c/quiet/")
        assert answer is not None and answer.status == 403
        looked_at(tab, "suspended", lang, screenshot, accessibility)
    finally:
        admin_context.close()
        newcomer_context.close()

"""The error pages in real Chromium with DEBUG off, as on the evening server: a mistyped address,
a server error, the database out of reach, a form sent with its cookies gone, another
director's page and a draft round's public page, on a phone and a wide screen, in English and
Japanese. Each passes the accessibility basics, leads back
home, and leaves a screenshot."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tournaments import services
from tournaments.services import Actor, PlayerSpec
from tournaments.views import public as public_views

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "wide": {"width": 1920, "height": 1080}}
LOCALES = {"en": "en-US", "ja": "ja-JP"}
HEADINGS = {
    "404": {"en": "Page not found", "ja": "ページが見つかりません"},
    "500": {"en": "Something went wrong on our side", "ja": "サーバー側で問題が発生しました"},
    "csrf": {"en": "Your form expired", "ja": "フォームの有効期限が切れました"},
    "403": {"en": "You cannot open this page", "ja": "このページは開けません"},
    "503": {"en": "Back in a moment", "ja": "少々お待ちください"},
}


@pytest.fixture
def evening(settings):
    settings.DEBUG = False


@pytest.fixture
def club(db):
    actor = Actor(user=get_user_model().objects.create_user("td"))
    spades = services.create_tournament(
        actor=actor, name="Friday Spades", game="spades", rules="standard", format="swiss", rounds=3
    )
    services.open_registration(tournament=spades, actor=actor)
    for n in range(1, 5):
        services.register_entry(
            tournament=spades,
            actor=actor,
            name=f"Team {n}",
            players=[PlayerSpec(f"P{n} North"), PlayerSpec(f"P{n} South")],
        )
    services.generate_round(tournament=spades, actor=actor)  # round 1: a draft
    open_event = services.create_tournament(
        actor=actor, name="Open Spades", game="spades", rules="standard", format="swiss", rounds=2
    )
    services.open_registration(tournament=open_event, actor=actor)
    return {"running": spades, "open": open_event}


def _pages(page):
    """One page per language and screen size, each in its own browser context."""
    browser = page.context.browser
    for lang, locale in LOCALES.items():
        for size, viewport in VIEWPORTS.items():
            context = browser.new_context(locale=locale, viewport=viewport)
            try:
                yield lang, size, context.new_page()
            finally:
                context.close()


def _check(tab, kind: str, lang: str, size: str, screenshot, accessibility) -> None:
    expect(tab.locator("h1")).to_have_text(HEADINGS[kind][lang])
    assert tab.locator("html").get_attribute("lang") == lang
    expect(tab.locator(".ways-back a[href='/']")).to_be_visible()
    assert "Traceback" not in tab.content()
    no_sideways_scroll = tab.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    assert no_sideways_scroll, f"{kind} {lang} {size} scrolls sideways"
    screenshot(tab, f"error-{kind}-{lang}-{size}")
    assert accessibility(tab) == [], (kind, lang, size)


def test_a_mistyped_address(page, live_server, evening, club, screenshot, accessibility):
    for lang, size, tab in _pages(page):
        response = tab.goto(f"{live_server.url}/t/frday-spades/")
        assert response.status == 404
        _check(tab, "404", lang, size, screenshot, accessibility)


def test_a_server_error(page, live_server, evening, club, screenshot, accessibility, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(public_views, "render", boom)
    for lang, size, tab in _pages(page):
        response = tab.goto(f"{live_server.url}/")
        assert response.status == 500
        _check(tab, "500", lang, size, screenshot, accessibility)


def test_the_database_out_of_reach(
    page, live_server, evening, club, screenshot, accessibility, monkeypatch
):
    """Issue 30, item 2: the database out of reach is the friendly 503 with Retry-After and a
    way to try the page again, never the 500 page."""
    from django.db import OperationalError

    def unreachable(*args, **kwargs):
        raise OperationalError("couldn't get a connection after 0.50 sec")

    monkeypatch.setattr(public_views, "render", unreachable)
    for lang, size, tab in _pages(page):
        address = f"/t/{club['running'].slug}/"
        response = tab.goto(f"{live_server.url}{address}")
        assert response.status == 503 and response.headers["retry-after"] == "5"
        expect(tab.locator(f".ways-back a[href='{address}']")).to_be_visible()  # try again
        _check(tab, "503", lang, size, screenshot, accessibility)


def test_a_form_sent_after_its_cookie_is_gone(
    page, live_server, evening, club, screenshot, accessibility
):
    for lang, size, tab in _pages(page):
        tab.goto(f"{live_server.url}/t/{club['open'].slug}/")
        tab.locator("#id_player_1").fill("Aiko")
        tab.locator("#id_player_2").fill("Ben")
        tab.context.clear_cookies()  # the browser dropped its cookies (or keeps them off)
        with tab.expect_navigation() as navigation:
            tab.locator("form.register button[type=submit]").click()
        assert navigation.value.status == 403
        _check(tab, "csrf", lang, size, screenshot, accessibility)


def test_a_draft_round_says_its_pairings_are_not_published(
    page, live_server, evening, club, screenshot, accessibility
):
    said = {
        "en": "Round 1's pairings are not published yet.",
        "ja": "ラウンド 1 の組み合わせはまだ発表されていません。",
    }
    for lang, size, tab in _pages(page):
        response = tab.goto(f"{live_server.url}/t/{club['running'].slug}/rounds/1/")
        assert response.status == 404
        expect(tab.get_by_text(said[lang])).to_be_visible()
        expect(tab.locator(f"main a[href='/t/{club['running'].slug}/']").first).to_be_visible()
        assert "Team 1" not in tab.content()
        screenshot(tab, f"error-draft-round-{lang}-{size}")
        assert accessibility(tab) == [], (lang, size)


def test_another_directors_page(page, live_server, evening, club, screenshot, accessibility):
    from tests.conftest import sign_in_browser

    other = get_user_model().objects.create_user("ben")
    for lang, size, tab in _pages(page):
        sign_in_browser(tab, live_server, other)
        response = tab.goto(f"{live_server.url}/director/{club['running'].slug}/")
        assert response.status == 403
        _check(tab, "403", lang, size, screenshot, accessibility)
        expect(tab.locator(".ways-back a[href='/director/']")).to_be_visible()
        expect(tab.locator(".ways-back a[href^='/accounts/login/?next=']")).to_be_visible()

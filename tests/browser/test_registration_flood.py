"""Public registration in real Chromium (issue 30, item 4): a phone past the `register` rate
sees the form's own message in its language (and nothing is entered); the director closes
registration from the dashboard on a laptop, after which the public page has no form. Each
page passes the accessibility basics and leaves a screenshot."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.conftest import patient, sign_in_browser
from tournaments import services
from tournaments.models import Entry
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
MESSAGES = {
    "en": "This device sent too many registrations.",
    "ja": "この端末からの参加登録が多すぎます。",
}


@pytest.fixture
def event(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "register": "1/hour",
        },
    }
    user = get_user_model().objects.create_user("aiko")
    actor = Actor(user=user)
    tournament = services.create_tournament(
        actor=actor, name="Friday Spades", game="spades", rules="standard", format="swiss", rounds=3
    )
    services.open_registration(tournament=tournament, actor=actor)
    return tournament, user


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_phone_past_the_rate_is_told_in_its_language(
    page, live_server, event, lang, screenshot, accessibility
):
    from tests.conftest import clear_cache

    clear_cache()
    tournament, _ = event
    context = patient(
        page.context.browser.new_context(
            locale="ja-JP" if lang == "ja" else "en-US", viewport=PHONE
        )
    )
    try:
        phone = context.new_page()
        for n in (1, 2):
            phone.goto(f"{live_server.url}/t/{tournament.slug}/")
            phone.locator("input[name='player_1']").fill(f"Ann {n}")
            phone.locator("input[name='player_2']").fill(f"Bob {n}")
            with phone.expect_navigation():
                phone.locator("form:has(input[name='player_1']) [type='submit']").click()
        expect(phone.get_by_text(MESSAGES[lang])).to_be_visible()
        assert Entry.objects.filter(tournament=tournament).count() == 1
        screenshot(phone, f"registration-throttled-{lang}-phone")
        assert accessibility(phone) == []
    finally:
        context.close()


def test_the_director_closes_registration_from_the_dashboard(
    page, live_server, event, screenshot, accessibility
):
    tournament, user = event
    page.set_viewport_size(LAPTOP)
    sign_in_browser(page, live_server, user)
    page.goto(f"{live_server.url}/director/{tournament.slug}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Close registration").click()
    expect(
        page.get_by_text("Registration is closed: only directors enter players now.")
    ).to_be_visible()
    expect(page.get_by_role("button", name="Open registration")).to_be_visible()
    screenshot(page, "registration-closed-dashboard-en-laptop")
    assert accessibility(page) == []
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    assert page.locator("input[name='player_1']").count() == 0

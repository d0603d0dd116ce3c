"""Publishing in real Chromium, in English and Japanese: the laptop's publishing page (what was
sent, a failure in plain words), the dashboard's panel, the site's keys, and a published event's
public page; each screenshotted and checked against the accessibility basics."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.conftest import sign_in_browser
from tournaments.demo import club as demo
from tournaments.models import Publication, PublishTarget
from tournaments.publishing import payload, services
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def evening(settings):
    """A room's event owed to a site that could not be reached, and the same event published to
    this site under another slug (room and site share the test database)."""
    settings.REDIS_URL = None
    settings.PUBLISH_URL = settings.PUBLISH_KEY = ""
    event = demo.build_spades(3, teams=4, played=1)
    director = event.directors.get()
    PublishTarget.objects.create(url="https://results.example-club.org", key="room-key")
    now = timezone.now()
    publication = Publication.objects.create(
        tournament=event,
        state=Publication.State.RETRYING,
        requested_at=now,
        reason="round-closed:round 1",
        failures=2,
        next_attempt_at=now + timedelta(seconds=10),
        error_code="site-unreachable",
    )
    publication.attempts.create(
        at=now, reason="round-closed:round 1", error_code="site-unreachable"
    )
    key, _secret = services.create_key(actor=Actor(user=director), label="Thursday laptop")
    document = payload.build(event)
    document["tournament"]["slug"] = "friday-online"
    services.receive(key=key, slug="friday-online", document=document)
    return event, director


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_publishing_pages_in_both_languages(
    page, live_server, evening, screenshot, accessibility, language
):
    event, director = evening
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    sign_in_browser(page, live_server, director)
    failure = {
        "en": "The site could not be reached",
        "ja": "サイトに接続できませんでした",
    }[language]
    for name, path, size in (
        ("page", "/director/publishing/", DESKTOP),
        ("page-phone", "/director/publishing/", PHONE),
        ("dashboard", f"/director/{event.slug}/", DESKTOP),
    ):
        page.set_viewport_size(size)
        page.goto(live_server.url + path)
        assert page.locator("html").get_attribute("lang") == language
        assert page.get_by_text(failure).first.is_visible(), name
        screenshot(page, f"publishing-{name}-{language}")
        assert accessibility(page) == [], name
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/t/friday-online/")
    note = {"en": "Published from the room", "ja": "会場から公開"}[language]
    assert page.get_by_text(note).first.is_visible()
    screenshot(page, f"publishing-public-{language}")
    assert accessibility(page) == []

"""The publishing pages in English and Japanese: the room's setup and what was sent (failures
in plain words), "Publish now" on the dashboard, the site's keys (shown once), the published
event's note on its public pages, and taking it over."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Publication, PublishedEvent, PublishingKey, PublishTarget
from tournaments.publishing import sender, services

from .conftest import as_published

pytestmark = pytest.mark.django_db

PAGE = "/director/publishing/"


def speak(client, language: str):
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.fixture
def no_network(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr(sender, "dispatch", sent.append)
    monkeypatch.setattr(sender, "resume", lambda: None)
    return sent


@pytest.fixture
def room_director(room_event, client, settings):
    settings.PUBLISH_URL = settings.PUBLISH_KEY = ""
    client.force_login(room_event.directors.get())  # the evening's director: a superuser
    return client


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            ["Send this laptop's events to the club's site", "Not set up: nothing is published."],
        ),
        ("ja", ["このノートPCの大会をクラブのサイトへ送る", "未設定: 何も公開されません。"]),
    ],
)
def test_the_setup_page_speaks_the_directors_language(room_director, language, words):
    page = speak(room_director, language).get(PAGE)
    assert page.status_code == 200
    for sentence in words:
        assert sentence in page.content.decode()


def test_the_site_and_key_are_saved_once_and_the_key_never_shown(room_director, no_network):
    answer = room_director.post(
        reverse("tournaments:publishing-target"),
        {"url": "https://results.example-club.org", "key": "the-room-key-secret"},
    )
    assert answer.status_code == 302
    saved = PublishTarget.objects.get()
    assert (saved.url, saved.key) == ("https://results.example-club.org", "the-room-key-secret")
    page = room_director.get(PAGE).content.decode()
    assert "https://results.example-club.org" in page
    assert "the-room-key-secret" not in page
    # The address again without the key keeps the saved key.
    room_director.post(
        reverse("tournaments:publishing-target"), {"url": "https://results.example-club.org"}
    )
    assert PublishTarget.objects.get().key == "the-room-key-secret"


def test_a_director_who_is_not_the_operator_cannot_set_the_site(room_event, client):
    client.force_login(get_user_model().objects.create_user("helper"))
    client.post(reverse("tournaments:publishing-target"), {"url": "https://x.example", "key": "k"})
    assert not PublishTarget.objects.exists()


@pytest.mark.parametrize(
    ("language", "button", "failure"),
    [
        ("en", "Publish now", "The site could not be reached (is the laptop online?)"),
        ("ja", "今すぐ公開", "サイトに接続できませんでした"),
    ],
)
def test_publish_now_and_a_failure_in_plain_words(
    room_event,
    room_director,
    settings,
    no_network,
    language,
    button,
    failure,
    django_capture_on_commit_callbacks,
):
    settings.PUBLISH_URL, settings.PUBLISH_KEY = "https://site.example", "k"
    speak(room_director, language)
    dashboard = reverse("tournaments:director-dashboard", args=[room_event.slug])
    assert button in room_director.get(dashboard).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        answer = room_director.post(
            reverse("tournaments:publishing-publish-now", args=[room_event.slug])
        )
    assert answer.status_code == 302 and answer["Location"] == dashboard
    assert no_network == [room_event.pk]
    Publication.objects.filter(tournament=room_event).update(
        state=Publication.State.RETRYING,
        error_code="site-unreachable",
        next_attempt_at=timezone.now(),
        failures=1,
    )
    assert failure in room_director.get(PAGE).content.decode()
    assert failure in room_director.get(dashboard).content.decode()


def test_only_the_events_directors_publish_it(room_event, client, settings, no_network):
    settings.PUBLISH_URL, settings.PUBLISH_KEY = "https://site.example", "k"
    client.force_login(get_user_model().objects.create_user("passer-by"))
    answer = client.post(reverse("tournaments:publishing-publish-now", args=[room_event.slug]))
    assert answer.status_code == 403
    assert no_network == []


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_new_key_is_shown_once_and_kept_hashed(client, site_director, language):
    client.force_login(site_director.user)
    speak(client, language)
    made = client.post(reverse("tournaments:publishing-key-create"), {"label": "Thursday laptop"})
    assert made.status_code == 200
    key = PublishingKey.objects.get()
    shown = made.content.decode()
    secret = shown.split('<code class="secret">', 1)[1].split("</code>", 1)[0]
    assert services.key_for(secret) == key and secret != key.key_hash
    assert made["Cache-Control"].startswith("private")
    assert secret not in client.get(PAGE).content.decode()
    revoked = client.post(reverse("tournaments:publishing-key-revoke", args=[key.pk]))
    assert revoked.status_code == 302
    key.refresh_from_db()
    assert key.state == "revoked"


@pytest.mark.parametrize(
    ("language", "note", "question"),
    [
        ("en", "Published from the room", "It becomes this site's own event"),
        ("ja", "会場から公開", "このサイト自身の大会になり"),
    ],
)
def test_the_public_pages_say_published_from_the_room_until_taken_over(
    room_event, site_key, site_director, client, language, note, question
):
    key, _secret = site_key
    services.receive(key=key, slug="friday-at-the-club", document=as_published(room_event))
    speak(client, language)
    public = reverse("tournaments:public-tournament", args=["friday-at-the-club"])
    standings = reverse("tournaments:public-standings", args=["friday-at-the-club"])
    for url in (public, standings):
        page = client.get(url).content.decode()
        assert note in page, url
    assert (
        note
        not in client.get(
            reverse("tournaments:public-tournament", args=[room_event.slug])
        ).content.decode()
    )  # the room's own event

    client.force_login(site_director.user)
    speak(client, language)
    event = PublishedEvent.objects.get()
    take_over = reverse("tournaments:publishing-take-over", args=[event.pk])
    asked = client.post(take_over)
    assert question in asked.content.decode()
    event.refresh_from_db()
    assert event.taken_over_at is None
    assert client.post(take_over, {"confirm": "yes"}).status_code == 302
    event.refresh_from_db()
    assert event.taken_over_by == site_director.user
    assert note not in client.get(public).content.decode()

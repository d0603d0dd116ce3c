"""PUT /api/v1/publish/{slug}: the site's door for rooms. The key, idempotency, the refusals'
stable codes (nothing changed), take-over, a bad archive, the throttle and the OpenAPI entry."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from tests.conftest import clear_cache
from tournaments.models import PublishedEvent, Tournament
from tournaments.publishing import payload, services

from .conftest import as_published

pytestmark = pytest.mark.django_db

SLUG = "friday-at-the-club"
URL = f"/api/v1/publish/{SLUG}"


def put(document, secret: str | None, url: str = URL):
    client = APIClient()
    if secret is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client.put(url, data=json.dumps(document), content_type="application/json")


def state() -> tuple:
    return (
        Tournament.objects.count(),
        list(PublishedEvent.objects.values_list("slug", "digest", "tournament_id")),
    )


def test_created_then_unchanged_then_updated(room_event, site_key):
    _key, secret = site_key
    document = as_published(room_event)
    first = put(document, secret)
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["outcome"] == "created" and body["slug"] == SLUG
    assert body["url"].endswith(f"/t/{SLUG}/") or SLUG in body["url"]
    again = put(document, secret)
    assert (again.status_code, again.json()["outcome"]) == (200, "unchanged")
    document["tournament"]["name"] = "Friday at the club (final)"
    changed = put(document, secret)
    assert (changed.status_code, changed.json()["outcome"]) == (200, "updated")
    assert Tournament.objects.get(slug=SLUG).name == "Friday at the club (final)"
    assert Tournament.objects.filter(slug=SLUG).count() == 1


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer not-a-key", "Token abc"])
def test_without_a_valid_key_nothing_is_published(room_event, site_key, header):
    client = APIClient()
    if header:
        client.credentials(HTTP_AUTHORIZATION=header)
    before = state()
    answer = client.put(
        URL, data=json.dumps(as_published(room_event)), content_type="application/json"
    )
    assert answer.status_code == 401
    assert answer.json()["code"] in ("publish-key-invalid", "not-authenticated", "bad-token")
    assert state() == before


def test_a_revoked_key_is_refused(room_event, site_key, site_director):
    key, secret = site_key
    services.revoke_key(key=key, actor=site_director)
    answer = put(as_published(room_event), secret)
    assert (answer.status_code, answer.json()["code"]) == (401, "publish-key-invalid")


def test_the_sites_own_slug_and_another_keys_event_are_refused(room_event, site_key):
    from django.contrib.auth import get_user_model

    from tournaments.services import Actor

    _key, secret = site_key
    own = as_published(room_event, slug=room_event.slug)
    before = state()
    answer = put(own, secret, url=f"/api/v1/publish/{room_event.slug}")
    assert (answer.status_code, answer.json()["code"]) == (409, "publish-slug-taken")
    assert state() == before
    assert put(as_published(room_event), secret).status_code == 201
    other = Actor(user=get_user_model().objects.create_user("other-club"))
    _other, other_secret = services.create_key(actor=other)
    before = state()
    answer = put(as_published(room_event), other_secret)
    assert (answer.status_code, answer.json()["code"]) == (409, "publish-other-key")
    assert state() == before


def test_a_taken_over_event_refuses_the_room(room_event, site_key, site_director):
    _key, secret = site_key
    assert put(as_published(room_event), secret).status_code == 201
    services.take_over(event=PublishedEvent.objects.get(slug=SLUG), actor=site_director)
    before = state()
    answer = put(as_published(room_event), secret)
    assert (answer.status_code, answer.json()["code"]) == (409, "publish-taken-over")
    assert state() == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"format": "something-else"}, 400, "bad-archive"),
        ([1, 2, 3], 400, "bad-archive"),
        ({"format": "tricktable-archive/2"}, 400, "unsupported-archive"),
    ],
)
def test_a_bad_archive_is_a_clear_error(room_event, site_key, body, status, code):
    _key, secret = site_key
    assert put(as_published(room_event), secret).status_code == 201
    before = state()
    answer = put(body, secret)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert answer.json()["message"]
    assert state() == before


def test_not_json_is_a_parse_error(site_key):
    _key, secret = site_key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    answer = client.put(URL, data=b"{not json", content_type="application/json")
    assert answer.status_code == 400
    assert not PublishedEvent.objects.exists()


def test_publishing_is_throttled_per_client(room_event, site_key, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "publish": "2/minute",
        },
    }
    clear_cache()  # other tests' publishes counted against this client
    _key, secret = site_key
    document = as_published(room_event)
    assert [put(document, secret).status_code for _ in range(2)] == [201, 200]
    refused = put(document, secret)
    assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
    assert int(refused["Retry-After"]) >= 1


def test_what_the_site_stores_holds_no_secret_sent_to_it(room_event, site_key):
    """A room of another version sending PINs and keys: the site leaves them out too."""
    _key, secret = site_key
    document = as_published(room_event)
    raw = payload.encode(document)
    hostile = json.loads(raw)
    hostile["entries"][0]["pin"] = "4242"
    hostile["hands"][0]["versions"][0]["idempotency_key"] = "room-secret-key-000"
    hostile["directors"] = ["site-director"]
    assert put(hostile, secret).status_code == 201
    site = Tournament.objects.get(slug=SLUG)
    from tournaments.models import HandSubmission

    assert not HandSubmission.objects.filter(idempotency_key="room-secret-key-000").exists()
    assert site.entries.exclude(pin="4242").count() == site.entries.count()


def test_the_openapi_document_describes_the_endpoint(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/publish/{slug}"]["put"]
    assert operation["operationId"] == "publish_event"
    for status in ("200", "201", "400", "401", "409", "413", "429"):
        assert status in operation["responses"], status
    assert "publish-taken-over" in operation["responses"]["409"]["description"]
    assert {"publishingKey": []} in operation["security"]
    assert schema["components"]["securitySchemes"]["publishingKey"]["scheme"] == "bearer"

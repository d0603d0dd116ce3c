"""Public registration under a flood (issue 30, item 4): 381 anonymous `POST …/entries` in 40 s
from one address each made two players, a team and an entry, and the page's form had no limit
either. Now one counter per client address (`register`, tournaments/web/throttles.py) counts the
page's form and the API's POST together; past it both refuse with 429 and Retry-After and store
nothing. A director can close registration (back to setup, on the dashboard and in the API);
a signed-in director's own registrations are not counted."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.builders import make_director, make_match
from tournaments import services
from tournaments.models import Entry, Player, Team

from .conftest import client, refused, unchanged

pytestmark = pytest.mark.django_db

RATE = 4  # the test's own rate an hour, low to keep the test short


@pytest.fixture
def open_event(settings):
    director = make_director()
    tournament = make_match(director).round.tournament
    tournament.round_set.all().delete()  # an event still taking entries
    tournament.state = "setup"
    tournament.save(update_fields=["state"])
    services.open_registration(tournament=tournament, actor=director)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "register": f"{RATE}/hour",
        },
    }
    return tournament, director


def api_register(slug: str, n: int, address: str = "10.0.0.7"):
    return client().post(
        f"/api/v1/tournaments/{slug}/entries",
        {"players": [{"name": f"Ann {n}"}, {"name": f"Bob {n}"}]},
        format="json",
        REMOTE_ADDR=address,
    )


def page_register(slug: str, n: int, address: str = "10.0.0.7", language: str = "en"):
    return Client(raise_request_exception=False).post(
        f"/t/{slug}/",
        {"player_1": f"Cy {n}", "player_2": f"Di {n}"},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE=language,
    )


def made() -> tuple[int, int, int]:
    return Entry.objects.count(), Player.objects.count(), Team.objects.count()


def test_the_api_refuses_a_client_past_its_rate_and_stores_nothing(open_event):
    tournament, _ = open_event
    assert [api_register(tournament.slug, n).status_code for n in range(RATE)] == [201] * RATE
    with unchanged():
        refused(api_register(tournament.slug, RATE), 429, "throttled")
    assert 0 < int(api_register(tournament.slug, RATE + 1)["Retry-After"]) <= 3600
    other = api_register(tournament.slug, RATE + 2, address="10.0.0.8")
    assert other.status_code == 201  # another client


def test_the_page_refuses_a_client_past_its_rate_in_its_language_and_stores_nothing(open_event):
    tournament, _ = open_event
    for n in range(RATE):
        assert page_register(tournament.slug, n).status_code == 302
    before = made()
    refusal = page_register(tournament.slug, RATE, language="ja")
    assert made() == before
    assert refusal.status_code == 429 and 0 < int(refusal["Retry-After"]) <= 3600
    assert "この端末からの参加登録が多すぎます" in refusal.content.decode()
    english = page_register(tournament.slug, RATE + 1).content.decode()
    assert "This device sent too many registrations" in english


def test_the_page_and_the_api_share_one_count(open_event):
    tournament, _ = open_event
    for n in range(RATE // 2):
        assert page_register(tournament.slug, n).status_code == 302
    for n in range(RATE - RATE // 2):
        assert api_register(tournament.slug, n).status_code == 201
    before = made()
    assert api_register(tournament.slug, RATE).status_code == 429
    assert page_register(tournament.slug, RATE).status_code == 429
    assert made() == before


def test_a_signed_in_director_is_not_counted(open_event):
    tournament, director = open_event
    desk = Client(raise_request_exception=False)
    desk.force_login(director.user)
    for n in range(RATE + 2):
        answer = desk.post(
            f"/t/{tournament.slug}/", {"player_1": f"Ed {n}", "player_2": f"Flo {n}"}
        )
        assert answer.status_code == 302, n
    assert (
        api_register(tournament.slug, 0).status_code == 201
    )  # the address's own count is untouched


def test_reading_the_entries_is_not_counted(open_event):
    tournament, _ = open_event
    for _ in range(RATE + 2):
        assert client().get(f"/api/v1/tournaments/{tournament.slug}/entries").status_code == 200


def test_a_director_closes_registration_in_the_api_and_nobody_else_can_enter(open_event):
    tournament, director = open_event
    desk = client()
    desk.force_authenticate(director.user)
    closed = desk.post(f"/api/v1/tournaments/{tournament.slug}/close-registration")
    assert closed.status_code == 200 and closed.json()["state"] == "setup"
    with unchanged():
        refused(api_register(tournament.slug, 1), 403, "registration-closed")
        page = page_register(tournament.slug, 1)
    assert page.status_code == 403
    assert "Registration is not open for this tournament." in page.content.decode()
    again = desk.post(f"/api/v1/tournaments/{tournament.slug}/close-registration")
    refused(again, 409, "bad-state")
    refused(client().post(f"/api/v1/tournaments/{tournament.slug}/close-registration"), 401)


def test_a_director_closes_registration_on_the_dashboard(open_event):
    tournament, director = open_event
    desk = Client(raise_request_exception=False)
    desk.force_login(director.user)
    dashboard = desk.get(f"/director/{tournament.slug}/").content.decode()
    assert f'action="/director/{tournament.slug}/close/"' in dashboard
    desk.post(f"/director/{tournament.slug}/close/")
    tournament.refresh_from_db()
    assert tournament.state == "setup"
    page = Client().get(f"/t/{tournament.slug}/").content.decode()
    assert 'name="player_1"' not in page  # no form for the public
    assert (
        f'action="/director/{tournament.slug}/open/"'
        in desk.get(f"/director/{tournament.slug}/").content.decode()
    )

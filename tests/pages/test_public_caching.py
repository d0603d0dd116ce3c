"""What the public pages let a cache keep (tournaments/web/caching.py): a visitor who is not
signed in reads pages a shared cache may keep PUBLIC_PAGE_MAX_AGE seconds, with no cookie set;
a signed-in visitor (who may see drafts) reads private ones; the language switch needs no CSRF
token, so no page sets the CSRF cookie for its header's form."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils.cache import get_max_age

from tests.duplicate.builders import make_event as make_duplicate
from tests.duplicate.builders import play_round as play_duplicate_round
from tests.pages.test_public import build_club, event
from tests.season_data import winter_season
from tests.tournaments.builders import make_director
from tournaments import services
from tournaments.models import Entry, Match
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


def cache_control(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


@pytest.fixture
def pages(director, built, built_once) -> list[str]:
    """Every kind of public page of a club with a running tournament and a season: the club
    built once per run (`built_once`) and loaded again for each test, which only reads it."""
    return built_once.kept("public-caching-pages", lambda: build(director, built))


def build(director: Actor, built) -> list[str]:
    club = built(build_club, director)
    slug = club.spades.slug
    match = Match.objects.filter(round=club.in_play, is_bye=False).first()
    season = winter_season(director)
    player = Entry.objects.filter(tournament=club.spades).first().team.first
    return [
        reverse("tournaments:home"),
        reverse("tournaments:public-leaderboard", args=["spades"]),
        reverse("tournaments:public-tournament", args=[slug]),
        reverse("tournaments:public-round", args=[slug, club.in_play.number]),
        reverse("tournaments:public-standings", args=[slug]),
        reverse("tournaments:public-match", args=[slug, match.pk]),
        reverse("tournaments:public-projector", args=[slug]),
        reverse("tournaments:public-player", args=[player.pk]),
        reverse("tournaments:members-search"),
        reverse("tournaments:seasons"),
        reverse("tournaments:season", args=[season.slug]),
        reverse("tournaments:season-projector", args=[season.slug]),
        reverse("tournaments:clubs"),
        reverse("tournaments:federation"),
    ]


@pytest.fixture
def director():
    return Actor(user=get_user_model().objects.create_user("td", password="x"), label="td")


@pytest.fixture
def built(django_capture_on_commit_callbacks):
    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


def test_an_anonymous_reader_gets_public_pages_a_cache_may_keep_and_no_cookie(
    client, pages, settings
):
    settings.PUBLIC_PAGE_MAX_AGE = 5
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "public" in cache_control(response), url
        assert get_max_age(response) == 5, url
        assert not response.cookies, (url, response.cookies)
        assert "csrfmiddlewaretoken" not in response.content.decode(), url


def test_a_signed_in_reader_gets_private_pages_that_no_shared_cache_keeps(client, pages):
    client.login(username="td", password="x")
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert {"private", "no-cache"} <= cache_control(response), url
        assert "public" not in cache_control(response), url
        assert "Cookie" in response["Vary"], url


def test_a_draft_round_is_never_marked_public_for_its_director(client, director, built):
    tournament = built(event, director)
    round_ = services.generate_round(tournament=tournament, actor=director)  # a draft
    url = reverse("tournaments:public-round", args=[tournament.slug, round_.number])
    anonymous = client.get(url)
    assert anonymous.status_code == 404  # not published: the same answer for every stranger
    client.login(username="td", password="x")
    seen = client.get(url)
    assert seen.status_code == 200
    assert "private" in cache_control(seen) and "public" not in cache_control(seen)


def test_an_open_registration_form_keeps_its_token_and_is_never_shared(client, director):
    tournament = event(director)  # registration open
    response = client.get(reverse("tournaments:public-tournament", args=[tournament.slug]))
    assert "csrfmiddlewaretoken" in response.content.decode()
    assert "private" in cache_control(response) and "public" not in cache_control(response)


def test_no_public_caching_when_the_setting_is_zero(client, pages, settings):
    settings.PUBLIC_PAGE_MAX_AGE = 0
    for url in pages[:3]:
        response = client.get(url)
        assert "public" not in cache_control(response), url
        assert get_max_age(response) is None, url


def test_the_live_fragments_still_ask_again_every_time(client, pages):
    slug = pages[2].rstrip("/").rsplit("/", 1)[-1]
    response = client.get(reverse("tournaments:public-standings-fragment", args=[slug]))
    assert cache_control(response) == {"no-cache"}


def test_the_language_switch_works_without_a_csrf_token():
    browser = Client(enforce_csrf_checks=True)
    response = browser.post(reverse("set_language"), {"language": "ja", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert response.cookies["django_language"].value == "ja"
    page = browser.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="ja">' in page.content.decode()


def test_the_duplicate_results_are_public_to_strangers_and_private_to_directors(client):
    td = make_director()
    evening = make_duplicate(td)
    play_duplicate_round(evening, td)
    urls = [
        reverse("tournaments:duplicate-results", args=[evening.slug]),
        reverse("tournaments:duplicate-traveller", args=[evening.slug, 1]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "public" in cache_control(response) and not response.cookies, url
    client.force_login(td.user)
    for url in urls:
        assert "private" in cache_control(client.get(url)), url

"""The downloads through the API: the same files as the pages' links, the archive for a
director's API token (the page's link sends anyone without a session to the sign-in page)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from .conftest import api_token, assert_error, client_with

pytestmark = pytest.mark.django_db


def test_a_directors_token_downloads_the_archive(director, match):
    slug = match.round.tournament.slug
    header = f"Token {api_token(director.user)}"
    response = client_with(header).get(f"/api/v1/tournaments/{slug}/archive")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert 'filename="' in response["Content-Disposition"]
    archive = json.loads(response.content)
    assert archive["format"] == "tricktable-archive/1"
    assert archive["tournament"]["slug"] == slug
    # The page's link answers a token with the sign-in page: the API is the door for clients.
    page = Client(HTTP_AUTHORIZATION=header)
    assert page.get(f"/t/{slug}/export/archive.json").status_code == 302


def test_only_the_tournaments_directors_read_its_archive(other_td, anon, scorer, match):
    url = f"/api/v1/tournaments/{match.round.tournament.slug}/archive"
    assert_error(other_td.get(url), 403, "not-director")
    assert_error(anon.get(url), 401, "not-authenticated")
    assert scorer.get(url).status_code in (401, 403)


@pytest.mark.parametrize("accept", ["*/*", "text/csv"])
def test_the_standings_csv_is_the_pages_file(anon, match, accept):
    slug = match.round.tournament.slug
    response = anon.get(f"/api/v1/tournaments/{slug}/exports/standings.csv", HTTP_ACCEPT=accept)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response.content == Client().get(f"/t/{slug}/export/standings.csv").content


def test_the_hands_and_a_match_record(anon, match):
    slug = match.round.tournament.slug
    hands = anon.get(f"/api/v1/tournaments/{slug}/exports/hands.jsonl")
    assert hands.status_code == 200
    assert b"".join(hands.streaming_content) == b"".join(
        Client().get(f"/t/{slug}/export/hands.jsonl").streaming_content
    )
    record = anon.get(f"/api/v1/tournaments/{slug}/exports/matches/{match.pk}.json")
    assert record.status_code == 200 and record.json()["format"] == "match/1"
    assert_error(anon.get(f"/api/v1/tournaments/{slug}/exports/matches/0.json"), 404)


def test_rendered_downloads_are_throttled_per_client(anon, match, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "export": "2/minute",
        },
    }
    url = f"/api/v1/tournaments/{match.round.tournament.slug}/exports/standings.xlsx"
    assert [anon.get(url).status_code for _ in range(2)] == [200, 200]
    refused = anon.get(url)
    assert_error(refused, 429, "throttled")
    assert int(refused["Retry-After"]) >= 1


def test_the_page_and_the_api_share_one_download_count(anon, match, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "export": "2/minute",
        },
    }
    slug = match.round.tournament.slug
    assert Client().get(f"/t/{slug}/export/standings.xlsx").status_code == 200
    assert anon.get(f"/api/v1/tournaments/{slug}/exports/standings.xlsx").status_code == 200
    assert_error(anon.get(f"/api/v1/tournaments/{slug}/exports/results.xlsx"), 429, "throttled")

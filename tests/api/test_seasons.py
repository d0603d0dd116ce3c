"""The seasons API: list, detail, table (with its ETag), create and edit by a signed-in
director, members of the season's game only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.season_data import evening, winter_season
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return Actor(user=get_user_model().objects.create_user("td", password="pw"))


@pytest.fixture
def season(director):
    return winter_season(director)


@pytest.fixture
def signed_in(director) -> APIClient:
    client = APIClient()
    client.force_authenticate(director.user)
    return client


def test_anyone_lists_seasons_and_reads_one(season):
    client = APIClient()
    listed = client.get("/api/v1/seasons").json()
    assert [s["slug"] for s in listed["results"]] == [season.slug]
    detail = client.get(f"/api/v1/seasons/{season.slug}").json()
    assert (detail["game"], detail["rule"], detail["best"]) == ("german-whist", "placing", 3)
    assert detail["tournaments"] == ["night-1", "night-2", "night-3", "night-4"]


def test_the_table_gives_each_evening_counted_or_dropped_and_a_304_for_the_same_version(season):
    client = APIClient()
    response = client.get(f"/api/v1/seasons/{season.slug}/table")
    table = response.json()
    aiko = table["rows"][0]
    assert (aiko["name"], aiko["rank"], aiko["score"], table["version"]) == ("Aiko Sato", 1, 28, 1)
    assert [(e["score"], e["counted"]) for e in aiko["evenings"]] == [
        (10, True),
        (8, True),
        ("11/2", False),
        (10, True),
    ]
    again = client.get(f"/api/v1/seasons/{season.slug}/table", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_a_director_creates_a_season_and_changes_its_rule(signed_in):
    created = signed_in.post(
        "/api/v1/seasons",
        {"name": "Spring", "game": "german-whist", "points": ["12", "9", "7.5"], "best": 2},
        format="json",
    )
    assert created.status_code == 201
    assert created.json()["points"] == ["12", "9", "15/2"]
    slug = created.json()["slug"]
    changed = signed_in.patch(
        f"/api/v1/seasons/{slug}", {"rule": "match-points", "best": None}, format="json"
    )
    assert (changed.json()["rule"], changed.json()["best"]) == ("match-points", None)


def test_a_tournament_of_another_game_is_refused_with_game_mismatch(signed_in, director, season):
    spades = evening(director, "Spades night", game="spades", day=30)
    response = signed_in.post(
        f"/api/v1/seasons/{season.slug}/tournaments", {"tournament": spades.slug}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (422, "game-mismatch")
    night = evening(director, "Night 5", day=30)
    added = signed_in.post(
        f"/api/v1/seasons/{season.slug}/tournaments", {"tournament": night.slug}, format="json"
    )
    assert added.json()["tournaments"][-1] == night.slug
    removed = signed_in.delete(f"/api/v1/seasons/{season.slug}/tournaments/{night.slug}")
    assert night.slug not in removed.json()["tournaments"]


def test_the_public_and_other_users_cannot_change_a_season(season):
    assert APIClient().patch(
        f"/api/v1/seasons/{season.slug}", {"best": 1}, format="json"
    ).status_code in (401, 403)
    other = APIClient()
    other.force_authenticate(get_user_model().objects.create_user("x", password="pw"))
    response = other.patch(f"/api/v1/seasons/{season.slug}", {"best": 1}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "not-series-director")


def test_the_season_endpoints_are_in_the_openapi_document(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in (
        "/api/v1/seasons",
        "/api/v1/seasons/{slug}",
        "/api/v1/seasons/{slug}/table",
        "/api/v1/seasons/{slug}/tournaments",
    ):
        assert path in schema["paths"]

"""The federation ranking in the API: read-only, a person once with their clubs, and one
rating's history after each event."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.federation.builders import director_of, finished_event, make_club
from tournaments.federation import services as federation
from tournaments.models import FederationRating, Person, Player

from .conftest import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(in_process_tasks):
    north, south = make_club("north"), make_club("south")
    finished_event(director_of(north), "North", [("Aiko", "Ben"), ("Chika", "Dan")], seed=1)
    finished_event(director_of(south), "South", [("Aiko", "Emi"), ("Fumi", "Goro")], seed=2)
    person = Person.objects.create()
    Player.objects.filter(name="Aiko").update(person=person)
    federation.recompute(game="spades")
    return north, south, person


def test_the_federation_list_is_best_first_with_a_person_once_and_their_clubs(rated):
    north, south, person = rated
    body = APIClient().get("/api/v1/federation/spades").json()
    assert body["count"] == 7
    ordinals = [row["ordinal"] for row in body["results"]]
    assert ordinals == sorted(ordinals, reverse=True)
    aiko = next(row for row in body["results"] if row["person"] == str(person.uid))
    assert aiko["player"] is None and aiko["clubs"] == [north.slug, south.slug]
    assert aiko["events"] == 2
    others = [row for row in body["results"] if row["person"] is None]
    assert all(row["player"]["name"] and len(row["clubs"]) == 1 for row in others)


def test_one_rating_has_its_point_after_each_event(rated):
    _north, _south, person = rated
    rating = FederationRating.objects.get(person=person)
    body = APIClient().get(f"/api/v1/federation/spades/{rating.pk}").json()
    assert [p["ordinal"] for p in body["history"]] == [p[5] for p in rating.history]
    assert body["history"][-1]["ordinal"] == body["ordinal"]


def test_an_unknown_game_or_rating_is_not_found(rated):
    assert_error(APIClient().get("/api/v1/federation/chess"), 404, "unknown-game")
    assert APIClient().get("/api/v1/federation/spades/999999").status_code == 404

"""The stateless check endpoint, players and the club leaderboards."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.tournaments.builders import HAND_1
from tournaments.models import Player, Rating

from .conftest import assert_error

pytestmark = pytest.mark.django_db

HAND = {"format": "hand/1", "game": "spades", "rules": "standard", **HAND_1}


def test_check_scores_a_legal_hand_and_stores_nothing(anon):
    response = anon.post("/api/v1/hands/check", HAND, format="json")
    assert response.status_code == 200
    assert response.json()["ok"] is True and response.json()["score"] == {"NS": 60, "EW": 70}


def test_check_returns_ok_false_with_the_engine_errors_for_an_illegal_hand(anon):
    bad = {**HAND, "tricks": {"N": 13, "E": 4, "S": 3, "W": 3}}
    body = anon.post("/api/v1/hands/check", bad, format="json").json()
    assert body["ok"] is False and body["errors"][0]["code"]


def test_check_accepts_a_match_record(anon):
    record = {"format": "match/1", "game": "spades", "rules": "standard", "hands": [HAND_1]}
    body = anon.post("/api/v1/hands/check", record, format="json").json()
    assert "hands" in body


def test_check_never_500s_on_an_odd_record(anon):
    body = anon.post(
        "/api/v1/hands/check", {"format": "hand/1", "game": ["x"]}, format="json"
    ).json()
    assert body["ok"] is False


def test_check_refuses_non_objects_and_non_json_with_400(anon):
    assert_error(anon.post("/api/v1/hands/check", [HAND], format="json"), 400, "not-an-object")
    assert_error(
        anon.post("/api/v1/hands/check", "{oops", content_type="application/json"),
        400,
        "parse-error",
    )
    assert_error(
        anon.post("/api/v1/hands/check", "a=1", content_type="application/x-www-form-urlencoded"),
        415,
        "unsupported-media-type",
    )


def test_check_refuses_a_body_over_64_kib_with_413(anon):
    big = {**HAND, "padding": "x" * (65 * 1024)}
    assert_error(anon.post("/api/v1/hands/check", big, format="json"), 413, "too-large")


@pytest.fixture
def ratings(db):
    now = timezone.now()
    out = []
    for name, ordinal, games, wins in (
        ("Aiko", 20.0, 10, 7),
        ("Ben", 25.0, 2, 2),
        ("Chika", 10.0, 6, 1),
    ):
        player = Player.objects.create(name=name)
        out.append(
            Rating.objects.create(
                player=player,
                game="spades",
                mu=ordinal + 6,
                sigma=2.0,
                ordinal=ordinal,
                games=games,
                wins=wins,
                last_played=now,
                history=[[now.isoformat(), 1, ordinal + 6, 2.0, ordinal]],
            )
        )
    return out


def test_the_leaderboard_orders_by_ordinal_and_filters_by_games(anon, ratings):
    body = anon.get("/api/v1/leaderboards/spades").json()
    assert [r["player"]["name"] for r in body["results"]] == ["Ben", "Aiko", "Chika"]
    assert body["results"][1]["win_rate"] == 0.7
    body = anon.get("/api/v1/leaderboards/spades?min_games=5").json()
    assert [r["player"]["name"] for r in body["results"]] == ["Aiko", "Chika"]
    assert anon.get("/api/v1/leaderboards/whist").json()["count"] == 0
    assert_error(anon.get("/api/v1/leaderboards/chess"), 404, "unknown-game")
    assert_error(anon.get("/api/v1/leaderboards/spades?min_games=x"), 400, "invalid")


def test_players_list_by_name_and_detail_with_rating_history(anon, ratings):
    body = anon.get("/api/v1/players?name=aik").json()
    assert [p["name"] for p in body["results"]] == ["Aiko"]
    player = anon.get(f"/api/v1/players/{body['results'][0]['id']}").json()
    assert player["ratings"][0]["game"] == "spades"
    assert player["ratings"][0]["history"][0]["ordinal"] == 20.0
    assert "email" not in player


def test_anonymous_clients_cannot_write_to_read_only_resources(anon):
    assert_error(anon.post("/api/v1/players", {"name": "x"}, format="json"), 401)

"""Table tokens (scorers) and API tokens (directors): created by the right people, shown once,
stored hashed, scoped, expiring and revocable."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth import get_user_model

from api.models import ApiToken
from tests.tournaments.builders import HAND_1, side_pin
from tournaments.models import TableToken

from .conftest import assert_error, client_with

pytestmark = pytest.mark.django_db


def test_a_director_creates_a_table_token_shown_once_and_stored_hashed(td, match):
    response = td.post(
        f"/api/v1/tables/{match.table_id}/tokens", {"label": "T1 phone"}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    secret = body["secret"]
    card = match.table.event_table_id  # the card's page: this table in every round
    assert body["url"] == f"http://testserver/table/card/{card}/#token={secret}"
    assert body["state"] == "active" and body["expires_at"] is None  # until the event ends
    stored = TableToken.objects.get(pk=body["id"])
    assert stored.key_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(TableToken.objects.values().get(pk=body["id"]))
    listed = td.get(f"/api/v1/tables/{match.table_id}/tokens").json()["results"]
    assert [t["id"] for t in listed] == [body["id"]] and "secret" not in listed[0]


def test_a_new_table_tokens_url_is_at_the_public_url_phones_use(td, match, settings):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    response = td.post(f"/api/v1/tables/{match.table_id}/tokens", {"label": "T1"}, format="json")
    body = response.json()
    card = match.table.event_table_id
    assert body["url"] == f"http://192.168.1.20:8000/table/card/{card}/#token={body['secret']}"


def test_the_new_token_scores_at_its_table(td, match):
    secret = td.post(f"/api/v1/tables/{match.table_id}/tokens", {}, format="json").json()["secret"]
    scorer = client_with(f"Table {secret}")
    response = scorer.post(
        f"/api/v1/matches/{match.pk}/hands",
        {"record": HAND_1, "pin": side_pin(match, "NS"), "idempotency_key": "k-123456789"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert scorer.get(f"/api/v1/tables/{match.table_id}").json()["match"]["id"] == match.pk


def test_a_revoked_table_token_is_refused(td, match):
    made = td.post(f"/api/v1/tables/{match.table_id}/tokens", {}, format="json").json()
    response = td.delete(f"/api/v1/tables/{match.table_id}/tokens/{made['id']}")
    assert response.status_code == 200 and response.json()["state"] == "revoked"
    scorer = client_with(f"Table {made['secret']}")
    assert_error(scorer.get("/api/v1/tournaments"), 401, "token-revoked")


def test_only_the_tournaments_directors_manage_table_tokens(anon, other_td, scorer, match):
    url = f"/api/v1/tables/{match.table_id}/tokens"
    assert_error(anon.post(url, {}, format="json"), 401, "not-authenticated")
    assert_error(other_td.post(url, {}, format="json"), 403, "not-director")
    assert_error(other_td.get(url), 403, "not-director")
    assert_error(scorer.post(url, {}, format="json"), 403, "scorer-not-allowed")
    assert not TableToken.objects.exclude(table=match.table.event_table).exists()


def test_token_creation_is_throttled(td, match, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "tokens": "1/minute",
        },
    }
    url = f"/api/v1/tables/{match.table_id}/tokens"
    assert td.post(url, {}, format="json").status_code == 201
    assert_error(td.post(url, {}, format="json"), 429, "throttled")


def test_a_director_gets_an_api_token_with_a_password_and_revokes_it(anon):
    get_user_model().objects.create_user("aiko", password="s3cret-pass")
    response = anon.post(
        "/api/v1/auth/tokens",
        {"username": "aiko", "password": "s3cret-pass", "label": "laptop"},
        format="json",
    )
    assert response.status_code == 201, response.content
    made = response.json()
    me = client_with(f"Token {made['secret']}")
    assert [t["label"] for t in me.get("/api/v1/auth/tokens").json()["results"]] == ["laptop"]
    assert me.delete(f"/api/v1/auth/tokens/{made['id']}").json()["state"] == "revoked"
    assert_error(me.get("/api/v1/auth/tokens"), 401, "token-revoked")
    assert ApiToken.objects.get().key_hash != made["secret"]


def test_wrong_credentials_are_401_and_login_is_throttled(anon, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": "2/minute",
        },
    }
    body = {"username": "nobody", "password": "wrong"}
    assert_error(anon.post("/api/v1/auth/tokens", body, format="json"), 401, "bad-credentials")
    assert_error(anon.post("/api/v1/auth/tokens", {}, format="json"), 401, "bad-credentials")
    assert_error(anon.post("/api/v1/auth/tokens", body, format="json"), 429, "throttled")


def test_an_expired_api_token_is_401_token_expired(director):
    from datetime import timedelta

    from django.utils import timezone

    from .conftest import api_token

    secret = api_token(director.user, expires_at=timezone.now() - timedelta(minutes=1))
    assert_error(client_with(f"Token {secret}").get("/api/v1/auth/tokens"), 401, "token-expired")


def test_a_session_user_may_use_the_api(client, director, match):
    client.force_login(director.user)
    response = client.get(f"/api/v1/tables/{match.table_id}/tokens")
    assert response.status_code == 200


def test_a_scorer_learns_which_table_and_match_its_token_is_for(scorer, match, anon, td):
    body = scorer.get("/api/v1/auth/table-token").json()
    assert body["table"]["id"] == match.table_id and body["match"] == match.pk
    assert body["tournament"] == match.round.tournament.slug and body["state"] == "active"
    assert_error(anon.get("/api/v1/auth/table-token"), 401)
    assert_error(td.get("/api/v1/auth/table-token"), 403)

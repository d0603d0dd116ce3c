"""Hands over the API: submit (idempotent), confirm, reject, correct, versions — and who may."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tests.tournaments.builders import HAND_1, HAND_2, make_director, make_match, side_pin
from tournaments.models import Hand, HandSubmission, TableToken

from .conftest import assert_error, client_with, table_token

pytestmark = pytest.mark.django_db


def submit(client, match, record=HAND_1, *, key="key-0001-abcdef", side="NS", **extra):
    """Enter a hand as `side`, with its PIN (unless `pin` is given)."""
    body = {"record": record, "side": side, "pin": side_pin(match, side), **extra}
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/v1/matches/{match.pk}/hands", body, format="json", **headers)


def test_a_scorer_submits_a_hand_and_gets_201_with_the_engine_score(scorer, match):
    response = submit(scorer, match)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["number"] == 1 and body["version"] == 1 and body["status"] == "pending"
    assert body["submitted_side"] == "NS"
    assert body["result"]["ok"] is True and body["result"]["score"] == {"NS": 60, "EW": 70}


def test_a_retry_with_the_same_key_returns_the_original_with_200(scorer, match):
    first = submit(scorer, match)
    again = submit(scorer, match)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert HandSubmission.objects.count() == 1


def test_the_key_may_come_in_the_body(scorer, match):
    first = submit(scorer, match, key=None, idempotency_key="body-key-123")
    again = submit(scorer, match, key=None, idempotency_key="body-key-123")
    assert (first.status_code, again.status_code) == (201, 200)


def test_a_key_reused_for_a_different_hand_is_409(scorer, match):
    submit(scorer, match)
    response = submit(scorer, match, record=HAND_2)
    assert_error(response, 409, "idempotency-key-reused")


def test_a_submission_without_an_idempotency_key_is_400(scorer, match):
    assert_error(submit(scorer, match, key=None), 400, "idempotency-key-required")


def test_an_illegal_hand_is_422_with_the_engine_errors(scorer, match):
    bad = {**HAND_1, "tricks": {"N": 13, "E": 4, "S": 3, "W": 3}}
    body = assert_error(submit(scorer, match, bad), 422, "invalid-hand")
    assert isinstance(body["details"], list) and body["details"]
    assert all("code" in error for error in body["details"])
    assert not Hand.objects.exists()


def test_a_malformed_submission_is_400_with_field_errors(scorer, match):
    body = assert_error(submit(scorer, match, record=[1, 2]), 400, "invalid")
    assert "record" in body["details"]
    body = assert_error(submit(scorer, match, record={**HAND_1, "game": ["x"]}), 400, "invalid")


def test_a_hand_over_64_kib_is_413(scorer, match):
    big = {**HAND_1, "padding": "x" * (65 * 1024)}
    assert_error(submit(scorer, match, big), 413, "too-large")


def test_a_body_that_is_not_json_is_400(scorer, match):
    response = scorer.post(
        f"/api/v1/matches/{match.pk}/hands",
        "{not json",
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="key-12345678",
    )
    assert_error(response, 400, "parse-error")


def test_a_scorer_cannot_submit_at_another_table(other_scorer, match):
    assert_error(submit(other_scorer, match), 403, "wrong-table")
    assert not Hand.objects.exists()


def test_an_anonymous_client_cannot_submit(anon, match):
    assert_error(submit(anon, match), 401, "not-authenticated")


def test_the_other_side_confirms_and_the_submitting_side_cannot(scorer, match):
    submit(scorer, match)
    url = f"/api/v1/matches/{match.pk}/hands/1/confirm"
    ns = {"pin": side_pin(match, "NS"), "version": 1}
    assert_error(scorer.post(url, ns, format="json"), 403, "own-side")
    ew = {"side": "EW", "pin": side_pin(match, "EW"), "version": 1}
    response = scorer.post(url, ew, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"
    assert_error(scorer.post(url, ew, format="json"), 409, "not-pending")


def test_a_scorer_cannot_confirm_at_another_table(scorer, other_scorer, match):
    submit(scorer, match)
    response = other_scorer.post(
        f"/api/v1/matches/{match.pk}/hands/1/confirm", {"side": "EW", "version": 1}, format="json"
    )
    assert_error(response, 403, "wrong-table")


def test_a_stale_version_cannot_be_confirmed(scorer, match):
    submit(scorer, match)
    response = scorer.post(
        f"/api/v1/matches/{match.pk}/hands/1/confirm",
        {"side": "EW", "pin": side_pin(match, "EW"), "version": 7},
        format="json",
    )
    body = assert_error(response, 409, "stale-version")
    assert body["details"]["current"] == 1
    assert HandSubmission.objects.get().status == "pending"


def test_a_confirmation_without_the_version_seen_is_400_and_changes_nothing(td, scorer, match):
    submit(scorer, match)
    response = td.post(f"/api/v1/matches/{match.pk}/hands/1/confirm", {}, format="json")
    body = assert_error(response, 400, "invalid")
    assert "version" in body["details"]
    assert HandSubmission.objects.get().status == "pending"


def test_a_rejection_of_a_stale_version_is_409(scorer, match):
    submit(scorer, match)
    response = scorer.post(
        f"/api/v1/matches/{match.pk}/hands/1/reject",
        {"side": "EW", "pin": side_pin(match, "EW"), "version": 2, "reason": "x"},
        format="json",
    )
    assert_error(response, 409, "stale-version")
    assert HandSubmission.objects.get().status == "pending"


def test_a_correction_of_a_stale_version_is_409_and_changes_nothing(td, scorer, match):
    submit(scorer, match)
    fixed = {**HAND_1, "tricks": {"N": 3, "E": 5, "S": 3, "W": 2}}
    response = td.post(
        f"/api/v1/matches/{match.pk}/hands/1/correct",
        {"record": fixed, "reason": "slip", "version": 2},
        format="json",
    )
    assert_error(response, 409, "stale-version")
    assert HandSubmission.objects.count() == 1


def test_a_director_voids_a_disputed_hand_and_the_table_enters_it_again(td, scorer, match):
    submit(scorer, match)
    scorer.post(
        f"/api/v1/matches/{match.pk}/hands/1/reject",
        {"side": "EW", "pin": side_pin(match, "EW"), "reason": "we took 4", "version": 1},
        format="json",
    )
    url = f"/api/v1/matches/{match.pk}/hands/1/void"
    assert_error(td.post(url, {"version": 1}, format="json"), 400, "invalid")
    assert_error(
        td.post(url, {"version": 2, "reason": "deal again"}, format="json"), 409, "stale-version"
    )
    response = td.post(url, {"version": 1, "reason": "misdeal"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "voided" and response.json()["reason"] == "misdeal"
    assert td.get(f"/api/v1/tournaments/{match.round.tournament.slug}/queue").json()["count"] == 0
    again = submit(scorer, match, key="key-0003-abcdef", number=1)
    assert again.status_code == 201 and again.json()["version"] == 2


def test_a_scorer_cannot_void_a_hand(scorer, match):
    submit(scorer, match)
    response = scorer.post(
        f"/api/v1/matches/{match.pk}/hands/1/void", {"version": 1, "reason": "x"}, format="json"
    )
    assert_error(response, 403, "scorer-not-allowed")
    assert HandSubmission.objects.get().status == "pending"


def test_a_rejection_keeps_the_reason_and_a_new_version_follows(scorer, match):
    submit(scorer, match)
    response = scorer.post(
        f"/api/v1/matches/{match.pk}/hands/1/reject",
        {"side": "EW", "pin": side_pin(match, "EW"), "reason": "we took 4", "version": 1},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["status"] == "rejected" and response.json()["reason"] == "we took 4"
    again = submit(scorer, match, key="key-0002-abcdef", number=1)
    assert again.status_code == 201 and again.json()["version"] == 2


def test_a_director_corrects_with_a_reason_and_the_versions_are_kept(td, scorer, match):
    submit(scorer, match)
    url = f"/api/v1/matches/{match.pk}/hands/1/correct"
    fixed = {**HAND_1, "tricks": {"N": 3, "E": 5, "S": 3, "W": 2}}
    assert_error(td.post(url, {"record": fixed, "version": 1}, format="json"), 400, "invalid")
    response = td.post(url, {"record": fixed, "reason": "scorer slip", "version": 1}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "confirmed" and response.json()["version"] == 2
    history = td.get(f"/api/v1/matches/{match.pk}/hands/1/versions").json()["results"]
    assert [(v["version"], v["is_current"]) for v in history] == [(1, False), (2, True)]
    assert history[1]["reason"] == "scorer slip"


def test_a_scorer_or_another_director_cannot_correct(scorer, other_td, match):
    submit(scorer, match)
    url = f"/api/v1/matches/{match.pk}/hands/1/correct"
    body = {"record": HAND_1, "reason": "x", "version": 1}
    assert_error(scorer.post(url, body, format="json"), 403, "scorer-not-allowed")
    assert_error(other_td.post(url, body, format="json"), 403, "not-director")


def test_a_director_submission_is_confirmed_at_once(td, match):
    response = submit(td, match, side="")
    assert response.status_code == 201
    assert response.json()["status"] == "confirmed"


def test_match_detail_lists_the_current_versions(anon, scorer, match):
    submit(scorer, match)
    body = anon.get(f"/api/v1/matches/{match.pk}").json()
    assert [h["number"] for h in body["hands"]] == [1]
    assert [s["side"] for s in body["seats"]] == ["EW", "NS"]
    assert anon.get(f"/api/v1/matches/{match.pk}/hands").json()["results"][0]["status"] == (
        "pending"
    )
    assert_error(anon.get(f"/api/v1/matches/{match.pk}/hands/9/versions"), 404, "not-found")


def test_a_director_finishes_a_match_early_and_a_scorer_cannot(td, scorer, match):
    submit(td, match, side="")
    assert_error(scorer.post(f"/api/v1/matches/{match.pk}/finish"), 403, "not-director")
    response = td.post(f"/api/v1/matches/{match.pk}/finish")
    assert response.status_code == 200 and response.json()["state"] == "finished"


def test_an_expired_table_token_is_401_token_expired(match):
    _, secret = table_token(match.table, expires_at=timezone.now() - timedelta(seconds=1))
    assert_error(submit(client_with(f"Table {secret}"), match), 401, "token-expired")


def test_a_revoked_table_token_is_401_token_revoked(match):
    token, secret = table_token(match.table)
    token.revoke()
    assert_error(submit(client_with(f"Table {secret}"), match), 401, "token-revoked")


def test_an_unknown_token_is_401(match):
    assert_error(submit(client_with("Table nope"), match), 401, "bad-token")
    assert_error(client_with("Token nope").get("/api/v1/tournaments"), 401, "bad-token")


def test_a_table_token_cannot_direct(scorer, match):
    slug = match.round.tournament.slug
    response = scorer.post(f"/api/v1/tournaments/{slug}/rounds/generate", {}, format="json")
    assert_error(response, 403, "scorer-not-allowed")
    assert_error(scorer.get(f"/api/v1/tournaments/{slug}/audit"), 403, "scorer-not-allowed")


def test_hand_submission_is_throttled_with_429(scorer, match, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "hand-submit": "2/minute",
        },
    }
    submit(scorer, match)
    submit(scorer, match)
    body = assert_error(submit(scorer, match), 429, "throttled")
    assert body["details"]["wait"] > 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_scorers_racing_on_one_hand_get_one_201_and_one_409(postgres_db):
    director = make_director("race-td")
    match = make_match(director)
    secrets = [table_token(match.table)[1] for _ in range(2)]
    barrier = threading.Barrier(2)
    statuses: list[tuple[int, str]] = []

    def race(secret: str, side: str) -> None:
        try:
            client = client_with(f"Table {secret}")
            barrier.wait()
            response = submit(client, match, key=f"race-{side}-key", side=side, number=1)
            statuses.append((response.status_code, response.json().get("code", "")))
        finally:
            connection.close()

    threads = [
        threading.Thread(target=race, args=(secret, side))
        for secret, side in zip(secrets, ("NS", "EW"), strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [(201, ""), (409, "hand-already-submitted")]
    assert HandSubmission.objects.filter(is_current=True).count() == 1
    assert TableToken.objects.count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_retry_racing_its_original_returns_the_same_version(postgres_db):
    director = make_director("retry-td")
    match = make_match(director)
    _, secret = table_token(match.table)
    barrier = threading.Barrier(2)
    results: list[tuple[int, int]] = []

    def send() -> None:
        try:
            client = client_with(f"Table {secret}")
            barrier.wait()
            response = submit(client, match, key="same-key-1234")
            results.append((response.status_code, response.json().get("id")))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(code for code, _ in results) == [200, 201]
    assert len({ident for _, ident in results}) == 1
    assert HandSubmission.objects.count() == 1

"""Each operation lists the error statuses it can answer (no longer one list for every write),
and the error codes are one documented list (`ErrorCode`) with none dead. That every status and
code the API tests see is documented, tests/api/recorder.py checks in every API test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.http import JsonResponse

from api.codes import ERROR_CODES, LISTED
from tests.api import recorder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def document(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        from django.test import Client

        return (
            Client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
        )


def errors(document: dict, method: str, path: str) -> set[str]:
    responses = document["paths"][path][method]["responses"]
    return {code for code in responses if code >= "400"}


def test_each_operation_lists_what_it_can_answer(document):
    # A public read by slug: a bad token, no JSON accepted, no such tournament.
    assert errors(document, "get", "/api/v1/tournaments/{slug}") == {"401", "404", "406"}
    # A list: its filters and page size (400), a page past the end (404).
    assert errors(document, "get", "/api/v1/tournaments") == {"400", "401", "404", "406"}
    # A director's read: 403 as well.
    assert "403" in errors(document, "get", "/api/v1/tournaments/{slug}/pins")
    # A stateless check: a body (400, 413, 415), throttled (429), no state to conflict with.
    assert errors(document, "post", "/api/v1/hands/check") == {
        "400", "401", "403", "406", "413", "415", "429",
    }  # fmt: skip
    # A submission: all of it, idempotency and versions included.
    assert errors(document, "post", "/api/v1/matches/{id}/hands") == {
        "400", "401", "403", "404", "406", "409", "413", "415", "422", "429",
    }  # fmt: skip
    # An action without a body: no 413 or 415.
    assert errors(document, "post", "/api/v1/rounds/{id}/publish") == {
        "400", "401", "403", "404", "406", "409", "422",
    }  # fmt: skip


def test_the_error_codes_are_one_documented_list(document):
    schemas = document["components"]["schemas"]
    assert schemas["ErrorCode"]["enum"] == list(ERROR_CODES)
    assert "ErrorCode" in schemas["Error"]["properties"]["code"]["description"]
    assert {"invalid", "stale-version", "permission-denied", "pairing-bad-seed"} <= set(ERROR_CODES)


def test_no_listed_code_is_dead():
    """Each code listed by hand is still written in the API's or the services' code."""
    sources = [
        path.read_text()
        for folder in ("api", "tournaments", "games")
        for path in (ROOT / folder).rglob("*.py")
        if path.name != "codes.py" and "migrations" not in path.parts
    ]
    text = "\n".join(sources)
    dead = sorted(code for code in LISTED if not re.search(rf"[\"']{re.escape(code)}[\"']", text))
    assert dead == []


def test_the_recorder_notes_what_the_document_does_not_say(db):
    recorder.seen.clear()
    recorder.check("GET", "/api/v1/tournaments/club-night", JsonResponse({}, status=409))
    recorder.check(
        "POST",
        "/api/v1/rounds/1/publish",
        JsonResponse({"code": "no-such-code", "message": "", "details": None}, status=409),
    )
    recorder.check("GET", "/api/v1/tournaments/club-night", JsonResponse({}, status=404))
    noted, recorder.seen[:] = list(recorder.seen), []
    assert noted == [
        "GET /api/v1/tournaments/{slug} answered 409",
        "POST /api/v1/rounds/1/publish sent the undocumented code 'no-such-code'",
    ]

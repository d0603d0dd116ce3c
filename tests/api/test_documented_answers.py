"""Each operation lists the error statuses it can answer (no longer one list for every write),
and the error codes are one documented list (`ErrorCode`) with none dead. That every status and
code the API tests see is documented, tests/api/recorder.py checks in every API test."""

from __future__ import annotations

import ast
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


#: Callables whose `code` goes into `details` (a file's or a line's problems), not `Error.code`,
#: the engines' errors (listed from their `ERROR_CODES`, pairing ones as `pairing-<code>`), and
#: the static site's errors, which no API operation answers (`manage.py export_site` and the
#: director's zip page say them).
NOT_TOP_LEVEL = {
    "_LineError", "_FileProblem", "RowError", "PairingError", "DuplicateError", "StandingsError",
    "SeasonError", "RatingError", "StaticSiteError",
}  # fmt: skip


def _code_takers(trees: list[ast.Module]) -> dict[str, int]:
    """The functions and classes of the code that take a `code`, with its position: those with
    a `code` parameter, the subclasses that keep their base's `__init__`, and the names they
    are imported as."""
    takers: dict[str, int] = {}
    subclasses: dict[str, list[str]] = {}
    aliases: dict[str, str] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                aliases.update({a.asname: a.name for a in node.names if a.asname})
            if isinstance(node, ast.ClassDef):
                init = next(
                    (
                        n
                        for n in node.body
                        if isinstance(n, ast.FunctionDef) and n.name == "__init__"
                    ),
                    None,
                )
                if init is None:
                    subclasses[node.name] = [getattr(b, "id", "") for b in node.bases]
                args = [a.arg for a in init.args.args][1:] if init else []
            elif isinstance(node, ast.FunctionDef):
                args = [a.arg for a in node.args.args]
            else:
                continue
            if "code" in args and node.name not in NOT_TOP_LEVEL:
                takers[node.name] = args.index("code")
    for _ in range(5):  # subclasses of subclasses
        for name, bases in subclasses.items():
            found = next((takers[b] for b in bases if b in takers), None)
            if found is not None and name not in NOT_TOP_LEVEL:
                takers[name] = found
    takers.update({alias: takers[name] for alias, name in aliases.items() if name in takers})
    return takers


def test_every_code_the_api_and_the_services_write_is_listed():
    """A code written as a literal where an error is made (a service's refusal, an API error,
    an error body) is in the list, even one no API test provokes."""
    engines = ("pairing", "standings", "ratings", "duplicate/engine", "migrations")
    paths = [
        path
        for folder in ("api", "tournaments")
        for path in (ROOT / folder).rglob("*.py")
        if path.name != "codes.py"
        and not any(path.is_relative_to(ROOT / "tournaments" / e) for e in engines)
        and path.name != "engine.py"  # the knockout and season engines
        and "views" not in path.parts
        and path.name != "views.py"  # the pages' own refusals never reach the API
    ]
    trees = [ast.parse(path.read_text()) for path in paths]
    takers = _code_takers(trees)
    written = set()
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            if name not in takers:
                continue
            at = takers[name]
            given = node.args[at] if len(node.args) > at else None
            given = next((k.value for k in node.keywords if k.arg == "code"), given)
            if isinstance(given, ast.Constant) and isinstance(given.value, str):
                written.add(given.value)
    assert {"not-director", "stale-version", "too-many-streams"} <= written
    assert sorted(written - set(ERROR_CODES)) == []

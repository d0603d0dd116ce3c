"""Schemathesis over every write operation that tests/api/test_schemathesis.py leaves out (the
scoring endpoints, corrections, entry, round, token and tournament actions), with the path
pinned to real objects of a match in play — a published round, hand 1 awaiting confirmation —
so the generated bodies reach the services instead of a 404. As the director (API token) and
as the table's scorer (table token): no server error, and every answer has a documented status,
content type and shape. The figures of a run are in docs/hostile-input.md."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests import sizes
from tests.openapi import served_schema
from tests.tournaments.builders import HAND_1, make_director, make_match

from .conftest import api_token, never_committed, submit, table_token, throttles_as_in_a_test
from .conftest import client as api_client

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
#: Cases per operation: enough to reach every field with odd values, few enough for CI.
EXAMPLES = 25
COVERED_ELSEWHERE = r"^/api/v1/(tournaments(/\{slug\}/entries)?|hands/check)$"
#: Left out while its bug stands (this run found it: a huge entry id is a 500); the bug's own
#: test is test_json_bodies.py::test_a_swap_naming_an_entry_id_beyond_any_integer_is_400...
SWAP = r"^/api/v1/rounds/\{id\}/swap$"
SCORING = r"^/api/v1/matches/\{id\}/(hands|hands/\{number\}/(confirm|reject)|finish)$"


def bounded() -> settings:
    return settings(
        max_examples=sizes.examples(EXAMPLES),
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )


@pytest.fixture(autouse=True)
def _keep_the_test_connection(pinned):
    """Requests go through the bare WSGI handler, whose request signals would close the test's
    database connection (as in tests/api/test_schemathesis.py). After `pinned`: Django's test
    client, which builds it, connects the signals again when its requests end."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def build_pinned() -> dict:
    """A match in play with hand 1 awaiting confirmation; the path parameters of its objects
    and the two callers' Authorization headers."""
    director = make_director("fuzz-td")
    match = make_match(director)
    _, scorer_secret = table_token(match.table)
    token, director_secret = api_token(director.user)
    assert (
        submit(
            api_client(f"Table {scorer_secret}"), match, HAND_1, key="fuzz-pending-1"
        ).status_code
        == 201
    )
    entry = match.seats.first().entry_id
    table_token_row, _ = table_token(match.table)
    return {
        "path": {"id": match.pk, "number": 1, "slug": match.round.tournament.slug},
        "ids": {
            "/entries/": entry,
            "/rounds/": match.round_id,
            "/tables/": match.table_id,
            "/auth/tokens/": token.pk,
        },
        "token": table_token_row.pk,
        "director": {"Authorization": f"Token {director_secret}"},
        "scorer": {"Authorization": f"Table {scorer_secret}"},
    }


@pytest.fixture(scope="module")
def pinned_once(django_db_setup, django_db_blocker) -> Iterator[dict]:
    """`build_pinned` once for the module, never committed (`never_committed`): whatever a
    test's generated requests change is rolled back, and the next test finds the match as
    built."""
    with never_committed(django_db_blocker):
        with throttles_as_in_a_test():
            built = build_pinned()
        yield built


@pytest.fixture
def pinned(pinned_once: dict, db) -> dict:
    """The module's match in play (`pinned_once`), in this test's own transaction."""
    return copy.deepcopy(pinned_once)


def pin(case, pinned: dict) -> None:
    """Point the case's path at the fixture's objects (the body stays generated)."""
    path = case.operation.path
    params = dict(case.path_parameters or {})
    for name in params:
        params[name] = pinned["path"].get(name, params[name])
    for prefix, ident in pinned["ids"].items():
        if path.startswith(f"/api/v1{prefix}") and "id" in params:
            params["id"] = ident
    if "token" in params:
        params["token"] = pinned["token"]
    case.path_parameters = params


schema = served_schema()
writes = schema.exclude(method="GET").exclude(path_regex=COVERED_ELSEWHERE).exclude(path_regex=SWAP)


@writes.parametrize()
@bounded()
def test_every_write_answers_generated_bodies_as_documented_for_the_director(case, pinned):
    pin(case, pinned)
    case.call_and_validate(headers=pinned["director"], checks=CHECKS)


@schema.include(path_regex=SCORING, method="POST").parametrize()
@bounded()
def test_every_scoring_action_answers_generated_bodies_as_documented_for_a_scorer(case, pinned):
    pin(case, pinned)
    case.call_and_validate(headers=pinned["scorer"], checks=CHECKS)

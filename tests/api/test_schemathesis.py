"""Property-based tests from the OpenAPI document (schemathesis, in-process over WSGI): every
read endpoint, the check endpoint and the director's create/register endpoints answer generated
requests without a server error, with a documented status code, content type and body."""

from __future__ import annotations

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
from tests.tournaments.builders import make_director, make_match
from tournaments.models import Player, Rating

from .conftest import api_token

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def bounded(examples: int) -> settings:
    """A fixed, small number of examples per operation (CI stays fast and repeatable)."""
    return settings(
        max_examples=sizes.examples(examples),
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Requests go through the bare WSGI handler, whose request signals close the database
    connection (and with it the test's transaction on PostgreSQL); Django's test client
    disconnects them the same way."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def data(db) -> None:
    """Some data behind the endpoints: a published match, a rating."""
    director = make_director("st-td")
    make_match(director)
    player = Player.objects.create(name="Aiko")
    Rating.objects.create(
        player=player,
        game="spades",
        mu=25,
        sigma=8,
        ordinal=1,
        games=3,
        wins=2,
        history=[["2025-01-01T00:00:00+00:00", 1, 25, 8, 1]],
    )


@pytest.fixture
def director_header(db) -> dict[str, str]:
    return {"Authorization": f"Token {api_token(make_director('st-writer').user)}"}


schema = served_schema()


@schema.include(method="GET").parametrize()
@bounded(20)
@pytest.mark.usefixtures("data")
def test_read_endpoints_conform_to_the_schema(case):
    case.call_and_validate(checks=CHECKS)


@schema.include(path="/api/v1/hands/check", method="POST").parametrize()
@bounded(15)
@pytest.mark.django_db
def test_the_check_endpoint_conforms_to_the_schema(case):
    case.call_and_validate(checks=CHECKS)


WRITES = r"^/api/v1/tournaments(/\{slug\}/entries)?$"


@schema.include(path_regex=WRITES, method="POST").parametrize()
@bounded(20)
def test_director_writes_conform_to_the_schema(case, director_header):
    case.call_and_validate(headers=director_header, checks=CHECKS)

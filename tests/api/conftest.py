"""Fixtures for the API tests: clients authenticated the way real callers are (API token,
table token, anonymous), and a published match from the tournament test builders."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from api.models import ApiToken, hash_secret, new_secret
from tests.api import recorder
from tests.conftest import clear_cache
from tests.tournaments.builders import make_director, make_match
from tournaments.models import Match, TableToken
from tournaments.services import Actor


@pytest.fixture(autouse=True)
def _fresh_throttles():
    clear_cache()
    yield
    clear_cache()


@pytest.fixture(autouse=True)
def _answers_as_documented(request, settings):
    """Every answer of the test held against the OpenAPI document (tests/api/recorder.py): a
    status its operation does not list, or an error code not in the documented list, fails
    the test."""
    settings.MIDDLEWARE = [recorder.MIDDLEWARE, *settings.MIDDLEWARE]
    recorder.seen.clear()
    yield
    undocumented, recorder.seen[:] = list(recorder.seen), []
    assert not undocumented, undocumented


def api_token(user, **fields) -> str:
    secret = new_secret()
    ApiToken.objects.create(user=user, key_hash=hash_secret(secret), **fields)
    return secret


def table_token(table, **fields) -> tuple[TableToken, str]:
    secret = new_secret()
    fields.setdefault("expires_at", timezone.now() + timedelta(hours=1))
    token = TableToken.objects.create(
        table=table.event_table, key_hash=hash_secret(secret), **fields
    )
    return token, secret


def client_with(header: str | None = None) -> APIClient:
    client = APIClient()
    if header:
        client.credentials(HTTP_AUTHORIZATION=header)
    return client


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def director(db) -> Actor:
    return make_director("td")


@pytest.fixture
def td(director) -> APIClient:
    """The director, by API token."""
    return client_with(f"Token {api_token(director.user)}")


@pytest.fixture
def other_td(db) -> APIClient:
    """A signed-in user who directs some other tournament, not the fixtures' one."""
    return client_with(f"Token {api_token(make_director('other-td').user)}")


@pytest.fixture
def match(director) -> Match:
    """A published Spades match at table 1 between NS and EW teams."""
    return make_match(director)


@pytest.fixture
def scorer(match) -> APIClient:
    """The scorer's device at the match's table (table token)."""
    _, secret = table_token(match.table)
    return client_with(f"Table {secret}")


@pytest.fixture
def other_match(director) -> Match:
    return make_match(director)


@pytest.fixture
def other_scorer(other_match) -> APIClient:
    _, secret = table_token(other_match.table)
    return client_with(f"Table {secret}")


def assert_error(response, status: int, code: str | None = None) -> dict:
    """The one error shape, with the status (and code)."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "message", "details"}, body
    assert isinstance(body["code"], str) and isinstance(body["message"], str)
    if code is not None:
        assert body["code"] == code, body
    return body

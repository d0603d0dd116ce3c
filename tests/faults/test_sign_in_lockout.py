"""The sign-in lockout under faults: the wrong-password counts live in the database
(django-axes' database handler), not in the cache, so neither Redis going down nor the cache
being emptied (a restart of the server or of Redis) lifts a lockout or turns a sign-in into a
server error."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from .test_redis_down import redis_down

pytestmark = pytest.mark.django_db

PASSWORD = "the-right-pass-42"


def api_sign_in(password: str):
    return Client(raise_request_exception=False).post(
        "/api/v1/auth/tokens",
        data=json.dumps({"username": "td", "password": password}),
        content_type="application/json",
        REMOTE_ADDR="10.0.0.7",
    )


def page_sign_in(password: str):
    return Client(raise_request_exception=False).post(
        "/accounts/login/", {"username": "td", "password": password}, REMOTE_ADDR="10.0.0.7"
    )


@pytest.fixture
def director(db):
    return get_user_model().objects.create_user("td", password=PASSWORD)


def test_with_redis_down_wrong_passwords_still_lock_and_nothing_is_a_500(director, settings):
    with redis_down():
        statuses = [api_sign_in("guess").status_code for _ in range(settings.AXES_FAILURE_LIMIT)]
        assert statuses == [401] * (settings.AXES_FAILURE_LIMIT - 1) + [429], statuses
        locked = api_sign_in(PASSWORD)
        assert locked.status_code == 429 and locked.json()["code"] == "locked-out"
        assert page_sign_in(PASSWORD).status_code == 429


def test_emptying_the_cache_does_not_lift_a_lockout(director, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        page_sign_in("guess")
    cache.clear()  # what a restart of the server (local memory) or of Redis does
    assert page_sign_in(PASSWORD).status_code == 429
    assert api_sign_in(PASSWORD).status_code == 429

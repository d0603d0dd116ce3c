"""Guessing passwords (issue 14, point 2): every sign-in — the director's page /accounts/login/,
the admin's /admin/login/ and the API's `POST /api/v1/auth/tokens` — stops answering for a
username after AXES_FAILURE_LIMIT wrong passwords from one address (django-axes), with a
friendly page (English or Japanese) or the API's error shape, 429 and Retry-After; the right
password is refused too while the lockout lasts. The lockout is per username *and* address:
another username from the same Wi-Fi, or the same username from another address, still signs
in. The client's address is the connection's: a rotating X-Forwarded-For header neither escapes
the lockout nor the API's login throttle, unless it comes from a proxy named in TRUSTED_PROXIES."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from .conftest import refused

pytestmark = pytest.mark.django_db

PASSWORD = "the-right-pass-42"
LIMIT = 5  # settings.AXES_FAILURE_LIMIT
API_LOGIN = "/api/v1/auth/tokens"


@pytest.fixture
def director(db):
    return get_user_model().objects.create_user("td", password=PASSWORD, is_staff=True)


def sign_in(
    where: str,
    username: str,
    password: str,
    *,
    address: str = "10.0.0.7",
    forwarded: str | None = None,
    language: str = "en",
):
    """One sign-in attempt at `where` (page, admin or api) from `address`."""
    headers = {"REMOTE_ADDR": address, "HTTP_ACCEPT_LANGUAGE": language}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    who = Client(raise_request_exception=False)
    if where == "api":
        return who.post(
            API_LOGIN,
            data=json.dumps({"username": username, "password": password}),
            content_type="application/json",
            **headers,
        )
    path = "/accounts/login/" if where == "page" else "/admin/login/?next=/admin/"
    return who.post(path, {"username": username, "password": password}, **headers)


def signed_in(where: str, response) -> bool:
    if where == "api":
        return response.status_code == 201
    return response.status_code == 302  # to the director's home or the admin index


WHERE = pytest.mark.parametrize("where", ["page", "admin", "api"])


def test_the_limit_is_the_one_documented(settings):
    assert settings.AXES_FAILURE_LIMIT == LIMIT
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.TRUSTED_PROXIES == [] and settings.REST_FRAMEWORK["NUM_PROXIES"] == 0


@WHERE
def test_after_the_limit_of_wrong_passwords_even_the_right_one_is_refused(director, where):
    for _ in range(LIMIT - 1):
        assert not signed_in(where, sign_in(where, "td", "guess"))
    locked = sign_in(where, "td", "guess")  # the limit-th wrong password locks
    assert locked.status_code == 429
    right = sign_in(where, "td", PASSWORD)
    assert right.status_code == 429, right.content[:300]
    assert int(right["Retry-After"]) == 15 * 60
    if where == "api":
        body = refused(right, 429, "locked-out")
        assert body["details"] == {"wait": 15 * 60, "failure_limit": LIMIT}
    else:
        page = right.content.decode()
        assert "Too many wrong passwords" in page and "15 minutes" in page
        assert "Other people can still sign in" in page and "<code>td</code>" in page
        assert 'data-error="429"' in page  # the site's error-page design


def test_the_lockout_page_speaks_japanese(director):
    for _ in range(LIMIT):
        sign_in("page", "td", "guess", language="ja")
    page = sign_in("page", "td", PASSWORD, language="ja")
    assert page.status_code == 429 and page["Content-Language"] == "ja"
    text = page.content.decode()
    assert "パスワードの誤りが多すぎます" in text and "15 分後にもう一度お試しください" in text


@WHERE
def test_the_lockout_is_per_username_and_address_not_the_whole_room(director, where):
    """The club shares one Wi-Fi: the person guessing is the one who waits."""
    get_user_model().objects.create_user("aiko", password=PASSWORD, is_staff=True)
    for _ in range(LIMIT):
        sign_in(where, "td", "guess", address="10.0.0.7")
    assert sign_in(where, "td", PASSWORD, address="10.0.0.7").status_code == 429
    assert signed_in(where, sign_in(where, "aiko", PASSWORD, address="10.0.0.7"))
    assert signed_in(where, sign_in(where, "td", PASSWORD, address="10.0.0.8"))


@WHERE
def test_a_rotating_x_forwarded_for_header_does_not_escape_the_lockout(director, where):
    for n in range(LIMIT):
        sign_in(where, "td", "guess", forwarded=f"203.0.113.{n}")
    assert sign_in(where, "td", PASSWORD, forwarded="198.51.100.1").status_code == 429


def test_the_api_login_throttle_counts_the_connection_not_the_header(director, settings):
    """Issue 14's report: 15 wrong passwords with a rotating X-Forwarded-For, never a 429.
    Here the lockout is lifted out of the way so that only the throttle (10/minute) counts."""
    settings.AXES_FAILURE_LIMIT = 1000
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": "10/minute",
        },
    }
    statuses = [
        sign_in("api", "td", "guess", forwarded=f"203.0.113.{n}").status_code for n in range(15)
    ]
    assert statuses[:10] == [401] * 10 and statuses[10:] == [429] * 5, statuses
    refused(sign_in("api", "td", "guess", forwarded="198.51.100.9"), 429, "throttled")


def test_behind_a_configured_proxy_the_address_is_the_one_it_saw(director, settings):
    """TRUSTED_PROXIES names the reverse proxy (which appends the address it saw): the lockout
    and the throttles count that address, the right-most of X-Forwarded-For; what the client
    wrote to the left of it is still ignored."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    proxy = "127.0.0.1"
    for _ in range(LIMIT):
        sign_in("page", "td", "guess", address=proxy, forwarded="6.6.6.6, 10.0.0.7")
    assert (
        sign_in("page", "td", PASSWORD, address=proxy, forwarded="7.7.7.7, 10.0.0.7").status_code
        == 429
    )
    assert signed_in("page", sign_in("page", "td", PASSWORD, address=proxy, forwarded="10.0.0.8"))


@WHERE
def test_a_rotating_header_from_loopback_is_ignored_when_no_proxy_is_named(director, where):
    """Issue 30, item 1: uvicorn's default trusted proxy headers from 127.0.0.1; the
    application itself never does unless the operator names the proxy."""
    for n in range(LIMIT):
        sign_in(where, "td", "guess", address="127.0.0.1", forwarded=f"203.0.113.{n}")
    right = sign_in(where, "td", PASSWORD, address="127.0.0.1", forwarded="198.51.100.77")
    assert right.status_code == 429, right.content[:300]


@pytest.mark.parametrize(
    ("proxies", "forwarded", "address"),
    [
        ([], None, "10.0.0.7"),
        ([], "203.0.113.5", "10.0.0.7"),
        ([], "203.0.113.5, 10.0.0.9", "10.0.0.7"),
        (["10.0.0.7"], None, "10.0.0.7"),
        (["10.0.0.7"], "203.0.113.5", "203.0.113.5"),
        (["10.0.0.7"], "203.0.113.5, 10.0.0.9", "10.0.0.9"),
        (["10.0.0.0/24"], "203.0.113.5, 10.0.0.9", "203.0.113.5"),
        (["10.0.0.7", "10.0.0.9"], "203.0.113.5, 10.0.0.9", "203.0.113.5"),
        (["10.0.0.0/24"], "10.0.0.3, 10.0.0.9", "10.0.0.3"),
        (["10.0.0.8"], "203.0.113.5", "10.0.0.7"),  # a header from a proxy not named
        (["::1"], "203.0.113.5", "10.0.0.7"),
    ],
)
def test_the_client_address_is_the_connection_s_unless_proxies_are_trusted(
    settings, rf, proxies, forwarded, address
):
    from tournaments.web.clients import client_address

    settings.TRUSTED_PROXIES = proxies
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    assert client_address(rf.get("/", REMOTE_ADDR="10.0.0.7", **extra)) == address


def test_axes_and_the_throttles_take_the_address_from_the_same_place(rf):
    from axes.helpers import get_client_ip_address

    from api.throttles import ScopedThrottle

    request = rf.get("/", REMOTE_ADDR="10.0.0.7", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert ScopedThrottle().get_ident(request) == "10.0.0.7"
    assert get_client_ip_address(request) == "10.0.0.7"


def test_a_sign_in_by_a_locked_out_user_writes_no_session(director):
    for _ in range(LIMIT):
        sign_in("page", "td", "guess")
    who = Client()
    who.post("/accounts/login/", {"username": "td", "password": PASSWORD}, REMOTE_ADDR="10.0.0.7")
    assert "_auth_user_id" not in who.session

"""The ASGI fast path answers a standings poll exactly as Django would: the same requests go to
Django's own ASGI handler and to the application uvicorn runs (fast path first, as in
config/asgi.py), and the status and every header agree — a 200, a 304 by ETag and by
If-Modified-Since, HEAD, the language headers, a disallowed host (400), plain HTTP under
SECURE_SSL_REDIRECT (301) and HTTPS under it (HSTS). Each case also says whether the fast path
answers it itself (else the comparison would hold trivially) or must leave it to Django."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from asgiref.sync import async_to_sync
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from api import fastpath

pytestmark = pytest.mark.django_db

#: Headers whose value is not the answer's but the moment's: compared apart (see `compare`).
MOMENT = {"content-length"}


@pytest.fixture(autouse=True)
def keep_the_test_transaction() -> Iterator[None]:
    """Django's handler closes "old" connections around each request: inside the test's
    transaction that would end it (the test client disconnects the same receivers)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def https_site(settings):
    """An HTTPS deployment as config/settings.py makes one (HTTPS on)."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = settings.SECURE_HSTS_PRELOAD = True


class Apps:
    """Django's handler alone, and the fast path in front of it (config/asgi.py's order)."""

    def __init__(self) -> None:
        self.django = ASGIHandler()  # after the test's settings: middleware reads them here
        self.answered: list[bool] = []

    async def fast(self, scope, receive, send) -> None:
        served = await fastpath.serve(scope, send, receive)
        self.answered.append(served)
        if not served:
            await self.django(scope, receive, send)


def request(app, method: str, path: str, headers: dict[str, str], scheme: str = "http"):
    """One request through an ASGI app: (status, headers, body)."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": scheme, "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 50123), "server": ("testserver", 80),
        "headers": [(name.lower().encode(), value.encode()) for name, value in headers.items()],
    }
    sent: list[dict] = []

    async def run() -> None:
        delivered = False

        async def receive() -> dict:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Event().wait()  # the client stays until the answer is complete

        async def send(message: dict) -> None:
            sent.append(message)

        await app(scope, receive, send)

    async_to_sync(run)()
    start = next(m for m in sent if m["type"] == "http.response.start")
    names = [name.decode().lower() for name, _ in start["headers"]]
    assert len(names) == len(set(names)), f"a header sent twice: {names}"
    headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], headers, body


def compare(django, fast, method: str) -> None:
    (status, headers, body), (fast_status, fast_headers, fast_body) = django, fast
    assert fast_status == status
    moment = {k: v for k, v in headers.items() if k not in MOMENT}
    assert {k: v for k, v in fast_headers.items() if k not in MOMENT} == moment
    assert set(fast_headers) == set(headers)
    if status == 200 and method == "GET":  # the same standings; only age_seconds may differ
        assert headers["content-length"] == str(len(body))
        assert fast_headers["content-length"] == str(len(fast_body))
        mine, theirs = json.loads(fast_body), json.loads(body)
        mine.pop("age_seconds"), theirs.pop("age_seconds")
        assert mine == theirs
    elif method == "HEAD":
        assert fast_body == b""
    else:
        assert fast_headers.get("content-length") == headers.get("content-length")
        assert fast_body == body


# (case, method, headers, scheme, the fast path answers it itself). "{etag}" and "{modified}"
# are the current validators.
PLAIN = [
    ("200", "GET", {}, "http", True),
    ("304 by ETag", "GET", {"If-None-Match": "{etag}"}, "http", True),
    ("304 by a weak ETag list", "GET", {"If-None-Match": 'W/"0-0-0", {etag}'}, "http", True),
    ("200 for an old ETag", "GET", {"If-None-Match": '"0-0-0"'}, "http", True),
    ("304 by If-Modified-Since", "GET", {"If-Modified-Since": "{modified}"}, "http", True),
    ("200 when modified since", "GET",
     {"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"}, "http", True),
    ("HEAD", "HEAD", {}, "http", True),
    ("HEAD 304", "HEAD", {"If-None-Match": "{etag}"}, "http", True),
    ("Japanese reader", "GET", {"Accept-Language": "ja,en;q=0.5"}, "http", True),
    ("language cookie", "GET", {"Cookie": "django_language=ja"}, "http", True),
    ("unknown language", "GET", {"Accept-Language": "xx-YY"}, "http", True),
    ("signed-in director", "GET", {"Cookie": "sessionid=abcdefgh12345678"}, "http", True),
    ("disallowed host", "GET", {"Host": "evil.example"}, "http", False),
    ("host with a bad port", "GET", {"Host": "testserver:x"}, "http", False),
    ("invalid session cookie", "GET", {"Cookie": "sessionid=x"}, "http", False),
]
SECURE = [
    ("plain HTTP under the redirect", "GET", {}, "http", False),
    ("plain HTTP, forwarded as http", "GET", {"X-Forwarded-Proto": "http"}, "https", False),
    ("HTTPS via the proxy", "GET", {"X-Forwarded-Proto": "https"}, "http", True),
    ("HTTPS 304", "GET", {"X-Forwarded-Proto": "https", "If-None-Match": "{etag}"}, "http",
     True),
    ("HTTPS HEAD", "HEAD", {"X-Forwarded-Proto": "https"}, "http", True),
    ("HTTPS, disallowed host", "GET", {"X-Forwarded-Proto": "https", "Host": "evil.example"},
     "http", False),
]


def check(tournament, case, method, extra, scheme, answered_fast) -> None:
    apps = Apps()
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    base = {"Host": "testserver", "X-Forwarded-Proto": "https"}
    # Django fills the cache first: the fast path answers only a current, cached state.
    status, warm, _ = request(apps.django, "GET", path, base)
    assert status == 200, warm
    headers = {"Host": "testserver", **{
        name: value.format(etag=warm["etag"], modified=warm["last-modified"])
        for name, value in extra.items()}}
    django = request(apps.django, method, path, headers, scheme)
    fast = request(apps.fast, method, path, headers, scheme)
    assert apps.answered == [answered_fast], case
    compare(django, fast, method)


@pytest.mark.parametrize(("case", "method", "extra", "scheme", "answered_fast"), PLAIN,
                         ids=[row[0] for row in PLAIN])
def test_the_fast_path_answers_as_django_does(tournament, case, method, extra, scheme,
                                              answered_fast):
    check(tournament, case, method, extra, scheme, answered_fast)


@pytest.mark.parametrize(("case", "method", "extra", "scheme", "answered_fast"), SECURE,
                         ids=[row[0] for row in SECURE])
def test_on_an_https_site_the_fast_path_answers_as_django_does(
        https_site, tournament, case, method, extra, scheme, answered_fast):
    check(tournament, case, method, extra, scheme, answered_fast)


def test_the_answers_carry_the_security_and_language_headers(https_site, tournament):
    """What the issue found missing, named: HSTS, Referrer-Policy, COOP, Vary and
    Content-Language, on the fast path's own answer."""
    apps = Apps()
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    secure = {"Host": "testserver", "X-Forwarded-Proto": "https"}
    request(apps.django, "GET", path, secure)
    status, headers, _ = request(apps.fast, "GET", path, {**secure, "Accept-Language": "ja"})
    assert apps.answered == [True] and status == 200
    assert headers["strict-transport-security"] == "max-age=31536000; includeSubDomains; preload"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["vary"] == "Accept-Language" and headers["content-language"] == "ja"


def test_with_a_middleware_it_does_not_know_the_fast_path_stands_aside(settings, tournament):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "django.middleware.gzip.GZipMiddleware"]
    apps = Apps()
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    request(apps.django, "GET", path, {"Host": "testserver"})
    request(apps.fast, "GET", path, {"Host": "testserver"})
    assert apps.answered == [False]

"""The ASGI fast path answers a standings poll exactly as Django would: the same requests go to
Django's own ASGI handler and to the application uvicorn runs (fast path first, as in
config/asgi.py), and the status and every header agree — a 200, a 304 by ETag and by
If-Modified-Since, HEAD, the language headers, a disallowed host (400), plain HTTP under
SECURE_SSL_REDIRECT (301) and HTTPS under it (HSTS). Each case also says whether the fast path
answers it itself (else the comparison would hold trivially) or must leave it to Django."""

from __future__ import annotations

import json

import pytest

from .asgi import Apps, request, transaction_kept

pytestmark = pytest.mark.django_db

#: Headers whose value is not the answer's but the moment's: compared apart (see `compare`).
MOMENT = {"content-length"}


@pytest.fixture(autouse=True)
def _kept():
    with transaction_kept():
        yield


@pytest.fixture
def https_site(settings):
    """An HTTPS deployment as config/settings.py makes one (HTTPS on)."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = settings.SECURE_HSTS_PRELOAD = True


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
    (
        "200 when modified since",
        "GET",
        {"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"},
        "http",
        True,
    ),
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
    ("HTTPS 304", "GET", {"X-Forwarded-Proto": "https", "If-None-Match": "{etag}"}, "http", True),
    ("HTTPS HEAD", "HEAD", {"X-Forwarded-Proto": "https"}, "http", True),
    (
        "HTTPS, disallowed host",
        "GET",
        {"X-Forwarded-Proto": "https", "Host": "evil.example"},
        "http",
        False,
    ),
]


def check(tournament, case, method, extra, scheme, answered_fast) -> None:
    apps = Apps()
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    base = {"Host": "testserver", "X-Forwarded-Proto": "https"}
    # Django fills the cache first: the fast path answers only a current, cached state.
    status, warm, _ = request(apps.django, "GET", path, base)
    assert status == 200, warm
    headers = {
        "Host": "testserver",
        **{
            name: value.format(etag=warm["etag"], modified=warm["last-modified"])
            for name, value in extra.items()
        },
    }
    django = request(apps.django, method, path, headers, scheme)
    fast = request(apps.fast, method, path, headers, scheme)
    assert apps.answered == [answered_fast], case
    compare(django, fast, method)


@pytest.mark.parametrize(
    ("case", "method", "extra", "scheme", "answered_fast"), PLAIN, ids=[row[0] for row in PLAIN]
)
def test_the_fast_path_answers_as_django_does(
    tournament, case, method, extra, scheme, answered_fast
):
    check(tournament, case, method, extra, scheme, answered_fast)


@pytest.mark.parametrize(
    ("case", "method", "extra", "scheme", "answered_fast"), SECURE, ids=[row[0] for row in SECURE]
)
def test_on_an_https_site_the_fast_path_answers_as_django_does(
    https_site, tournament, case, method, extra, scheme, answered_fast
):
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


def test_with_user_agents_refused_the_fast_path_stands_aside(settings, tournament):
    import re

    settings.DISALLOWED_USER_AGENTS = [re.compile(r"^BadBot")]
    apps = Apps()
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    request(apps.django, "GET", path, {"Host": "testserver"})
    status, _, _ = request(apps.fast, "GET", path, {"Host": "testserver", "User-Agent": "BadBot"})
    assert apps.answered == [False] and status == 403


@pytest.mark.parametrize("extra", [{}, {"Accept-Language": "ja"}], ids=["en", "ja"])
def test_the_events_stream_starts_with_the_headers_django_sends(in_process, tournament, extra):
    """The fast path's stream against the view's (each read for half a second, then cut)."""
    apps = Apps()
    path = f"/api/v1/tournaments/{tournament.slug}/events"
    headers = {"Host": "testserver", **extra}
    status, django, _ = request(apps.django, "GET", path, headers, timeout=0.5)
    fast_status, fast, _ = request(apps.fast, "GET", path, headers, timeout=0.5)
    assert apps.answered == []  # cut while the fast path streamed (Django's would be [False])
    assert (fast_status, fast) == (status, django) and status == 200

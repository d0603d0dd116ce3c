"""The live endpoints through Django's ASGI handler, as uvicorn serves them (config/asgi.py): a
standings poll answered from the cache with no SQL (200, 304 by ETag or date, HEAD) with the
security and language headers of Django's middleware, and the events stream — its headers, an
announcement heard, a resume from Last-Event-ID, the end when the client leaves."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from django.core.handlers.asgi import ASGIHandler

from tests import waiting
from tournaments.live import event_log, events, standings_cache

from .asgi import Apps, request, transaction_kept

pytestmark = pytest.mark.django_db

HOST = {"Host": "testserver"}


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


def standings_path(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/standings"


def test_a_cached_poll_is_answered_without_sql(tournament, django_assert_num_queries):
    app = Apps().django
    status, first, body = request(app, "GET", standings_path(tournament), HOST)
    assert status == 200 and first["content-type"] == "application/json"
    assert first["etag"] == f'"{tournament.pk}-1-0"' and first["last-modified"].endswith("GMT")
    assert first["cache-control"] == "public, max-age=0, s-maxage=1"
    with django_assert_num_queries(0):
        status, again, again_body = request(app, "GET", standings_path(tournament), HOST)
    assert status == 200 and again["etag"] == first["etag"]
    assert again["content-length"] == str(len(again_body))
    mine, theirs = json.loads(again_body), json.loads(body)
    mine.pop("age_seconds"), theirs.pop("age_seconds")
    assert mine == theirs and mine["version"] == 1


CONDITIONAL = [
    ("304 by ETag", "GET", {"If-None-Match": "{etag}"}, 304),
    ("304 by a weak ETag list", "GET", {"If-None-Match": 'W/"0-0-0", {etag}'}, 304),
    ("200 for an old ETag", "GET", {"If-None-Match": '"0-0-0"'}, 200),
    ("304 by If-Modified-Since", "GET", {"If-Modified-Since": "{modified}"}, 304),
    (
        "200 when modified since",
        "GET",
        {"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"},
        200,
    ),
    ("HEAD", "HEAD", {}, 200),
    ("HEAD 304", "HEAD", {"If-None-Match": "{etag}"}, 304),
]


@pytest.mark.parametrize(
    ("case", "method", "extra", "status"), CONDITIONAL, ids=[row[0] for row in CONDITIONAL]
)
def test_conditional_polls_cost_no_sql(
    tournament, django_assert_num_queries, case, method, extra, status
):
    app = Apps().django
    _, warm, _ = request(app, "GET", standings_path(tournament), HOST)
    headers = {
        **HOST,
        **{
            k: v.format(etag=warm["etag"], modified=warm["last-modified"]) for k, v in extra.items()
        },
    }
    with django_assert_num_queries(0):
        got, answer, body = request(app, method, standings_path(tournament), headers)
    assert got == status, case
    assert (
        answer["etag"] == warm["etag"]
        and answer["cache-control"] == "public, max-age=0, s-maxage=1"
    )
    if status == 304:  # (a HEAD's body: uvicorn drops what Django sends)
        assert body == b"" and "content-type" not in answer


def test_a_caching_proxy_may_answer_repeats_for_the_set_seconds_and_browsers_revalidate(
    tournament, settings
):
    """200 and 304 say how long a shared cache may answer from its copy (s-maxage) while a
    browser revalidates every time (max-age=0); with no seconds set, everyone revalidates; a
    404 is never kept."""
    app = Apps().django
    settings.LIVE_SHARED_CACHE_SECONDS = 5
    _, first, _ = request(app, "GET", standings_path(tournament), HOST)
    assert first["cache-control"] == "public, max-age=0, s-maxage=5"
    status, again, _ = request(
        app, "GET", standings_path(tournament), {**HOST, "If-None-Match": first["etag"]}
    )
    assert status == 304 and again["cache-control"] == "public, max-age=0, s-maxage=5"
    status, missing, _ = request(app, "GET", "/api/v1/tournaments/no-such-thing/standings", HOST)
    assert status == 404 and missing["cache-control"] == "public, no-cache"
    settings.LIVE_SHARED_CACHE_SECONDS = 0
    _, revalidated, _ = request(app, "GET", standings_path(tournament), HOST)
    assert revalidated["cache-control"] == "public, no-cache"


def test_the_answers_carry_the_security_and_language_headers(https_site, tournament):
    """What Django's middleware adds, on a cached answer and on a 304: HSTS, Referrer-Policy,
    COOP, nosniff, X-Frame-Options, Vary and Content-Language."""
    app = Apps().django
    secure = {**HOST, "X-Forwarded-Proto": "https"}
    _, warm, _ = request(app, "GET", standings_path(tournament), secure)
    for extra in ({}, {"If-None-Match": warm["etag"]}):
        status, headers, _ = request(
            app, "GET", standings_path(tournament), {**secure, "Accept-Language": "ja", **extra}
        )
        assert status == (304 if extra else 200)
        assert (
            headers["strict-transport-security"] == "max-age=31536000; includeSubDomains; preload"
        )
        assert headers["referrer-policy"] == "same-origin"
        assert headers["cross-origin-opener-policy"] == "same-origin"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert "Accept-Language" in headers["vary"] and headers["content-language"] == "ja"


def test_plain_http_under_the_redirect_is_sent_to_https(https_site, tournament):
    status, headers, _ = request(Apps().django, "GET", standings_path(tournament), HOST)
    assert status == 301 and headers["location"].startswith("https://testserver/")


def test_after_a_change_the_poll_gets_the_new_answer(tournament):
    from tournaments.services import standings

    app = Apps().django
    _, first, _ = request(app, "GET", standings_path(tournament), HOST)
    standings.bump(tournament.pk)
    standings.recompute(tournament_id=tournament.pk)
    standings_cache.invalidate(tournament.pk)
    status, headers, body = request(
        app, "GET", standings_path(tournament), {**HOST, "If-None-Match": first["etag"]}
    )
    assert status == 200 and headers["etag"] != first["etag"]
    assert json.loads(body)["version"] == 2


def stream_events(
    path: str, publish, query: bytes = b"", frames: int = 3, headers: dict | None = None
) -> tuple[bool, list[dict]]:
    """Open the events stream through Django's ASGI handler, publish, read `frames` body
    messages, then disconnect; (the handler finished once the client left, everything sent)."""
    sent: list[dict] = []
    got = asyncio.Event()
    leave = asyncio.Event()

    async def send(message: dict) -> None:
        sent.append(message)
        if sum(1 for m in sent if m["type"] == "http.response.body") >= frames:
            got.set()

    asked: list[bool] = []

    async def receive() -> dict:
        if not asked:
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await leave.wait()
        return {"type": "http.disconnect"}

    async def run() -> bool:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": query,
            "client": ("127.0.0.1", 50123),
            "server": ("testserver", 80),
            "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or HOST).items()],
        }
        task = asyncio.ensure_future(ASGIHandler()(scope, receive, send))
        # The stream has subscribed once it sends `retry:`: publish only then (a fixed pause
        # lost the event on a busy machine).
        for _ in range(500):
            if task.done() or any(m["type"] == "http.response.body" for m in sent):
                break
            await asyncio.sleep(0.01)
        if task.done():
            return True
        await asyncio.to_thread(publish)
        await asyncio.wait_for(got.wait(), 5)
        leave.set()
        await asyncio.wait_for(task, 5)
        return True

    finished = async_to_sync(run)()
    return finished, sent


def test_the_events_stream_carries_an_announcement_and_ends_when_the_client_leaves(
    in_process, tournament
):
    path = f"/api/v1/tournaments/{tournament.slug}/events"
    finished, sent = stream_events(
        path, lambda: events.publish(tournament.pk, {"event": "standings", "version": 9})
    )
    assert finished and sent[0]["status"] == 200
    headers = {k.decode().lower(): v.decode() for k, v in sent[0]["headers"]}
    assert headers["content-type"] == "text/event-stream"
    assert headers["cache-control"] == "no-cache" and headers["x-accel-buffering"] == "no"
    assert headers["x-frame-options"] == "DENY" and headers["content-language"] == "en"
    bodies = b"".join(m.get("body", b"") for m in sent[1:])
    assert bodies.startswith(b"retry: ") and b"event: standings" in bodies


def test_the_events_stream_replays_from_the_last_event_id(in_process, tournament):
    events.publish(tournament.pk, {"event": "round", "round": 1})
    first = event_log.tail(tournament.pk)
    events.publish(tournament.pk, {"event": "round", "round": 2})
    path = f"/api/v1/tournaments/{tournament.slug}/events"
    _, sent = stream_events(path, lambda: None, query=f"lastEventId={first}".encode(), frames=2)
    bodies = b"".join(m.get("body", b"") for m in sent[1:])
    assert b'"round":2' in bodies and b'"round":1' not in bodies


def test_an_unknown_tournament_s_events_are_a_404_in_the_api_error_shape(in_process, db):
    status, headers, body = request(
        Apps().django, "GET", "/api/v1/tournaments/nobody/events", HOST, timeout=waiting.SECONDS
    )
    assert status == 404 and headers["content-type"] == "application/json"
    assert json.loads(body)["code"] == "not-found"

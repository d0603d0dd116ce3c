"""Live standings: `GET …/tournaments/{slug}/standings` (cached, ETag, 304 without SQL) and
`GET …/tournaments/{slug}/events` (server-sent events with heartbeats and Last-Event-ID resume).

Public, no authentication; plain Django views (not DRF) because they are the hottest paths of a
big event. See docs/live.md for the cache and invalidation design.

Standings cache (the `default` cache: Redis when REDIS_URL is set, so shared by all processes;
keys from `tournaments.live.standings_cache`, their one home):
- `gen_key(slug)`   an integer generation, bumped by `standings_cache.invalidate`
  (every announcement, every results change, every tournament save/delete);
- `state_key(slug)` {gen, tid, etag, last_modified, computed_at, token}: what a
  304 needs, valid while its `gen` equals the current generation;
- `body_key(token)` the serialized JSON body (all but `age_seconds`, which is
  appended per request), also kept in a small per-process LRU.
A poll reads state and generation with one MGET: a 304 and a cached 200 cost no SQL.
"""

from __future__ import annotations

import json
import uuid
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.http import http_date, parse_http_date_safe
from django.views.decorators.csrf import csrf_exempt

from tournaments.live import event_log, hub
from tournaments.live import standings_cache as keys
from tournaments.models import StandingsSnapshot, Tournament
from tournaments.web.clients import client_address
from tournaments.web.error_shape import body as error_body
from tournaments.web.error_shape import error_response
from tournaments.words.formatting import timestamp

BODY_LRU = 256
_bodies: OrderedDict[str, bytes] = OrderedDict()
CACHE_CONTROL = "public, no-cache"


def not_found(slug: str) -> JsonResponse:
    return error_response(404, "not-found", f"no tournament {slug!r}")


def etag_of(tournament_id: int, version: int, stale: bool) -> str:
    return f'"{tournament_id}-{version}-{int(stale)}"'


# --- standings ----------------------------------------------------------------------------


def _remember(token: str, body: bytes) -> None:
    _bodies[token] = body
    _bodies.move_to_end(token)
    while len(_bodies) > BODY_LRU:
        _bodies.popitem(last=False)


def _build(slug: str) -> tuple[dict[str, Any], bytes] | None:
    """Read the tournament and its latest snapshot; cache and return (state, body prefix)."""
    tid = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if tid is None:
        return None
    # Record tournament -> slug before reading what the state is built from: an invalidation
    # committed after our read will find it and bump the generation we read next.
    live_ttl = keys.STATE_TTL
    cache.set(keys.slug_key(tid), slug, live_ttl + 60)
    gen = cache.get(keys.gen_key(slug)) or 0
    results_version = (
        Tournament.objects.filter(pk=tid).values_list("results_version", flat=True).first()
    )
    if results_version is None:
        return None
    snapshot = StandingsSnapshot.objects.filter(tournament_id=tid).first()
    if snapshot is None:
        version, stale, computed = 0, results_version > 0, None
        payload: dict[str, Any] = {"tournament": slug, "rows": []}
    else:
        version, computed = snapshot.version, snapshot.computed_at
        stale = snapshot.inputs_version < results_version
        payload = dict(snapshot.payload)
    payload.update(version=version, stale=stale, computed_at=timestamp(computed))
    body = json.dumps(payload, separators=(",", ":"))[:-1] + ',"age_seconds":'
    state = {
        "gen": gen,
        "tid": tid,
        "etag": etag_of(tid, version, stale),
        "computed_at": computed.timestamp() if computed else None,
        "token": uuid.uuid4().hex,
    }
    encoded = body.encode()
    cache.set_many({keys.body_key(state["token"]): encoded, keys.state_key(slug): state}, live_ttl)
    _remember(state["token"], encoded)
    return state, encoded


def fresh(state: dict[str, Any], if_none_match: str | None, if_modified_since: str | None) -> bool:
    """True when the client's copy is current (If-None-Match, else If-Modified-Since): the one
    rule of the view and the ASGI fast path (api/fastpath.py)."""
    if if_none_match is not None:
        tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return state["etag"] in tags or "*" in tags
    if if_modified_since and state["computed_at"] is not None:
        when = parse_http_date_safe(if_modified_since)
        return when is not None and int(state["computed_at"]) <= when
    return False


def _conditional(request: HttpRequest, state: dict[str, Any]) -> bool:
    return fresh(
        state, request.headers.get("If-None-Match"), request.headers.get("If-Modified-Since")
    )


def not_modified(state: dict[str, Any]) -> HttpResponse:
    """304: the validators, no body and no Content-Type (it would describe an empty HTML page,
    not the client's JSON)."""
    response = HttpResponse(status=304)
    del response["Content-Type"]
    return _headers(response, state)


def method_not_allowed(*allowed: str) -> JsonResponse:
    """405 in the API's error shape, with Allow (HEAD and OPTIONS included)."""
    response = error_response(405, "method-not-allowed", f"use {' or '.join(allowed)}")
    response["Allow"] = ", ".join(allowed)
    return response


def _headers(response: HttpResponse, state: dict[str, Any]) -> HttpResponse:
    response["ETag"] = state["etag"]
    response["Cache-Control"] = CACHE_CONTROL
    if state["computed_at"] is not None:
        response["Last-Modified"] = http_date(state["computed_at"])
    return response


@csrf_exempt  # read-only: any other method is a 405 in the API's shape, not a CSRF refusal
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The latest standings snapshot with `version`, `computed_at`, `stale`, `age_seconds`.
    GET and HEAD (the same headers, the server drops the body)."""
    if request.method not in ("GET", "HEAD"):
        return method_not_allowed("GET", "HEAD")
    state_key, gen_key = keys.state_key(slug), keys.gen_key(slug)
    found = cache.get_many([state_key, gen_key])
    state = found.get(state_key)
    body = None
    if state is not None and state["gen"] == (found.get(gen_key) or 0):
        if _conditional(request, state):
            return not_modified(state)
        body = _bodies.get(state["token"])
        if body is None:
            body = cache.get(keys.body_key(state["token"]))
            if body is not None:
                _remember(state["token"], body)
    if body is None:
        built = _build(slug)
        if built is None:
            return not_found(slug)
        state, body = built
        if _conditional(request, state):
            return not_modified(state)
    if state["computed_at"] is None:
        age = b"null"
    else:
        age = b"%.3f" % max(0.0, datetime.now(UTC).timestamp() - state["computed_at"])
    response = HttpResponse(body + age + b"}", content_type="application/json")
    return _headers(response, state)


# --- server-sent events -------------------------------------------------------------------


def heartbeat_seconds() -> float:
    return float(getattr(settings, "LIVE_HEARTBEAT_SECONDS", 15))


def retry_ms() -> int:
    return int(getattr(settings, "LIVE_RETRY_MS", 3000))


def short_stream_retry_ms() -> int:
    """How long a browser on the WSGI development server waits before reconnecting to its short
    event stream: LIVE_SHORT_STREAM_RETRY_MS, by default the long stream's wait but at least 5 s
    (each reconnect is a request)."""
    default = max(retry_ms(), 5000)
    return int(getattr(settings, "LIVE_SHORT_STREAM_RETRY_MS", default))


def frame(event_id: str, event: dict[str, Any]) -> bytes:
    """One SSE message: id, event (the announcement's kind), data (its JSON)."""
    kind = str(event.get("event", "message")).replace("\n", " ")
    data = json.dumps(event, separators=(",", ":"))
    return f"id: {event_id}\nevent: {kind}\ndata: {data}\n\n".encode()


HEARTBEAT = b": heartbeat\n\n"


def _tournament_id(slug: str, *, cached: bool = True) -> int | None:
    """The slug's tournament: from the standings state when it is current, else (or when the
    caller has just found it stale: `cached=False`) from the database. A stale state may name
    the tournament that had the slug before a rename."""
    if cached:
        state_key, gen_key = keys.state_key(slug), keys.gen_key(slug)
        found = cache.get_many([state_key, gen_key])
        state = found.get(state_key)
        if isinstance(state, dict) and state.get("gen") == (found.get(gen_key) or 0):
            return state["tid"]
    tid = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if not connection.in_atomic_block:
        connection.close()  # a long-lived stream must not hold a database connection
    return tid


#: The id before any event: resuming from it replays the whole log.
LOG_START = "0-0"


#: How long a client refused a stream is asked to wait before it tries again.
STREAM_RETRY_AFTER = 30


class StreamSlots:
    """How many event streams each client holds open in this process (a client: its address,
    `tournaments.web.clients`). One phone, projector or laptop needs one stream a page; a client
    opening hundreds (issue 30, item 3: ~1,000 from one address used up the server's open
    files, and every other request was reset) is refused past `STREAMS_PER_CLIENT` with 429
    and Retry-After, while a thousand listeners from a thousand devices are served. Used from
    the event loop only (the fast path and the ASGI view), so a plain dict is enough."""

    def __init__(self) -> None:
        self.held: dict[str, int] = {}

    def claim(self, client: str) -> bool:
        if self.held.get(client, 0) >= settings.STREAMS_PER_CLIENT:
            return False
        self.held[client] = self.held.get(client, 0) + 1
        return True

    def release(self, client: str) -> None:
        left = self.held.get(client, 0) - 1
        if left > 0:
            self.held[client] = left
        else:
            self.held.pop(client, None)


slots = StreamSlots()


def too_many_streams() -> dict[str, Any]:
    """The refusal's body, in the API's error shape."""
    return error_body(
        "too-many-streams",
        f"this client already holds {settings.STREAMS_PER_CLIENT} event streams; "
        "close one or retry later",
        {"limit": settings.STREAMS_PER_CLIENT},
    )


async def held(client: str, messages):
    """`messages`, with the client's slot given back when the stream ends however it ends."""
    try:
        async for chunk in messages:
            yield chunk
    finally:
        slots.release(client)


async def stream(
    tournament_id: int,
    after: str | None,
    *,
    heartbeat: float | None = None,
    limit: int | None = None,
):
    """The SSE byte stream: `retry:`, missed events after `after` (Last-Event-ID), then each
    new announcement, with a heartbeat comment after `heartbeat` quiet seconds. `limit` stops
    after that many messages (tests)."""
    heartbeat = heartbeat_seconds() if heartbeat is None else heartbeat
    # Subscribe and fix the resume point before the first byte: once a client has read
    # `retry:`, everything announced later reaches it.
    sub = await hub.subscribe(tournament_id)
    sent = 0
    try:
        newest = await event_log.atail(tournament_id) if after is None else None
        yield f"retry: {retry_ms()}\n\n".encode()
        if after is None:
            # A resume point for the first reconnect; with an empty log, its very beginning,
            # so whatever is announced before the reconnect is replayed.
            if newest is not None:
                sub.seen(newest)
            yield f"id: {newest or LOG_START}\n\n".encode()
        else:
            sub.seen(after)
            for event_id, event in await event_log.ahistory(tournament_id, after):
                if not sub.seen(event_id):
                    yield frame(event_id, event)
                    sent += 1
                    if limit is not None and sent >= limit:
                        return
        while limit is None or sent < limit:
            item = await sub.next(heartbeat)
            if item is None:
                yield HEARTBEAT
                continue
            yield frame(*item)
            sent += 1
    finally:
        sub.close()


@csrf_exempt  # read-only: any other method is a 405 in the API's shape, not a CSRF refusal
async def events(request: HttpRequest, slug: str) -> HttpResponse:
    """Server-sent events for a tournament. Under ASGI a long-lived stream; under WSGI (the dev
    server) a short response (missed events and `retry:`) that EventSource reconnects to.
    GET only: a HEAD would open a stream nobody reads."""
    if request.method != "GET":
        return method_not_allowed("GET")
    tid = await sync_to_async(_tournament_id)(slug)
    if tid is None:
        return not_found(slug)
    after = event_log.valid_id(
        request.headers.get("Last-Event-ID") or request.GET.get("lastEventId")
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if not isinstance(request, ASGIRequest):
        return HttpResponse(
            await sync_to_async(_short_stream)(tid, after),
            content_type="text/event-stream",
            headers=headers,
        )
    client = client_address(request)
    if not slots.claim(client):
        refusal = JsonResponse(too_many_streams(), status=429)
        refusal["Retry-After"] = str(STREAM_RETRY_AFTER)
        return refusal
    return StreamingHttpResponse(
        held(client, stream(tid, after)), content_type="text/event-stream", headers=headers
    )


def _short_stream(tid: int, after: str | None) -> bytes:
    """WSGI fallback: what was missed, a resume id, and when to come back."""
    out = [f"retry: {short_stream_retry_ms()}\n\n".encode()]
    if after is None:
        out.append(f"id: {event_log.tail(tid) or LOG_START}\n\n".encode())
    else:
        out.extend(frame(event_id, event) for event_id, event in event_log.history(tid, after))
    out.append(HEARTBEAT)
    return b"".join(out)

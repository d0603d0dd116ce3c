"""Live standings: `GET …/tournaments/{slug}/standings` (cached, ETag, 304 without SQL) and
`GET …/tournaments/{slug}/events` (server-sent events with heartbeats and Last-Event-ID resume).

Public, no authentication; plain Django views (not DRF), through Django's ordinary handler and
middleware. See docs/live.md for the cache and invalidation design.

Standings cache (the `default` cache: Redis when REDIS_URL is set, so shared by all processes;
keys from `tournaments.live.standings_cache`, their one home):
- `gen_key(slug)`   an integer generation, bumped by `standings_cache.invalidate`
  (every announcement, every results change, every tournament save/delete);
- `state_key(slug)` {gen, tid, etag, computed_at, token}: what a 304 needs, valid while its
  `gen` equals the current generation;
- `body_key(token)` the serialized JSON body (all but `age_seconds`, which is
  appended per request), also kept in a small per-process LRU.
A poll reads state and generation with one `get_many`: a 304 and a cached 200 cost no SQL.
The conditional answer (If-None-Match, If-Modified-Since → 304) is Django's `condition`
decorator's, from the state's ETag and time.
"""

from __future__ import annotations

import json
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from functools import wraps
from typing import Any, TypedDict, cast
from weakref import WeakKeyDictionary

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.utils.cache import patch_cache_control
from django.utils.http import http_date
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import condition

from tournaments.clubs.services import address_slug
from tournaments.live import event_log, hub
from tournaments.live import standings_cache as keys
from tournaments.models import StandingsSnapshot, Tournament, home_club, home_club_pk
from tournaments.web.clients import client_address
from tournaments.web.error_shape import body as error_body
from tournaments.web.error_shape import error_response
from tournaments.words.formatting import timestamp

BODY_LRU = 256
_bodies: OrderedDict[str, bytes] = OrderedDict()


class State(TypedDict):
    """What a poll needs to answer without SQL: the ETag and time of the current answer, and
    the token its body is stored under."""

    gen: int
    tid: int
    club: str  # the slug of the tournament's club (tournaments/clubs)
    home: bool  # its club is the home club (served at the site's root too)
    etag: str
    computed_at: float | None
    token: str


def not_found(slug: str) -> JsonResponse:
    return error_response(404, "not-found", f"no tournament {slug!r}")


def etag_of(tournament_id: int, version: int, stale: bool) -> str:
    return f'"{tournament_id}-{version}-{int(stale)}"'


def method_not_allowed(*allowed: str) -> JsonResponse:
    """405 in the API's error shape, with Allow (HEAD and OPTIONS included)."""
    response = error_response(405, "method-not-allowed", f"use {' or '.join(allowed)}")
    response["Allow"] = ", ".join(allowed)
    return response


# --- standings ----------------------------------------------------------------------------


def _remember(token: str, body: bytes) -> None:
    _bodies[token] = body
    _bodies.move_to_end(token)
    while len(_bodies) > BODY_LRU:
        _bodies.popitem(last=False)


def _build(slug: str) -> tuple[State, bytes] | None:
    """Read the tournament and its latest snapshot; cache and return (state, body prefix)."""
    found = Tournament.objects.filter(slug=slug).values_list("pk", "club_id", "club__slug").first()
    if found is None:
        return None
    tid, club_id, club = found
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
    state: State = {
        "gen": gen,
        "tid": tid,
        "club": club,
        "home": club_id == home_club_pk(),
        "etag": etag_of(tid, version, stale),
        "computed_at": computed.timestamp() if computed else None,
        "token": uuid.uuid4().hex,
    }
    encoded = body.encode()
    cache.set_many({keys.body_key(state["token"]): encoded, keys.state_key(slug): state}, live_ttl)
    _remember(state["token"], encoded)
    return state, encoded


def _cached(slug: str) -> State | None:
    """The slug's cached state if it is current (one `get_many`), else None."""
    state_key, gen_key = keys.state_key(slug), keys.gen_key(slug)
    found = cache.get_many([state_key, gen_key])
    state = found.get(state_key)
    if (
        isinstance(state, dict)
        and state.get("gen") == (found.get(gen_key) or 0)
        and "club" in state  # (a state cached before clubs: built again)
    ):
        return cast(State, state)  # what _build stored
    return None


#: Each request's answer, found once for the validators and the view (`condition` asks for the
#: ETag and the time separately, then calls the view): (state, body or None when not read yet).
_answers: WeakKeyDictionary[HttpRequest, tuple[State, bytes | None] | None] = WeakKeyDictionary()


def _answer(request: HttpRequest, slug: str) -> tuple[State, bytes | None] | None:
    """This request's state, from the cache when current, else built from the database (which
    also reads the body); None: no such tournament."""
    if request in _answers:
        return _answers[request]
    state = _cached(slug)
    found = (state, None) if state is not None else _build(slug)
    if found is not None and not here(request, found[0]):
        found = None  # another club's tournament: not found at this club's address
    _answers[request] = found
    return found


def here(request: HttpRequest, state: State) -> bool:
    """Is the state's tournament the club's of the request's address (without SQL: the address
    names the club, the state its club's slug; the site's root is the home club's)?"""
    return _named(state, address_slug(request))


def _named(state: State, club: str | None) -> bool:
    return state["club"] == club if club is not None else state["home"]


def _etag(request: HttpRequest, slug: str) -> str | None:
    found = _answer(request, slug)
    return found[0]["etag"] if found else None


def _last_modified(request: HttpRequest, slug: str) -> datetime | None:
    found = _answer(request, slug)
    if found is None or found[0]["computed_at"] is None:
        return None
    return datetime.fromtimestamp(found[0]["computed_at"], UTC)


def _body(request: HttpRequest, slug: str) -> tuple[State, bytes] | None:
    """The state and the body to send: the body from this process's LRU, else the shared cache,
    else built again (the cache lost it)."""
    found = _answer(request, slug)
    if found is None:
        return None
    state, body = found
    if body is None:
        body = _bodies.get(state["token"])
    if body is None:
        body = cache.get(keys.body_key(state["token"]))
        if body is not None:
            _remember(state["token"], body)
    if body is None:
        built = _build(slug)
        return built if built is not None and here(request, built[0]) else None
    return state, body


def read_only(*allowed: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Any other method answered 405 in the API's shape (not Django's bare 405), before the
    view's conditional handling."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.method not in allowed:
                return method_not_allowed(*allowed)
            return view(request, *args, **kwargs)

        return checked

    return decorate


def shared_cache_seconds() -> int:
    """How long a shared cache (the reverse proxy in front of the servers) may answer the
    standings itself: LIVE_SHARED_CACHE_SECONDS (0: every request revalidated with the server)."""
    return int(getattr(settings, "LIVE_SHARED_CACHE_SECONDS", 0))


def shared_briefly(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Cache-Control on every answer of the view, 200 and 304 alike: `public, max-age=0,
    s-maxage=N` — a browser asks again each time (with its ETag: a 304), a caching reverse
    proxy answers repeats for N seconds from its copy (docs/live.md, "Behind a caching
    proxy"); with N = 0, and on any other answer (a 404), `public, no-cache`."""

    @wraps(view)
    def headed(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        seconds = shared_cache_seconds()
        if seconds > 0 and response.status_code in (200, 304):
            patch_cache_control(response, public=True, max_age=0, s_maxage=seconds)
        else:
            patch_cache_control(response, public=True, no_cache=True)
        return response

    return headed


@csrf_exempt  # read-only: any other method is a 405 in the API's shape, not a CSRF refusal
@read_only("GET", "HEAD")
@shared_briefly
@condition(etag_func=_etag, last_modified_func=_last_modified)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The latest standings snapshot with `version`, `computed_at`, `stale`, `age_seconds`.
    GET and HEAD (the same headers, the server drops the body); a current If-None-Match or
    If-Modified-Since gets a 304 (`condition`)."""
    found = _body(request, slug)
    if found is None:
        return not_found(slug)
    state, body = found
    if state["computed_at"] is None:
        age = b"null"
    else:
        age = b"%.3f" % max(0.0, datetime.now(UTC).timestamp() - state["computed_at"])
    response = HttpResponse(body + age + b"}", content_type="application/json")
    # The body's own validators (built again when the cache lost it: maybe newer than asked).
    response["ETag"] = state["etag"]
    if state["computed_at"] is not None:
        response["Last-Modified"] = http_date(state["computed_at"])
    return response


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


def _tournament_id(slug: str, *, club: str | None = None, cached: bool = True) -> int | None:
    """The slug's tournament: from the standings state when it is current, else (or when the
    caller has just found it stale: `cached=False`) from the database. A stale state may name
    the tournament that had the slug before a rename."""
    state = _cached(slug) if cached else None
    if state is not None:
        return state["tid"] if _named(state, club) else None
    found = Tournament.objects.filter(slug=slug)
    found = found.filter(club__slug=club) if club is not None else found.filter(club=home_club())
    tid = found.values_list("pk", flat=True).first()
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
    the event loop only (the ASGI view), so a plain dict is enough."""

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


async def held(client: str, messages: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
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
) -> AsyncIterator[bytes]:
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
async def events(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Server-sent events for a tournament. Under ASGI a long-lived stream; under WSGI (the dev
    server) a short response (missed events and `retry:`) that EventSource reconnects to.
    GET only: a HEAD would open a stream nobody reads."""
    if request.method != "GET":
        return method_not_allowed("GET")
    tid = await sync_to_async(_tournament_id)(slug, club=address_slug(request))
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

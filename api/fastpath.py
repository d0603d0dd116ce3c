"""The hot paths of a big event, answered before Django: `GET /api/v1/tournaments/{slug}/standings`
when its cached state is current, and the server-sent-events stream
`GET /api/v1/tournaments/{slug}/events` of a tournament this process has seen.

Under ASGI every Django middleware hook is a hop to a thread (about 12 ms a request here), so
a poll that needs no SQL still paid for the whole stack. This handler reads the same cache the
view fills (`api/live.py`: state and generation in one MGET, the body from the process's LRU or
the cache) and answers a 304 or the cached 200 itself. Anything else — a cache miss, a stale
generation, other methods or paths — goes to Django unchanged, which builds and caches the
state as before. The answer is the view's: same body, ETag, Last-Modified and Cache-Control.

An events stream is the view's own generator (`api.live.stream`), sent straight to the
server: a thousand listeners arriving at once no longer queue for Django's middleware thread.
The slug's tournament comes from the current standings state (else the database); an unknown
slug goes to Django, which answers the 404 in the API's shape. The stream ends when the client
goes away.
"""

from __future__ import annotations

import asyncio
import contextlib
import pickle
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.utils.http import http_date

from tournaments import live

from . import live as views

PATH = re.compile(r"^/api/v1/tournaments/([-a-zA-Z0-9_]+)/standings$")
EVENTS = re.compile(r"^/api/v1/tournaments/([-a-zA-Z0-9_]+)/events$")
_clients: dict[int, Any] = {}


def _redis() -> Any:
    """An asyncio Redis client for this event loop (clients are bound to their loop)."""
    loop = id(asyncio.get_running_loop())
    client = _clients.get(loop)
    if client is None:
        import redis.asyncio

        client = _clients[loop] = redis.asyncio.Redis.from_url(
            settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
        )
    return client


def _load(data: bytes | None) -> Any:
    """A value as Django's Redis cache stores it: integers plain, anything else pickled."""
    if data is None:
        return None
    try:
        return int(data)
    except ValueError:
        return pickle.loads(data)


async def _get_many(keys: list[str]) -> list[Any]:
    if not settings.REDIS_URL:  # the in-process cache: no I/O to wait for
        found = cache.get_many(keys)
        return [found.get(key) for key in keys]
    raw = await _redis().mget([cache.make_key(key) for key in keys])
    return [_load(value) for value in raw]


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def _fresh(scope: dict, state: dict[str, Any]) -> bool:
    match = _header(scope, b"if-none-match")
    if match is None:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in match.split(",")}
    return state["etag"] in tags or "*" in tags


async def _tournament_id(slug: str) -> int | None:
    """The slug's tournament: from the standings state when it is current (one MGET), else
    from the database (a thread hop). A renamed or deleted tournament bumps the generation, so
    a slug never leads to the wrong tournament."""
    try:
        state, gen = await _get_many([live.state_key(slug), live.gen_key(slug)])
    except Exception:  # the cache is down: ask the database
        state = gen = None
    if isinstance(state, dict) and state.get("gen") == (gen or 0):
        return state["tid"]
    return await sync_to_async(views._tournament_id)(slug, cached=False)


async def _events(scope: dict, receive: Any, send: Any, slug: str) -> bool:
    tid = await _tournament_id(slug)
    if tid is None:
        return False
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    after = live.valid_id(_header(scope, b"last-event-id")
                          or (query.get("lastEventId") or [None])[0])
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"),
        (b"x-accel-buffering", b"no"), (b"x-content-type-options", b"nosniff")]})

    async def relay() -> None:
        messages = views.stream(tid, after)
        try:
            async for chunk in messages:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        finally:
            await messages.aclose()

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.ensure_future(relay()), asyncio.ensure_future(gone())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):  # the client may be gone already
            await send({"type": "http.response.body", "body": b"", "more_body": False})
    return True


async def serve(scope: dict, send: Any, receive: Any = None) -> bool:
    """Answer the request if it is a current, cached standings GET, or an events stream (when
    `receive` is given); False: let Django answer."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return False
    if receive is not None and (found := EVENTS.match(scope["path"])):
        return await _events(scope, receive, send, found.group(1))
    if scope.get("query_string"):
        return False
    matched = PATH.match(scope["path"])
    if matched is None:
        return False
    slug = matched.group(1)
    try:
        state, gen = await _get_many([live.state_key(slug), live.gen_key(slug)])
    except Exception:  # the cache is down: Django answers (and falls back to the database)
        return False
    if not isinstance(state, dict) or state.get("gen") != (gen or 0):
        return False
    headers = [(b"etag", state["etag"].encode()),
               (b"cache-control", views.CACHE_CONTROL.encode()),
               (b"x-content-type-options", b"nosniff")]
    if state["computed_at"] is not None:
        headers.append((b"last-modified", http_date(state["computed_at"]).encode()))
    if _fresh(scope, state):
        await send({"type": "http.response.start", "status": 304, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
        return True
    body = views._bodies.get(state["token"])
    if body is None:
        try:
            [body] = await _get_many([f"live:standings:body:{state['token']}"])
        except Exception:
            return False
        if body is None:
            return False
        views._remember(state["token"], body)
    if state["computed_at"] is None:
        age = b"null"
    else:
        age = b"%.3f" % max(0.0, datetime.now(UTC).timestamp() - state["computed_at"])
    content = body + age + b"}"
    headers += [(b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": content})
    return True

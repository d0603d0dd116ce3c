"""At most as many requests at work in Django at once, per server process, as its database pool
has connections; the others wait their turn on the event loop.

Under ASGI Django runs each request's synchronous code (the middleware, a DRF view) on a
thread of its own, so a worker starts on every request it is sent at once: at the start of a
round every table's phone posts together, each request took a pooled connection at its first
query and held it to its end, the pool's connections ran out, and the requests past them
waited the pool's short `timeout` and were answered 503 (`database-unavailable`) although
nothing was wrong. Here a request waits for a free place before Django starts on it, holding
no thread and no connection meanwhile, and takes one the moment one is given back, first come
first served (asyncio's semaphore).

A plain ASGI wrapper round Django's application (config/asgi.py), like the body limit: nothing
of Django's is changed or repeated. A place is given back when Django has finished the
request (its connection back in the pool), or as soon as an answer turns out to be a stream
(the events stream, a download: a body sent in parts), which may last minutes and holds no
connection between its parts. The number is the pool's `max_size` (config/settings.py,
`DATABASE_POOL_MAX`); without a pool (SQLite, `DATABASE_POOL=0`) nothing is limited.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Literal

from django.conf import settings

from config.body_limit import App, Receive, Scope, Send


def places() -> int | None:
    """How many requests may be at work in Django at once in one process (None: no limit)."""
    options = settings.DATABASES["default"].get("OPTIONS", {})
    pool = options.get("pool") if isinstance(options, dict) else None
    if not isinstance(pool, dict) or not pool.get("max_size"):
        return None
    return int(pool["max_size"])


class OneConnectionEach:
    """Django's ASGI application with at most `places()` HTTP requests in it at once."""

    def __init__(self, app: App, limit: int | None | Literal["pool"] = "pool") -> None:
        self.app = app
        self.limit = places() if limit == "pool" else limit
        # one semaphore per event loop: a server process has one, the tests several
        self._places: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}

    def _place(self) -> asyncio.Semaphore | None:
        if self.limit is None:
            return None
        loop = asyncio.get_running_loop()
        place = self._places.get(loop)
        if place is None:
            for old in [known for known in self._places if known.is_closed()]:
                del self._places[old]
            place = self._places[loop] = asyncio.Semaphore(self.limit)
        return place

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        place = self._place() if scope["type"] == "http" else None
        if place is None:
            await self.app(scope, receive, send)
            return
        await place.acquire()
        held = True

        async def sending(message: Mapping[str, Any]) -> None:
            nonlocal held
            if held and message["type"] == "http.response.body" and message.get("more_body"):
                held = False  # a body in parts: a stream, which may last; its place goes now
                place.release()
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            if held:
                place.release()

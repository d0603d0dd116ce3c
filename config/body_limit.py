"""Request bodies limited while they arrive, before Django reads them.

A pure ASGI middleware around the whole application (config/asgi.py):

- A `Content-Length` over `settings.REQUEST_BODY_LIMIT` is refused with 413 at once, from the
  headers alone: not one byte of the body is read (uvicorn then closes the connection).
- A body without `Content-Length` (`Transfer-Encoding: chunked`) is read here, chunk by chunk,
  and refused with 413 the moment it passes the limit. A body within the limit is handed on
  with the `Content-Length` it turned out to have. While it arrives it is kept in a spooled
  temporary file: in memory up to `settings.FILE_UPLOAD_MAX_MEMORY_SIZE` (64 KiB), on disk
  beyond, so the bodies in flight cost at most that much memory each however many there are (issue
  30, item 6; tests/hostile/test_bodies_in_flight.py). Django's own reading of a body with a
  length spools at the same size (`ASGIHandler.read_body`), so that path is bounded the same way.
  The length stated matters: without it, DRF reads no body at all
  (`rest_framework.request.Request._load_stream`: no `CONTENT_LENGTH`, no stream) and Django's
  form and multipart parsing reads an empty one (`MultiPartParser`: length 0), so a chunked
  request used to arrive as empty.
- A body with a `Content-Length` within the limit streams through untouched; the chunks are
  counted all the same, and more bytes than the limit end the request with 413.

The refusal is the API's error shape under `/api/` (413 `too-large`, `details.limit`, as
`api.parsers` answers a JSON body over its own, smaller limit) and the friendly 413 page
elsewhere (`tournaments.views.errors.request_too_large`).
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
# What the server's `send` takes (Django's handler sends mappings it built).
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


#: How much of a spooled body is handed on at a time.
REPLAY_CHUNK = 64 * 1024


class _TooLarge(Exception):
    pass


def _headers(scope: Scope) -> tuple[int | None, bool]:
    """(the stated Content-Length or None, whether the body is chunked)."""
    length: int | None = None
    chunked = False
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                length = int(value)
            except ValueError:
                length = None  # the server refuses a malformed length before the app sees it
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    return length, chunked


async def _refuse(scope: Scope, send: Send, limit: int) -> None:
    from django.core.handlers.asgi import ASGIRequest

    from tournaments.views.errors import request_too_large

    request = ASGIRequest(dict(scope), io.BytesIO())  # headers only: the body is never read
    response = await sync_to_async(request_too_large, thread_sensitive=False)(request, limit)
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.items()]
    headers.append((b"content-length", str(len(response.content)).encode()))
    headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


class BodyLimit:
    """Wrap `app` so no request body over `settings.REQUEST_BODY_LIMIT` bytes reaches it."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit: int = settings.REQUEST_BODY_LIMIT
        length, chunked = _headers(scope)
        if length is not None:
            if length > limit:
                await _refuse(scope, send, limit)
                return
            await self._counted(scope, receive, send, limit)
            return
        if not chunked:  # no body at all (a GET, say): nothing to limit
            await self.app(scope, receive, send)
            return
        await self._chunked(scope, receive, send, limit)

    async def _counted(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """A body with a Content-Length within the limit: passed on as it arrives, counted."""
        seen = 0
        started = False

        async def counting() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:  # more than it said (a server that does not check)
                    raise _TooLarge
            return message

        async def watching(message: Mapping[str, Any]) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self.app(scope, counting, watching)
        except _TooLarge:
            if not started:
                await _refuse(scope, send, limit)

    async def _chunked(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """A body of unknown length: read here up to the limit (spooled: memory, then disk),
        then handed on with its length stated."""
        with tempfile.SpooledTemporaryFile(
            max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b"
        ) as spool:
            size = 0
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return  # the client went away: no one to answer
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    await _refuse(scope, send, limit)
                    return
                if chunk:
                    spool.write(chunk)
                if not message.get("more_body", False):
                    break
            spool.seek(0)
            headers = [
                (name, value)
                for name, value in scope.get("headers", ())
                if name not in (b"transfer-encoding", b"content-length")
            ]
            headers.append((b"content-length", str(size).encode()))
            finished = False

            async def replaying() -> Message:
                nonlocal finished
                if not finished:
                    chunk = spool.read(REPLAY_CHUNK)
                    finished = not chunk or spool.tell() >= size
                    return {"type": "http.request", "body": chunk, "more_body": not finished}
                return await receive()  # after the body: the disconnect, when it comes

            await self.app({**scope, "headers": headers}, replaying, send)

"""Streamed responses served as the ASGI server expects them: with an asynchronous iterator.

Under ASGI (uvicorn, the evening server) Django reads a `StreamingHttpResponse` with `async for`;
a synchronous iterator — every static file WhiteNoise serves (a `FileResponse` over the file),
the hands export (JSON Lines from the database) — made Django warn "StreamingHttpResponse must
consume synchronous iterators…" on every such response and read it whole into memory first.
This middleware, outermost, gives such a response an asynchronous iterator over the same
content, read a chunk at a time in a worker thread: a file's chunks in any thread, anything
else (a database cursor) in Django's one thread for sync code, as Django itself would. Under
WSGI (the development server, the tests' live server) responses pass untouched.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any, cast

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import FileResponse, HttpRequest, StreamingHttpResponse


def _next_chunk(iterator: Iterator[bytes]) -> bytes | None:
    """The next chunk, None at the end (a chunk is never None: Django made it bytes)."""
    return next(iterator, None)


async def _chunks(content: Iterable[bytes], *, thread_sensitive: bool) -> AsyncIterator[bytes]:
    iterator = iter(content)
    step = sync_to_async(_next_chunk, thread_sensitive=thread_sensitive)
    while True:
        chunk = await step(iterator)
        if chunk is None:
            return
        yield chunk


def asynchronous(response: Any) -> Any:
    """The response, a synchronous stream made asynchronous (anything else as it is)."""
    if isinstance(response, StreamingHttpResponse) and not response.is_async:
        # Not is_async: Django's own synchronous iterator over the content.
        content = cast(Iterator[bytes], response.streaming_content)
        response.streaming_content = _chunks(
            content, thread_sensitive=not isinstance(response, FileResponse)
        )
    return response


class AsyncStreamingMiddleware:
    """Outermost. Django runs the middleware chain in sync mode here (WhiteNoise and others are
    sync only): the request's kind says whether an ASGI server will read the answer."""

    def __init__(self, get_response: Callable) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        if isinstance(request, ASGIRequest):
            return asynchronous(response)
        return response

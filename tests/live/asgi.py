"""Requests through Django's ASGI handler as uvicorn sends them. Used by tests/live,
tests/hostile and tests/faults."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from asgiref.sync import async_to_sync
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections


@contextmanager
def transaction_kept() -> Iterator[None]:
    """Django's handler closes "old" connections around each request: inside the test's
    transaction that would end it (the test client disconnects the same receivers)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


class Apps:
    """Django's ASGI handler, the one config/asgi.py serves every request with."""

    def __init__(self) -> None:
        self.django = ASGIHandler()  # after the test's settings: middleware reads them here


def request(
    app,
    method: str,
    path: str,
    headers: dict[str, str],
    scheme: str = "http",
    query: bytes = b"",
    timeout: float = 10,
    body: bytes = b"",
):
    """One request through an ASGI app, as uvicorn sends it: (status, headers, body). A
    request body goes with its Content-Length. An answer still streaming after `timeout`
    seconds (an events stream) is cut there: what was sent is returned."""
    length = [(b"content-length", str(len(body)).encode())] if body else []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": scheme,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "client": ("127.0.0.1", 50123),
        "server": ("testserver", 80),
        "headers": [(name.lower().encode(), value.encode()) for name, value in headers.items()]
        + length,
    }
    sent: list[dict] = []

    async def run() -> None:
        delivered = False

        async def receive() -> dict:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()  # the client stays until the answer is complete

        async def send(message: dict) -> None:
            sent.append(message)

        with suppress(TimeoutError):
            await asyncio.wait_for(app(scope, receive, send), timeout)

    async_to_sync(run)()
    start = next(m for m in sent if m["type"] == "http.response.start")
    names = [name.decode().lower() for name, _ in start["headers"]]
    assert len(names) == len(set(names)), f"a header sent twice: {names}"
    headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], headers, body

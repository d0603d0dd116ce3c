"""Requests at work in Django at once, per process (config/concurrency.py): never more than the
database pool's size, the others served in turn as places are given back, a stream's place
given back once it turns out to be one, and no limit without a pool."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from config.concurrency import OneConnectionEach, places

Message = dict[str, Any]
HTTP: dict[str, Any] = {"type": "http", "method": "POST", "path": "/api/v1/matches/1/hands"}


class App:
    """An application that counts the requests inside it at once."""

    def __init__(self, parts: int = 0) -> None:
        self.inside = 0
        self.most = 0
        self.parts = parts
        self.go = asyncio.Event()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        self.inside += 1
        self.most = max(self.most, self.inside)
        try:
            await self.go.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            for n in range(self.parts):
                await send({"type": "http.response.body", "body": b"x", "more_body": True})
                if n == 0:
                    await asyncio.sleep(0.05)  # a stream between its parts
            await send({"type": "http.response.body", "body": b"x", "more_body": False})
        finally:
            self.inside -= 1


async def nothing() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


def serve_all(app: App, wrapped: OneConnectionEach, count: int) -> list[list[Message]]:
    answers: list[list[Message]] = [[] for _ in range(count)]

    async def one(n: int) -> None:
        async def send(message: Message) -> None:
            answers[n].append(message)

        await wrapped(HTTP, nothing, send)

    async def main() -> None:
        served = [asyncio.create_task(one(n)) for n in range(count)]
        await asyncio.sleep(0.05)  # every request has arrived
        app.go.set()
        await asyncio.gather(*served)

    asyncio.run(main())
    return answers


def test_no_more_requests_inside_than_the_pool_has_connections_and_every_one_answered() -> None:
    app = App()
    answers = serve_all(app, OneConnectionEach(app, limit=3), 10)
    assert app.most == 3
    assert all(a[0]["status"] == 200 and a[-1]["more_body"] is False for a in answers)


def test_a_stream_gives_its_place_back_after_its_first_part() -> None:
    app = App(parts=3)
    serve_all(app, OneConnectionEach(app, limit=1), 4)
    assert app.most > 1  # the next request went in while the first stream went on


def test_the_limit_is_the_pools_size_and_without_a_pool_there_is_none(settings: Any) -> None:
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    expected = pool["max_size"] if isinstance(pool, dict) else None
    assert places() == expected
    app = App()
    serve_all(app, OneConnectionEach(app, limit=None), 10)
    assert app.most == 10


@pytest.mark.parametrize("kind", ["lifespan", "websocket"])
def test_only_http_requests_take_a_place(kind: str) -> None:
    seen: list[str] = []

    async def app(scope: dict, receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    async def no_send(message: Message) -> None:
        pass

    asyncio.run(OneConnectionEach(app, limit=1)({"type": kind}, nothing, no_send))
    assert seen == [kind]

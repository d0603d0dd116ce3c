"""A server process's start (config/warm.py, config/asgi.py's lifespan): the first requests' work
is done before the first request, a step that fails does not stop the start, and nothing is
written."""

from __future__ import annotations

import asyncio
import logging

import pytest

from config import warm
from games.registry import GAMES, get_game


def run_lifespan(*messages: str) -> list[dict]:
    """config.asgi's application through a lifespan conversation; what it sent back."""
    from config.asgi import application

    inbox = [{"type": kind} for kind in messages]
    sent: list[dict] = []

    async def receive() -> dict:
        return inbox.pop(0)

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(application({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send))
    return sent


@pytest.mark.django_db
def test_every_step_runs_and_says_how_long_it_took():
    done = warm.warm_up()
    assert list(done) == [name for name, _ in warm.STEPS]
    assert all(isinstance(seconds, float) for seconds in done.values()), done


@pytest.mark.django_db
def test_every_games_presets_are_compiled_before_a_table_asks(monkeypatch):
    for name in GAMES:
        monkeypatch.setattr(get_game(name).book, "_cache", {})
    warm.warm_up()
    for name in GAMES:
        book = get_game(name).book
        assert set(book.presets) <= set(book._cache), name


def test_a_failing_step_is_logged_and_the_others_still_run(monkeypatch, caplog):
    ran = []

    def broken() -> None:
        raise RuntimeError("the database is down")

    monkeypatch.setattr(warm, "STEPS", [("first", broken), ("second", lambda: ran.append(1))])
    with caplog.at_level(logging.WARNING, logger="config.warm"):
        done = warm.warm_up()
    assert done["first"] == "RuntimeError: the database is down"
    assert isinstance(done["second"], float) and ran == [1]
    assert "warm-up step first failed" in caplog.text


def test_the_lifespan_completes_its_start_after_warming_up_even_when_a_step_fails(monkeypatch):
    order = []

    def broken() -> None:
        order.append("warmed")
        raise RuntimeError("no database")

    monkeypatch.setattr(warm, "STEPS", [("broken", broken)])
    sent = run_lifespan("lifespan.startup", "lifespan.shutdown")
    assert order == ["warmed"]
    assert [m["type"] for m in sent] == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def test_switched_off_it_does_nothing(settings, monkeypatch):
    settings.WARM_UP = False
    monkeypatch.setattr(warm, "STEPS", [("boom", lambda: pytest.fail("a step ran"))])
    assert warm.warm_up() == {}
    assert [m["type"] for m in run_lifespan("lifespan.startup", "lifespan.shutdown")] == [
        "lifespan.startup.complete",
        "lifespan.shutdown.complete",
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_pool_holds_as_many_open_connections_as_requests_may_be_at_work(postgres_db):
    from config.concurrency import places

    if postgres_db.pool is None:
        pytest.skip("the database pool is off (DATABASE_POOL=0)")
    postgres_db.close()
    postgres_db.close_pool()
    done = warm.warm_up()
    assert isinstance(done["connections"], float), done
    stats = postgres_db.pool.get_stats()
    assert stats["pool_size"] == stats["pool_available"] == places(), stats

"""A server process's start (api/warm.py, config/asgi.py's lifespan): the first requests' work
is done before the first request, a step that fails does not stop the start, and nothing is
written."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from api import fastsubmit, threaded, warm
from games.registry import GAMES, get_game
from tests.conftest import prepared_statements
from tournaments.services import match_rows


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
def test_every_step_runs_and_says_how_long_it_took(settings):
    settings.SUBMIT_THREADS = 0  # SQLite's setting: no submission threads, no pool
    done = warm.warm_up()
    assert list(done) == [name for name, _ in warm.STEPS]
    assert all(isinstance(seconds, float) for seconds in done.values()), done


@pytest.mark.django_db
def test_every_games_presets_are_compiled_before_a_table_asks(settings, monkeypatch):
    settings.SUBMIT_THREADS = 0
    for name in GAMES:
        monkeypatch.setattr(get_game(name).book, "_cache", {})
    warm.warm_up()
    for name in GAMES:
        book = get_game(name).book
        assert set(book.presets) <= set(book._cache), name


@pytest.mark.django_db
def test_the_submission_path_is_loaded_before_the_first_submission(settings):
    settings.SUBMIT_THREADS = 1  # (resets threaded's and fastsubmit's cached parts)
    for built in (match_rows._token_sql, match_rows._match_sql, match_rows._hands_sql):
        built.cache_clear()
    assert fastsubmit._rules is None and threaded._handler is None
    warm.warm_up()
    assert fastsubmit._rules is not None and threaded._handler is not None
    assert match_rows._token_sql.cache_info().currsize == 1
    assert match_rows._match_sql.cache_info().currsize == 2  # locked, and not
    assert match_rows._hands_sql.cache_info().currsize == 1


def test_a_failing_step_is_logged_and_the_others_still_run(monkeypatch, caplog):
    ran = []

    def broken() -> None:
        raise RuntimeError("the database is down")

    monkeypatch.setattr(warm, "STEPS", [("first", broken), ("second", lambda: ran.append(1))])
    with caplog.at_level(logging.WARNING, logger="api.warm"):
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
def test_each_submission_thread_holds_a_warm_connection_and_its_serializers(postgres_db, settings):
    if postgres_db.pool is None:
        pytest.skip("the database pool is off (DATABASE_POOL=0)")
    settings.SUBMIT_THREADS = 3
    postgres_db.close()
    postgres_db.close_pool()
    done = warm.warm_up()
    assert isinstance(done["connections"], float), done
    stats = postgres_db.pool.get_stats()
    assert stats["pool_size"] >= 3 and stats["pool_available"] >= 3, stats
    _handler, _asgi, executor = threaded._parts()
    names, together = set(), threading.Barrier(3, timeout=5)

    def look() -> bool:  # on each of the pool's threads at once
        names.add(threading.current_thread().name)
        together.wait()
        built = [getattr(fastsubmit._serializers, name, None) for name in ("submit", "answer")]
        return all(s is not None and "fields" in s.__dict__ for s in built)  # fields bound

    assert all(f.result(timeout=10) for f in [executor.submit(look) for _ in range(3)])
    assert len(names) == 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_database_that_does_not_answer_at_start_leaves_a_pool_the_first_request_can_use(
    postgres_db, settings, monkeypatch
):
    """psycopg_pool closes a pool whose wait() timed out, for good; the warm-up must not leave
    the process with it (every later request would fail although the database is back)."""
    from psycopg_pool import ConnectionPool, PoolTimeout

    if postgres_db.pool is None:
        pytest.skip("the database pool is off (DATABASE_POOL=0)")
    settings.SUBMIT_THREADS = 2
    postgres_db.close()
    postgres_db.close_pool()

    def no_answer(self, timeout: float = 30.0) -> None:
        self.close()  # what psycopg_pool does when the wait times out
        raise PoolTimeout("pool initialization incomplete after 2 sec")

    monkeypatch.setattr(ConnectionPool, "wait", no_answer)
    timed_out = postgres_db.pool
    done = warm.warm_up()
    monkeypatch.undo()
    assert done["connections"].startswith("PoolTimeout"), done
    assert postgres_db.pool is not timed_out
    with postgres_db.cursor() as cursor:  # the first request after it
        cursor.execute("SELECT 1")
    postgres_db.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_each_warm_connection_has_a_submissions_reads_prepared_and_planned_once(
    postgres_db, settings
):
    """The first submissions, every table's at once, find their reads prepared and past the
    five plans PostgreSQL makes for a new prepared statement's first executions (its one
    plan for all is in use: `generic_plans`)."""
    if postgres_db.pool is None:
        pytest.skip("the database pool is off (DATABASE_POOL=0)")
    settings.SUBMIT_THREADS = 3
    postgres_db.close()
    postgres_db.close_pool()
    assert isinstance(warm.warm_up()["connections"], float)
    _handler, _asgi, executor = threaded._parts()
    together = threading.Barrier(3, timeout=5)

    def plans() -> list[tuple[str, int]]:  # on each of the pool's threads at once
        from django.db import connection

        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT statement, generic_plans FROM pg_prepared_statements")
                found = cursor.fetchall()
            together.wait()
            return found
        finally:
            connection.close()

    for found in [f.result(timeout=10) for f in [executor.submit(plans) for _ in range(3)]]:
        assert len(found) == 3, found  # the token, the match, the hands
        assert all(generic >= 1 for _statement, generic in found), found


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_warm_statements_serve_ids_of_every_size(preparing):
    """A match id past 32,767 (past an int2) uses the statement the warm-up prepared, not a
    second one: ids go as bigints whatever their size."""
    from tournaments.models import Match, TableToken

    try:
        match_rows.warm_connection(TableToken)
        before = prepared_statements(preparing)
        for match_id in (7, 40_000, 3_000_000_000):
            with pytest.raises(Match.DoesNotExist):
                match_rows.locked_match(match_id)
            match_rows.match_hands(Match(pk=match_id, round_id=1), "key")
        assert prepared_statements(preparing) == before and len(before) == 3
    finally:
        preparing.close()  # its session's statements with it (no test rollback drops them)

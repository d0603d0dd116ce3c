"""Fault-injection helpers: a second, raw PostgreSQL connection to the test database (to hold
row locks, see who waits on them, and terminate backends), polling with a deadline, API calls
as a table scorer makes them, and a snapshot of every table's row count.

Tests here run on PostgreSQL (row locks, `pg_terminate_backend`) and, for the worker and Redis
faults, against a real Celery worker (tests/workers.py) — see docs/reliability.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.apps import apps
from django.db import connection

from tests import waiting
from tests.api.conftest import client_with, table_token
from tests.tournaments.builders import side_pin
from tournaments.models import Match, Tournament


def wait_until[T](probe: Callable[[], T], what: str) -> T:
    """Poll `probe` until it returns something truthy (tests/waiting.py's deadline)."""
    return waiting.until(probe, what, step=0.02)


class Pg:
    """A raw autocommit connection to the test database, beside Django's: what another process
    (a director's laptop, a database administrator, a dying worker) would be doing."""

    def __init__(self) -> None:
        import psycopg

        from tests.workers import database_url

        self.conn = psycopg.connect(database_url(), autocommit=True)

    def close(self) -> None:
        self.conn.close()

    def scalar(self, sql: str, params: tuple = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return row[0] if row else None

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        return self.conn.execute(sql, params).fetchall()

    def waiting_on_locks(self) -> list[int]:
        """Backends of the test database that wait for a lock (a row lock, here)."""
        return [
            pid
            for (pid,) in self.rows(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid() ORDER BY pid"
            )
        ]

    def terminate(self, pid: int) -> None:
        """Kill a backend (what a crash of the server process or a network cut does to it) and
        wait until it is gone."""
        self.scalar("SELECT pg_terminate_backend(%s, 5000)", (pid,))

    @contextmanager
    def row_lock(self, table: str, pk: int) -> Iterator[None]:
        """Hold `SELECT ... FOR UPDATE` on one row until the block ends (then commit), on a
        connection of its own: this one stays free to watch (inside a transaction PostgreSQL
        would show it a frozen pg_stat_activity)."""
        holder = Pg()
        try:
            with holder.conn.transaction():
                holder.conn.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE", (pk,))
                yield
        finally:
            holder.close()


class KillableWorker:
    """A real worker on a private queue (like tests/workers.py's) that may be launched without
    waiting for its ping — a solo worker busy in a task cannot answer one — and killed."""

    def __init__(self, queue: str) -> None:
        from tests.workers import Worker

        self.inner = Worker(queue)

    @property
    def queue(self) -> str:
        return self.inner.queue

    @property
    def process(self) -> subprocess.Popen | None:
        return self.inner.process

    def start(self) -> None:
        """Launch and wait until it answers a ping (it is idle and consuming)."""
        self.inner.start()

    def launch(self, **env: str) -> None:
        """Launch and return at once; `env` adds variables to the worker's environment."""
        from tests.workers import ROOT, database_url

        full = dict(os.environ, DATABASE_URL=database_url(), STANDINGS_QUEUE=self.queue, **env)
        self.inner.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "-Q",
                self.queue,
                "-n",
                f"{self.queue}@%h",
                "-l",
                "warning",
                "--without-gossip",
                "--without-mingle",
                "--logfile",
                str(self.inner.log),
            ],
            cwd=ROOT,
            env=full,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        """SIGKILL: no warm shutdown, nothing acknowledged, nothing handed back."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.inner.process = None

    def stop(self) -> None:
        self.inner.stop()


@pytest.fixture
def killable_worker(celery_worker_available, settings) -> Iterator[KillableWorker]:
    """A worker of this test's own, not yet started; standings recomputes go to its queue."""
    own = KillableWorker(f"faults-{uuid.uuid4().hex[:8]}")
    settings.STANDINGS_QUEUE = own.queue
    yield own
    own.stop()


@pytest.fixture
def pg(postgres_db) -> Iterator[Pg]:
    other = Pg()
    yield other
    other.close()


def table_of(model: type) -> str:
    return model._meta.db_table


MATCH_TABLE = table_of(Match)
TOURNAMENT_TABLE = table_of(Tournament)


def scorer_client(match: Match):
    """An API client holding a fresh table token for the match's table."""
    _, secret = table_token(match.table)
    return client_with(f"Table {secret}")


def submit(client, match: Match, record: Any, *, key: str, side: str = "NS", **extra):
    body = {"record": record, "side": side, "pin": side_pin(match, side), **extra}
    return client.post(
        f"/api/v1/matches/{match.pk}/hands", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


def decide(client, match: Match, number: int, verb: str, side: str, **extra):
    """Confirm or reject as `side`, with its PIN (unless `pin` is given)."""
    body = {"side": side, "pin": side_pin(match, side), "version": 1, **extra}
    return client.post(f"/api/v1/matches/{match.pk}/hands/{number}/{verb}", body, format="json")


def row_counts() -> dict[str, int]:
    """How many rows every table of the project holds (Django's own tables included)."""
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def close_thread_connection() -> None:
    """A thread of a race test closes the connection Django opened for it."""
    connection.close()

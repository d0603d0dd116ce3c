"""The pool's check on each checkout (config/db_pool.py): a connection handed out moments ago
with nothing to read goes out again without a round trip; one handed out long ago (it may have
sat in the pool), never handed out, or whose server said goodbye is checked for real, and
refused when dead, so the pool replaces it (end to end: test_database_restarted.py)."""

from __future__ import annotations

import time

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from config import db_pool
from tests.workers import database_url

pytestmark = [pytest.mark.postgres]


@pytest.fixture
def conn(postgres_db):
    with psycopg.connect(database_url(), autocommit=True) as connection:
        connection.execute("SELECT 1")
        yield connection


@pytest.fixture
def others_checked(monkeypatch) -> list:
    """How often a failed check had the pool check its idle connections (counted, not done:
    the pool's own connections are not this test's)."""
    calls: list = []
    monkeypatch.setattr(db_pool, "_check_the_others", lambda: calls.append(True))
    return calls


@pytest.fixture
def full_checks(monkeypatch, others_checked) -> list:
    calls: list = []
    real = ConnectionPool.check_connection

    def counted(connection) -> None:
        calls.append(connection)
        real(connection)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return calls


def test_a_connection_handed_out_moments_ago_and_quiet_goes_out_without_a_query(conn, full_checks):
    db_pool.check_connection(conn)  # its first checkout: checked for real
    db_pool.check_connection(conn)
    assert full_checks == [conn]


def test_a_connection_handed_out_long_ago_is_checked_for_real(conn, full_checks, monkeypatch):
    db_pool.check_connection(conn)
    later = time.monotonic() + db_pool.QUIET + 0.5
    monkeypatch.setattr(db_pool.time, "monotonic", lambda: later)
    db_pool.check_connection(conn)
    assert full_checks == [conn, conn]


def test_a_connection_never_handed_out_is_checked_for_real(conn, full_checks):
    db_pool.check_connection(conn)
    assert full_checks == [conn]


def test_a_connection_whose_backend_was_terminated_is_refused_even_moments_after_use(
    conn, pg, full_checks, others_checked
):
    db_pool.check_connection(conn)
    pg.terminate(conn.info.backend_pid)
    with pytest.raises(psycopg.OperationalError):
        db_pool.check_connection(conn)
    assert full_checks == [conn, conn]
    assert others_checked == [True]  # one dead connection: the pool checks the others


def test_a_closed_connection_is_refused(conn, full_checks, others_checked):
    conn.close()
    with pytest.raises(psycopg.OperationalError):
        db_pool.check_connection(conn)
    assert full_checks == []
    assert others_checked == [True]


def test_a_live_connection_has_no_other_checked(conn, full_checks, others_checked):
    db_pool.check_connection(conn)
    assert others_checked == []

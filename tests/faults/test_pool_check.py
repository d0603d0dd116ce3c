"""The pool's check on each checkout (config/db_pool.py): a quiet live connection is handed out
without a round trip; one whose server said goodbye is checked for real and refused, so the
pool replaces it (end to end: test_database_restarted.py)."""

from __future__ import annotations

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from config.db_pool import check_connection
from tests.workers import database_url

pytestmark = [pytest.mark.postgres]


@pytest.fixture
def conn(postgres_db):
    with psycopg.connect(database_url(), autocommit=True) as connection:
        connection.execute("SELECT 1")
        yield connection


@pytest.fixture
def full_checks(monkeypatch) -> list:
    calls: list = []
    real = ConnectionPool.check_connection

    def counted(connection) -> None:
        calls.append(connection)
        real(connection)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return calls


def test_a_quiet_live_connection_is_handed_out_without_a_query(conn, full_checks):
    check_connection(conn)
    assert full_checks == []


def test_a_connection_whose_backend_was_terminated_is_refused(conn, pg, full_checks):
    pg.terminate(conn.info.backend_pid)
    with pytest.raises(psycopg.OperationalError):
        check_connection(conn)
    assert full_checks == [conn]


def test_a_closed_connection_is_refused(conn, full_checks):
    conn.close()
    with pytest.raises(psycopg.OperationalError):
        check_connection(conn)
    assert full_checks == []

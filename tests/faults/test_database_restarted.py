"""PostgreSQL restarts (or fails over, or an administrator terminates every session) while the
site is idle: the pool's connections are all dead, though the pool does not know it yet.

Each checkout is checked (psycopg_pool's `check`, config/settings.py): a dead connection is
thrown away and another one opened, so the pages and API calls after the restart are answered as
before — none of them a 500 page, none a 503. (The requests in flight at the moment of the cut
are the only ones lost: tests/faults/test_database_dropped.py.)

Run on PostgreSQL with the pool on (DATABASE_URL=postgres://..., DATABASE_POOL unset).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from tests.tournaments.builders import make_director, make_match

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: How many loads after the restart are measured (the issue saw 7 of 12 pages fail).
LOADS = 12


@pytest.fixture
def pooled(postgres_db):
    """Django's connection comes from the pool (closing it hands it back, as at a request's end).
    A fresh pool for the test: one the worker's earlier tests used may have connections still
    checked out by threads of theirs (a live server's), leaving too few places under its
    maximum to replace the dead ones (seen in CI as a PoolTimeout after 10 s)."""
    if connection.pool is None:
        pytest.skip("the database pool is off (DATABASE_POOL=0)")
    connection.close()
    connection.close_pool()
    yield connection.pool


def restart_database(pg, pool) -> int:
    """What a restart of PostgreSQL does to the pool: every connection idle in it is terminated;
    returns how many were. Django's connection is handed back to the pool first, so all the
    pool's connections are idle and dead afterwards. Only the pool's own sessions are cut: a
    connection another context of this process holds (Playwright's, in an earlier browser test)
    stays alive for the tests after this one."""
    connection.close()
    held = [pool.getconn() for _ in range(pool.get_stats()["pool_available"])]
    pids = [conn.info.backend_pid for conn in held]
    for conn in held:
        pool.putconn(conn)
    assert len(pids) >= 2, pool.get_stats()
    killed = pg.rows(
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid = ANY(%s)",
        (pids,),
    )
    return len(killed)


def loads(client: Client, path: str) -> list[tuple[int, str]]:
    """LOADS requests, each ending as a request does (its connection back into the pool)."""
    answers = []
    for _ in range(LOADS):
        response = client.get(path)
        answers.append((response.status_code, response["Content-Type"]))
        connection.close()
    return answers


def warm(client: Client, path: str, pool) -> None:
    """Open the pool's connections and leave them idle in it."""
    for _ in range(3):
        assert client.get(path).status_code == 200
        connection.close()
    pool.wait(timeout=5)


@pytest.mark.parametrize(
    "where",
    ["/t/{slug}/", "/api/v1/tournaments/{slug}"],
    ids=["pages, never a 500", "api calls, never a 503"],
)
def test_requests_after_a_database_restart_are_served_without_an_error(pg, pooled, where):
    tournament = make_match(make_director()).round.tournament
    client = Client(raise_request_exception=False)
    path = where.format(slug=tournament.slug)
    warm(client, path, pooled)
    assert restart_database(pg, pooled) >= 2
    answers = loads(client, path)
    assert [status for status, _ in answers] == [200] * LOADS, answers


def test_a_page_whose_connection_dies_under_it_gets_the_friendly_503_page_and_the_next_is_served(
    pg, pooled
):
    """The request in flight at the cut is the one that is lost: it gets the site's own 503 page
    with Retry-After (in the reader's language, never Django's bare "Server Error (500)"; issue
    30, item 2), and the reader's reload is served."""
    tournament = make_match(make_director()).round.tournament
    client = Client(raise_request_exception=False)
    path = f"/t/{tournament.slug}/"
    warm(client, path, pooled)
    cut: list[int] = []

    def cut_first_query(execute, sql, params, many, context):
        if not cut:
            cut.append(context["connection"].connection.info.backend_pid)
            pg.terminate(cut[0])
        return execute(sql, params, many, context)

    with connection.execute_wrapper(cut_first_query):
        lost = client.get(path, HTTP_ACCEPT_LANGUAGE="ja")
    connection.close()
    assert cut, "the connection was not cut"
    assert lost.status_code == 503 and lost["Retry-After"] == "5"
    page = lost.content.decode()
    assert lost["Content-Language"] == "ja" and "TrickTable" in page
    assert "Server Error (500)" not in page and "<h1" in page and 'lang="ja"' in page
    assert loads(client, path) == [(200, "text/html; charset=utf-8")] * LOADS

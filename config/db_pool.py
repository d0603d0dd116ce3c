"""The check psycopg_pool runs on every connection it hands out (config/settings.py).

After PostgreSQL restarts, fails over or has its sessions terminated, the connections idle in a
pool are dead without the pool knowing, and each would fail the request it is handed to. The
check finds them first. psycopg_pool's own `ConnectionPool.check_connection` sends an empty
query and waits for the answer: one round trip on every checkout, a visible share of a hand
submission's database work under load (`bench/api.py --only submissions-http`).

So the full check runs when it can matter:

- the connection was last handed out more than `QUIET` seconds ago (or never), so it may have
  sat in the pool that long: whatever happened to it there — the database host gone without a
  word, a failover that moved the address, a firewall that dropped an idle connection — the
  empty query finds out (the time since it was handed out bounds the time it sat idle; a
  `reset` callback could stamp its return, but psycopg_pool then returns every connection
  through a worker thread, a thread hop a request);
- or its socket has something to read: a server that ends a session says so ("terminating
  connection due to administrator command") and closes its end, so a dead connection is
  readable at rest while a live one is not.

A connection handed out moments ago with nothing to read goes out again at once: under load
(the evening's submissions) every connection is back in the pool within milliseconds and out
again soon after, and the round trip is saved; after a quiet spell, the first requests pay it
as before. When each connection was last handed out is kept here, beside the connections
(a weak map: a connection the pool closes drops out of it), not written onto them.
`tests/faults/test_pool_check.py` and `test_database_restarted.py` prove both sides.

A connection that fails the check is seldom alone: a restart, a failover or an administrator
ending every session kills all the pool's idle connections at once. psycopg_pool tries the
next one at once, but after a second failure it waits with a growing delay before the next,
so with two dead connections queued a request timed out (a 500 page after 10 s, the issue's
`PoolTimeout`; with the short `timeout` now, a 503 for every request until each dead connection
had been drawn). So the first failure has the pool check every idle connection at once
(`ConnectionPool.check()`, documented: the dead ones are thrown away and replaced), and the
request's next try takes a live one or the first new one (`tests/faults/test_database_kills.py`).
"""

from __future__ import annotations

import select
import threading
import time
from weakref import WeakKeyDictionary

import psycopg
from psycopg_pool import ConnectionPool

#: Seconds since a connection was last handed out within which it goes out without a query.
QUIET = 1.0

#: When each of the pool's connections was last handed out (time.monotonic()).
_handed_out: WeakKeyDictionary[psycopg.Connection, float] = WeakKeyDictionary()
_lock = threading.Lock()


def check_connection(conn: psycopg.Connection) -> None:
    """Raise if `conn` is closed, broken or dead (after having the pool check its other idle
    connections); return at once if it is quiet and was handed out moments ago."""
    try:
        _check(conn)
    except psycopg.Error:
        _check_the_others()
        raise


def _check_the_others() -> None:
    """The pool's idle connections checked now, the dead ones replaced (the default
    database's pool: the one this check belongs to, config/settings.py)."""
    from django.db import DEFAULT_DB_ALIAS, connections

    pool = getattr(connections[DEFAULT_DB_ALIAS], "pool", None)  # psycopg_pool, when pooled
    if pool is not None:
        pool.check()


def _check(conn: psycopg.Connection) -> None:
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    now = time.monotonic()
    with _lock:
        last = _handed_out.get(conn)
        _handed_out[conn] = now
    if last is None or now - last > QUIET:
        ConnectionPool.check_connection(conn)
        return
    quiet = select.poll()
    quiet.register(conn.fileno(), select.POLLIN | select.POLLPRI)
    if quiet.poll(0):  # something to read at rest: ask the server for real
        ConnectionPool.check_connection(conn)

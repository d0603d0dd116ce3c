"""The check psycopg_pool runs on every connection it hands out (config/settings.py).

After PostgreSQL restarts, fails over or has its sessions terminated, the connections idle in a
pool are dead without the pool knowing, and each would fail the request it is handed to. The
check finds them first. psycopg_pool's own `ConnectionPool.check_connection` sends an empty
query and waits for the answer: one round trip on every checkout, about a tenth of a hand
submission's database work under load (`bench/api.py --only submissions-http`, py-spy).

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
as before.
`tests/faults/test_pool_check.py` and `test_database_restarted.py` prove both sides.
"""

from __future__ import annotations

import select
import time

import psycopg
from psycopg_pool import ConnectionPool

#: Seconds since a connection was last handed out within which it goes out without a query.
QUIET = 1.0


def check_connection(conn: psycopg.Connection) -> None:
    """Raise if `conn` is closed, broken or dead; return at once if it is quiet and was handed
    out moments ago."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    now = time.monotonic()
    last = getattr(conn, "_tricktable_out", None)
    conn._tricktable_out = now  # type: ignore[attr-defined]
    if last is None or now - last > QUIET:
        ConnectionPool.check_connection(conn)
        return
    quiet = select.poll()
    quiet.register(conn.fileno(), select.POLLIN | select.POLLPRI)
    if quiet.poll(0):  # something to read at rest: ask the server for real
        ConnectionPool.check_connection(conn)

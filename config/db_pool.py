"""The check psycopg_pool runs on every connection it hands out (config/settings.py).

After PostgreSQL restarts, fails over or has its sessions terminated, the connections idle in a
pool are dead without the pool knowing, and each would fail the request it is handed to. The
check finds them first. psycopg_pool's own `ConnectionPool.check_connection` sends an empty
query and waits for the answer: one round trip on every checkout, about a tenth of a hand
submission's database work (`bench/api.py --only submissions-http`, py-spy on the workers).

A server that ends a session tells the client so and closes the socket (PostgreSQL sends
"terminating connection due to administrator command", then its end of the connection closes),
so a dead idle connection has something to read, while a live idle one has nothing. This check
asks the socket, without a round trip: nothing to read — the connection is handed out; anything
to read (the server's goodbye, an end of file, or a notice it sent meanwhile) — psycopg_pool's
full check decides, and a dead connection is thrown away and replaced as before
(tests/faults/test_database_restarted.py).
"""

from __future__ import annotations

import select

import psycopg
from psycopg_pool import ConnectionPool


def check_connection(conn: psycopg.Connection) -> None:
    """Raise if `conn` is closed, broken or was told goodbye; return at once if it is quiet."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    quiet = select.poll()
    quiet.register(conn.fileno(), select.POLLIN | select.POLLPRI)
    if quiet.poll(0):  # something to read at rest: ask the server for real
        ConnectionPool.check_connection(conn)

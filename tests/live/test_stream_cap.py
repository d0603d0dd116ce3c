"""One client cannot use up the server with event streams (issue 30, item 3): ~1,000 streams
from one address used up the evening server's open files (1,024) and every other request was
reset. Each client (its address, `tournaments.web.clients`) holds at most STREAMS_PER_CLIENT
streams in a server process; past it 429 in the API's error shape with Retry-After, and its
slot comes back when a stream ends. Many clients each within the cap are all served.

A real uvicorn serving config.asgi (Django answers the streams); the cap is set low
(3) so a moderate number of sockets shows both sides. Each "client" is a loopback address of
its own (127.0.0.0/8 is all loopback on Linux), bound as the socket's source.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time

import pytest

from tests import servers, waiting

CAP = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    database = tmp_path_factory.mktemp("streams") / "db.sqlite3"
    env = servers.production_env(
        DATABASE_URL=f"sqlite:///{database}",
        STREAMS_PER_CLIENT=str(CAP),
        HTTPS="false",
        LOG_LEVEL="WARNING",
    )
    manage = [sys.executable, "manage.py"]
    servers.migrated_sqlite(database)
    code = (
        "from tests.tournaments.builders import make_director, make_match\n"
        "print(make_match(make_director()).round.tournament.slug)\n"
    )
    made = subprocess.run(
        [*manage, "shell", "-c", code],
        cwd=servers.ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    with servers.uvicorn(env) as running:
        yield running, made.stdout.strip().splitlines()[-1]


def open_stream(
    server, slug: str, source: str = "127.0.0.1", forwarded: str | None = None
) -> tuple[int, dict[str, str], bytes, socket.socket]:
    """GET the events stream from `source`; the status, headers and what came with them, and
    the socket (still open: the stream goes on until it is closed)."""
    sock = socket.socket()
    sock.settimeout(10)
    sock.bind((source, 0))
    sock.connect((servers.HOST, server.port))
    lines = [f"GET /api/v1/tournaments/{slug}/events HTTP/1.1", f"Host: {servers.HOST}"]
    if forwarded:
        lines.append(f"X-Forwarded-For: {forwarded}")
    sock.sendall(("\r\n".join([*lines, "", ""])).encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    top, _, rest = data.partition(b"\r\n\r\n")
    status_line, *header_lines = top.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        rest += sock.recv(65536)
    return int(status_line.split()[1]), headers, rest, sock


def close_all(socks) -> None:
    for sock in socks:
        with contextlib.suppress(OSError):
            sock.close()


def test_one_client_past_the_cap_is_refused_with_429_and_retry_after(server):
    running, slug = server
    held = []
    try:
        for _ in range(CAP):
            status, headers, _body, sock = open_stream(running, slug, "127.0.0.11")
            held.append(sock)
            assert status == 200 and headers["content-type"] == "text/event-stream"
        status, headers, body, sock = open_stream(running, slug, "127.0.0.11")
        held.append(sock)
        assert status == 429
        assert headers["retry-after"] == "30"
        refusal = json.loads(body)
        assert refusal["code"] == "too-many-streams" and refusal["details"] == {"limit": CAP}
        # A rotating X-Forwarded-For from the same address is the same client.
        status, *_rest, sock = open_stream(running, slug, "127.0.0.11", forwarded="203.0.113.9")
        held.append(sock)
        assert status == 429
        # Another client is served meanwhile.
        status, *_rest, sock = open_stream(running, slug, "127.0.0.12")
        held.append(sock)
        assert status == 200
    finally:
        close_all(held)


def test_a_closed_stream_gives_its_slot_back(server):
    running, slug = server
    held = [open_stream(running, slug, "127.0.0.21")[3] for _ in range(CAP)]
    try:
        held.pop().close()
        deadline = time.monotonic() + waiting.SECONDS
        while True:  # the server notices the disconnect at its next read or heartbeat
            status, *_rest, sock = open_stream(running, slug, "127.0.0.21")
            held.append(sock)
            if status == 200:
                break
            assert time.monotonic() < deadline, "the closed stream's slot never came back"
            time.sleep(0.2)
    finally:
        close_all(held)


def test_many_clients_each_within_the_cap_are_all_served(server):
    """150 listeners from 75 devices, two pages each: every one a stream; the server still
    answers an ordinary request."""
    running, slug = server
    held = []
    try:
        statuses = []
        for device in range(75):
            for _ in range(2):
                status, *_rest, sock = open_stream(running, slug, f"127.0.1.{device + 1}")
                held.append(sock)
                statuses.append(status)
        assert statuses == [200] * 150
        status, *_rest, sock = open_stream(running, slug, "127.0.2.1")
        held.append(sock)
        assert status == 200
    finally:
        close_all(held)

"""End to end: an SSE client on uvicorn hears the standings version a real Celery worker writes
after a hand is confirmed, through Redis (pub/sub and the event log)."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import uuid

import pytest

from tests import waiting
from tournaments import services
from tournaments.models import Tournament

from ..tournaments.builders import HAND_1, make_director, make_match, scorer
from ..workers import ROOT, database_url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server(postgres_db, settings):
    """uvicorn serving the project (ASGI) on the test database, on a free port."""
    port = free_port()
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"tricktable-uvicorn-{port}.log")
    log = open(path, "wb")  # noqa: SIM115 - the server writes to it until teardown
    env = dict(
        os.environ,
        DATABASE_URL=database_url(),
        REDIS_URL=settings.REDIS_URL,
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--port",
            str(port),
            "--host",
            "127.0.0.1",
            "--no-access-log",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + waiting.SECONDS
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            assert process.poll() is None, f"uvicorn exited; see {log.name}"
            assert time.monotonic() < deadline, f"uvicorn did not listen; see {log.name}"
            time.sleep(0.1)
    yield port
    process.terminate()
    process.wait(timeout=10)
    log.close()


class SSE:
    """A minimal streaming SSE reader over http.client."""

    def __init__(self, port: int, path: str, headers: dict | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=waiting.SECONDS)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()

    def message(self) -> dict:
        fields: dict = {}
        while True:
            line = self.response.readline().decode()
            if line in ("\n", ""):
                if fields or line == "":
                    return fields
                continue
            name, _, value = line.rstrip("\n").partition(":")
            fields[name or "comment"] = value.removeprefix(" ")

    def until(self, kind: str, timeout: float = waiting.SECONDS) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.message()
            if message.get("event") == kind:
                return message
        raise AssertionError(f"no {kind!r} event within {timeout} s")

    def close(self) -> None:
        self.conn.close()


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_sse_client_hears_the_new_standings_version_after_a_confirmation(
    postgres_db, worker, server
):
    worker.start()
    match = make_match(make_director())
    tournament = match.round.tournament
    slug = f"live-{uuid.uuid4().hex[:10]}"  # the shared cache outlives test databases
    Tournament.objects.filter(pk=tournament.pk).update(slug=slug)

    stream = SSE(server, f"/api/v1/tournaments/{slug}/events")
    try:
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type") == "text/event-stream"
        assert stream.message() == {"retry": "3000"}  # subscribed from here on
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=HAND_1
        ).submission
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )
        confirmed = stream.until("hand-confirmed")
        standings = stream.until("standings")
    finally:
        stream.close()
    assert json.loads(confirmed["data"])["hand"] == 1
    assert json.loads(standings["data"]) == {"event": "standings", "version": 1}

    # the standings endpoint serves that version (the worker's announcement invalidated it)
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=waiting.SECONDS)
    conn.request("GET", f"/api/v1/tournaments/{slug}/standings")
    response = conn.getresponse()
    body = json.loads(response.read())
    assert response.status == 200 and body["version"] == 1 and body["stale"] is False
    etag = response.getheader("ETag")
    conn.request("GET", f"/api/v1/tournaments/{slug}/standings", headers={"If-None-Match": etag})
    response = conn.getresponse()
    response.read()
    assert response.status == 304
    conn.close()

    # a reconnect with Last-Event-ID replays what came after it, from the Redis stream
    resumed = SSE(
        server, f"/api/v1/tournaments/{slug}/events", headers={"Last-Event-ID": confirmed["id"]}
    )
    try:
        assert resumed.message() == {"retry": "3000"}
        assert resumed.until("standings")["id"] == standings["id"]
    finally:
        resumed.close()

"""A stand-in for the club's site in the room's tests: a local HTTP server that answers each PUT
from a script and keeps what it was sent, on a loopback port of the test's own (`reserved_port`:
free ports, so two test runs on one machine never meet)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Answer:
    status: int
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Site:
    def __init__(self, answers: list[Answer]) -> None:
        self.answers = list(answers)
        self.received: list[Received] = []
        self.lock = threading.Lock()

    def next_answer(self) -> Answer:
        with self.lock:
            return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


@dataclass
class Port:
    """A free loopback port held by a bound socket that does not listen: a connection to it is
    refused, as by a site that is down, until `serving` listens on it."""

    socket: socket.socket

    @property
    def number(self) -> int:
        return self.socket.getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.number}"


@contextmanager
def reserved_port() -> Iterator[Port]:
    """A port of this block's own (the system's choice of a free one), closed at its end."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", 0))
        yield Port(sock)
    finally:
        sock.close()


@contextmanager
def serving(port: Port, answers: list[Answer]) -> Iterator[Site]:
    """Serve on `port` until the block ends; the last answer repeats."""
    site = Site(answers)

    class Handler(BaseHTTPRequestHandler):
        def do_PUT(self) -> None:  # noqa: N802 - the standard library's name
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            site.received.append(Received(self.path, dict(self.headers.items()), body))
            answer = site.next_answer()
            data = json.dumps(answer.body).encode()
            self.send_response(answer.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    # The server listens on the reserved socket (socketserver's documented `socket` and
    # `server_address`), so the port is never free for another process in between.
    server = ThreadingHTTPServer(("127.0.0.1", port.number), Handler, bind_and_activate=False)
    server.socket.close()
    server.socket = port.socket
    server.server_address = port.socket.getsockname()
    server.server_activate()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


CREATED = Answer(201, {"outcome": "created", "slug": "x", "url": "https://site.example/t/x/"})
UPDATED = Answer(200, {"outcome": "updated", "slug": "x", "url": "https://site.example/t/x/"})
DOWN = Answer(503, {"code": "unavailable", "message": "down for maintenance"})

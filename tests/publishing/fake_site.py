"""A stand-in for the club's site in the room's tests: a local HTTP server (ports 18800-18899)
that answers each PUT from a script and keeps what it was sent."""

from __future__ import annotations

import json
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


@contextmanager
def serving(port: int, answers: list[Answer]) -> Iterator[Site]:
    """Serve on 127.0.0.1:`port` until the block ends; the last answer repeats."""
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

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
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

"""Request bodies are limited while they arrive, on the real server (issue 14 point 9): uvicorn
serving config.asgi, whose body limit (config/body_limit.py) refuses a body over
REQUEST_BODY_LIMIT with 413 before Django reads it, chunked or not, and hands a chunked body
within the limit to Django with its length (before: DRF read it as empty).

Each request is written by hand on a socket, so the test controls exactly how much of the body
is sent before it reads the answer."""

from __future__ import annotations

import json
import socket

import pytest

from tests import servers
from tests.tournaments.builders import HAND_1

LIMIT = 256 * 1024  # the test server's REQUEST_BODY_LIMIT


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    database = tmp_path_factory.mktemp("bodies") / "db.sqlite3"
    env = servers.production_env(
        DATABASE_URL=f"sqlite:///{database}", REQUEST_BODY_LIMIT=str(LIMIT), LOG_LEVEL="WARNING"
    )
    servers.migrated_sqlite(database)
    with servers.uvicorn(env) as running:
        yield running


def connect(server) -> socket.socket:
    sock = socket.create_connection((servers.HOST, server.port), timeout=10)
    return sock


def head(path: str, *headers: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: {servers.HOST}", *headers, "", ""]
    return "\r\n".join(lines).encode()


def answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP/1.1 answer (the server closes or states its length)."""
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
    length = int(headers.get("content-length", "-1"))
    while length < 0 or len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return int(status_line.split()[1]), headers, rest


def chunked(body: bytes, size: int = 16 * 1024) -> bytes:
    out = b"".join(
        b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size])
        for i in range(0, len(body), size)
    )
    return out + b"0\r\n\r\n"


def test_a_200_mb_content_length_is_refused_with_413_before_the_body_is_sent(server):
    with connect(server) as sock:
        sock.sendall(
            head(
                "/api/v1/hands/check",
                "Content-Type: application/json",
                f"Content-Length: {200 * 1024 * 1024}",
            )
        )
        sock.sendall(b"{" + b" " * 1024)  # a kilobyte of the 200 MB, then nothing more
        status, headers, body = answer(sock)
    assert status == 413
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {
        "code": "too-large",
        "message": f"the request body is larger than {LIMIT} bytes",
        "details": {"limit": LIMIT},
    }


def test_a_large_body_on_a_page_gets_the_friendly_413_page(server):
    with connect(server) as sock:
        sock.sendall(
            head(
                "/check/",
                "Content-Type: multipart/form-data; boundary=x",
                f"Content-Length: {LIMIT + 1}",
                "Accept-Language: ja",
            )
        )
        status, headers, body = answer(sock)
    assert status == 413
    assert headers["content-type"].startswith("text/html")
    assert headers["content-language"] == "ja"
    page = body.decode()
    assert 'data-error="413"' in page
    assert "送信された内容が大きすぎます" in page


def test_a_chunked_body_without_content_length_is_read(server):
    record = json.dumps(
        {"format": "hand/1", "game": "spades", "rules": "standard", **HAND_1}
    ).encode()
    with connect(server) as sock:
        sock.sendall(
            head(
                "/api/v1/hands/check",
                "Content-Type: application/json",
                "Transfer-Encoding: chunked",
            )
            + chunked(record, size=100)
        )
        status, _, body = answer(sock)
    assert status == 200, body
    result = json.loads(body)
    assert result["ok"] is True and result["score"] == {"NS": 60, "EW": 70}, result


def test_a_chunked_body_over_the_limit_is_refused_once_it_passes_it(server):
    with connect(server) as sock:
        sock.sendall(
            head(
                "/api/v1/hands/check",
                "Content-Type: application/json",
                "Transfer-Encoding: chunked",
            )
        )
        # Just past the limit, and the final chunk is never sent: the answer cannot wait for it.
        sock.sendall(chunked(b" " * (LIMIT + 1))[: -len(b"0\r\n\r\n")])
        status, _, body = answer(sock)
    assert status == 413
    assert json.loads(body)["code"] == "too-large"

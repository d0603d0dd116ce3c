"""The evening server and forwarded headers (issue 30, item 1): with no proxy named, a rotating
`X-Forwarded-For` from loopback (a tunnel on the laptop) escapes no lockout; with
TRUSTED_PROXIES naming the proxy, the address it appended is the one counted."""

from __future__ import annotations

from tests.evening.conftest import free_port, migrated_club, start, wait_until_up
from tests.hostile.test_forwarded_headers import LIMIT, api_sign_in


class At:
    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"


def test_a_rotating_header_escapes_no_lockout_on_the_evening_server(tmp_path):
    port = free_port()
    server = start(
        [], migrated_club(tmp_path / "club"), port, as_make_serve=True, quick_passwords=True
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", server)
        username, password = server.credentials
        at = At(port)
        for n in range(LIMIT):
            api_sign_in(at, username, "guess", f"203.0.113.{n}")
        assert api_sign_in(at, username, password, "198.51.100.1") == 429
    finally:
        server.stop()


def test_behind_a_named_proxy_the_appended_address_counts(tmp_path):
    port = free_port()
    server = start(
        [],
        migrated_club(tmp_path / "club"),
        port,
        as_make_serve=True,
        quick_passwords=True,
        TRUSTED_PROXIES="127.0.0.1",
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", server)
        username, password = server.credentials
        at = At(port)
        for n in range(LIMIT):
            api_sign_in(at, username, "guess", f"203.0.113.{n}, 198.51.100.7")
        assert api_sign_in(at, username, password, "6.6.6.6, 198.51.100.7") == 429
        assert api_sign_in(at, username, password, "198.51.100.8") == 201
    finally:
        server.stop()

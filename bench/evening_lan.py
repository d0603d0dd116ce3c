"""The club's evening as the walk-through (bench/evening_walk.py) needs it: the laptop on a test LAN
of its own (a network namespace joined to this machine by a veth pair in 198.18.0.0/15, the range
set aside for network tests, as tests/evening/conftest.py makes it) running `make serve` there,
reached from here — the phones' side of the club's Wi-Fi — at its LAN address only.

Needs root and iproute2 (as the evening tests do). Everything made is removed on exit.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.evening.conftest import free_link  # noqa: E402
from tests.servers import INHERITED_NOT  # noqa: E402


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@dataclass
class Lan:
    namespace: str
    address: str


@contextmanager
def lan(tag: str) -> Iterator[Lan]:
    """A namespace with one interface, the laptop's side of the club's Wi-Fi."""
    if os.geteuid() != 0:
        raise SystemExit("the test LAN needs root (a network namespace), as tests/evening/ do")
    namespace, outside, inside = f"tt-walk-{tag}", f"ttw{tag}a", f"ttw{tag}b"
    host_address, address = free_link()
    _ip("netns", "add", namespace)
    try:
        _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        _ip("link", "set", inside, "netns", namespace)
        _ip("addr", "add", f"{host_address}/30", "dev", outside)
        _ip("link", "set", outside, "up")
        _ip("-n", namespace, "addr", "add", f"{address}/30", "dev", inside)
        _ip("-n", namespace, "link", "set", inside, "up")
        _ip("-n", namespace, "link", "set", "lo", "up")
        yield Lan(namespace=namespace, address=address)
    finally:
        subprocess.run(["ip", "link", "del", outside], capture_output=True, timeout=10)
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True, timeout=10)


@dataclass
class Server:
    process: subprocess.Popen
    club: Path
    output: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.output)

    @property
    def public_url(self) -> str:
        found = re.search(r"Phones:\s+(\S+?)/?$", self.text, re.M)
        if not found:
            raise SystemExit(f"no Phones: line in what the server printed:\n{self.text}")
        return found.group(1)

    @property
    def credentials(self) -> tuple[str, str]:
        found = re.search(r"Director sign-in: (\S+) / (\S+)", self.text)
        if not found:
            raise SystemExit(f"no Director sign-in line:\n{self.text}")
        return found.group(1), found.group(2)


def _read(server: Server) -> None:
    stream = server.process.stdout
    assert stream is not None
    for line in stream:
        server.output.append(line.rstrip("\n"))


@contextmanager
def make_serve(network: Lan, port: int) -> Iterator[Server]:
    """`make serve PORT=<port>` on the laptop of the test LAN, with a fresh club folder (the
    venv's stamp taken as up to date: `make -o .venv/.installed`, nothing installed). What it
    prints is kept (`Server.output`), the terminal a director watches."""
    import threading

    with tempfile.TemporaryDirectory(prefix="tt-evening-walk-") as folder:
        club = Path(folder) / "club"
        environment = {k: v for k, v in os.environ.items() if k not in INHERITED_NOT}
        environment.update(CLUB_DIR=str(club), PYTHONUNBUFFERED="1")
        process = subprocess.Popen(
            [
                *("ip", "netns", "exec", network.namespace),
                *("make", "--no-print-directory", "-o", ".venv/.installed", "serve"),
                f"PORT={port}",
            ],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        server = Server(process=process, club=club)
        try:
            deadline = time.monotonic() + 300
            assert process.stdout is not None
            while "Stop with Ctrl+C." not in server.text:
                line = process.stdout.readline()
                if not line or time.monotonic() > deadline:
                    raise SystemExit(f"make serve did not start:\n{server.text}")
                server.output.append(line.rstrip("\n"))
            threading.Thread(target=_read, args=(server,), daemon=True).start()
            until = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"{server.public_url}/", timeout=2):
                        break
                except (urllib.error.URLError, OSError):
                    if time.monotonic() > until:
                        raise SystemExit(f"nothing answers at {server.public_url}") from None
                    time.sleep(0.3)
            yield server
        finally:
            if process.poll() is None:
                os.killpg(process.pid, 15)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, 9)
                    process.wait(timeout=5)

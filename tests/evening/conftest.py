"""The evening server (`manage.py serve`) as a club runs it: a real process, its own folder
(database, secret key), and the room's network simulated by a network namespace of this test
run's own — the laptop inside it, reached from outside through its LAN address, as a phone on
the club's Wi-Fi reaches it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import require
from tests.servers import INHERITED_NOT, ROOT, free_port


@dataclass
class Lan:
    """A network namespace with one interface: the laptop's side of the club's Wi-Fi."""

    namespace: str
    address: str  # the laptop's LAN address, inside the namespace

    def run(self, *argv: str) -> list[str]:
        return ["ip", "netns", "exec", self.namespace, *argv]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def free_link() -> tuple[str, str]:
    """Two addresses of a /30 in 198.18.0.0/15 — set aside for network tests (RFC 2544), so no
    real network uses it — that no other test run (another xdist worker, another checkout)
    holds on this machine."""
    taken = subprocess.run(["ip", "-o", "-4", "addr"], capture_output=True, text=True).stdout
    start = os.getpid() % 16000
    for step in range(16000):
        block = (start + step) % 16000
        base, first = f"198.18.{block // 64}", block % 64 * 4
        if f" {base}.{first + 1}/" not in taken:
            return f"{base}.{first + 1}", f"{base}.{first + 2}"
    raise RuntimeError("no free /30 left in 198.18.0.0/16")


@pytest.fixture(scope="session")
def lan() -> Iterator[Lan]:
    """The laptop on a LAN of its own: skipped, with the reason, where this machine cannot make
    network namespaces (needs root and iproute2)."""
    require(shutil.which("ip") is not None, "needs iproute2's `ip` for a test LAN")
    require(os.geteuid() == 0, "needs root to make a network namespace for a test LAN")
    tag = f"{os.getpid() % 100000}"
    namespace, outside, inside = f"tt-lan-{tag}", f"ttl{tag}a", f"ttl{tag}b"
    host_address, address = free_link()
    try:
        _ip("netns", "add", namespace)
    except subprocess.CalledProcessError as error:
        require(False, f"cannot make a network namespace here: {error.stderr.decode().strip()}")
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
class EveningServer:
    process: subprocess.Popen
    club: Path
    port: int
    output: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.output)

    @property
    def public_url(self) -> str:
        found = re.search(r"Phones:\s+(\S+?)/?$", self.text, re.M)
        assert found, self.text
        return found.group(1)

    @property
    def credentials(self) -> tuple[str, str]:
        found = re.search(r"Director sign-in: (\S+) / (\S+)", self.text)
        assert found, self.text
        return found.group(1), found.group(2)

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        rest = self.process.stdout.read() if self.process.stdout else ""
        self.output.extend(rest.splitlines())
        return self.text


def laptop_environment(club: Path, **extra: str) -> dict[str, str]:
    """This environment without the tests' own settings: the club laptop has none of them."""
    environment = {k: v for k, v in os.environ.items() if k not in INHERITED_NOT}
    environment.update(CLUB_DIR=str(club), PYTHONUNBUFFERED="1", **extra)
    return environment


def wait_until_up(url: str, server: EveningServer, *, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"the evening server stopped:\n{server.stop()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    pytest.fail(f"the evening server did not answer at {url}:\n{server.stop()}")


def start(argv: list[str], club: Path, port: int, **extra: str) -> EveningServer:
    """`manage.py serve` as `make serve` runs it, reading what it prints until it serves."""
    process = subprocess.Popen(
        [*argv, sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=laptop_environment(club, **extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    server = EveningServer(process=process, club=club, port=port)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            pytest.fail(f"the evening server stopped before serving:\n{server.stop()}")
        server.output.append(line.rstrip("\n"))
        if "Stop with Ctrl+C." in line:
            return server
    server.stop()
    pytest.fail(f"the evening server did not start:\n{server.text}")


@pytest.fixture(scope="module")
def evening_server(lan, tmp_path_factory) -> Iterator[EveningServer]:
    """`manage.py serve` on the laptop of the test LAN, with a fresh club folder; reached from
    here at its LAN address only."""
    club = tmp_path_factory.mktemp("club")
    server = start(lan.run(), club, free_port())
    try:
        wait_until_up(f"{server.public_url}/", server)
        yield server
    finally:
        server.stop()


@pytest.fixture
def offline_laptop() -> Iterator[Lan]:
    """A namespace with loopback only: a laptop on no network at all."""
    require(shutil.which("ip") is not None, "needs iproute2's `ip` for a test network")
    require(os.geteuid() == 0, "needs root to make a network namespace")
    namespace = f"tt-off-{os.getpid() % 100000}"
    try:
        _ip("netns", "add", namespace)
    except subprocess.CalledProcessError as error:
        require(False, f"cannot make a network namespace here: {error.stderr.decode().strip()}")
    try:
        _ip("-n", namespace, "link", "set", "lo", "up")
        yield Lan(namespace=namespace, address="127.0.0.1")
    finally:
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True, timeout=10)

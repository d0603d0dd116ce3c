"""The evening server (`manage.py serve`) as a club runs it: a real process, its own folder
(database, secret key), and the room's network simulated by a network namespace of this test
run's own — the laptop inside it, reached from outside through its LAN address, as a phone on
the club's Wi-Fi reaches it."""

from __future__ import annotations

import itertools
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import waiting
from tests.conftest import require
from tests.servers import (
    INHERITED_NOT,
    QUICK_PASSWORDS_SETTINGS,
    ROOT,
    free_port,
    migrated_sqlite,
)


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


#: Serial numbers of the LANs this process makes.
_lans = itertools.count()


@pytest.fixture(scope="session")
def lan() -> Iterator[Lan]:
    """The laptop on a LAN of its own: skipped, with the reason, where this machine cannot make
    network namespaces (needs root and iproute2)."""
    require(shutil.which("ip") is not None, "needs iproute2's `ip` for a test LAN")
    require(os.geteuid() == 0, "needs root to make a network namespace for a test LAN")
    # The process and this LAN's serial: one worker may hold two LANs at once (the evening tests'
    # and the publishing stack's `the_lan`), and a namespace's name must be new.
    tag = f"{os.getpid() % 100000}{next(_lans)}"
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


def laptop_environment(
    club: Path, *, quick_passwords: bool = False, **extra: str
) -> dict[str, str]:
    """This environment without the tests' own settings: the club laptop has none of them.

    `quick_passwords`: the project's settings with quick password hashing
    (`servers.QUICK_PASSWORDS_SETTINGS`), for a test that is not about passwords: the server
    hashes the director's new password on a first start, and every sign-in's."""
    environment = {k: v for k, v in os.environ.items() if k not in INHERITED_NOT}
    environment.update(CLUB_DIR=str(club), PYTHONUNBUFFERED="1", **extra)
    if quick_passwords:
        environment["DJANGO_SETTINGS_MODULE"] = QUICK_PASSWORDS_SETTINGS
    return environment


class Progress:
    """Whether a server process is getting on with its start: a deadline that starts again
    whenever the process or one under it has used CPU (from /proc) or it said something. A
    start that takes minutes on a machine busy with other work is slow, not stuck (a fixed
    180 s failed one at load 20); a process that uses no CPU and says nothing for the tests'
    deadline (tests/waiting.py) is stuck. Where /proc cannot be read, the deadline counts
    from the last line only."""

    def __init__(self, pid: int, seconds: float = waiting.SECONDS) -> None:
        self.pid, self.seconds = pid, seconds
        self.ticks = self._ticks()
        self.since = time.monotonic()

    def _ticks(self) -> int | None:
        """CPU clock ticks of the process and of every process under it (a shell or `ip netns
        exec` may stand between this test and the server)."""
        total, found, todo = 0, False, [str(self.pid)]
        while todo:
            pid = todo.pop()
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
                total += sum(int(field) for field in fields[11:15])  # utime stime cutime cstime
                todo += Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                found = True
            except (OSError, ValueError):
                continue
        return total if found else None

    def made(self) -> None:
        self.since = time.monotonic()

    def stuck(self) -> bool:
        ticks = self._ticks()
        if ticks is not None and ticks != self.ticks:
            self.ticks = ticks
            self.made()
        return time.monotonic() - self.since > self.seconds


def wait_until_up(url: str, server: EveningServer, *, seconds: float = waiting.SECONDS) -> None:
    """Until the server answers at `url`; fails when it stops, or uses no CPU for `seconds`."""
    progress = Progress(server.process.pid, seconds)
    while not progress.stuck():
        if server.process.poll() is not None:
            pytest.fail(f"the evening server stopped:\n{server.stop()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, OSError):
            # Refused until uvicorn listens, just after the banner: asked again soon, as a
            # refused connection costs nothing and the test waits for it.
            time.sleep(0.05)
    pytest.fail(f"the evening server did not answer at {url}:\n{server.stop()}")


READY = "Stop with Ctrl+C."


def make_serve(port: int) -> dict[str, str]:
    """What `make serve` adds to the server's environment (the Makefile): the evening server's
    settings and its port. `manage.py serve` started without them reads the settings, then
    starts itself again under these (`run_as_evening_server`); started with them, it serves
    from its first start, as on the club's laptop."""
    return {"TRICKTABLE_SERVER": "evening", "PORT": str(port)}


def start(
    argv: list[str],
    club: Path,
    port: int,
    *,
    as_make_serve: bool = False,
    quick_passwords: bool = False,
    **extra: str,
) -> EveningServer:
    """`manage.py serve`, reading what it prints until it serves: for as long as it gets on
    with its start (`Progress`), however long that takes here. `as_make_serve`: in the
    environment `make serve` gives it (`make_serve`); without, as `manage.py serve` typed by
    hand, which starts itself again under the evening server's settings. `quick_passwords`:
    see `laptop_environment`."""
    if as_make_serve:
        extra = {**make_serve(port), **extra}
    process = subprocess.Popen(
        [*argv, sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=laptop_environment(club, quick_passwords=quick_passwords, **extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    server = EveningServer(process=process, club=club, port=port)
    said: queue.SimpleQueue[str | None] = queue.SimpleQueue()

    def listen() -> None:  # its lines until it serves; the rest is read by `stop()`
        assert process.stdout is not None
        for line in process.stdout:
            said.put(line)
            if READY in line:
                return
        said.put(None)

    threading.Thread(target=listen, daemon=True).start()
    progress = Progress(process.pid)
    while not progress.stuck():
        try:
            line = said.get(timeout=0.5)
        except queue.Empty:
            continue
        if line is None:
            pytest.fail(f"the evening server stopped before serving:\n{server.stop()}")
        progress.made()
        server.output.append(line.rstrip("\n"))
        if READY in line:
            return server
    server.stop()
    pytest.fail(f"the evening server did not start:\n{server.text}")


def migrated_club(club: Path) -> Path:
    """`club`, a club folder holding an empty database with every migration applied (a copy,
    `servers.migrated_sqlite`), for a test of something else than the first start from
    nothing: the server's own `migrate` then has nothing to do (a migrate from nothing is
    seconds of CPU a start). A first start still makes the secret key and the director. The
    starts from an empty folder are `evening_server`'s and test_club_files.py's."""
    club.mkdir(parents=True, exist_ok=True)
    migrated_sqlite(club / "tricktable.sqlite3")
    return club


@pytest.fixture(scope="module")
def evening_server(lan, tmp_path_factory) -> Iterator[EveningServer]:
    """`manage.py serve` on the laptop of the test LAN, with a fresh club folder; reached from
    here at its LAN address only."""
    club = tmp_path_factory.mktemp("club")
    # Started as typed by hand (it starts itself again under the evening server's settings),
    # where the other tests start it as `make serve` does; no test here is about hashing.
    server = start(lan.run(), club, free_port(), quick_passwords=True)
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

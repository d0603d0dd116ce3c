"""A real server process for a test or a bench: started on a free loopback port with the
environment given, waited for until it answers HTTP, stopped at the end; its log is printed when
the block fails (or the server does not start), so a failure says what the server saw.

    with servers.uvicorn(servers.production_env(DATABASE_URL="sqlite:///...")) as server:
        urllib.request.urlopen(server.url + "/api/v1/")

    with servers.running([sys.executable, "manage.py", "serve", "--port", "{port}"],
                         env=servers.production_env(...)) as server:
        ...

`{port}` in the command is replaced by the port chosen.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests import waiting

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"

#: Variables of the calling environment a server must not inherit: it gets its own database,
#: no Redis (tasks in-process), production settings, its own address and folder.
INHERITED_NOT = (
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "STANDINGS_QUEUE",
    "IMPORTS_QUEUE",
    "BACKUP_DIR",
    "BACKUP_INTERVAL",
    "BACKUP_KEEP",
    "DJANGO_SETTINGS_MODULE",
    "PUBLIC_URL",
    "HTTPS",
    "STATIC_BROTLI",
    "TIME_ZONE",
    "TRICKTABLE_SERVER",
    "PORT",
    "CLUB_DIR",
    "TRUSTED_PROXIES",
)


#: The settings module of a server or command a test starts where passwords are not what it
#: tests (`DJANGO_SETTINGS_MODULE`): the project's settings with quick password hashing
#: (tests/server_settings.py).
QUICK_PASSWORDS_SETTINGS = "tests.server_settings"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def production_env(**overrides: str) -> dict[str, str]:
    """This environment without the project's own settings, then DEBUG off, a random secret
    key, loopback hosts, plain HTTP and no Redis; `overrides` last (DATABASE_URL, ...).

    Plain HTTP, so no Brotli copies of the static files either (`STATIC_BROTLI`, as the evening
    server): browsers ask for Brotli over HTTPS alone, and making the copies is most of the
    first collect of a fresh checkout's static files (docs/testing.md)."""
    env = {k: v for k, v in os.environ.items() if k not in INHERITED_NOT}
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=f"{HOST},localhost",
        SECURE_SSL_REDIRECT="false",
        STATIC_BROTLI="false",
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONUNBUFFERED="1",
    )
    env.update(overrides)
    return env


@dataclass
class Server:
    url: str  # http://127.0.0.1:<port>, no trailing slash
    port: int
    process: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        """What the server wrote so far (standard output and error together)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # any HTTP answer (a 404, a 400) means it is serving
    except (OSError, urllib.error.URLError):
        return False


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)  # the server and any worker it started
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _show(server: Server, why: str) -> None:
    print(
        f"\n----- {why}: the server's log ({server.log_path}) -----\n{server.log()}"
        "----- end of the server's log -----",
        file=sys.stderr,
        flush=True,
    )


#: This test process's migrated empty SQLite database (`migrated_sqlite`), made on first use.
_migrated: list[Path] = []


def _migrated_template() -> Path:
    """The migrated empty database `migrated_sqlite` copies: one for the whole test run when
    pytest-xdist runs it (every worker of a run has its PYTEST_XDIST_TESTRUNUID), made by the
    first worker that needs it while the others wait on a lock; else one for this process."""
    from tests.built_once import alone

    if _migrated:
        return _migrated[0]
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run:
        folder = Path(tempfile.gettempdir()) / f"tricktable-migrated-{run}"
        folder.mkdir(exist_ok=True)
    else:
        folder = Path(tempfile.mkdtemp(prefix="tricktable-migrated-"))
    template, complete = folder / "empty.sqlite3", folder / "complete"
    with alone(folder / ".lock"):
        if not complete.is_file():
            # Marked complete once migrated: a worker that died while migrating leaves no
            # half-migrated template for the next to copy, which migrates it again from nothing.
            for leftover in folder.glob(f"{template.name}*"):
                leftover.unlink()
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                cwd=ROOT,
                env=production_env(DATABASE_URL=f"sqlite:///{template}"),
                check=True,
            )
            complete.touch()
    _migrated.append(template)
    return template


def migrated_sqlite(database: Path) -> None:
    """Make `database` an SQLite file with every migration applied and nothing else, for a
    server a test starts on a database of its own.

    The first call in a test run runs `manage.py migrate` on an empty file, as each such test
    did for itself (`_migrated_template`: once per run under pytest-xdist, the other workers
    wait for it); later calls copy that file (SQLite's backup API), the same schema and rows
    (content types, permissions) without migrating again: a migrate from nothing costs seconds
    of CPU, and the tests that start servers of their own each needed one. What the migrations
    do from nothing is still run and checked here, and by every test database."""
    import sqlite3

    with (
        contextlib.closing(sqlite3.connect(_migrated_template())) as source,
        contextlib.closing(sqlite3.connect(database)) as copy,
    ):
        source.backup(copy)


def collect_static(env: Mapping[str, str]) -> None:
    """The static files collected (hashed, with their manifest) as the evening server collects
    them before it serves (`serve`'s `collect_static`: once per change of the sources, under a
    lock): a server started by hand in a test renders pages only with the manifest, and a fresh
    clone has none until something collects it."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); "
            "from tournaments.management.commands.serve import Command; "
            "Command().collect_static()",
        ],
        cwd=ROOT,
        env=dict(env),
        check=True,
        capture_output=True,
        timeout=600,
    )


@contextlib.contextmanager
def running(
    command: Sequence[str],
    *,
    env: Mapping[str, str],
    port: int | None = None,
    ready_path: str = "/api/v1/",
    timeout: float = waiting.SECONDS,
    cwd: Path = ROOT,
) -> Iterator[Server]:
    """Run `command` (its `{port}` filled in) until the block ends; yields once an HTTP GET of
    `ready_path` gets any answer. Raises RuntimeError, with the log printed, when the server
    exits or does not answer within `timeout` seconds."""
    port = port or free_port()
    argv = [part.replace("{port}", str(port)) for part in command]
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - kept after the server stops
        prefix="tricktable-server-", suffix=".log", delete=False
    )
    process = subprocess.Popen(
        argv, cwd=cwd, env=dict(env), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    log.close()
    server = Server(
        url=f"http://{HOST}:{port}", port=port, process=process, log_path=Path(log.name)
    )
    try:
        deadline = time.monotonic() + timeout
        while not _answers(server.url + ready_path):
            if not server.alive():
                _show(server, f"exited with {process.returncode} before answering")
                raise RuntimeError(f"{argv[:4]} exited with {process.returncode}")
            if time.monotonic() > deadline:
                _show(server, f"no answer after {timeout:.0f} s")
                raise RuntimeError(f"{argv[:4]} did not answer within {timeout:.0f} s")
            time.sleep(0.1)
        try:
            yield server
        except BaseException:
            _stop(process)
            _show(server, "the block using it failed")
            raise
    finally:
        _stop(process)


def uvicorn(
    env: Mapping[str, str],
    *,
    workers: int = 1,
    port: int | None = None,
    timeout: float = waiting.SECONDS,
    access_log: bool = False,
) -> contextlib.AbstractContextManager:
    """`uvicorn config.asgi:application` on 127.0.0.1 with `workers` worker processes."""
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--host",
        HOST,
        "--port",
        "{port}",
        "--workers",
        str(workers),
    ]
    if not access_log:
        command.append("--no-access-log")
    return running(command, env=env, port=port, timeout=timeout)

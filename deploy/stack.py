"""The club's site as a whole stack on one machine: PostgreSQL and Redis (already running), two
uvicorn processes, a Celery worker and Celery beat, nginx in front serving HTTPS with a local
certificate authority. `make site` runs it in the foreground (`python deploy/stack.py`); the
stack's test and the publishing benchmark start it with `running()`.

    .venv/bin/python deploy/stack.py                     # https://127.0.0.1:8440, folder .site/
    .venv/bin/python deploy/stack.py --port 8440 --address 192.168.1.20 --dir /tmp/site

Before the processes start, the stack's folder gets: a local certificate authority and the
site's certificate for its addresses (`tls/ca.pem`: the file a room trusts, PUBLISH_CA_FILE),
a secret key kept between runs, `site.env` (the processes' environment) and `nginx.conf`; the
database is created if missing, migrated, and the static files collected. Then honcho runs
deploy/Procfile. The processes are the ones the systemd units in deploy/systemd/ run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
PROCFILE = DEPLOY / "Procfile"
LOOPBACK = "127.0.0.1"

#: Settings of the calling environment the site's processes must not inherit (a test's or a
#: developer's shell): the stack gives its own.
NOT_INHERITED = (
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "PUBLIC_URL",
    "HTTPS",
    "TRICKTABLE_SERVER",
    "CLUB_DIR",
    "TRUSTED_PROXIES",
    "STANDINGS_QUEUE",
    "IMPORTS_QUEUE",
    "TASK_QUEUE",
    "CACHE_KEY_PREFIX",
    "DJANGO_SETTINGS_MODULE",
    "PUBLISH_URL",
    "PUBLISH_KEY",
    "PUBLISH_CA_FILE",
    "BACKUP_DIR",
    "PORT",
)


def nginx() -> str | None:
    """Debian's nginx (in /usr/sbin, which a user's PATH may not hold)."""
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def honcho() -> str | None:
    found = Path(sys.executable).with_name("honcho")
    return str(found) if found.exists() else shutil.which("honcho")


def free_ports(count: int, within: str = "") -> list[int]:
    """`count` TCP ports free on this machine: from `within` ("8400-8449") when given, else
    chosen by the system."""
    if not within:
        ports: list[int] = []
        while len(ports) < count:
            with socket.socket() as sock:
                sock.bind((LOOPBACK, 0))
                port = sock.getsockname()[1]
            if port not in ports:
                ports.append(port)
        return ports
    first, last = (int(n) for n in within.split("-"))
    found = []
    for port in range(first, last + 1):
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("0.0.0.0", port))
            except OSError:
                continue
        found.append(port)
        if len(found) == count:
            return found
    raise RuntimeError(f"fewer than {count} free ports in {within}")


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


def make_certificates(tls: Path, addresses: Sequence[str]) -> Path:
    """A local certificate authority (kept: a browser or room told to trust it once keeps
    trusting it) and the site's certificate, signed by it, for `addresses` (IP addresses or
    names) and localhost; the certificate is made again when the addresses change. Returns the
    authority's certificate (ca.pem)."""
    tls.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, cert = tls / "ca.key", tls / "ca.pem", tls / "site.key", tls / "site.pem"
    if not (ca_key.exists() and ca.exists()):
        _openssl(
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-days", "825", "-subj", "/O=TrickTable/CN=TrickTable local CA",
            "-keyout", str(ca_key), "-out", str(ca),
            "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        )  # fmt: skip
    names = sorted({*addresses, "127.0.0.1", "localhost"})
    alt = ",".join(f"IP:{n}" if _is_address(n) else f"DNS:{n}" for n in names)
    wanted = tls / "site.names"
    if cert.exists() and key.exists() and wanted.exists() and wanted.read_text() == alt:
        return ca
    request = tls / "site.csr"
    _openssl(
        "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-subj", f"/O=TrickTable/CN={names[0]}", "-keyout", str(key), "-out", str(request),
    )  # fmt: skip
    extensions = tls / "site.ext"
    extensions.write_text(
        f"subjectAltName={alt}\nbasicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
        "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid,issuer\n"
    )
    _openssl(
        "x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key),
        "-CAcreateserial", "-days", "397", "-sha256", "-extfile", str(extensions),
        "-out", str(cert),
    )  # fmt: skip
    wanted.write_text(alt)
    return ca


def _is_address(name: str) -> bool:
    try:
        socket.inet_pton(socket.AF_INET6 if ":" in name else socket.AF_INET, name)
    except OSError:
        return False
    return True


def render_nginx(folder: Path, *, addresses: Sequence[str], port: int, asgi: Sequence[int]) -> Path:
    """The stack's nginx.conf from deploy/nginx/local.conf.in."""
    for part in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / "nginx-temp" / part).mkdir(parents=True, exist_ok=True)
    (folder / "nginx-cache").mkdir(exist_ok=True)
    listen = "\n".join(
        f"        listen {f'[{a}]' if ':' in a else a}:{port} ssl http2;" for a in addresses
    )
    upstreams = "\n".join(
        f"        server {LOOPBACK}:{p} max_fails=1 fail_timeout=2s;" for p in asgi
    )
    # Run as root (a container, CI), nginx's workers would become `nobody` and not read this
    # folder: they stay the user who started it. A real site runs Debian's nginx (www-data).
    user = "user root root;" if os.geteuid() == 0 else ""
    text = (DEPLOY / "nginx" / "local.conf.in").read_text()
    for name, value in (
        ("@USER@", user),
        ("@DIR@", str(folder)),
        ("@ROOT@", str(ROOT)),
        ("@LISTEN@", listen),
        ("@UPSTREAMS@", upstreams),
    ):
        text = text.replace(name, value)
    path = folder / "nginx.conf"
    path.write_text(text)
    return path


@dataclass
class Stack:
    """A prepared stack: its folder, address, authority and the processes' environment."""

    folder: Path
    url: str  # https://<first address>:<port>, no trailing slash
    ca_file: Path
    env: dict[str, str]
    asgi_ports: list[int]
    process: subprocess.Popen | None = None

    @property
    def log_path(self) -> Path:
        return self.folder / "honcho.log"

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def tls(self) -> ssl.SSLContext:
        """A client's TLS context trusting the stack's authority only (certificates checked)."""
        return ssl.create_default_context(cafile=str(self.ca_file))

    def manage(self, *args: str, timeout: float = 600) -> str:
        """`manage.py <args>` with the site's environment; its standard output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        return done.stdout


def _database(url: str) -> None:
    """Create the database of `url` when it does not exist (PostgreSQL)."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        return
    name = parts.path.lstrip("/")
    admin = urlunsplit((parts.scheme, parts.netloc, "/postgres", parts.query, ""))
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("select 1 from pg_database where datname = %s", [name])
        if exists.fetchone() is None:
            connection.execute(sql.SQL("create database {}").format(sql.Identifier(name)))


def drop_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    admin = urlunsplit((parts.scheme, parts.netloc, "/postgres", parts.query, ""))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(
            sql.SQL("drop database if exists {} with (force)").format(
                sql.Identifier(parts.path.lstrip("/"))
            )
        )


def prepare(
    folder: Path,
    *,
    database_url: str,
    redis_url: str,
    port: int,
    addresses: Sequence[str] = (LOOPBACK,),
    asgi_ports: Sequence[int] = (),
    queue: str = "",
    extra: Mapping[str, str] | None = None,
) -> Stack:
    """Everything the processes need, written into `folder`; the database made and migrated."""
    folder = folder.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    asgi = list(asgi_ports) or [port + 1, port + 2]
    ca = make_certificates(folder / "tls", addresses)
    render_nginx(folder, addresses=addresses, port=port, asgi=asgi)
    secret = folder / "secret_key"
    if not secret.exists():
        secret.write_text(secrets.token_urlsafe(60))
        secret.chmod(0o600)
    host = f"[{addresses[0]}]" if ":" in addresses[0] else addresses[0]
    url = f"https://{host}:{port}"
    queue = queue or f"site-{port}"
    site = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secret.read_text().strip(),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "PUBLIC_URL": url,
        "ALLOWED_HOSTS": ",".join([*addresses, LOOPBACK, "localhost"]),
        "TRUSTED_PROXIES": LOOPBACK,  # nginx, on this machine
        # A browser would keep HSTS for these addresses on every port (a later `make run` on
        # http://localhost refused): a real site keeps the default (a year).
        "SECURE_HSTS_SECONDS": "0",
        # The static files as the evening server collects them (no Brotli copies): one
        # checkout serving both a laptop and a site collects them once, not at each start.
        "STATIC_BROTLI": "false",
        # Its own queue and cache keys: the site may share a Redis database with other
        # installations (a developer's, the test suite's) without taking their tasks.
        "TASK_QUEUE": queue,
        "CACHE_KEY_PREFIX": queue,
        "SITE_DIR": str(folder),
        "SITE_NGINX": nginx() or "nginx",
        "SITE_ASGI_PORT_1": str(asgi[0]),
        "SITE_ASGI_PORT_2": str(asgi[1]),
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
        **(extra or {}),
    }
    (folder / "site.env").write_text("".join(f"{k}={v}\n" for k, v in site.items()))
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    env.update(site)
    stack = Stack(folder=folder, url=url, ca_file=ca, env=env, asgi_ports=asgi)
    _database(database_url)
    stack.manage("migrate", "--noinput", "-v0")
    collect = (
        "import django; django.setup(); "
        "from tournaments.management.commands.serve import Command; Command().collect_static()"
    )
    subprocess.run(
        [sys.executable, "-c", collect], cwd=ROOT, env=env, check=True, capture_output=True
    )
    return stack


def command(stack: Stack) -> list[str]:
    """honcho running deploy/Procfile with the stack's environment."""
    runner = honcho()
    if runner is None:
        raise RuntimeError("honcho is missing: make venv (requirements-dev.txt)")
    return [runner, "-f", str(PROCFILE), "-d", str(ROOT), "-e", str(stack.folder / "site.env"),
            "start"]  # fmt: skip


def answers(
    url: str, context: ssl.SSLContext | None = None, headers: Mapping[str, str] | None = None
) -> bool:
    """Any HTTP answer at all (a 404 too) within 3 s."""
    try:
        request = urllib.request.Request(url, headers=dict(headers or {}))
        with urllib.request.urlopen(request, timeout=3, context=context):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, urllib.error.URLError):
        return False


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)  # honcho, and every process it started
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_ready(stack: Stack, timeout: float = 90) -> None:
    """Until both uvicorn processes answer, the proxy answers over HTTPS with the stack's
    authority, and the worker and beat have said they run."""
    deadline = time.monotonic() + timeout
    behind_tls = {"X-Forwarded-Proto": "https"}  # as nginx says it (else: a redirect to https)
    checks = [
        lambda: all(
            answers(f"http://{LOOPBACK}:{p}/api/v1/", headers=behind_tls) for p in stack.asgi_ports
        ),
        lambda: answers(f"{stack.url}/api/v1/", stack.tls()),
        lambda: " ready." in stack.log() and "beat: Starting" in stack.log(),
    ]
    for check in checks:
        while not check():
            if stack.process is not None and stack.process.poll() is not None:
                raise RuntimeError(f"the stack stopped (exit {stack.process.returncode}):\n"
                                   f"{stack.log()}")  # fmt: skip
            if time.monotonic() > deadline:
                raise RuntimeError(f"the stack is not ready after {timeout:.0f} s:\n{stack.log()}")
            time.sleep(0.2)


@contextlib.contextmanager
def running(stack: Stack, timeout: float = 90) -> Iterator[Stack]:
    """The stack's processes (honcho, in a session of their own) until the block ends."""
    with open(stack.log_path, "ab") as log:
        stack.process = subprocess.Popen(
            command(stack),
            cwd=ROOT,
            env=stack.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_ready(stack, timeout)
        yield stack
    finally:
        _stop(stack.process)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=ROOT / ".site", help="the stack's folder")
    parser.add_argument("--port", type=int, default=int(os.environ.get("SITE_PORT", 8440)))
    parser.add_argument(
        "--address",
        action="append",
        default=[],
        help="an address nginx listens on, and the certificate names (127.0.0.1 always)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tricktable_site"
        ),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    args = parser.parse_args(argv)
    if not args.database_url.startswith(("postgres://", "postgresql://")):
        parser.error("the site runs on PostgreSQL: DATABASE_URL=postgres://...")
    if nginx() is None:
        parser.error("nginx is missing: apt-get install -y nginx")
    addresses = [LOOPBACK, *[a for a in args.address if a != LOOPBACK]]
    stack = prepare(
        args.dir,
        database_url=args.database_url,
        redis_url=args.redis_url,
        port=args.port,
        addresses=addresses,
    )
    print(
        f"The club's site: {stack.url}/ (certificate by the local authority {stack.ca_file})\n"
        f"A director for it:  set -a; . {stack.folder / 'site.env'}; set +a; "
        ".venv/bin/python manage.py createsuperuser\n"
        f"A room publishing to it: PUBLISH_URL={stack.url} PUBLISH_CA_FILE={stack.ca_file} "
        "PUBLISH_KEY=<the key made on Director -> Publishing>\n"
        "Stop with Ctrl+C.",
        flush=True,
    )
    os.chdir(ROOT)
    os.execve(command(stack)[0], command(stack), stack.env)


if __name__ == "__main__":
    main()

"""Fault and flood figures of issue 30 (items 2, 3 and 6), on a real server: what a client sees
while the database's sessions are killed, while one client floods the event streams, and what
held-open uploads cost the server's memory. Not a speed benchmark: counts of answers by status,
the slowest answer, and the server's resident memory.

    # pages and the API under repeated backend kills (uvicorn, 2 workers, PostgreSQL)
    DATABASE_URL=postgres://... .venv/bin/python bench/under_fire.py kills --interval 0.7
    # the evening server (manage.py serve, started with a soft open-file limit of 1,024)
    .venv/bin/python bench/under_fire.py streams-one --streams 1100
    .venv/bin/python bench/under_fire.py streams-many
    .venv/bin/python bench/under_fire.py bodies

`--root DIR` runs another checkout of the project (the code before a change, say) with this
script and this virtualenv; `--port` chooses the port (default 8153). The evening server's
club folder is a temporary one with a tournament made by the test builders; `kills` makes one
in DATABASE_URL's database (which must be migrated). Each client of `streams-many` is a
loopback address of its own (127.0.0.0/8 is all loopback on Linux).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
#: A tournament with a match (the test builders'), made once per database.
BUILD = (
    "from tournaments.models import Tournament\n"
    "found = Tournament.objects.order_by('id').first()\n"
    "if found is None:\n"
    "    from tests.tournaments.builders import make_director, make_match\n"
    "    found = make_match(make_director('under-fire')).round.tournament\n"
    "print(found.slug)\n"
)


def fetch(url: str) -> tuple[object, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            status: object = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    except OSError as error:
        status = type(error).__name__
    return status, time.monotonic() - started


def answers(port: int) -> bool:
    return fetch(f"http://127.0.0.1:{port}/api/v1/tournaments")[0] == 200


def wait_up(port: int, process: subprocess.Popen) -> None:
    for _ in range(900):
        if answers(port):
            return
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}")
        time.sleep(0.2)
    raise SystemExit("the server did not answer")


def stop(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, 15)
    process.wait(30)


def kills(root: Path, port: int, interval: float, seconds: float) -> None:
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = "tricktable-under-fire"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=f"{url}?application_name={name}", DEBUG="false", HTTPS="false")
    env.update(SECRET_KEY="x" * 60, ALLOWED_HOSTS="127.0.0.1", LOG_LEVEL="CRITICAL")
    made = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", BUILD],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    slug = made.stdout.strip().splitlines()[-1]
    paths = ["/", f"/t/{slug}/", f"/t/{slug}/standings/", "/api/v1/tournaments"]
    server = subprocess.Popen(
        [PYTHON, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1"]
        + ["--port", str(port), "--workers", "2", "--no-access-log"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    halt, killed = threading.Event(), [0]

    def killer() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            while not halt.is_set():
                rows = conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = %s",
                    (name,),
                ).fetchall()
                killed[0] += len(rows)
                halt.wait(interval)

    try:
        wait_up(port, server)
        for path in paths:
            fetch(f"http://127.0.0.1:{port}{path}")
        thread = threading.Thread(target=killer)
        thread.start()
        results = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for path in paths:
                status, took = fetch(f"http://127.0.0.1:{port}{path}")
                results.append(("api" if path.startswith("/api/") else "page", status, took))
        halt.set()
        thread.join()
        after = [fetch(f"http://127.0.0.1:{port}{path}") for path in paths]
    finally:
        halt.set()
        stop(server)
    counts = collections.Counter((kind, status) for kind, status, _ in results)
    print(
        f"kills every {interval} s for {seconds:.0f} s: {len(results)} answers "
        f"{dict(sorted(counts.items(), key=str))}, slowest {max(t for *_, t in results):.2f} s, "
        f"{killed[0]} sessions killed"
    )
    print("the first after the kills:", [(status, round(took, 2)) for status, took in after])


def evening(root: Path, port: int, club: Path) -> subprocess.Popen:
    """`manage.py serve` on `club` from a shell with a soft open-file limit of 1,024."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_SETTINGS_MODULE")
    }
    env.update(CLUB_DIR=str(club), PYTHONUNBUFFERED="1")
    if not (club / "slug").exists():
        setup = {**env, "TRICKTABLE_SERVER": "evening"}
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=root, env=setup, check=True)
        made = subprocess.run(
            [PYTHON, "manage.py", "shell", "-c", BUILD],
            cwd=root,
            env=setup,
            capture_output=True,
            text=True,
            check=True,
        )
        (club / "slug").write_text(made.stdout.strip().splitlines()[-1])
    command = f'ulimit -Sn 1024 && exec "{PYTHON}" manage.py serve --port {port}'
    server = subprocess.Popen(
        ["bash", "-c", command],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_up(port, server)
    return server


def open_files(pid: int) -> str:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft, hard = line.split()[3:5]
            return f"{soft} (hard {hard})"
    return "?"


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def stream(port: int, slug: str, source: str) -> tuple[object, socket.socket]:
    sock = socket.socket()
    sock.settimeout(10)
    try:
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        request = f"GET /api/v1/tournaments/{slug}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        sock.sendall(request.encode())
        data = sock.recv(200)
        return (int(data.split()[1]) if data else "closed"), sock
    except OSError as error:
        return type(error).__name__, sock


def ordinary(port: int, count: int = 20) -> dict:
    seen: collections.Counter = collections.Counter()
    for _ in range(count):
        with socket.socket() as sock:
            sock.settimeout(5)
            try:
                sock.bind(("127.0.9.9", 0))
                sock.connect(("127.0.0.1", port))
                sock.sendall(b"GET /api/v1/tournaments HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                data = sock.recv(100)
                seen[int(data.split()[1]) if data else "closed"] += 1
            except OSError as error:
                seen[type(error).__name__] += 1
    return dict(seen)


def floods(root: Path, port: int, what: str, count: int) -> None:
    with tempfile.TemporaryDirectory(prefix="under-fire-") as folder:
        club = Path(folder) / "club"
        club.mkdir()
        server = evening(root, port, club)
        slug = (club / "slug").read_text().strip()
        held: list[socket.socket] = []
        try:
            print(f"the evening server's open-file limit: {open_files(server.pid)}")
            if what in ("streams-one", "streams-many"):
                seen: collections.Counter = collections.Counter()
                for n in range(count):
                    source = (
                        "127.0.0.1"
                        if what == "streams-one"
                        else f"127.0.{3 + n // 250}.{1 + n % 250}"
                    )
                    status, sock = stream(port, slug, source)
                    held.append(sock)
                    seen[status] += 1
                who = "one address" if what == "streams-one" else f"{count} addresses"
                print(
                    f"{count} streams from {who}: {dict(seen)}; then 20 ordinary requests "
                    f"from another address: {ordinary(port)}"
                )
            else:
                ordinary(port, 3)
                time.sleep(1)
                before = resident_mib(server.pid)
                block = b" " * (64 * 1024)
                for _ in range(count):
                    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                    sock.sendall(
                        b"POST /api/v1/hands/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    )
                    for _ in range(int(9.9 * 16)):  # 9.9 MiB, the last chunk never sent
                        sock.sendall(b"%x\r\n%s\r\n" % (len(block), block))
                    held.append(sock)
                time.sleep(3)
                print(
                    f"{count} chunked uploads of 9.9 MiB held open: the server "
                    f"{before:.0f} MiB -> {resident_mib(server.pid):.0f} MiB; then 20 ordinary "
                    f"requests: {ordinary(port)}"
                )
        finally:
            for sock in held:
                with contextlib.suppress(OSError):
                    sock.close()
            stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["kills", "streams-one", "streams-many", "bodies"])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to serve")
    parser.add_argument("--port", type=int, default=8153)
    parser.add_argument("--interval", type=float, default=0.7, help="kills: seconds between")
    parser.add_argument("--seconds", type=float, default=20.0, help="kills: how long")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--uploads", type=int, default=60)
    args = parser.parse_args()
    print(f"checkout: {args.root}")
    if args.what == "kills":
        kills(args.root, args.port, args.interval, args.seconds)
    else:
        count = args.uploads if args.what == "bodies" else args.streams
        floods(args.root, args.port, args.what, count)


if __name__ == "__main__":
    main()

"""API benchmark: live standings GET (200 and 304) with wrk against uvicorn on PostgreSQL + Redis,
hand submission throughput, and how many SSE listeners one uvicorn process holds.

Run from the repository root (PostgreSQL and Redis running locally, `wrk` installed:
`apt-get install -y wrk`):

    .venv/bin/python bench/api.py             # 20 s per wrk run, 1,000 SSE listeners
    .venv/bin/python bench/api.py --quick     # 5 s per wrk run, a smoke run

What it does:
1. (re)creates the database `tricktable_bench` (--database), migrates it and loads
   `manage.py demo` with REDIS_URL unset, so the standings snapshots are written in-process;
2. starts uvicorn (`--workers 2 --no-access-log`, DEBUG off) with REDIS_URL set and runs
   `wrk -t2 -c64 --latency` on `GET /api/v1/tournaments/{slug}/standings`, then the same with a
   Lua script sending the current `If-None-Match` (every answer a 304); with `--proxy`, the
   same GET through nginx as a caching reverse proxy in front of uvicorn (the answer's
   `Cache-Control: s-maxage` lets it answer repeats; `apt-get install -y nginx`);
3. submits hands through the services from --processes processes against PostgreSQL, each
   process its own tables taking turns, records planned beforehand by the rules engine: first
   every hand is submitted (validated, stored, announced on Redis), then every hand confirmed
   (which also enqueues the standings recompute); each phase's rate is over all processes' wall
   clock;
4. the same over HTTP: --tables tables, each on its own keep-alive connection with its table
   token, post their hands one after another to uvicorn (`--workers`, 2 by default) as
   scorers' phones would, with the CPU a submission cost uvicorn and PostgreSQL (issue 18's
   bar: >= 300/s, p99 <= 250 ms; `--only submissions-http` runs this step alone);
5. starts one uvicorn process (one worker), opens --listeners SSE connections from asyncio,
   publishes one announcement and counts how many listeners receive it, and how fast.
wrk and uvicorn share this machine's cores: the figures are for everything on one box.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import resource
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402

PY = sys.executable
PG = "postgres://postgres@127.0.0.1:5432"
HTTP_SUBMISSIONS, HTTP_P99_MS = 300, 250  # issue 18: over HTTP, 64 tables at once
TARGETS = {
    "get_rps": 1500,
    "get_p99_ms": 50,
    "listeners": 1000,
    "submissions": 300,
}


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def server_env(args, **extra) -> dict:
    return dict(
        os.environ,
        DATABASE_URL=f"{PG}/{args.database}",
        REDIS_URL=args.redis,
        DJANGO_SETTINGS_MODULE=args.settings,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        **extra,
    )


def prepare_database(args) -> str:
    """Create, migrate and load the bench database; returns a slug with a snapshot."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        exists = conn.execute(
            "select 1 from pg_database where datname = %s", [args.database]
        ).fetchone()
        if exists and args.fresh:
            conn.execute(f'drop database "{args.database}" with (force)')
            exists = None
        if not exists:
            conn.execute(f'create database "{args.database}"')
    env = dict(os.environ, DATABASE_URL=f"{PG}/{args.database}")
    env.pop("REDIS_URL", None)  # load in-process: the demo's snapshots are written at once
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [PY, "manage.py", "demo", "--if-empty"],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with psycopg.connect(f"{PG}/{args.database}") as conn:
        row = conn.execute(
            "select t.slug, count(*) from tournaments_tournament t join "
            "tournaments_standingssnapshot s on s.tournament_id = t.id group by t.slug "
            "order by 2 desc limit 1"
        ).fetchone()
    if row is None:
        raise SystemExit("the demo wrote no standings snapshot")
    return row[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Uvicorn:
    def __init__(self, args, workers: int) -> None:
        self.port = args.port or free_port()
        app = ["config.asgi:application"]
        if args.interface == "wsgi":  # Django's WSGI handler, in uvicorn's thread pool
            app = ["config.wsgi:application", "--interface", "wsgi"]
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - the server's log, kept
            prefix="tricktable-bench-uvicorn-", suffix=".log", delete=False
        )
        self.process = subprocess.Popen(
            [
                PY,
                "-m",
                "uvicorn",
                *app,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                str(workers),
                "--no-access-log",
                "--log-level",
                "info",
                "--backlog",
                "4096",
            ],
            cwd=ROOT,
            env=server_env(args),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        # Ready when every worker has finished its lifespan startup (config/asgi.py: the
        # first requests' work, config/warm.py) and says so; the supervisor's socket accepts
        # connections before that, and a request would then wait for the worker's start.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            # (no lifespan under the WSGI interface: each worker's start is its ready line)
            ready = "Application startup complete" if args.interface == "asgi" else "Started server"
            if Path(self.log.name).read_text().count(ready) >= workers:
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise SystemExit(f"uvicorn did not start; see {self.log.name}")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()


NGINX_CONF = """worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    proxy_cache_path {tmp}/cache keys_zone=live:1m max_size=64m;
    upstream tricktable {{ server 127.0.0.1:{upstream}; keepalive 32; keepalive_timeout 4s; }}
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location / {{
            proxy_pass http://tricktable;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_cache live;
            proxy_cache_lock on;
            proxy_cache_revalidate on;
            proxy_cache_use_stale updating;
            add_header X-Cache-Status $upstream_cache_status;
        }}
    }}
}}
"""


class CachingProxy:
    """nginx in front of the servers as a caching reverse proxy (`--proxy`): it keeps the
    standings answer as long as its `Cache-Control: s-maxage` allows (docs/live.md, "Behind a
    caching proxy"), one request to the servers at a time when its copy expires. A minimal
    configuration for the measurement, in a temporary folder; the production one is under
    deploy/."""

    def __init__(self, upstream: int, port: int) -> None:
        if shutil.which("nginx") is None:
            raise SystemExit("--proxy needs nginx: apt-get install -y nginx")
        self.port = port or free_port()
        self.tmp = tempfile.mkdtemp(prefix="tricktable-bench-nginx-")
        conf = Path(self.tmp) / "nginx.conf"
        conf.write_text(NGINX_CONF.format(tmp=self.tmp, upstream=upstream, port=self.port))
        self.process = subprocess.Popen(
            ["nginx", "-c", str(conf), "-p", self.tmp], stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return
            time.sleep(0.05)
        raise SystemExit(f"nginx did not start; see {self.tmp}/error.log")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)
        shutil.rmtree(self.tmp, ignore_errors=True)


def fetch(url: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    """(status, headers by lower-case name, body)."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            headers = {k.lower(): v for k, v in response.headers.items()}
            return response.status, headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def to_ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def wrk(
    url: str,
    seconds: int,
    connections: int,
    script: str | None = None,
    server: list[int] | None = None,
) -> dict:
    """wrk's figures; with `server` (the server's processes) also their CPU an answer (µs)."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    if script:
        command += ["-s", script]
    before = sum(map(_cpu_seconds, server or []))
    out = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    answers = int(re.search(r"(\d+) requests in", out).group(1))
    cpu_us = 1e6 * (sum(map(_cpu_seconds, server)) - before) / max(answers, 1) if server else None
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = to_ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
    p99 = to_ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": rps,
        "p50": p50,
        "p99": p99,
        "non2xx": int(bad.group(1)) if bad else 0,
        "errors": errors.group(1) if errors else "",
        "raw": out,
        "cpu_us": cpu_us,
        "answers": answers,
    }


# --- hand submissions through the services --------------------------------------------------


def setup_django(args) -> None:
    os.environ.update(
        DATABASE_URL=f"{PG}/{args.database}",
        REDIS_URL=args.redis,
        DJANGO_SETTINGS_MODULE=args.settings,
        LOG_LEVEL="ERROR",
    )
    import django

    django.setup()


def _planned_hands(match, rng, count: int) -> list[dict]:
    """Legal summary records for the match's next hands, planned by the rules engine alone so
    record generation stays out of the timing (tests/room.py)."""
    from tests.room import planned_hands

    return planned_hands(match, rng, count)


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process on this machine has used, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _submitter(args, n: int, hands: int, lock, ready, go, out) -> None:
    """One process: plan its tables' hands, then (on the signal) submit them all, then confirm
    them all, through the services; reports wall-clock start/end of each phase."""
    import random
    import uuid

    setup_django(args)
    from tests.tournaments.builders import make_director, make_match
    from tournaments import services
    from tournaments.demo.simulate import scorers

    rng = random.Random(n)
    with lock:  # the builders choose slugs by counting: one process at a time
        director = make_director(f"bench-{uuid.uuid4().hex[:8]}")
    work: list[tuple] = []  # (match, submitting side, confirming side, records)
    planned = 0
    while planned < hands:
        with lock:
            match = make_match(director, match_length="director")
        ns, ew = scorers(match)
        records = _planned_hands(match, rng, min(12, hands - planned))
        work.append((match, ns, ew, records))
        planned += len(records)
    from django.db import connection

    connection.ensure_connection()
    backend = connection.connection.info.backend_pid
    ready.put(n)
    go.wait()
    submitted = []
    start = time.time()
    cpu = (time.process_time(), _cpu_seconds(backend))
    for step in range(max(len(w[3]) for w in work)):  # the tables take turns, as in a room
        for match, ns, _ew, records in work:
            if step < len(records):
                submitted.append(
                    services.submit_hand(
                        match=match,
                        actor=ns,
                        record=records[step],
                        idempotency_key=uuid.uuid4().hex,
                    ).submission
                )
    middle = time.time()
    cpu = (time.process_time() - cpu[0], _cpu_seconds(backend) - cpu[1])
    confirmers = {w[0].pk: w[2] for w in work}
    for submission in submitted:
        services.confirm_hand(
            submission=submission,
            expected_version=submission.version,
            actor=confirmers[submission.hand.match_id],
        )
    out.put((n, len(submitted), start, middle, time.time(), cpu))


def submissions(args) -> dict:
    """Hands submitted by --processes processes at once (each its own tables), then confirmed:
    the rate of each phase over the wall clock of all processes together."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    ready, out, go, lock = ctx.Queue(), ctx.Queue(), ctx.Event(), ctx.Lock()
    per = args.hands // args.processes
    procs = [
        ctx.Process(target=_submitter, args=(args, n, per, lock, ready, go, out))
        for n in range(args.processes)
    ]
    for proc in procs:
        proc.start()
    for _ in procs:
        try:
            ready.get(timeout=300)
        except Exception:
            for proc in procs:
                proc.kill()
            raise SystemExit(
                "a submitting process did not get ready (see its error above)"
            ) from None
    go.set()
    reports = [out.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join()
        if proc.exitcode:
            raise SystemExit(f"a submitting process failed (exit {proc.exitcode})")
    total = sum(r[1] for r in reports)
    submit_wall = max(r[3] for r in reports) - min(r[2] for r in reports)
    confirm_wall = max(r[4] for r in reports) - min(r[3] for r in reports)
    return {
        "total": total,
        "submit_rate": total / submit_wall,
        "confirm_rate": total / confirm_wall,
        # CPU per submission: the submitting processes, and their PostgreSQL backends
        "python_ms": 1000 * sum(r[5][0] for r in reports) / total,
        "postgres_ms": 1000 * sum(r[5][1] for r in reports) / total,
    }


# --- hand submissions over HTTP -------------------------------------------------------------


#: The PIN of the entering side (NS) of each prepared match, by match id: a submission proves
#: its side with it, as a scorer's phone does (tournaments.services.side_pins).
PINS: dict[int, str] = {}


def submission(match_id: int, record: dict) -> dict:
    """The body a scorer's phone sends for `record` at a prepared match."""
    return {"record": record, "side": "NS", "pin": PINS[match_id]}


def prepare_tables(count: int, hands: int) -> list[tuple[int, str, list[dict]]]:
    """`count` matches in play, each with a scorer's table token and its planned hands:
    [(match id, token secret, records)] (the NS PINs in `PINS`)."""
    import random
    import uuid

    from tests.tournaments.builders import make_director, make_match
    from tournaments import services

    rng = random.Random(7)
    director = make_director(f"bench-http-{uuid.uuid4().hex[:8]}")
    tables = []
    for n in range(count):
        match = make_match(director, match_length="director")
        _token, secret = services.issue_table_token(table=match.table, actor=director)
        PINS[match.pk] = match.seats.get(side="NS").entry.pin
        share = hands // count + (n < hands % count)
        tables.append((match.pk, secret, _planned_hands(match, rng, share)))
    return tables


async def http_submissions(port: int, tables: list[tuple[int, str, list[dict]]]) -> dict:
    """Every table at once, each on its own keep-alive connection, submits its hands one after
    another as a scorer's phone would (POST with the table token and an idempotency key)."""
    import json
    import uuid

    latencies: list[float] = []
    firsts: list[float] = []  # each table's first hand: the burst at the start
    failures: list[str] = []

    async def table(match_id: int, secret: str, records: list[dict]) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for record in records:
                body = json.dumps(submission(match_id, record)).encode()
                head = (
                    f"POST /api/v1/matches/{match_id}/hands HTTP/1.1\r\n"
                    "Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    f"Authorization: Table {secret}\r\n"
                    f"Idempotency-Key: {uuid.uuid4().hex}\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n"
                )
                sent = time.perf_counter()
                writer.write(head.encode() + body)
                await writer.drain()
                status = int((await reader.readline()).split()[1])
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode().partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                answer = await reader.readexactly(length)
                latencies.append(time.perf_counter() - sent)
                if record is records[0]:
                    firsts.append(latencies[-1])
                if status != 201:
                    failures.append(f"{status} {answer[:200]!r}")
                    return
        finally:
            writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(table(*t) for t in tables))
    wall = time.perf_counter() - start
    latencies.sort()
    firsts.sort()
    stored = len(latencies) - len(failures)
    return {
        "total": stored,
        "rate": stored / wall,
        "p50": 1000 * latencies[len(latencies) // 2],
        "p99": 1000 * latencies[int(len(latencies) * 0.99)],
        "failures": failures,
        "first_p50": 1000 * firsts[len(firsts) // 2] if firsts else float("nan"),
        "first_max": 1000 * firsts[-1] if firsts else float("nan"),
    }


def _tree(pid: int) -> list[int]:
    """A process and its children (uvicorn's supervisor and workers)."""
    found = [pid]
    for child in Path("/proc").iterdir():
        if child.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (child / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == pid:
                    found.append(int(child.name))
    return found


def _backends(database: str) -> list[int]:
    """PostgreSQL backends connected to the database, but this one's own."""
    import psycopg

    with psycopg.connect(f"{PG}/{database}", autocommit=True) as conn:
        return [
            pid
            for (pid,) in conn.execute(
                "select pid from pg_stat_activity where datname = %s and pid <> pg_backend_pid()",
                [database],
            )
        ]


def _per_worker(port: int) -> list[int]:
    """How many of the established connections to `port` each server process holds (ss -p),
    most first: the kernel hands a new connection to whichever worker accepts first, and the
    split decides how long the busier worker's queue is."""
    if not shutil.which("ss"):
        return []
    out = subprocess.run(
        ["ss", "-tnpH", "state", "established", f"( sport = :{port} )"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    counts: dict[str, int] = {}
    for pid in re.findall(r"pid=(\d+)", out):
        counts[pid] = counts.get(pid, 0) + 1
    return sorted(counts.values(), reverse=True)


def http_phase(args) -> dict:
    """Prepare the tables, start uvicorn (--workers) and post every table's hands at once."""
    log(f"submitting {args.hands} hands over HTTP from {args.tables} tables at once")
    tables = prepare_tables(args.tables, args.hands)
    ours = set(_backends(args.database))  # this process's own connections: not the server's
    server = Uvicorn(args, workers=args.workers)
    try:
        pids = _tree(server.process.pid)
        before = sum(map(_cpu_seconds, pids))
        split: list[list[int]] = []
        sampler = threading.Timer(0.3, lambda: split.append(_per_worker(server.port)))
        sampler.start()
        web = asyncio.run(http_submissions(server.port, tables))
        sampler.cancel()
        # the server's connections (its pools open them as they start and during the run)
        backends = [pid for pid in _backends(args.database) if pid not in ours]
        after = sum(map(_cpu_seconds, pids)), sum(_cpu_seconds(pid) for pid in backends)
    finally:
        server.stop()
    stored = max(web["total"], 1)
    # CPU a submission: uvicorn's processes, and every PostgreSQL backend of the database
    # (their CPU since they started: the pools open their connections during the run).
    web["python_ms"] = 1000 * (after[0] - before) / stored
    web["postgres_ms"] = 1000 * after[1] / stored
    log(
        f"CPU a submission over HTTP: uvicorn {web['python_ms']:.1f} ms, PostgreSQL "
        f"{web['postgres_ms']:.1f} ms (backends {len(backends)})"
    )
    if split and split[0]:
        log(f"connections per uvicorn worker, 0.3 s in: {' / '.join(map(str, split[0]))}")
    log(
        f"every table's first hand (all {len(tables)} sent at once): p50 "
        f"{web['first_p50']:,.0f} ms, slowest {web['first_max']:,.0f} ms"
    )
    if web["failures"]:
        log(f"HTTP submissions refused: {len(web['failures'])}, first {web['failures'][0]}")
    return web


# --- SSE listeners ------------------------------------------------------------------------


async def listeners(port: int, path: str, count: int, publish) -> dict:
    connected = 0
    received: list[float] = []
    ready = asyncio.Event()
    heard = asyncio.Event()
    published_at = [0.0]

    async def one() -> None:
        nonlocal connected
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        try:
            buffer = b""
            while b"retry:" not in buffer:
                chunk = await reader.read(4096)
                if not chunk:
                    return
                buffer += chunk
            connected += 1
            if connected == count:
                ready.set()
            buffer = b""
            while b"event: bench" not in buffer:
                chunk = await reader.read(4096)
                if not chunk:
                    return
                buffer += chunk
            received.append(time.perf_counter() - published_at[0])
            if len(received) == count:
                heard.set()
            await heard.wait()
        finally:
            writer.close()

    tasks = []
    start = time.perf_counter()
    for _ in range(count):
        tasks.append(asyncio.create_task(one()))
        await asyncio.sleep(0.001)  # do not flood the listen backlog
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(ready.wait(), 60)
    connect_time = time.perf_counter() - start
    published_at[0] = time.perf_counter()
    await asyncio.to_thread(publish)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(heard.wait(), 10)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "connected": connected,
        "received": len(received),
        "all_in": max(received) if received else None,
        "p50": sorted(received)[len(received) // 2] if received else None,
        "connect_time": connect_time,
    }


# --- report -------------------------------------------------------------------------------


def row(figure: str, value: str, target: str, ok: bool | None) -> str:
    verdict = "-" if ok is None else ("pass" if ok else "FAIL")
    return f"| {figure:<44} | {value:>22} | {target:<24} | {verdict:<4} |"


def listeners_phase(args, slug: str) -> list[str]:
    """One uvicorn process, --listeners SSE connections, one announcement: the table's rows."""
    # Every listener comes from 127.0.0.1: past the cap of streams a client (issue 30) the
    # server would refuse the rest.
    os.environ.setdefault("STREAMS_PER_CLIENT", str(args.listeners))
    from tournaments.live import events
    from tournaments.models import Tournament

    tid = Tournament.objects.get(slug=slug).pk
    server = Uvicorn(args, workers=1)
    try:
        log(f"opening {args.listeners} SSE listeners on one uvicorn process")
        sse = asyncio.run(
            listeners(
                server.port,
                f"/api/v1/tournaments/{slug}/events",
                args.listeners,
                lambda: events.publish(tid, {"event": "bench", "tournament": tid}),
            )
        )
    finally:
        server.stop()
    delivered = f"{sse['received']:,} of {sse['connected']:,}"
    report.figure(
        bar="SSE listeners on one process that received the event",
        value=sse["received"],
        unit="",
        target=f">= {TARGETS['listeners']:,}",
        ok=sse["received"] >= TARGETS["listeners"],
        command="bench/api.py",
    )
    return [
        row(
            "SSE listeners on one process: event received",
            delivered,
            f">= {TARGETS['listeners']:,}",
            sse["received"] >= TARGETS["listeners"],
        ),
        row(
            "  time for all to receive it (p50)",
            f"{sse['all_in'] or 0:.2f} s ({sse['p50'] or 0:.2f} s)",
            "",
            None,
        ),
        row("  time to open them all", f"{sse['connect_time']:.1f} s", "", None),
    ]


def print_table(args, cores: int | None, load: float, results: list[str]) -> None:
    print(
        f"\nTrickTable API benchmark - {cores} cores, uvicorn, PostgreSQL, Redis "
        f"({'quick' if args.quick else 'full'} run, wrk {args.seconds} s x "
        f"{args.connections} connections; load average {load:.2f} -> "
        f"{os.getloadavg()[0]:.2f})"
    )
    print(row("figure", "measured", "target", None).replace("| -    |", "|      |"))
    print("|" + "-" * 46 + "|" + "-" * 24 + "|" + "-" * 26 + "|------|")
    for line in results:
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 s wrk runs, 200 hands")
    parser.add_argument("--seconds", type=int, default=20, help="seconds per wrk run")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--listeners", type=int, default=1000)
    parser.add_argument("--port", type=int, default=0, help="uvicorn's port (default: any free)")
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="also run the standings GET through nginx as a caching reverse proxy (its cache "
        "honours the answer's Cache-Control: s-maxage; docs/live.md)",
    )
    parser.add_argument("--proxy-port", type=int, default=0, help="nginx's port with --proxy")
    parser.add_argument(
        "--interface",
        choices=["asgi", "wsgi"],
        default="asgi",
        help="the server's application: config.asgi (the deployment) or config.wsgi under "
        "uvicorn's WSGI interface (Django's WSGI handler, for comparison: no event streams)",
    )
    parser.add_argument("--processes", type=int, default=4, help="submitting processes")
    parser.add_argument("--hands", type=int, default=800, help="hands submitted in all")
    parser.add_argument(
        "--tables", type=int, default=64, help="tables submitting over HTTP at once"
    )
    parser.add_argument("--database", default="tricktable_bench")
    parser.add_argument("--fresh", action="store_true", help="drop and recreate the database")
    parser.add_argument(
        "--redis", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/12"
    )
    parser.add_argument(
        "--settings", default="config.settings", help="Django settings for the server"
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="uvicorn worker processes for the HTTP steps"
    )
    parser.add_argument(
        "--only",
        choices=["submissions-http", "standings", "listeners"],
        help="run one part alone: submissions-http is the HTTP submission "
        "phase (64 tables at once), seconds instead of minutes; standings the wrk runs on "
        "the live standings GET (200 and 304); listeners the SSE listeners on one process",
    )
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.hands = 5, 200
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # uvicorn inherits it

    cores = os.cpu_count()
    log(f"preparing {args.database}")
    slug = prepare_database(args)
    if args.only == "submissions-http":
        setup_django(args)
        web = http_phase(args)
        print(
            f"\nTrickTable API benchmark, HTTP submissions only - {cores} cores, uvicorn "
            f"{args.workers} workers, PostgreSQL, Redis; load average {os.getloadavg()[0]:.2f}"
        )
        print(row("figure", "measured", "target", None).replace("| -    |", "|      |"))
        print("|" + "-" * 46 + "|" + "-" * 24 + "|" + "-" * 26 + "|------|")
        ok = web["rate"] >= HTTP_SUBMISSIONS and web["p99"] <= HTTP_P99_MS
        print(
            row(
                f"hand submissions over HTTP, {args.tables} tables",
                f"{web['rate']:,.0f}/s",
                f">= {HTTP_SUBMISSIONS}/s",
                web["rate"] >= HTTP_SUBMISSIONS,
            )
        )
        print(
            row(
                "  over HTTP, p50 / p99 latency",
                f"{web['p50']:,.0f} / {web['p99']:,.0f} ms",
                f"p99 <= {HTTP_P99_MS} ms",
                web["p99"] <= HTTP_P99_MS,
            )
        )
        print(
            row(
                "  CPU a submission: uvicorn / PostgreSQL",
                f"{web['python_ms']:.1f} / {web['postgres_ms']:.1f} ms",
                "",
                None,
            )
        )
        report.figure(
            bar=f"hand submissions/s over HTTP ({args.tables} tables, "
            f"uvicorn {args.workers} workers)",
            value=web["rate"],
            unit="/s",
            target=f">= {HTTP_SUBMISSIONS}/s, p99 <= {HTTP_P99_MS} ms",
            ok=ok,
            shown=f"{web['rate']:,.0f}/s, p50 {web['p50']:,.0f} / p99 {web['p99']:,.0f} ms",
            command="bench/api.py --only submissions-http",
        )
        return
    load = os.getloadavg()[0]
    if args.only == "listeners":
        setup_django(args)
        print_table(args, cores, load, listeners_phase(args, slug))
        return
    path = f"/api/v1/tournaments/{slug}/standings"
    results = []

    server = Uvicorn(args, workers=args.workers)
    try:
        status, headers, body = fetch(server.url(path))
        if status != 200:
            raise SystemExit(f"GET {path}: {status} {body[:200]!r}")
        etag = headers["etag"]
        assert fetch(server.url(path), {"If-None-Match": etag})[0] == 304
        log(f"wrk GET {path} ({len(body)} bytes), {args.seconds} s")
        wrk(server.url(path), 2, args.connections)  # warm both workers' caches
        pids = _tree(server.process.pid)
        get = wrk(server.url(path), args.seconds, args.connections, server=pids)
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
            script.write(f"wrk.headers[\"If-None-Match\"] = '{etag}'\n")
        log("wrk GET with If-None-Match")
        not_modified = wrk(
            server.url(path), args.seconds, args.connections, script.name, server=pids
        )
        proxied = None
        if args.proxy:
            proxy = CachingProxy(server.port, args.proxy_port)
            try:
                log(f"wrk GET {path} through nginx's cache (port {proxy.port})")
                wrk(proxy.url(path), 2, args.connections)
                both = pids + _tree(proxy.process.pid)
                origin = sum(map(_cpu_seconds, pids))
                proxied = wrk(proxy.url(path), args.seconds, args.connections, server=both)
                origin = sum(map(_cpu_seconds, pids)) - origin
                proxied["origin_us"] = 1e6 * origin / max(proxied["answers"], 1)
            finally:
                proxy.stop()
        os.unlink(script.name)
    finally:
        server.stop()
    cheaper = not_modified["cpu_us"] < get["cpu_us"]
    results += [
        row(
            f"standings GET 200, req/s ({args.connections} conns)",
            f"{get['rps']:,.0f}",
            f">= {TARGETS['get_rps']:,} on 2 cores",
            get["rps"] >= TARGETS["get_rps"],
        ),
        row(
            "standings GET 200, p50 / p99 latency",
            f"{get['p50']:.1f} / {get['p99']:.1f} ms",
            f"p99 <= {TARGETS['get_p99_ms']} ms",
            get["p99"] <= TARGETS["get_p99_ms"],
        ),
        row("standings GET 304, req/s", f"{not_modified['rps']:,.0f}", "", None),
        row(
            "standings GET 304, server CPU an answer",
            f"{not_modified['cpu_us']:,.0f} µs (200: {get['cpu_us']:,.0f} µs)",
            "less than a 200's",
            cheaper,
        ),
        row(
            "standings GET 304, p50 / p99 latency",
            f"{not_modified['p50']:.1f} / {not_modified['p99']:.1f} ms",
            f"p99 <= {TARGETS['get_p99_ms']} ms",
            not_modified["p99"] <= TARGETS["get_p99_ms"],
        ),
    ]
    if proxied is not None:
        results += [
            row(
                "standings GET through nginx's cache, req/s",
                f"{proxied['rps']:,.0f}",
                f">= {TARGETS['get_rps']:,} on 2 cores",
                proxied["rps"] >= TARGETS["get_rps"],
            ),
            row(
                "  through nginx's cache, p50 / p99 latency",
                f"{proxied['p50']:.1f} / {proxied['p99']:.1f} ms",
                f"p99 <= {TARGETS['get_p99_ms']} ms",
                proxied["p99"] <= TARGETS["get_p99_ms"],
            ),
            row(
                "  CPU an answer: nginx + servers / servers",
                f"{proxied['cpu_us']:,.0f} / {proxied['origin_us']:,.0f} µs",
                "",
                None,
            ),
        ]
    cmd = "bench/api.py"
    report.figure(
        bar=f"standings GET 200, req/s at {args.connections} connections",
        value=get["rps"],
        unit="req/s",
        target=f">= {TARGETS['get_rps']:,}",
        ok=get["rps"] >= TARGETS["get_rps"],
        command=cmd,
    )
    report.figure(
        bar="standings GET 200, p99 latency",
        value=get["p99"],
        unit="ms",
        target=f"<= {TARGETS['get_p99_ms']} ms",
        ok=get["p99"] <= TARGETS["get_p99_ms"],
        command=cmd,
    )
    # "304 responses cheaper still" (product.md): what a 304 costs the server, against a 200.
    # Their req/s are within a few per cent of each other (each answer is mostly uvicorn's and
    # the cache's work, the same for both), so which is higher is the load's doing.
    report.figure(
        bar="standings GET 304, req/s",
        value=not_modified["rps"],
        unit="req/s",
        note=f"200s: {get['rps']:,.0f} req/s",
        command=cmd,
    )
    report.figure(
        bar="standings GET 304, server CPU an answer",
        value=not_modified["cpu_us"],
        unit="µs",
        target=f"less than a 200's ({get['cpu_us']:,.0f} µs)",
        ok=cheaper,
        command=cmd,
    )
    report.figure(
        bar="standings GET 304, p99 latency",
        value=not_modified["p99"],
        unit="ms",
        target=f"<= {TARGETS['get_p99_ms']} ms",
        ok=not_modified["p99"] <= TARGETS["get_p99_ms"],
        command=cmd,
    )
    for name, run in (("200", get), ("304", not_modified)):
        if run["non2xx"] or run["errors"]:
            log(f"{name}: non-2xx/3xx {run['non2xx']}, socket errors {run['errors']}")
    if args.only == "standings":
        print_table(args, cores, load, results)
        return

    setup_django(args)
    log(f"submitting {args.hands} hands from {args.processes} processes (services, PostgreSQL)")
    sub = submissions(args)
    results += [
        row(
            f"hand submissions/s, {args.processes} processes",
            f"{sub['submit_rate']:,.0f}",
            f">= {TARGETS['submissions']}/s",
            sub["submit_rate"] >= TARGETS["submissions"],
        ),
        row("  then confirmations/s", f"{sub['confirm_rate']:,.0f}", "", None),
        row(
            "  CPU a submission: Python / PostgreSQL",
            f"{sub['python_ms']:.1f} / {sub['postgres_ms']:.1f} ms",
            "",
            None,
        ),
    ]
    report.figure(
        bar=f"hand submissions/s ({args.processes} processes, PostgreSQL)",
        value=sub["submit_rate"],
        unit="/s",
        target=f">= {TARGETS['submissions']}",
        ok=sub["submit_rate"] >= TARGETS["submissions"],
        command=cmd,
    )
    report.figure(
        bar="hand confirmations/s (same processes)",
        value=sub["confirm_rate"],
        unit="/s",
        command=cmd,
    )

    web = http_phase(args)
    results += [
        row(f"  over HTTP, {args.tables} tables at once", f"{web['rate']:,.0f}/s", "", None),
        row(
            "  over HTTP, p50 / p99 latency", f"{web['p50']:,.0f} / {web['p99']:,.0f} ms", "", None
        ),
        row(
            "  over HTTP, CPU each: uvicorn / PostgreSQL",
            f"{web['python_ms']:.1f} / {web['postgres_ms']:.1f} ms",
            "",
            None,
        ),
    ]
    http_ok = web["rate"] >= HTTP_SUBMISSIONS and web["p99"] <= HTTP_P99_MS
    report.figure(
        bar=f"hand submissions/s over HTTP ({args.tables} tables, uvicorn {args.workers} workers)",
        value=web["rate"],
        unit="/s",
        target=f">= {HTTP_SUBMISSIONS}/s, p99 <= {HTTP_P99_MS} ms "
        f"(services alone: {sub['submit_rate']:,.0f}/s this run)",
        ok=http_ok,
        shown=f"{web['rate']:,.0f}/s, p50 {web['p50']:,.0f} / p99 {web['p99']:,.0f} ms",
        command=cmd,
    )

    results += listeners_phase(args, slug)
    print_table(args, cores, load, results)


if __name__ == "__main__":
    main()

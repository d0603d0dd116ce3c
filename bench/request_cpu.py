"""CPU a request costs in Django's ordinary path, measured in one process with no server and no
network client: a figure that depends far less on the machine's load than req/s and latency.

    .venv/bin/python bench/request_cpu.py --database perf_bench --redis redis://127.0.0.1:6379/5

Against a database prepared by `bench/api.py` (the demo loaded, standings snapshots written):

1. **hand submission**: --tables matches with a table token each (as `bench/api.py` prepares
   them), their planned hands posted one table after another through Django's WSGI handler
   (every middleware, DRF, `services.submit_hand`), with the statements of one submission
   counted; the CPU of this process and of its PostgreSQL backend, per submission;
2. **standings GET**: the live standings of the tournament with the most snapshots, answered
   from the cache, through Django's WSGI handler and through `config.asgi.application` (Django's
   ASGI handler, as uvicorn calls it, 16 requests at a time on one event loop): CPU an answer.

The CPU is this process's (`time.process_time()`: every thread) and, for the submission, its
PostgreSQL backend's (/proc); a loaded machine still inflates both (caches, frequency), less
than it inflates wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import secrets
import sys
import time
import uuid
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PG = "postgres://postgres@127.0.0.1:5432"


def environ(method: str, path: str, body: bytes = b"", **headers: str) -> dict:
    """A WSGI environ for a request from 127.0.0.1."""
    env = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
    }
    if body:
        env.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(body)))
    env.update({f"HTTP_{name.upper()}": value for name, value in headers.items()})
    return env


def wsgi_status(app, env: dict) -> str:
    answer: dict[str, str] = {}

    def start(status: str, _headers: list) -> None:
        answer["status"] = status

    b"".join(app(env, start))
    return answer["status"]


def submissions(app, tables: int, profile: str | None = None) -> str:
    from django.db import connection

    from bench.api import _cpu_seconds, prepare_tables, submission

    prepared = prepare_tables(tables, tables * 10)
    jobs = [
        (match, secret, records[step])
        for step in range(10)
        for match, secret, records in prepared
        if step < len(records)
    ]

    def post(match: int, secret: str, record: dict) -> None:
        body = json.dumps(submission(match, record)).encode()
        env = environ(
            "POST",
            f"/api/v1/matches/{match}/hands",
            body,
            authorization=f"Table {secret}",
            idempotency_key=uuid.uuid4().hex,
        )
        status = wsgi_status(app, env)
        if not status.startswith("201"):
            raise SystemExit(f"a submission was answered {status}")

    for job in jobs[:tables]:  # every table's first hand: the match put in play, warm caches
        post(*job)
    jobs = jobs[tables:]
    statements: list[str] = []

    def counted(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        post(*jobs[0])
    jobs = jobs[1:]
    backend = connection.connection.info.backend_pid
    if profile:  # where the time goes (not the figure: the profiler slows everything)
        import cProfile
        import pstats

        profiler = cProfile.Profile(time.process_time)  # CPU, not waiting
        profiler.enable()
        for job in jobs[: len(jobs) // 2]:
            post(*job)
        profiler.disable()
        jobs = jobs[len(jobs) // 2 :]
        with open(profile, "w") as out:
            out.write("statements of one submission:\n" + "\n".join(statements) + "\n\n")
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("cumulative").print_stats(80)
            stats.sort_stats("tottime").print_stats(40)
    python, postgres = time.process_time(), _cpu_seconds(backend)
    for job in jobs:
        post(*job)
    python = 1000 * (time.process_time() - python) / len(jobs)
    postgres = 1000 * (_cpu_seconds(backend) - postgres) / len(jobs)
    return (
        f"hand submission: {len(jobs)} posted, {len(statements)} statements each (but BEGIN/"
        f"COMMIT); CPU a submission: Python {python:.2f} ms, PostgreSQL {postgres:.2f} ms"
    )


def standings(wsgi, count: int) -> str:
    from config.asgi import application
    from tournaments.models import StandingsSnapshot

    snapshot = StandingsSnapshot.objects.select_related("tournament").order_by("-id").first()
    if snapshot is None:
        raise SystemExit("no standings snapshot: run bench/api.py once to load the demo")
    path = f"/api/v1/tournaments/{snapshot.tournament.slug}/standings"

    def get() -> None:
        status = wsgi_status(wsgi, environ("GET", path))
        if not status.startswith("200"):
            raise SystemExit(f"the standings GET was answered {status}")

    async def asgi_get() -> None:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1")],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
        }
        received = False
        sent: list[dict] = []

        async def receive() -> dict:
            nonlocal received
            if not received:
                received = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Event().wait()  # the client never leaves
            return {}

        async def send(message: dict) -> None:
            sent.append(message)

        await application(scope, receive, send)
        if sent[0]["status"] != 200:
            raise SystemExit(f"the standings GET was answered {sent[0]['status']}")

    async def asgi_many(n: int, at_once: int = 16) -> None:
        async def one_client(k: int) -> None:
            for _ in range(k):
                await asgi_get()

        await asyncio.gather(*(one_client(n // at_once) for _ in range(at_once)))

    for _ in range(50):
        get()
    asyncio.run(asgi_many(64))
    start = time.process_time()
    for _ in range(count):
        get()
    wsgi_us = 1e6 * (time.process_time() - start) / count
    start = time.process_time()
    asyncio.run(asgi_many(count))
    asgi_us = 1e6 * (time.process_time() - start) / count
    return (
        f"standings GET (cached): CPU an answer: Django's WSGI handler {wsgi_us:,.0f} µs, "
        f"config.asgi (Django's ASGI handler) {asgi_us:,.0f} µs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="tricktable_bench")
    parser.add_argument(
        "--redis", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/12"
    )
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--answers", type=int, default=1000, help="standings GETs each way")
    parser.add_argument("--only", choices=["submissions", "standings"])
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="write a cProfile of half the submissions (and their statements) to FILE; the "
        "other half gives the CPU figure",
    )
    args = parser.parse_args()
    os.environ.update(
        DATABASE_URL=f"{PG}/{args.database}",
        REDIS_URL=args.redis,
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        ALLOWED_HOSTS="127.0.0.1",
    )
    warnings.simplefilter("ignore")  # (no collected static files here)
    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()
    print(f"load average {os.getloadavg()[0]:.1f}")
    if args.only != "standings":
        print(submissions(app, args.tables, args.profile))
    if args.only != "submissions":
        print(standings(app, args.answers))
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

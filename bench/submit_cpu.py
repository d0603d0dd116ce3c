"""CPU a hand submission costs, fast path off and on, in one process and one run: the ASGI
application uvicorn runs (`config.asgi:application`) called directly from asyncio (no sockets,
no HTTP parsing: the same for both), `--tables` tables at once each posting its hands one after
another with its table token and an idempotency key, in rounds that alternate
SUBMIT_FAST_PATH off (Django's handler on the submission threads, the reference) and on
(`api/fastsubmit.py`). Per round: the process's CPU (`time.process_time`, every thread) and
the CPU of the database's PostgreSQL backends (`/proc`), divided by the hands stored. On a
shared machine the rounds' ratio is the steady figure; wall-clock rates are not printed.

    .venv/bin/python bench/submit_cpu.py --database tt_http3_api --redis redis://127.0.0.1:6379/13

The database is created and migrated if needed (as bench/api.py does); PostgreSQL and Redis
must run locally.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import api  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="tricktable_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--settings", default="config.settings")
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--round", type=int, default=160, help="hands a round")
    parser.add_argument("--rounds", type=int, default=10, help="rounds, off and on alternately")
    parser.add_argument("--fresh", action="store_true")
    args = parser.parse_args()
    api.log(f"preparing {args.database}")
    api.prepare_database(args)
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-" + uuid.uuid4().hex,
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="ERROR",
    )
    api.setup_django(args)
    from django.conf import settings

    from config.asgi import application

    per_table = 8  # a Spades match ends after a dozen hands or so: 8 are always there
    rounds = args.rounds + 1  # one warm-up round
    count = -(-args.round // per_table)
    api.log(f"planning {rounds * count * per_table} hands at {rounds * count} tables")
    planned = api.prepare_tables(rounds * count, rounds * count * per_table)
    ours = set(api._backends(args.database))

    async def post(pk: int, secret: str, record: dict) -> int:
        body = json.dumps(api.submission(pk, record)).encode()
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": f"/api/v1/matches/{pk}/hands",
            "raw_path": f"/api/v1/matches/{pk}/hands".encode(),
            "root_path": "",
            "query_string": b"",
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
            "headers": [
                (b"host", b"127.0.0.1"),
                (b"content-type", b"application/json"),
                (b"authorization", f"Table {secret}".encode()),
                (b"idempotency-key", uuid.uuid4().hex.encode()),
                (b"content-length", str(len(body)).encode()),
            ],
        }
        sent = False
        status = 0

        async def receive() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Event().wait()
            return {}

        async def send(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]

        await application(scope, receive, send)
        return status

    async def one_round(n: int) -> int:
        """Round n's tables, `--tables` at a time, each posting its hands in order."""
        todo = list(planned[n * count : (n + 1) * count])

        async def worker() -> int:
            done = 0
            while todo:
                pk, secret, records = todo.pop()
                for record in records[:per_table]:
                    status = await post(pk, secret, record)
                    if status != 201:
                        raise SystemExit(f"a submission was answered {status}")
                    done += 1
            return done

        return sum(await asyncio.gather(*(worker() for _ in range(args.tables))))

    async def run() -> dict[str, list[tuple[float, float]]]:
        settings.SUBMIT_FAST_PATH = True
        await one_round(args.rounds)  # warm-up (the last tables): pools, caches, imports
        found: dict[str, list[tuple[float, float]]] = {"off": [], "on": []}
        for n in range(args.rounds):
            mode = "on" if n % 2 else "off"
            settings.SUBMIT_FAST_PATH = mode == "on"
            backends = [pid for pid in api._backends(args.database) if pid not in ours]
            before = time.process_time(), sum(map(api._cpu_seconds, backends))
            stored = await one_round(n)
            after = time.process_time(), sum(map(api._cpu_seconds, backends))
            found[mode].append(
                (1000 * (after[0] - before[0]) / stored, 1000 * (after[1] - before[1]) / stored)
            )
            api.log(
                f"round {n + 1} fast path {mode}: Python {found[mode][-1][0]:.2f} ms, "
                f"PostgreSQL {found[mode][-1][1]:.2f} ms a submission"
            )
        return found

    load = os.getloadavg()[0]
    found = asyncio.run(run())
    print(
        f"\nCPU a hand submission, in-process ASGI ({args.tables} tables at once, "
        f"{args.round} hands a round, fast path off / on alternately; load {load:.1f} -> "
        f"{os.getloadavg()[0]:.1f})"
    )
    print("| fast path | Python ms (median, min-max) | PostgreSQL ms (median) |")
    print("|---|---:|---:|")
    for mode in ("off", "on"):
        py = [a for a, _ in found[mode]]
        pg = [b for _, b in found[mode]]
        print(
            f"| {mode} | {statistics.median(py):.2f} ({min(py):.2f}-{max(py):.2f}) | "
            f"{statistics.median(pg):.2f} |"
        )
    ratio = statistics.median(a for a, _ in found["on"]) / statistics.median(
        a for a, _ in found["off"]
    )
    print(f"on / off, Python CPU a submission (medians): {ratio:.2f} x")


if __name__ == "__main__":
    main()

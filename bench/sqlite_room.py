"""SQLite room benchmark: hand submissions over HTTP against the evening server's set-up (uvicorn,
one worker, DEBUG off, an SQLite file in WAL mode, tasks in-process, no Redis), --tables tables
at once, each on its own keep-alive connection: it submits its hands one after another and the
other side confirms each, as scorers' phones would (tests/room.py, which the test
tests/test_sqlite_room.py plays too).

    .venv/bin/python bench/sqlite_room.py            # 40 tables x 10 hands
    .venv/bin/python bench/sqlite_room.py --quick    # 40 tables x 3 hands

Reports submissions/s (hands stored over the wall clock of the whole exchange, confirmations
included), and the p50/p99 latency of a submission. Needs nothing but this machine: the
database is a temporary file, removed at the end. Client and server share this machine's
cores: the figures are for everything on one box.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402
from tests import room, servers  # noqa: E402


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--hands", type=int, default=10, help="hands per table")
    parser.add_argument("--quick", action="store_true", help="3 hands per table")
    args = parser.parse_args()
    if args.quick:
        args.hands = 3
    with tempfile.TemporaryDirectory(prefix="tricktable-bench-sqlite-") as folder:
        database = Path(folder) / "club.sqlite3"
        env = servers.production_env(DATABASE_URL=f"sqlite:///{database}", LOG_LEVEL="WARNING")
        log(f"building 2 rooms of {args.tables} tables x {args.hands} hands in {database}")
        alone = room.prepare(env, tables=args.tables, hands=args.hands)
        built = room.prepare(env, tables=args.tables, hands=args.hands)
        with servers.uvicorn(env, workers=1) as server:
            log(f"{alone.hands} hands from {args.tables} tables at once over HTTP, unconfirmed")
            submitted = room.play(server.url, alone, confirm=False)
            log(f"{built.hands} hands from {args.tables} tables at once, each confirmed")
            played = room.play(server.url, built)
            locked = server.log().count("database is locked")
    problems = submitted.problems + played.problems
    clean = not problems and not locked
    failed = [c for c in submitted.statuses + played.statuses if c >= 500]
    if problems:
        log(f"{len(problems)} problems, first: {problems[0]}")
    cmd = "bench/sqlite_room.py"
    rate = submitted.submitted / submitted.seconds
    p50, p99 = 1000 * submitted.percentile(0.5), 1000 * submitted.percentile(0.99)
    report.figure(
        bar=f"SQLite: hand submissions/s over HTTP ({args.tables} tables at once, "
        "uvicorn 1 worker)",
        value=rate,
        unit="/s",
        command=cmd,
        ok=clean,
        target="every hand stored once, no 'database is locked'",
        shown=f"{rate:,.0f}/s, p50 {p50:,.0f} / p99 {p99:,.0f} ms",
    )
    both = played.confirmed / played.seconds
    b50, b99 = 1000 * played.percentile(0.5), 1000 * played.percentile(0.99)
    report.figure(
        bar="SQLite: hands submitted and confirmed/s over HTTP (same tables)",
        value=both,
        unit="/s",
        command=cmd,
        shown=f"{both:,.0f}/s, p50 {b50:,.0f} / p99 {b99:,.0f} ms",
    )
    print(
        f"\nTrickTable SQLite room - {os.cpu_count()} cores, uvicorn 1 worker, DEBUG off, "
        f"SQLite WAL, no Redis; {args.tables} tables at once, {args.hands} hands each"
    )
    print(
        f"submissions alone:  {submitted.submitted} of {alone.hands} in "
        f"{submitted.seconds:.2f} s = {rate:.1f}/s, latency p50 {p50:.0f} / p99 {p99:.0f} ms"
    )
    print(
        f"submit + confirm:   {played.confirmed} of {built.hands} in {played.seconds:.2f} s = "
        f"{both:.1f} hands/s, submission latency p50 {b50:.0f} / p99 {b99:.0f} ms"
    )
    print(f"5xx answers: {len(failed)}; 'database is locked' in the server log: {locked}")
    if not clean:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

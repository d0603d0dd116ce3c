"""Run every benchmark and print one table of figures against the quality bars (`make bench`).

    .venv/bin/python bench/all.py              # every bench, full size (~22 minutes on 2 cores)
    .venv/bin/python bench/all.py --quick      # smoke sizes (`make bench QUICK=1`)
    .venv/bin/python bench/all.py --only pairing,standings --output bench-results.md

Each bench command runs as a subprocess, one after another, with TRICKTABLE_BENCH_REPORT naming
a file where it appends its figures (bench/report.py). Their progress goes to standard error,
their own tables to a log directory (printed at the end); this command prints one Markdown table:
figure | measured | target | result, headed by the machine (cores, CPU, versions, date).

A bench whose prerequisite is missing (wrk; PostgreSQL or Redis unreachable) is skipped with a
row saying why; a bench that fails does not stop the others, and its missing figures say
"error". Benchmarks are measurements, not tests: the exit status is 0 either way, and the last
line counts the bars missed.

Databases: `<prefix>api`, `<prefix>standings` and `<prefix>scale_<teams>` on --pg (prefix
`tt_bench_` by default), dropped at the end unless --keep-databases. Redis: --redis-url (default
$REDIS_URL, else db 15 on 127.0.0.1); the workers the benches start use private queues.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"


@dataclass
class Bench:
    """One bench command: how to run it, what it needs, and its headline figures: the rows
    shown as "skipped" when it cannot run, and as "error" when it fails or reports nothing
    (a bench that ran to the end is trusted to name its own figures)."""

    name: str
    argv: list[str]
    quick: list[str] = field(default_factory=lambda: ["--quick"])
    needs: tuple[str, ...] = ()
    bars: tuple[str, ...] = ()

    @property
    def command(self) -> str:
        return self.argv[0]


def benches(args: argparse.Namespace) -> list[Bench]:
    prefix, pg, redis = args.database_prefix, args.pg, args.redis_url
    return [
        Bench(
            "rules_engine",
            ["bench/rules_engine.py"],
            bars=(
                "Rules engine: full records, hands/s on one core",
                "Rules engine: summary records, hands/s on one core",
                "Rules engine: memory flat in the number of records (streaming)",
                "Rules engine: check_hands end to end, hands/s",
                "Rules engine vs OpenSpiel's C++ replay (same hands)",
            ),
        ),
        Bench(
            "pairing",
            ["bench/pairing.py"],
            bars=(
                "Pairing: Swiss round of 1,000 entrants (engine), worst round",
                "Pairing: tables of 4 for 256 players, worst round",
                "Pairing: round robin of 1,000, worst round",
            ),
        ),
        Bench(
            "duplicate",
            ["bench/duplicate.py"],
            bars=(
                "Duplicate: 15-table Mitchell, 27 boards a pair, whole event matchpointed "
                "(travellers, cards, rankings)",
                "Duplicate: movements for 15 tables generated",
            ),
        ),
        Bench(
            "knockout",
            ["bench/knockout.py"],
            bars=(
                "Knockout: bracket of 1,024 entries made (engine)",
                "Knockout: bracket of 1,024 entries filled from 1,023 results (engine)",
                "Knockout: first round of 1,024 drawn through the service (SQLite)",
                "Knockout: second round drawn from 512 results (service, SQLite)",
            ),
        ),
        Bench(
            "standings",
            [
                "bench/standings.py",
                "--database-url",
                f"{pg}/{prefix}standings",
                "--redis-url",
                redis,
            ],
            needs=("postgres", "redis"),
            bars=(
                "Standings engine: 1,000 teams x 9 rounds, full recompute",
                "Standings engine: 1,000 x 9 full recompute against a plain-Python recompute "
                "in the same run",
                "Standings service on PostgreSQL: load, compute, write the snapshot (1,000 x 9)",
                "Standings: a confirmed hand -> the worker's new snapshot (1,000 x 9)",
                "Standings: a confirmed hand -> the worker's new snapshot, median (1,000 x 9)",
            ),
        ),
        Bench(
            "ratings",
            ["bench/ratings.py"],
            quick=["--games", "2000", "--repeat", "1"],
            bars=("Ratings: rate() from scratch, 2v2, games/s",),
        ),
        Bench(
            "api",
            ["bench/api.py", "--database", f"{prefix}api", "--redis", redis],
            needs=("wrk", "postgres", "redis"),
            bars=(
                "standings GET 200, req/s at 64 connections",
                "standings GET 200, p99 latency",
                "standings GET 304, server CPU an answer",
                "standings GET 304, p99 latency",
                "hand submissions/s (4 processes, PostgreSQL)",
                "hand submissions/s over HTTP (64 tables, uvicorn 2 workers)",
                "SSE listeners on one process that received the event",
            ),
        ),
        Bench(
            "sqlite_room",
            ["bench/sqlite_room.py"],
            bars=(
                "SQLite: hand submissions/s over HTTP (40 tables at once, uvicorn 1 worker)",
                "SQLite: hands submitted and confirmed/s over HTTP (same tables)",
            ),
        ),
        Bench(
            "table_cards",
            ["bench/table_cards.py"],
            bars=("Table-card PDF for 100 tables (through the view)",),
        ),
        Bench(
            "xlsx_parts",
            ["bench/xlsx_parts.py"],
            quick=["--runs", "1"],
            bars=(
                "XLSX entries import, sheet, shared strings and styles all at their caps",
                "XLSX entries import, the finding: 3.6 MiB styles part",
            ),
        ),
        Bench(
            "scoring_ready",
            ["bench/scoring_ready.py"],
            quick=["--runs", "3"],
            bars=(
                "Scoring page ready to take a hand, evening server (cold)",
                "Scoring page ready to take a hand, evening server (reload)",
            ),
        ),
        Bench(
            "scale",
            [
                "bench/scale.py",
                "--pg",
                pg,
                "--database-prefix",
                f"{prefix}scale_",
                "--redis-url",
                redis,
            ],
            needs=("postgres", "redis"),
            bars=(
                "Scale: Swiss round through the service (generate_round), worst round",
                "Scale: standings snapshot after the round's last confirmation, worst lag",
                "Scale: hand submissions/s through the services (largest size)",
            ),
        ),
        Bench(
            "publishing",
            ["bench/publishing.py", "--database-url", f"{pg}/{prefix}site", "--redis-url", redis],
            needs=("wrk", "postgres", "redis"),
            bars=(
                "Publishing: round closed on the laptop -> on the site (online)",
                "Publishing: laptop back online -> round on the site",
                "Publishing: clubs publishing at once, all done (first publish)",
                "Publishing: clubs publishing at once, all done (again, unchanged)",
                "Publishing: readers of the standings through the proxy (ETag), p99",
            ),
        ),
        Bench(
            "clubs",
            ["bench/clubs.py", "--database-url", f"{pg}/{prefix}clubs", "--redis-url", redis],
            needs=("wrk", "postgres", "redis"),
            bars=tuple(
                f"Clubs: a quiet club's {page} page while another is busy, p99"
                for page in ("home", "event", "standings")
            ),
        ),
    ]


# -- prerequisites --------------------------------------------------------------------------------


def missing(args: argparse.Namespace) -> dict[str, str]:
    """Why each prerequisite is unavailable, in a few words ({} when all are there); the
    details go to standard error."""
    why: dict[str, str] = {}
    if shutil.which("wrk") is None:
        why["wrk"] = "wrk not installed"
        log("wrk not installed (apt-get install -y wrk): the API bench is skipped")
    try:
        import psycopg

        psycopg.connect(f"{args.pg}/postgres", connect_timeout=3).close()
    except Exception as error:
        why["postgres"] = "PostgreSQL unreachable"
        log(f"PostgreSQL unreachable at {args.pg}: {error}")
    try:
        import redis

        redis.Redis.from_url(args.redis_url, socket_timeout=3, socket_connect_timeout=3).ping()
    except Exception as error:
        why["redis"] = "Redis unreachable"
        log(f"Redis unreachable at {args.redis_url}: {error}")
    return why


# -- running --------------------------------------------------------------------------------------


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def run(bench: Bench, argv: list[str], report_file: Path, logs: Path) -> tuple[int, str, float]:
    """Run one bench: its stderr echoed (and its tail kept), its stdout into the log
    directory. Returns (exit code, the stderr line that says why it failed, seconds)."""
    env = dict(os.environ, **{report.ENV: str(report_file)}, PYTHONUNBUFFERED="1")
    tail: deque[str] = deque(maxlen=40)
    start = time.perf_counter()
    with (
        (logs / f"{bench.name}.out").open("w") as out,
        (logs / f"{bench.name}.err").open("w") as err,
    ):
        proc = subprocess.Popen(
            [sys.executable, *argv],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        for line in proc.stderr:
            err.write(line)
            print(f"  {bench.name}: {line.rstrip()}", file=sys.stderr, flush=True)
            tail.append(line)
        code = proc.wait()
    return code, report.why_failed(list(tail)), time.perf_counter() - start


def drop_databases(args: argparse.Namespace) -> None:
    """Drop the databases this run used (the scale bench drops its own as it goes)."""
    try:
        import psycopg

        with psycopg.connect(f"{args.pg}/postgres", autocommit=True, connect_timeout=3) as conn:
            names = [
                r[0]
                for r in conn.execute(
                    "select datname from pg_database where datname = any(%s)",
                    [[f"{args.database_prefix}api", f"{args.database_prefix}standings"]],
                )
            ]
            for name in names:
                conn.execute(f'drop database "{name}" with (force)')
        if names:
            log(f"dropped {', '.join(names)}")
    except Exception as error:
        log(f"could not drop the bench databases: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke sizes for every bench")
    parser.add_argument("--only", help="comma-separated bench names (default: all)")
    parser.add_argument("--output", type=Path, help="also write the table to this file")
    parser.add_argument("--pg", default=PG, help="PostgreSQL server URL (no database name)")
    parser.add_argument("--database-prefix", default="tt_bench_")
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
    )
    parser.add_argument("--keep-databases", action="store_true")
    parser.add_argument(
        "--note",
        default="",
        help="a line under the machine line (e.g. 'measured while other work ran')",
    )
    args = parser.parse_args()
    chosen = benches(args)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {b.name for b in chosen}
        if unknown:
            parser.error(f"no bench named {', '.join(sorted(unknown))}")
        chosen = [b for b in chosen if b.name in wanted]
    absent = missing(args)
    info = report.machine(f"{args.pg}/postgres", args.redis_url)
    logs = Path(tempfile.mkdtemp(prefix=f"tricktable-bench-{datetime.now():%Y%m%d-%H%M}-"))
    report_file = logs / "figures.jsonl"
    rows: list[report.Row] = []
    timings: list[str] = []
    start = time.perf_counter()
    for n, bench in enumerate(chosen, 1):
        argv = bench.argv + (bench.quick if args.quick else [])
        lacking = [absent[need] for need in bench.needs if need in absent]
        if lacking and bench.name == "standings":  # the pure engine needs nothing
            argv = [bench.argv[0], "--engine-only"] + (bench.quick if args.quick else [])
        elif lacking:
            log(f"{n}/{len(chosen)} {bench.name}: skipped ({', '.join(lacking)})")
            rows += [report.Row.skipped(bar, lacking[0], bench.command) for bar in bench.bars]
            timings.append(f"{bench.name} skipped")
            continue
        load = os.getloadavg()[0]
        log(f"{n}/{len(chosen)} {bench.name}: {' '.join(argv)}")
        before = len(report.read(report_file))
        code, last, seconds = run(bench, argv, report_file, logs)
        got = report.read(report_file)[before:]
        if lacking:  # standings without its database figures
            got = [
                r
                if r.status != "skipped: --engine-only"
                else report.Row.skipped(r.bar, lacking[0], r.command)
                for r in got
            ]
        rows += got
        if code or not got:  # a bench that ran to the end names its own figures
            reported = {r.bar for r in got}
            why = f"exit {code}: {last[:100]}" if code else "no figures reported"
            rows += [
                report.Row.error(bar, why, bench.command)
                for bar in bench.bars
                if bar not in reported
            ]
        timings.append(
            f"{bench.name} {seconds:.0f} s (load {load:.1f})" + (f" exit {code}" if code else "")
        )
        log(f"{bench.name}: {'failed, ' if code else ''}{len(got)} figures in {seconds:.0f} s")
    if not args.keep_databases and "postgres" not in absent:
        drop_databases(args)
    info["load_end"] = round(os.getloadavg()[0], 2)
    title = "TrickTable benchmarks" + (" (quick)" if args.quick else "")
    text = report.table(rows, info, title=title, note=args.note)
    extra = [
        f"Run (seconds, and the 1-min load average as each bench started): "
        f"{', '.join(timings)}; {time.perf_counter() - start:.0f} s in all. Each bench's "
        f"own output: {logs}"
    ]
    failed = report.failures(rows)
    errors = sum(1 for r in rows if r.status.startswith("error"))
    skipped = sum(1 for r in rows if r.status.startswith("skipped"))
    judged = sum(1 for r in rows if not r.status and r.ok is not None)
    summary = (
        f"{failed} of {judged} bars missed"
        + (f", {errors} errors" if errors else "")
        + (f", {skipped} skipped" if skipped else "")
    )
    output = "\n".join([text, "", *extra, "", summary])
    print(output)
    if args.output:
        args.output.write_text(output + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

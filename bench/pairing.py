"""Pairing-engine benchmark: whole simulated events with random results, timed round by round.

Run from the repository root:

    .venv/bin/python bench/pairing.py            # the full set (~7 s on 2 cores)
    .venv/bin/python bench/pairing.py --quick    # fewer rounds, a smoke run (~4 s)
    .venv/bin/python bench/pairing.py --json     # the same figures as JSON
    .venv/bin/python bench/pairing.py --seed 7

Each line simulates one event with `tournaments.pairing.simulate` (random results, the stronger
tend to win; a Swiss event of N gets N/50 + 1 late entries before round 2 and N/50 withdrawals
after round 1, so from round 2 the count is odd and there is a bye),
times every round's pairing call with time.perf_counter (wall) and time.process_time (CPU), and
reports the worst and median round, and the repeated meetings the draws made. Not pinned to a
core; the machine's core count and load average are printed, since other work on the machine
shows in the wall figures. See docs/pairing.md for what each engine does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tournaments.pairing import round_robin, round_robin_rounds  # noqa: E402
from tournaments.pairing.simulate import (  # noqa: E402
    RoundReport,
    progressive_event,
    swiss_event,
    tables_event,
)

TARGET_SECONDS = 2.0  # product.md, "Quality bars"
AIM_SECONDS = 0.5  # the Swiss engine's own aim for 1,000 entrants
RR_TARGET = 0.05  # "round robin instant": one round of 1,000 in under 50 ms


#: "20 % of them sharing ten affiliations" (issue 17): the share of entrants in a club, and the
#: number of clubs.
CLUBS = (0.2, 10)


def kept_apart_made(reports: list[RoundReport]) -> int:
    """Pairs to be kept apart that the draws put together, over the event."""
    return sum(report.draw.apart for report in reports)


def kept_apart_row(name: str, reports: list[RoundReport]) -> dict:
    """A row of an event with clubs: it passes only if no clubmates met (with ten clubs of
    about twenty in a large field, keeping them apart is always possible)."""
    made = kept_apart_made(reports)
    row = event_row(name, reports, TARGET_SECONDS, f"clubmates met: {made}")
    row["pass"] = row["pass"] and made == 0
    return row


def partner_repeats(reports: list[RoundReport]) -> int:
    seen: set[frozenset[int]] = set()
    again = 0
    for report in reports:
        for n, e, s, w in report.draw.tables:
            for pair in (frozenset((n, s)), frozenset((e, w))):
                again += pair in seen
                seen.add(pair)
    return again


def event_row(name: str, reports: list[RoundReport], target: float, extra: str = "") -> dict:
    wall = [r.seconds for r in reports]
    cpu = [r.cpu_seconds for r in reports]
    repeats = sum(r.draw.repeats for r in reports)
    worst = max(wall)
    return {
        "name": name,
        "rounds": len(reports),
        "worst_s": worst,
        "median_s": statistics.median(wall),
        "worst_cpu_s": max(cpu),
        "repeats": repeats,
        "target": f"worst <= {target:g} s, 0 repeats",
        "pass": worst <= target and repeats == 0,
        "extra": extra,
    }


def round_robin_row(n: int, rounds: int | None) -> dict:
    ids = list(range(1, n + 1))
    total = round_robin_rounds(n)
    numbers = range(1, (rounds or total) + 1)
    times = []
    start = time.perf_counter()
    for r in numbers:
        t0 = time.perf_counter()
        round_robin(ids, r)
        times.append(time.perf_counter() - t0)
    whole = time.perf_counter() - start
    worst = max(times)
    return {
        "name": f"round robin {n:,}",
        "rounds": len(times),
        "worst_s": worst,
        "median_s": statistics.median(times),
        "worst_cpu_s": None,
        "repeats": 0,
        "target": f"worst <= {RR_TARGET * 1000:g} ms",
        "pass": worst <= RR_TARGET,
        "extra": f"all {len(times)} rounds in {whole:.2f} s",
    }


#: The rows bench/all.py's table shows, by their name here, and the figure's name there.
REPORTED = {
    "Swiss 1,000": "Pairing: Swiss round of 1,000 entrants (engine), worst round",
    "Swiss 1,000 kept apart": "Pairing: Swiss round of 1,000, 20 % in ten clubs kept apart, "
    "worst round",
    "tables of 4, 256": "Pairing: tables of 4 for 256 players, worst round",
    "tables of 3, 255": "Pairing: tables of 3 for 255 players, worst round",
    "progressive 256": "Pairing: progressive partnerships for 256, worst round",
    "round robin 1,000": "Pairing: round robin of 1,000, worst round",
}


def emit(rows: list[dict]) -> None:
    """The figures for bench/all.py's table (bench/report.py; nothing unless it asks)."""
    from bench import report

    for row in rows:
        if row["name"] in REPORTED:
            shown = (
                f"{report.format_value(row['worst_s'], 's')} ({row['rounds']} rounds, "
                f"{row['repeats']} repeats)"
            )
            report.figure(
                bar=REPORTED[row["name"]],
                value=row["worst_s"],
                unit="s",
                target=row["target"],
                ok=row["pass"],
                shown=shown,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds: a smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seed = args.seed
    swiss_rounds = 4 if args.quick else 9
    table_rounds = 4 if args.quick else 7

    def progress(text: str) -> None:
        print(f"... {text}", file=sys.stderr, flush=True)

    rows = []
    for n in (100, 250, 500, 1000):
        progress(f"Swiss {n} x {swiss_rounds} rounds")
        reports = swiss_event(n, swiss_rounds, seed=seed, late=n // 50 + 1, withdraw=n // 50)
        row = event_row(f"Swiss {n:,}", reports, TARGET_SECONDS)
        if n == 1000:
            met = "met" if row["worst_s"] <= AIM_SECONDS else "missed"
            row["extra"] = f"aim: worst <= {AIM_SECONDS:g} s ({met})"
        rows.append(row)
    progress(f"Swiss 1000 x {swiss_rounds} rounds, 20 % in ten clubs kept apart")
    reports = swiss_event(1000, swiss_rounds, seed=seed, late=21, withdraw=20, clubs=CLUBS)
    rows.append(kept_apart_row("Swiss 1,000 kept apart", reports))
    for size, n in ((4, 256), (3, 255)):
        progress(f"tables of {size}, {n} players x {table_rounds} rounds")
        reports = tables_event(n, table_rounds, size=size, seed=seed)
        rows.append(event_row(f"tables of {size}, {n}", reports, TARGET_SECONDS))
    progress(f"tables of 4, 256 players x {table_rounds} rounds, clubs kept apart")
    reports = tables_event(256, table_rounds, size=4, seed=seed, clubs=CLUBS)
    rows.append(kept_apart_row("tables of 4, 256 kept apart", reports))
    progress(f"progressive 256 x {table_rounds} rounds, clubs kept apart")
    reports = progressive_event(256, table_rounds, seed=seed, clubs=CLUBS)
    rows.append(kept_apart_row("progressive 256 kept apart", reports))
    progress(f"progressive 256 x {table_rounds} rounds")
    reports = progressive_event(256, table_rounds, seed=seed)
    again = partner_repeats(reports)
    row = event_row("progressive 256", reports, TARGET_SECONDS, f"partners again: {again}")
    row["pass"] = row["pass"] and again == 0
    rows.append(row)
    progress("round robin 1,000")
    rows.append(round_robin_row(1000, 50 if args.quick else None))

    cores = os.cpu_count()
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        usable = cores
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    machine = {
        "cores": cores,
        "usable_cores": usable,
        "load_average_1m": round(load[0], 2),
        "python": sys.version.split()[0],
        "seed": seed,
        "quick": args.quick,
    }
    emit(rows)
    if args.json:
        print(json.dumps({"machine": machine, "rows": rows}, indent=2))
        return
    print(
        f"TrickTable pairing benchmark (seed {seed}{', quick' if args.quick else ''}): "
        f"{cores} cores ({usable} usable), load average {load[0]:.2f}, Python {machine['python']}"
    )
    head = (
        f"{'measurement':<28} {'rounds':>6} {'worst s':>8} {'median s':>9} {'worst CPU':>9} "
        f"{'repeats':>7}  {'target':<28} {'result':<6} notes"
    )
    print(head)
    print("-" * len(head))
    for row in rows:
        cpu = f"{row['worst_cpu_s']:.3f}" if row["worst_cpu_s"] is not None else "-"
        print(
            f"{row['name']:<28} {row['rounds']:>6} {row['worst_s']:>8.3f} {row['median_s']:>9.3f} "
            f"{cpu:>9} {row['repeats']:>7}  {row['target']:<28} "
            f"{'pass' if row['pass'] else 'FAIL':<6} {row['extra']}"
        )
    print("-" * len(head))
    print(
        "worst/median: wall seconds of one round's pairing call; worst CPU: process time of the\n"
        "slowest round; repeats: rematches (Swiss) or repeated table meetings over the event."
    )


if __name__ == "__main__":
    main()

"""Duplicate-engine benchmark: a whole 15-table Mitchell evening compared, and the movements
for 15 tables generated.

Run from the repository root:

    .venv/bin/python bench/duplicate.py            # 30 repeats of each measurement
    .venv/bin/python bench/duplicate.py --quick    # 5 repeats, a smoke run
    .venv/bin/python bench/duplicate.py --json     # the same figures as JSON

(a) The comparison engine (tournaments.duplicate.score_event) recomputes a whole event from its
results: a 15-table Mitchell of 9 rounds of 3 boards (27 boards for every pair, 405 table
results, each board played 9 times; simulated Spades scores), by matchpoints (with travellers,
personal score cards and the NS and EW rankings), cross-IMPs and Butler. For the record, no bar:
the same 405 results as Spades summary records scored through board_score (the rules engine).
(b) Movements for 15 tables: Mitchell 15 tables, 14 tables with a skip and with a relay, a
barometer of 15 tables (29 rounds), and the complete Howells for 2..8 tables with their offset
search (the cache cleared first).

Pinned to one core when the OS allows; time.perf_counter (wall) and time.process_time (CPU) per
repeat. The bar (50 ms each, issue 16) is judged on the worst repeat's CPU time and the median
wall time: on a shared machine the worst wall time includes time other processes held the core
(the load average is printed). See docs/duplicate.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402
from games.simulate.spades import random_hand, to_summary  # noqa: E402
from tournaments.duplicate.engine import (  # noqa: E402
    SPADES_IMPS,
    barometer,
    board_score,
    howell,
    mitchell,
    score_event,
)
from tournaments.duplicate.engine.movements import HOWELL_TABLES, _howell_offsets  # noqa: E402
from tournaments.duplicate.engine.simulate import simulated_results  # noqa: E402

TARGET_SECONDS = 0.05  # issue 16: 50 ms for the comparison engine, 50 ms for the movements
TABLES, ROUNDS, PER_ROUND = 15, 9, 3

#: The rows bench/all.py's table shows, by their name here, and the figure's name there.
REPORTED = {
    "compare matchpoints": "Duplicate: 15-table Mitchell, 27 boards a pair, whole event "
    "matchpointed (travellers, cards, rankings)",
    "compare cross-imps": "Duplicate: 15-table Mitchell, 27 boards a pair, cross-IMPs",
    "compare butler": "Duplicate: 15-table Mitchell, 27 boards a pair, Butler",
    "movements 15": "Duplicate: movements for 15 tables generated",
}


def movements_15() -> None:
    _howell_offsets.cache_clear()
    mitchell(15)
    mitchell(14, even="skip")
    mitchell(14, even="relay")
    barometer(15)
    for tables in HOWELL_TABLES:
        howell(tables)


def summary_records(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        record = to_summary(random_hand(rng, "standard", dealer="NESW"[k % 4]))
        out.append({key: record[key] for key in ("dealer", "calls", "tricks")})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 repeats: a smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    repeat = 5 if args.quick else 30
    pinned = report.pin_to_one_core()

    movement = mitchell(TABLES, rounds=ROUNDS)
    results = simulated_results(movement, PER_ROUND, seed=args.seed)
    rows = []
    for method in ("matchpoints", "cross-imps", "butler"):
        print(f"... {method}: {len(results)} results x {repeat}", file=sys.stderr, flush=True)
        wall, cpu = report.timed(
            lambda m=method: score_event(
                results=results, method=m, fields=movement.fields, scale=SPADES_IMPS
            ),
            repeat,
        )
        rows.append(
            report.timing_row(
                f"compare {method}",
                wall,
                cpu,
                TARGET_SECONDS,
                f"{len(results)} results, {TABLES * 2} pairs",
            )
        )
    print("... movements for 15 tables", file=sys.stderr, flush=True)
    wall, cpu = report.timed(movements_15, repeat)
    rows.append(
        report.timing_row(
            "movements 15",
            wall,
            cpu,
            TARGET_SECONDS,
            "Mitchell 15, 14 skip, 14 relay, barometer 15, Howell 2-8 (search uncached)",
        )
    )
    print("... board_score of 405 Spades summary records", file=sys.stderr, flush=True)
    records = summary_records(len(results), args.seed)
    wall, cpu = report.timed(
        lambda: [
            board_score(game="spades", rules="standard", record=r, board_scoring="cga")
            for r in records
        ],
        max(1, repeat // 5),
    )
    rows.append(
        report.timing_row(
            "board_score 405 records",
            wall,
            cpu,
            None,
            "rules engine check + cga scoring, for the record",
        )
    )

    report.emit_timings(rows, REPORTED)
    report.print_timings(
        f"TrickTable duplicate benchmark (seed {args.seed}{', quick' if args.quick else ''})",
        rows,
        pinned=pinned,
        facts={"seed": args.seed, "quick": args.quick},
        as_json=args.json,
    )


if __name__ == "__main__":
    main()

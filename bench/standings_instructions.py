"""Instructions per call of the standings engine and of the plain recompute (issue 18), counted
by valgrind's callgrind: load-independent, unlike wall time on a shared machine.

    .venv/bin/python bench/standings_instructions.py               # engine and plain, K = 5
    .venv/bin/python bench/standings_instructions.py --calls 3 engine aggregates

Each figure runs the program twice under callgrind (PYTHONHASHSEED=0, the 1,000 x 9 event of
bench/standings.py, seed 2026): once with the setup only (imports, the synthetic event, one
Aggregates for the `strength` part), once with the setup and K calls; the difference over K is
one call. Parts: `engine` (compute, the default chain), `plain` (plain_recompute),
`aggregates` (Aggregates alone), `strength`
(metrics.opponent_strength alone). Needs valgrind; about 20 s per run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("engine", "plain", "aggregates", "strength")


def child(part: str, calls: int) -> None:
    """Build the event, then call `part` `calls` times (run under callgrind)."""
    sys.path.insert(0, str(ROOT))
    from bench.standings import plain_recompute, synthetic_swiss
    from tournaments.standings import DEFAULT_TIEBREAKS, Aggregates, compute
    from tournaments.standings.metrics import opponent_strength

    people, results = synthetic_swiss(1_000, 9, 2026)
    agg = Aggregates(people, results)

    def aggregates() -> None:
        Aggregates(people, results)

    def strength() -> None:
        agg.cache.clear()
        opponent_strength(agg)

    fn = {
        "engine": lambda: compute(people, results, tiebreaks=DEFAULT_TIEBREAKS),
        "plain": lambda: plain_recompute(people, results),
        "aggregates": aggregates,
        "strength": strength,
    }[part]
    for _ in range(calls):
        fn()


def instructions(part: str, calls: int) -> int:
    """Total instructions of the child run with `calls` calls of `part`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--child",
                part,
                "--calls",
                str(calls),
            ],
            cwd=ROOT,
            env=dict(os.environ, PYTHONHASHSEED="0"),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("callgrind wrote no total")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "parts",
        nargs="*",
        metavar="part",
        help=f"any of {', '.join(PARTS)} (default: engine plain)",
    )
    parser.add_argument("--calls", type=int, default=5, help="K calls per measured run")
    parser.add_argument("--child", choices=PARTS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.calls)
        return
    parts = args.parts or ["engine", "plain"]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"unknown part {unknown[0]!r} (known: {', '.join(PARTS)})")
    per_call = {}
    for part in parts:
        setup = instructions(part, 0)
        per_call[part] = (instructions(part, args.calls) - setup) / args.calls
        print(
            f"{part:<11} {per_call[part] / 1e6:8.1f} M instructions per call "
            f"(setup {setup / 1e6:.0f} M, K = {args.calls})",
            flush=True,
        )
    if "engine" in per_call and "plain" in per_call:
        print(f"engine / plain {per_call['engine'] / per_call['plain']:.2f} x (bar: <= 2 x)")


if __name__ == "__main__":
    main()

"""Per-hand instruction counts of the rules engine, for callgrind on a loaded machine.

Loads the first 2,100 cached bench hands (bench/rules_engine.py makes them), checks 100 as a
warm-up, then K more; the instructions a hand are (run with K - run with 0) / K:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/a.cg .venv/bin/python \\
        bench/rules_callgrind.py summary 0
    valgrind --tool=callgrind --callgrind-out-file=/tmp/b.cg .venv/bin/python \\
        bench/rules_callgrind.py summary 2000
    # totals: the `totals:` line of each file; also `full 0` / `full 500`
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.rules_engine import DEFAULT_CACHE, hands_file  # noqa: E402
from games.records import check_record  # noqa: E402
from games.simulate.spades import to_summary  # noqa: E402


def main() -> None:
    mode, k = sys.argv[1], int(sys.argv[2])
    path = hands_file(DEFAULT_CACHE, 100_000, 2026)
    with path.open() as f:
        records = [json.loads(line) for _, line in zip(range(2100), f, strict=False)]
    data = [to_summary(r) for r in records] if mode == "summary" else records
    for record in data[2000:2100]:
        check_record(record)
    for record in data[:k]:
        check_record(record)


if __name__ == "__main__":
    main()

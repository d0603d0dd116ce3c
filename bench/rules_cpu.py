"""The rules engine against OpenSpiel in CPU time, for a loaded machine.

`time.process_time` is disturbed far less than wall time by other work on the same cores (a
nice'd wall-clock run of bench/rules_engine.py swings by 15 % between identical runs at a load
of 2-3). On the first 20,000 cached bench hands (bench/rules_engine.py makes them): OpenSpiel's
checked replay and `check_record` on the hands both accept (chosen as bench/rules_engine.py
chooses them), then `check_record` on all the full records and on their summary records; each
best of 7, the four measured in turn. Needs pyspiel (make openspiel). From the repository root:

    .venv/bin/python bench/rules_cpu.py
    TRICKTABLE_ACCEL=off .venv/bin/python bench/rules_cpu.py   # the pure engine, where built
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from bench.rules_engine import DEFAULT_CACHE, hands_file, openspiel_actions  # noqa: E402
from games.records import check_record  # noqa: E402
from games.simulate.spades import to_summary  # noqa: E402


def main() -> None:
    path = hands_file(DEFAULT_CACHE, 100_000, 2026)
    with path.open() as f:
        records = [json.loads(line) for _, line in zip(range(20_000), f, strict=False)]
    summaries = [to_summary(r) for r in records]
    game, pairs = openspiel_actions(records)
    sequences = [actions for _, actions in pairs]
    accepted = [record for record, _ in pairs]

    def openspiel() -> None:
        new = game.new_initial_state
        for actions in sequences:
            apply = new().apply_action_with_legality_check
            for a in actions:
                apply(a)

    def check(batch: list[dict]) -> Callable[[], None]:
        def run() -> None:
            for record in batch:
                check_record(record)

        return run

    runs = {
        "openspiel": openspiel,
        "accepted": check(accepted),
        "full": check(records),
        "summary": check(summaries),
    }
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(7):
        for name, run in runs.items():
            start = time.process_time()
            run()
            best[name] = min(best[name], time.process_time() - start)
    k, n = len(pairs), len(records)
    print(
        f"{k:,} hands both accept: OpenSpiel {k / best['openspiel']:,.0f}/s, TrickTable "
        f"{k / best['accepted']:,.0f}/s, TrickTable / OpenSpiel "
        f"{best['openspiel'] / best['accepted']:.2f}; full records {n / best['full']:,.0f}/s, "
        f"summary records {n / best['summary']:,.0f}/s (CPU time, best of 7; "
        f"{games.ENGINE.engine} engine)"
    )


if __name__ == "__main__":
    main()

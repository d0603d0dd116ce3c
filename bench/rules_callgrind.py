"""Per-hand instruction counts of the rules engine, for callgrind on a loaded machine.

Loads the first 2,100 cached bench hands (bench/rules_engine.py makes them), checks 100 as a
warm-up, then K more; the instructions a hand are (run with K - run with 0) / K:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/a.cg .venv/bin/python \\
        bench/rules_callgrind.py summary 0
    valgrind --tool=callgrind --callgrind-out-file=/tmp/b.cg .venv/bin/python \\
        bench/rules_callgrind.py summary 2000
    # totals: the `totals:` line of each file; also `full 0` / `full 500`

`openspiel K` and `accepted K` compare with OpenSpiel in instructions, which a loaded machine
does not disturb: both load the first 6,000 hands and keep those OpenSpiel accepts (as
bench/rules_engine.py does, about 650), then `openspiel` replays K of them with OpenSpiel's
checked replay and `accepted` checks the same K with `check_record`; `openspiel 0` is the
set-up of both. TrickTable / OpenSpiel speed = OpenSpiel's instructions a hand / ours.
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


def against_openspiel(mode: str, k: int) -> None:
    from bench.rules_engine import openspiel_actions

    path = hands_file(DEFAULT_CACHE, 100_000, 2026)
    with path.open() as f:
        records = [json.loads(line) for _, line in zip(range(6000), f, strict=False)]
    game, accepted = openspiel_actions(records)
    for record, actions in accepted[:20]:  # warm-up, both sides
        check_record(record)
        state = game.new_initial_state()
        for a in actions:
            state.apply_action_with_legality_check(a)
    if mode == "openspiel":
        for _, actions in accepted[:k]:
            state = game.new_initial_state()
            apply = state.apply_action_with_legality_check
            for a in actions:
                apply(a)
    else:
        for record, _ in accepted[:k]:
            check_record(record)


def main() -> None:
    mode, k = sys.argv[1], int(sys.argv[2])
    if mode in ("openspiel", "accepted"):
        return against_openspiel(mode, k)
    path = hands_file(DEFAULT_CACHE, 100_000, 2026)
    with path.open() as f:
        records = [json.loads(line) for _, line in zip(range(2100), f, strict=False)]
    data = [to_summary(r) for r in records] if mode == "summary" else records
    for record in data[2000:2100]:
        check_record(record)
    for record in data[:k]:
        check_record(record)
    return None


if __name__ == "__main__":
    main()

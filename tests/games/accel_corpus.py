"""The records tests/games/test_accel.py checks with both engines: every preset's random legal
hands, their summary records, the same hands bent (a field replaced by a hostile value or
removed, a card named twice, a state before the hand), and Spades matches. Deterministic for a
given size.

Run as a script, it checks each record and prints one line per record (the repr of the answer:
notes with their codes and parameters, dicts in their order) after a first line naming the
engine, for the test to compare byte for byte:

    TRICKTABLE_ACCEL=off .venv/bin/python tests/games/accel_corpus.py 40
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from games.fuzzing import PRESETS, legal_hand, paths, removed, replaced, with_duplicate_card  # noqa: E402
from games.records import check_record  # noqa: E402
from games.simulate.spades import random_match, to_summary  # noqa: E402

#: What a scorer's phone, a bad import or a hostile client might put in any field.
HOSTILE: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    13,
    14,
    1.5,
    2**70,
    -(2**70),
    "",
    "x",
    "AS",
    "10H",
    "BJ",
    "nil",
    "13",
    "NS",
    [],
    {},
    [1],
    ["AS"],
    {"N": 1},
    {"score": {"NS": 1, "EW": 2}},
]


def corpus(seeds: int) -> Iterator[Any]:
    """`seeds` legal hands a preset and their variants, then `seeds` Spades matches."""
    for game, preset in PRESETS:
        for seed in range(seeds):
            rng = random.Random(f"{game}/{preset}/{seed}")
            record = legal_hand(seed, game, preset)
            yield record
            if game == "spades":
                summary = to_summary(record)
                yield summary
                yield replaced(summary, rng.choice(paths(summary)), rng.choice(HOSTILE))
                yield dict(
                    to_summary(record),
                    before={
                        "score": {"NS": rng.randint(-500, 500), "EW": rng.randint(-500, 500)},
                        "bags": {"NS": rng.randint(0, 9), "EW": rng.randint(0, 9)},
                    },
                )
            where = paths(record)
            for _ in range(3):
                yield replaced(record, rng.choice(where), rng.choice(HOSTILE))
            yield removed(record, rng.choice(where))
            yield with_duplicate_card(record, rng)
    for seed in range(seeds):
        yield random_match(random.Random(seed), max_hands=8)


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    answers = [repr(check_record(record)) for record in corpus(seeds)]
    engine = f"engine: {games.ENGINE.engine} ({Path(sys.modules['games.spades'].__file__).name})"
    sys.stdout.write("\n".join([engine, *answers]) + "\n")


if __name__ == "__main__":
    main()

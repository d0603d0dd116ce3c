"""Round robin by Berger tables (the circle method), exactly as FIDE publishes them (Handbook
C.05, Annex 1).

With n players (n even; an odd field gets a dummy n, and meeting the dummy is a bye), in round r
players i and j (both < n) meet when i + j ≡ r + 1 (mod n − 1), and player n meets the k with
2k ≡ r + 1 (mod n − 1). Board 1 is player n's game (n has the second side in odd rounds, the
first in even rounds); then, with k the player n meets, boards 2, 3, … are (k + t) v (k − t) for
t = 1, 2, … (numbers taken mod n − 1 into 1 … n − 1), the first named having the first side.

`double=True` plays the whole cycle twice, the second time with sides swapped.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import Draw, PairingError, is_int

__all__ = ["berger_round", "round_robin", "round_robin_rounds"]


def _players(count: object) -> int:
    if not is_int(count):
        raise PairingError("bad-count", f"the count must be an int, not {count!r}")
    if count < 2:  # type: ignore[operator]
        raise PairingError("too-few-entrants", f"{count} entrant(s): a round robin needs 2")
    return count + count % 2  # type: ignore[operator]


def round_robin_rounds(count: int, *, double: bool = False) -> int:
    """Rounds needed for `count` entrants (each pair meets once; twice when `double`)."""
    rounds = _players(count) - 1
    return 2 * rounds if double else rounds


def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """FIDE's Berger table for n players (n even), round r (1-based): (first, second) pairs of
    player numbers 1…n, board 1 first."""
    m = n - 1

    def wrap(x: int) -> int:
        return (x - 1) % m + 1

    k = wrap((r + 1) * ((m + 1) // 2))  # 2k ≡ r + 1: (m + 1) / 2 is the inverse of 2 mod m
    boards = [(n, k) if r % 2 == 0 else (k, n)]
    boards.extend((wrap(k + t), wrap(k - t)) for t in range(1, n // 2))
    return boards


def round_robin(ids: Sequence[int], round_number: int, *, double: bool = False) -> Draw:
    """Round `round_number` (1-based) of a round robin of `ids`, mapped in the given order (ids[0]
    is player 1). Tables follow FIDE's board order; an odd field's dummy is the last player and
    whoever meets it has a bye."""
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Sequence):
        raise PairingError("bad-contenders", "ids must be a sequence of ints")
    ids = list(ids)
    for i in ids:
        if not is_int(i):
            raise PairingError("bad-id", f"id {i!r} is not an int")
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise PairingError("duplicate-id", f"id {dup} appears twice")
    if not is_int(round_number):
        raise PairingError("bad-round", f"the round number must be an int, not {round_number!r}")
    total = round_robin_rounds(len(ids), double=bool(double))
    if not 1 <= round_number <= total:
        raise PairingError(
            "round-out-of-range", f"round {round_number}: this round robin has rounds 1 to {total}"
        )
    n = len(ids) + len(ids) % 2
    cycle = n - 1
    swap = round_number > cycle
    r = round_number - cycle if swap else round_number
    tables: list[tuple[int, int]] = []
    byes: list[int] = []
    for a, b in berger_round(n, r):
        if swap:
            a, b = b, a
        if a > len(ids):
            byes.append(ids[b - 1])
        elif b > len(ids):
            byes.append(ids[a - 1])
        else:
            tables.append((ids[a - 1], ids[b - 1]))
    return Draw(tables=tuple(tables), byes=tuple(byes), repeats=0)

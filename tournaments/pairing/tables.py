"""Individual movements: tables of 3 or 4 individuals (Solo Whist, cutthroat and 3-player
Spades).

1. Sit-outs (when the count is not a multiple of the size): those who sat out least, and among
   them the lowest ranked (so nobody sits out twice while someone has not).
2. The rest are partitioned into tables at least cost, criteria highest first: repeated meetings
   (pairs at the same table who met before, as opponents or partners), then pairs to be kept
   apart (`Contender.avoid`) at one table, then the band (strong
   players together: s·Σp² − (Σp)² over standings positions p). See `seating`.
3. Seat order at a table is standings order; table 1 holds the best-ranked player.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import seating
from .types import (
    Contender,
    Draw,
    PairingError,
    apart,
    check_contenders,
    check_seed,
    is_int,
    sit_outs,
    symmetric,
)

__all__ = ["tables"]

MAX_NOTES = 10


def meetings(players: list[Contender]) -> list[set[int]]:
    """For players numbered 0 … m−1 (their order in `players`): whom each has met."""
    return symmetric(players, lambda c: c.opponents | c.partners)


def repeat_notes(pairs: list[tuple[int, int]], what: str) -> list[str]:
    notes = [f"{what}: {a} & {b}" for a, b in pairs[:MAX_NOTES]]
    if len(pairs) > MAX_NOTES:
        notes.append(f"{what}: {len(pairs) - MAX_NOTES} more")
    return notes


def solve_apart(
    m: int,
    size: int,
    cost: seating.TableCost,
    *,
    seed: int,
    seen: list[set[int]],
    away: list[set[int]],
) -> list[tuple[int, ...]]:
    """`seating.solve`, with pairs to be kept apart repaired like repeats when there are any:
    the search then treats both as conflicts, and a table's cost reaches the conflict unit
    (`APART_UNIT`) exactly when it holds either."""
    if not any(away):
        return seating.solve(m, size, cost, seed=seed, seen=seen)
    both = [seen[p] | away[p] for p in range(m)]
    return seating.solve(m, size, cost, seed=seed, seen=both, repeat_unit=seating.APART_UNIT)


def together_at(
    groups: Sequence[tuple[int, ...]], players: list[Contender], away: list[set[int]]
) -> list[tuple[int, int]]:
    """Pairs to be kept apart that share a table, as ids."""
    return [
        (players[a].id, players[b].id)
        for g in groups
        for i, a in enumerate(g)
        for b in g[i + 1 :]
        if b in away[a]
    ]


def check_size(size: object) -> int:
    if not is_int(size) or size not in (3, 4):
        raise PairingError("bad-size", f"the table size must be 3 or 4, not {size!r}")
    return size  # `size not in (3, 4)` narrowed it to 3 or 4


def tables(contenders: Sequence[Contender], *, size: int, seed: int) -> Draw:
    """One round of individual tables of `size` (3 or 4). Deterministic for a given field and seed,
    whatever the order of `contenders`. Raises PairingError on bad input."""
    seed = check_seed(seed)
    size = check_size(size)
    field = check_contenders(contenders, minimum=size)
    out = sit_outs(field, len(field) % size)
    gone = {c.id for c in out}
    players = [c for c in field if c.id not in gone]  # standings order
    seen = meetings(players)
    away = apart(players)
    unit, apart_unit = seating.REPEAT_UNIT, seating.APART_UNIT

    if size == 4:

        def cost(t: tuple[int, ...]) -> int:
            a, b, c, d = t
            ma, mb, mc = seen[a], seen[b], seen[c]
            r = (b in ma) + (c in ma) + (d in ma) + (c in mb) + (d in mb) + (d in mc)
            aa, ab, ac = away[a], away[b], away[c]
            k = (b in aa) + (c in aa) + (d in aa) + (c in ab) + (d in ab) + (d in ac)
            total = a + b + c + d
            return r * unit + k * apart_unit + 4 * (a * a + b * b + c * c + d * d) - total * total

    else:

        def cost(t: tuple[int, ...]) -> int:
            a, b, c = t
            ma, aa = seen[a], away[a]
            r = (b in ma) + (c in ma) + (c in seen[b])
            k = (b in aa) + (c in aa) + (c in away[b])
            total = a + b + c
            return r * unit + k * apart_unit + 3 * (a * a + b * b + c * c) - total * total

    groups = solve_apart(len(players), size, cost, seed=seed, seen=seen, away=away)
    groups = sorted(tuple(sorted(g)) for g in groups)  # seats in standings order; table 1 first
    repeated = [
        (players[a].id, players[b].id)
        for g in groups
        for i, a in enumerate(g)
        for b in g[i + 1 :]
        if b in seen[a]
    ]
    together = together_at(groups, players, away)
    return Draw(
        tables=tuple(tuple(players[p].id for p in g) for g in groups),
        byes=tuple(c.id for c in sorted(out, key=lambda c: c.rank)),
        repeats=len(repeated),
        notes=tuple(
            repeat_notes(repeated, "repeat meeting")
            + repeat_notes(together, "kept apart, unavoidable")
        ),
        apart=len(together),
    )

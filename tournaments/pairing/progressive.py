"""Progressive partnership play (a "whist drive"): tables of four, (N, E, S, W) with N+S and E+W
partners, new partners every round, players scored individually.

1. Sit-outs as for `tables` (fewest sit-outs so far, then lowest ranked), when the count is not a
   multiple of 4.
2. The rest are partitioned into tables of four at least cost, criteria highest first:
   repeated partnerships (for each table, the least over its three possible partnerings),
   repeated meetings (pairs at the table who met before, as partners or opponents), pairs to be
   kept apart (`Contender.avoid`) at one table, then the band
   (strong players together). See `seating`.
3. At each table the partnering is the one with the fewest repeated partnerships, then the
   fewest pairs of opponents who met before, then the most even partnerships (best with worst),
   then the seed. N is the table's best-ranked player, S their partner, E the better of the
   other two. Table 1 holds the best-ranked player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import rustworkx as rx

from . import seating
from .tables import meetings, repeat_notes, solve_apart, together_at
from .types import Contender, Draw, apart, check_contenders, check_seed, sit_outs, symmetric

__all__ = ["progressive"]


def _partnered(players: list[Contender]) -> list[set[int]]:
    return symmetric(players, lambda c: c.partners)


def _new_partners_start(
    players: list[Contender], seen: list[set[int]], mates: list[set[int]]
) -> list[tuple[int, ...]] | None:
    """Tables made of partnerships that are all new (a maximum matching of those who never
    partnered, preferring pairs who never met and neighbours in the standings), two
    partnerships a table in standings order; None if every player cannot get a new partner."""
    m = len(players)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(m))
    graph.add_edges_from(
        [
            (a, b, ((b not in seen[a]) << 20) + (1 << 19) - min(b - a, 1 << 19))
            for a in range(m)
            for b in range(a + 1, m)
            if b not in mates[a]
        ]
    )
    pairs = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
    if 2 * len(pairs) != m:
        return None
    ordered = sorted(tuple(sorted(p)) for p in pairs)
    return [ordered[k] + ordered[k + 1] for k in range(0, len(ordered), 2)]


def progressive(contenders: Sequence[Contender], *, seed: int) -> Draw:
    """One round of progressive partnership tables of four. Deterministic for a given field and
    seed, whatever the order of `contenders`. Raises PairingError on bad input."""
    seed = check_seed(seed)
    field = check_contenders(contenders, minimum=4)
    out = sit_outs(field, len(field) % 4)
    gone = {c.id for c in out}
    players = [c for c in field if c.id not in gone]
    seen = meetings(players)
    mates = _partnered(players)
    away = apart(players)
    unit, apart_unit = seating.REPEAT_UNIT, seating.APART_UNIT
    partner_unit = unit << 16  # above the meetings of a whole partition

    def cost(t: tuple[int, ...]) -> int:
        a, b, c, d = t
        sa, sb, sc = seen[a], seen[b], seen[c]
        meet = (b in sa) + (c in sa) + (d in sa) + (c in sb) + (d in sb) + (d in sc)
        again = 0
        if meet:
            pa, pb, pc = mates[a], mates[b], mates[c]
            again = min((b in pa) + (d in pc), (c in pa) + (d in pb), (d in pa) + (c in pb))
        aa, ab, ac = away[a], away[b], away[c]
        kept = (b in aa) + (c in aa) + (d in aa) + (c in ab) + (d in ab) + (d in ac)
        total = a + b + c + d
        band = 4 * (a * a + b * b + c * c + d * d) - total * total
        return again * partner_unit + meet * unit + kept * apart_unit + band

    m = len(players)
    groups = solve_apart(m, 4, cost, seed=seed, seen=seen, away=away)
    if m > seating.EXACT_LIMIT and sum(cost(g) for g in groups) >= partner_unit:
        start = _new_partners_start(players, seen, mates)
        if start is not None:
            both = [seen[p] | away[p] for p in range(m)] if any(away) else seen
            other = seating.improve(
                start, 4, cost, seed=seed, seen=both, repeat_unit=apart_unit if any(away) else unit
            )
            if sum(cost(g) for g in other) < sum(cost(g) for g in groups):
                groups = other
    groups = sorted(tuple(sorted(g)) for g in groups)
    rng = random.Random(seed)
    seats: list[tuple[int, int, int, int]] = []
    again_pairs: list[tuple[int, int]] = []
    repeated: list[tuple[int, int]] = []
    for g in groups:
        a, b, c, d = g
        options = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]

        def key(option: tuple[tuple[int, int], tuple[int, int]]) -> tuple[int, int, int, float]:
            (w, x), (y, z) = option
            again = (x in mates[w]) + (z in mates[y])
            faced = (y in seen[w]) + (z in seen[w]) + (y in seen[x]) + (z in seen[x])
            return again, faced, abs((w + x) - (y + z)), rng.random()

        (n_, s_), (e_, w_) = min(options, key=key)
        seats.append((n_, e_, s_, w_))
        for one, two in ((n_, s_), (e_, w_)):
            if two in mates[one]:
                again_pairs.append((players[one].id, players[two].id))
        repeated.extend(
            (players[p].id, players[q].id)
            for i, p in enumerate(g)
            for q in g[i + 1 :]
            if q in seen[p]
        )
    together = together_at(groups, players, away)
    notes = (
        repeat_notes(again_pairs, "partners again")
        + repeat_notes(repeated, "repeat meeting")
        + repeat_notes(together, "kept apart, unavoidable")
    )
    return Draw(
        tables=tuple(tuple(players[p].id for p in t) for t in seats),
        byes=tuple(c.id for c in sorted(out, key=lambda c: c.rank)),
        repeats=len(repeated),
        notes=tuple(notes),
        apart=len(together),
    )

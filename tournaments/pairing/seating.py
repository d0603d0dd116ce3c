"""Partition players into tables of 3 or 4 at least total cost: the search behind `tables` and
`progressive`.

Players are numbered 0 … m−1 in standings order (0 = best). A table's cost is one integer that
packs the criteria, highest first (each engine supplies its own cost function); the total is the
sum over tables. The band term every engine ends with is

    band(table) = s·Σp² − (Σp)²        (s² times the variance of the positions p at the table)

which is least when the table holds neighbours in the standings; consecutive chunks of the
standings minimise the total band, so they are the starting point.

- Up to EXACT_LIMIT players: an exact branch-and-bound over every partition.
- Above: local search from the chunks. Repair: while a table has a repeat, take the players of
  repeated pairs (in an order the seed shuffles) and make the best swap with anyone at another
  table that lowers the total; when none does, make the least bad swap of a random such player
  with someone not recently moved (a short tabu list), and keep the best partition seen. Polish:
  swaps between tables near each other in the standings that lower the total. Everything is
  bounded by counts, not by the clock, so the result is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

__all__ = ["APART_UNIT", "EXACT_LIMIT", "REPEAT_UNIT", "band", "improve", "solve"]

#: Cost of one repeat; the band term of a whole partition always stays below it.
REPEAT_UNIT = 1 << 48
#: Cost of two who are to be kept apart (the same club, or a pair the director named) at one
#: table: below a repeat, above the band of a whole partition (up to ~2,500 players).
APART_UNIT = 1 << 36
#: Up to this many players the partition is found by exhaustive search.
EXACT_LIMIT = 12

TableCost = Callable[[tuple[int, ...]], int]


def band(members: tuple[int, ...]) -> int:
    total = sum(members)
    return len(members) * sum(p * p for p in members) - total * total


def solve(
    m: int,
    size: int,
    cost: TableCost,
    *,
    seed: int,
    seen: list[set[int]],
    repeat_unit: int = REPEAT_UNIT,
) -> list[tuple[int, ...]]:
    """The tables (tuples of player numbers) of a least-cost partition found. `seen[p]`: whom p
    has met (a repeat is two who met at one table); a table's cost is at least `repeat_unit`
    exactly when it holds a repeat."""
    if m % size:
        raise ValueError("m must be a multiple of size")  # the engines guarantee it
    if m <= EXACT_LIMIT:
        return _exact(m, size, cost)

    def conflicted(p: int, table: list[int]) -> bool:
        return any(q in seen[p] for q in table)

    found = _local_search(m, size, cost, seed, conflicted, repeat_unit)
    if sum(cost(t) for t in found) >= repeat_unit:
        fresh = _repeat_free(m, size, seen)
        if fresh is not None:
            tables = [list(t) for t in fresh]
            costs = [cost(t) for t in fresh]
            _polish(tables, [0] * m, costs, cost, size, everywhere=True)
            found = [tuple(t) for t in tables]
    return found


#: Nodes the repeat-free search may visit before it gives up.
DFS_NODES = 40_000


def _repeat_free(m: int, size: int, seen: list[set[int]]) -> list[tuple[int, ...]] | None:
    """A partition without any repeat, by depth-first search (most constrained player first,
    forward checking), or None if none was found within DFS_NODES nodes."""
    everyone = (1 << m) - 1
    compatible = [everyone & ~(1 << p) & ~sum(1 << q for q in seen[p]) for p in range(m)]
    chosen: list[tuple[int, ...]] = []
    nodes = 0

    def place(free: int) -> bool:
        nonlocal nodes
        if not free:
            return True
        nodes += 1
        if nodes > DFS_NODES:
            return False
        head, fewest = -1, m + 1
        rest = free
        while rest:
            low = rest & -rest
            p = low.bit_length() - 1
            rest ^= low
            options = (compatible[p] & free).bit_count()
            if options < fewest:
                head, fewest = p, options
        if fewest < size - 1:
            return False
        return extend((head,), compatible[head] & free, free & ~(1 << head))

    def extend(table: tuple[int, ...], candidates: int, free: int) -> bool:
        if len(table) == size:
            chosen.append(table)
            if place(free):
                return True
            chosen.pop()
            return False
        while candidates:
            low = candidates & -candidates
            q = low.bit_length() - 1
            candidates ^= low
            if extend((*table, q), candidates & compatible[q], free & ~low):
                return True
            if nodes > DFS_NODES:
                return False
        return False

    return chosen if place(everyone) else None


def _exact(m: int, size: int, cost: TableCost) -> list[tuple[int, ...]]:
    floor = band(tuple(range(size)))  # the least band a table can have
    best_total = sum(cost(tuple(range(t, t + size))) for t in range(0, m, size))
    best = [tuple(range(t, t + size)) for t in range(0, m, size)]
    chosen: list[tuple[int, ...]] = []

    def search(free: tuple[int, ...], total: int) -> None:
        nonlocal best_total, best
        if not free:
            if total < best_total:
                best_total, best = total, list(chosen)
            return
        if total + floor * (len(free) // size) >= best_total:
            return
        head, rest = free[0], free[1:]
        for others in combinations(rest, size - 1):
            table = (head, *others)
            chosen.append(table)
            search(tuple(p for p in rest if p not in others), total + cost(table))
            chosen.pop()

    search(tuple(range(m)), 0)
    return best


def improve(
    start: list[tuple[int, ...]],
    size: int,
    cost: TableCost,
    *,
    seed: int,
    seen: list[set[int]],
    repeat_unit: int = REPEAT_UNIT,
) -> list[tuple[int, ...]]:
    """The local search (repair, then polish) from a given partition."""

    def conflicted(p: int, table: list[int]) -> bool:
        return any(q in seen[p] for q in table)

    m = sum(len(t) for t in start)
    return _local_search(m, size, cost, seed, conflicted, repeat_unit, start)


def _local_search(
    m: int,
    size: int,
    cost: TableCost,
    seed: int,
    conflicted: Callable[[int, list[int]], bool],
    repeat_unit: int,
    start: list[tuple[int, ...]] | None = None,
) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    count = m // size
    if start is None:
        start = [tuple(range(t * size, (t + 1) * size)) for t in range(count)]
    tables = [list(t) for t in start]
    where = [0] * m
    for t, table in enumerate(tables):
        for p in table:
            where[p] = t
    costs = [cost(tuple(t)) for t in tables]
    budget = min(300_000, 1_500 * m)  # table-cost evaluations the repair may spend
    spent = 0

    def swap_delta(a: int, b: int) -> tuple[int, int, int]:
        ta, tb = where[a], where[b]
        new_a = tuple(b if p == a else p for p in tables[ta])
        new_b = tuple(a if p == b else p for p in tables[tb])
        ca, cb = cost(new_a), cost(new_b)
        return ca + cb - costs[ta] - costs[tb], ca, cb

    def apply(a: int, b: int, ca: int, cb: int) -> None:
        ta, tb = where[a], where[b]
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        where[a], where[b] = tb, ta
        costs[ta], costs[tb] = ca, cb

    def best_swap(a: int, banned: dict[int, int], now: int) -> tuple[int, int, int, int] | None:
        """The best swap of a with a player at another table (b not banned at `now`)."""
        nonlocal spent
        found = None
        home = where[a]
        for b in range(m):
            if where[b] == home or banned.get(b, -1) > now:
                continue
            d, ca, cb = swap_delta(a, b)
            if found is None or d < found[0]:
                found = (d, b, ca, cb)
        spent += 2 * (m - size)
        return found

    def movers() -> list[int]:
        return [
            p
            for t, table in enumerate(tables)
            if costs[t] >= repeat_unit
            for p in table
            if conflicted(p, table)
        ]

    total = sum(costs)
    best_total, best_tables = total, [list(t) for t in tables]
    tabu: dict[int, int] = {}
    step = 0
    while spent < budget and best_total >= repeat_unit:
        candidates = movers()
        if not candidates:
            break
        rng.shuffle(candidates)
        step += 1
        move = None
        looked: dict[int, tuple[int, int, int, int] | None] = {}
        # Descent: the first repeated player (in shuffled order) with an improving swap.
        for a in candidates:
            found = looked[a] = best_swap(a, {}, step)
            if found is not None and found[0] < 0:
                move = (a, *found)
                break
        if move is None:
            # A local minimum: tabu search. The best swap of any repeated player that is not
            # tabu (a tabu swap is allowed when it beats the best total seen).
            for a in candidates:
                found = looked[a] if a in looked else best_swap(a, {}, step)
                if found is None:
                    continue
                d, b = found[0], found[1]
                allowed = (tabu.get(a, -1) <= step and tabu.get(b, -1) <= step) or (
                    total + d < best_total
                )
                if not allowed:
                    found = best_swap(a, tabu, step) if tabu.get(a, -1) <= step else None
                    if found is None:
                        continue
                if move is None or found[0] < move[1]:
                    move = (a, *found)
            if move is None:
                tabu.clear()
                continue
        a, d, b, ca, cb = move
        apply(a, b, ca, cb)
        total += d
        tabu[a] = tabu[b] = step + 2 + rng.randrange(max(3, len(candidates)))
        if total < best_total:
            best_total, best_tables = total, [list(t) for t in tables]
    tables = best_tables
    where = [0] * m
    for t, table in enumerate(tables):
        for p in table:
            where[p] = t
    costs = [cost(tuple(t)) for t in tables]
    _polish(tables, where, costs, cost, size)
    return [tuple(t) for t in tables]


def _polish(
    tables: list[list[int]],
    where: list[int],
    costs: list[int],
    cost: TableCost,
    size: int,
    *,
    everywhere: bool = False,
) -> None:
    """Swaps between tables close in the standings (any two tables when `everywhere` and there
    are not too many) that lower the total, until none does."""
    reach = len(tables) if everywhere and len(tables) <= 40 else 3
    for _ in range(8 if reach == 3 else 16):
        order = sorted(range(len(tables)), key=lambda t: sum(tables[t]))
        improved = False
        for i, t in enumerate(order):
            for u in order[i + 1 : i + 1 + reach]:
                for x in range(size):
                    for y in range(size):
                        a, b = tables[t][x], tables[u][y]
                        new_t = tuple(b if p == a else p for p in tables[t])
                        new_u = tuple(a if p == b else p for p in tables[u])
                        ct, cu = cost(new_t), cost(new_u)
                        if ct + cu < costs[t] + costs[u]:
                            tables[t][x], tables[u][y] = b, a
                            where[a], where[b] = u, t
                            costs[t], costs[u] = ct, cu
                            improved = True
        if not improved:
            return

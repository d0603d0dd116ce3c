"""Movements: for each round, which pair sits NS and EW at each table and which board set they
play. Plain data out (`Movement`), generated, never hard-coded.

- `mitchell(tables)`: NS pairs 1..T stay at tables 1..T; EW pairs T+1..2T start at tables 1..T
  and move up one table a round (T to 1); board set s starts at table s and moves down one table
  (1 to T). Odd T: T rounds, every EW meets every NS and plays every set once. Even T needs one
  of two fixes (`even=`):
  - "skip" (default): after half the rounds the EW pairs move up two tables once; at most T - 1
    rounds (a T-th round would meet round 1's opponents again); every board set is still played
    once each round;
  - "relay": tables 1 and T share (relay) one set, and a bye stand halfway (between tables T/2
    and T/2 + 1) holds the set nobody plays that round; T rounds, every EW meets every NS once,
    every set is played T times (at both relay tables, never on the bye stand).
- `howell(tables, rounds=None)`: 2T pairs, one field. Complete: 2T - 1 rounds, every pair meets
  every other once (the cyclic "1-rotation": pair 2T stays at table 1, pairs 1..2T-1 rotate),
  2T - 1 board sets of which each table plays set (round + c_table) mod (2T - 1); the offsets
  c are found by a small search so that every pair plays every set once (`_howell_offsets`).
  Partial (`rounds` < 2T - 1): the first `rounds` rounds, every table playing the round's set
  in its own copy (as a barometer does) so that every set is played the same number of times.
- `barometer(tables, rounds=None)`: the Howell's pairs, every table playing the same set in
  a round (the boards in as many copies as tables), one field.

Late and missing pairs (what clubs do): a movement is for a full field. A missing pair's seat is
a **sit-out** (a bye stand for the pair that would have met it): `sit_out(movement, pair)` gives
`None` in its place in every round, and the opponents of that round play no boards (their score
is a percentage of the tops they could have had, so a sit-out neither helps nor hurts them). A
pair that arrives late takes the missing pair's number from its first round:
`sit_out(movement, pair, rounds=range(1, arrival))`. An odd number of pairs is a full movement
with the highest-numbered pair missing (`pairs=` in `mitchell`/`howell`/`barometer`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from .errors import DuplicateError

__all__ = [
    "HOWELL_TABLES",
    "MITCHELL_TABLES",
    "Movement",
    "Play",
    "Seating",
    "barometer",
    "howell",
    "mitchell",
    "plays",
    "sit_out",
]

#: The sizes supported (and property-tested for every size).
MITCHELL_TABLES = range(2, 31)
HOWELL_TABLES = range(2, 9)


@dataclass(frozen=True, slots=True)
class Seating:
    """One table in one round: the pairs (None for a sit-out) and the board set (1-based)."""

    table: int
    ns: int | None
    ew: int | None
    board_set: int

    def as_dict(self) -> dict[str, Any]:
        return {"table": self.table, "ns": self.ns, "ew": self.ew, "board_set": self.board_set}


@dataclass(frozen=True, slots=True)
class Movement:
    """A movement: `rounds[r - 1]` is round r's tables, table 1 first.

    `fields` names the ranking fields and their pairs ("NS" and "EW" for a Mitchell, "all"
    otherwise); `sets` is the number of board sets; `copies` how many copies of a set a round
    needs at most (1: the boards move; a barometer needs one per table); `plays` how many times
    each board set is played (the same for every set)."""

    kind: str
    tables: int
    pairs: tuple[int, ...]
    sets: int
    copies: int
    rounds: tuple[tuple[Seating, ...], ...]
    fields: dict[str, tuple[int, ...]]
    notes: tuple[str, ...] = ()

    @property
    def plays(self) -> int:
        counts: dict[int, int] = {}
        for seats in self.rounds:
            for s in seats:
                counts[s.board_set] = counts.get(s.board_set, 0) + 1
        return max(counts.values(), default=0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "tables": self.tables,
            "pairs": list(self.pairs),
            "sets": self.sets,
            "copies": self.copies,
            "fields": {k: list(v) for k, v in self.fields.items()},
            "rounds": [[s.as_dict() for s in seats] for seats in self.rounds],
            "notes": list(self.notes),
        }

    def seat_of(self, pair: int, round_number: int) -> Seating | None:
        """Where `pair` sits in round `round_number` (None: not seated)."""
        for s in self.rounds[round_number - 1]:
            if pair in (s.ns, s.ew):
                return s
        return None


def _whole(value: object, what: str, code: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DuplicateError(code, f"{what} must be a whole number, not {value!r}")
    return value


def _check_tables(tables: object, allowed: range, kind: str) -> int:
    n = _whole(tables, "the number of tables", "bad-tables")
    if n not in allowed:
        raise DuplicateError(
            "bad-tables", f"a {kind} is for {allowed.start} to {allowed.stop - 1} tables, not {n}"
        )
    return n


def _check_rounds(rounds: object, most: int, kind: str) -> int:
    if rounds is None:
        return most
    r = _whole(rounds, "the number of rounds", "bad-rounds")
    if not 1 <= r <= most:
        raise DuplicateError("bad-rounds", f"this {kind} has 1 to {most} rounds, not {r}")
    return r


def _missing(movement: Movement, pairs: int | None) -> Movement:
    """The movement with the pairs above `pairs` missing (sit-outs)."""
    if pairs is None:
        return movement
    n = _whole(pairs, "the number of pairs", "bad-pair")
    full = len(movement.pairs)
    if not full - 1 <= n <= full:
        raise DuplicateError(
            "bad-pair", f"{movement.tables} tables seat {full - 1} or {full} pairs, not {n}"
        )
    for pair in range(n + 1, full + 1):
        movement = sit_out(movement, pair)
    return movement


def mitchell(
    tables: int, *, rounds: int | None = None, even: str = "skip", pairs: int | None = None
) -> Movement:
    """A Mitchell for `tables` tables (see the module's text). NS pairs are 1..T, EW pairs
    T+1..2T; `pairs` = 2T - 1 leaves pair 2T missing."""
    n = _check_tables(tables, MITCHELL_TABLES, "Mitchell")
    if even not in ("skip", "relay"):
        raise DuplicateError(
            "bad-movement", f"an even Mitchell uses a skip or a relay, not {even!r}"
        )
    notes: list[str] = []
    if n % 2:
        kind, most, sets = "mitchell", n, n
    elif even == "skip":
        kind, most, sets = "mitchell-skip", n - 1, n
        notes.append(f"EW pairs skip a table after round {n // 2}")
    else:
        kind, most, sets = "mitchell-relay", n, n
        notes.append(
            f"tables 1 and {n} share (relay) a board set; a bye stand between tables "
            f"{n // 2} and {n // 2 + 1}"
        )
    count = _check_rounds(rounds, most, "Mitchell")
    # The relay's board positions: the relay set (tables 1 and T), tables 2..T/2, the bye stand,
    # tables T/2+1..T-1; sets move down one position a round.
    position = [0] + list(range(1, n // 2)) + list(range(n // 2 + 1, n)) + [0]
    out = []
    for r in range(count):
        seats = []
        for t in range(n):
            skip = 1 if kind == "mitchell-skip" and r >= n // 2 else 0
            e = (t - r - skip) % n
            board_set = (position[t] + r) % n if kind == "mitchell-relay" else (t + r) % n
            seats.append(Seating(table=t + 1, ns=t + 1, ew=n + e + 1, board_set=board_set + 1))
        out.append(tuple(seats))
    ns, ew = tuple(range(1, n + 1)), tuple(range(n + 1, 2 * n + 1))
    movement = Movement(
        kind=kind,
        tables=n,
        pairs=ns + ew,
        sets=sets,
        copies=1,
        rounds=tuple(out),
        fields={"NS": ns, "EW": ew},
        notes=tuple(notes),
    )
    return _missing(movement, pairs)


@cache
def _howell_offsets(tables: int) -> tuple[int, ...]:
    """Offsets c[0..T-1] for the cyclic Howell of 2T pairs (m = 2T - 1 sets): table i plays set
    (round + c[i]) mod m. Pair p (0..m-1) sits at table 0 in round p and at table i >= 1 in rounds
    p - i and p + i, playing sets p + c[0], p - i + c[i] and p + i + c[i]: every pair plays every
    set once exactly when {c[0]} and {c[i] -/+ i} together are all the residues mod m. Searched by
    backtracking, with as few copies of a set in one round as possible (distinct c: one copy;
    2 and 5 tables have none and need two copies of some sets, 3 tables three)."""
    m = 2 * tables - 1
    for copies in range(1, tables + 1):
        c = [0] * tables
        covered = {0}
        used = {0: 1}

        def place(
            i: int,
            c: list[int] = c,
            covered: set[int] = covered,
            used: dict[int, int] = used,
            copies: int = copies,
        ) -> bool:
            if i == tables:
                return True
            for v in range(m):
                a, b = (v - i) % m, (v + i) % m
                if used.get(v, 0) >= copies or a in covered or b in covered:
                    continue
                c[i] = v
                covered.update((a, b))
                used[v] = used.get(v, 0) + 1
                if place(i + 1):
                    return True
                covered.difference_update((a, b))
                used[v] -= 1
            return False

        if place(1):
            return tuple(c)
    raise AssertionError("c = 0 everywhere always works")  # pragma: no cover


def _howell_pairs(n: int, r: int) -> list[tuple[int, int]]:
    """Round r's (NS, EW) pairs (0-based pair numbers, 2n - 1 the stationary pair), table 1 first:
    the stationary pair meets pair r, and pairs r + i and r - i meet at table i + 1."""
    m = 2 * n - 1
    fixed = m
    first = (fixed, r) if r % 2 == 0 else (r, fixed)
    return [first] + [((r + i) % m, (r - i) % m) for i in range(1, n)]


def _pair_movement(
    kind: str,
    n: int,
    count: int,
    set_of: list[list[int]],
    sets: int,
    copies: int,
    notes: tuple[str, ...],
) -> Movement:
    out = []
    for r in range(count):
        seats = tuple(
            Seating(table=i + 1, ns=ns + 1, ew=ew + 1, board_set=set_of[r][i] + 1)
            for i, (ns, ew) in enumerate(_howell_pairs(n, r))
        )
        out.append(seats)
    everyone = tuple(range(1, 2 * n + 1))
    return Movement(
        kind=kind,
        tables=n,
        pairs=everyone,
        sets=sets,
        copies=copies,
        rounds=tuple(out),
        fields={"all": everyone},
        notes=notes,
    )


def howell(tables: int, *, rounds: int | None = None, pairs: int | None = None) -> Movement:
    """A Howell for `tables` tables: 2T pairs, complete with 2T - 1 rounds, partial with fewer
    (see the module's text); `pairs` = 2T - 1 leaves pair 2T missing."""
    n = _check_tables(tables, HOWELL_TABLES, "Howell")
    m = 2 * n - 1
    count = _check_rounds(rounds, m, "Howell")
    if count == m:
        c = _howell_offsets(n)
        set_of = [[(r + c[i]) % m for i in range(n)] for r in range(m)]
        copies = max(row.count(s) for row in set_of for s in row)
        notes: tuple[str, ...] = ()
        if copies > 1:
            notes = (
                f"some board sets are played at two tables in a round: make {copies} "
                "copies of them (or relay them between the tables)",
            )
        movement = _pair_movement("howell", n, m, set_of, m, copies, notes)
    else:
        set_of = [[r] * n for r in range(count)]
        movement = _pair_movement(
            "howell-partial",
            n,
            count,
            set_of,
            count,
            n,
            (f"every table plays the round's board set: make {n} copies of each set",),
        )
    return _missing(movement, pairs)


def barometer(tables: int, *, rounds: int | None = None, pairs: int | None = None) -> Movement:
    """A barometer: the Howell's pairs, every table playing set r in round r (one copy of each
    set per table), so that a ranking can be shown after each round."""
    n = _check_tables(tables, MITCHELL_TABLES, "barometer")
    m = 2 * n - 1
    count = _check_rounds(rounds, m, "barometer")
    set_of = [[r] * n for r in range(count)]
    movement = _pair_movement(
        "barometer",
        n,
        count,
        set_of,
        count,
        n,
        (f"every table plays the round's board set: make {n} copies",),
    )
    return _missing(movement, pairs)


def sit_out(movement: Movement, pair: int, rounds: Iterable[int] | None = None) -> Movement:
    """`movement` with `pair` absent (its seat None: its opponents sit out) in `rounds` (1-based;
    all rounds by default). A late pair: the rounds before it arrived."""
    if pair not in movement.pairs:
        raise DuplicateError("bad-pair", f"pair {pair!r} is not in this movement")
    wanted = set(range(1, len(movement.rounds) + 1) if rounds is None else rounds)
    out = []
    for number, seats in enumerate(movement.rounds, 1):
        if number in wanted:
            seats = tuple(
                replace(s, ns=None if s.ns == pair else s.ns, ew=None if s.ew == pair else s.ew)
                for s in seats
            )
        out.append(seats)
    return replace(movement, rounds=tuple(out))


@dataclass(frozen=True, slots=True)
class Play:
    """One board to be played: where, when and by whom."""

    round: int
    table: int
    ns: int
    ew: int
    board: int


def plays(movement: Movement, per_round: int) -> list[Play]:
    """Every board played in the movement with `per_round` boards a set, round by round, table
    by table (a table with a sit-out plays nothing)."""
    if not isinstance(per_round, int) or isinstance(per_round, bool) or per_round < 1:
        raise DuplicateError(
            "bad-board", f"boards per round is a whole number from 1, not {per_round!r}"
        )
    out: list[Play] = []
    for number, seats in enumerate(movement.rounds, 1):
        for s in seats:
            if s.ns is None or s.ew is None:
                continue
            first = (s.board_set - 1) * per_round + 1
            out.extend(
                Play(round=number, table=s.table, ns=s.ns, ew=s.ew, board=b)
                for b in range(first, first + per_round)
            )
    return out

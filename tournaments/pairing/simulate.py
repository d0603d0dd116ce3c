"""Whole simulated events for the engines (random results), shared by the tests and
bench/pairing.py. Plain Python; nothing here is used by the engines themselves."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from .progressive import progressive
from .swiss import swiss
from .tables import tables
from .types import Contender, Draw

__all__ = ["Entrant", "RoundReport", "progressive_event", "swiss_event", "tables_event"]


@dataclass(slots=True)
class Entrant:
    id: int
    strength: float
    points: Fraction = Fraction(0)
    opponents: set[int] = field(default_factory=set)
    partners: set[int] = field(default_factory=set)
    byes: int = 0
    first: int = 0
    sat_out: int = 0
    tiebreak: Fraction = Fraction(0)  # a stand-in for the standings' tiebreaks
    club: int | None = None  # an affiliation: clubmates are kept apart


@dataclass(frozen=True, slots=True)
class RoundReport:
    round: int
    seconds: float  # wall time of the pairing call
    cpu_seconds: float  # its process time
    draw: Draw
    contenders: tuple[Contender, ...]  # what the engine was given


def _affiliate(entrants: dict[int, Entrant], rng: random.Random, clubs: tuple[float, int]) -> None:
    """Put a share of the entrants into `clubs` affiliations, (share, count), at random."""
    share, count = clubs
    if not count:
        return
    for entrant in entrants.values():
        if entrant.club is None and rng.random() < share:
            entrant.club = rng.randrange(count)


def _ranked(entrants: list[Entrant]) -> list[Contender]:
    order = sorted(entrants, key=lambda e: (-e.points, -e.tiebreak, e.id))
    members: dict[int, set[int]] = {}
    for e in entrants:
        if e.club is not None:
            members.setdefault(e.club, set()).add(e.id)
    return [
        Contender(
            id=e.id,
            points=e.points,
            rank=r,
            opponents=frozenset(e.opponents),
            byes=e.byes,
            first=e.first,
            partners=frozenset(e.partners),
            sat_out=e.sat_out,
            avoid=frozenset(members[e.club] - {e.id}) if e.club is not None else frozenset(),
        )
        for r, e in enumerate(order, 1)
    ]


def swiss_event(
    n: int,
    rounds: int,
    *,
    seed: int = 1,
    late: int = 0,
    withdraw: int = 0,
    clubs: tuple[float, int] = (0.0, 0),
    on_round: Callable[[RoundReport], None] | None = None,
) -> list[RoundReport]:
    """A Swiss event of `n` entrants over `rounds` rounds with random results (win 2, draw 1,
    loss 0, bye 2). `late` entrants join (0 points) before round 2 and `withdraw` leave after
    round 1, so the engines see both. `clubs` = (share, count): that share of the entrants
    belong to one of `count` clubs, whose members are kept apart."""
    rng = random.Random(seed)
    entrants = {i: Entrant(i, rng.random()) for i in range(1, n + 1)}
    _affiliate(entrants, rng, clubs)
    reports: list[RoundReport] = []
    next_id = n + 1
    for r in range(1, rounds + 1):
        if r == 2:
            for _ in range(late):
                entrants[next_id] = Entrant(next_id, rng.random())
                next_id += 1
            _affiliate(entrants, rng, clubs)
            for gone in rng.sample(sorted(entrants), min(withdraw, len(entrants) - 2)):
                del entrants[gone]
        contenders = _ranked(list(entrants.values()))
        start, cpu = time.perf_counter(), time.process_time()
        draw = swiss(contenders, seed=seed * 1000 + r)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        report = RoundReport(r, seconds, cpu, draw, tuple(contenders))
        reports.append(report)
        if on_round:
            on_round(report)
        for bye in draw.byes:
            entrants[bye].points += 2
            entrants[bye].byes += 1
        for a, b in draw.tables:
            ea, eb = entrants[a], entrants[b]
            ea.opponents.add(b)
            eb.opponents.add(a)
            ea.first += 1
            eb.first -= 1
            roll = rng.random()
            edge = 0.5 + (ea.strength - eb.strength) * 0.4
            if roll < 0.1:
                ea.points += 1
                eb.points += 1
            elif roll < 0.1 + 0.9 * edge:
                ea.points += 2
            else:
                eb.points += 2
        for e in entrants.values():
            e.tiebreak = sum(
                (entrants[o].points for o in e.opponents if o in entrants), Fraction(0)
            )
    return reports


def _table_event(
    engine: Callable[..., Draw],
    n: int,
    rounds: int,
    *,
    seed: int,
    partnership: bool,
    on_round: Callable[[RoundReport], None] | None,
    clubs: tuple[float, int] = (0.0, 0),
    **options: int,
) -> list[RoundReport]:
    rng = random.Random(seed)
    entrants = {i: Entrant(i, rng.random()) for i in range(1, n + 1)}
    _affiliate(entrants, rng, clubs)
    reports: list[RoundReport] = []
    for r in range(1, rounds + 1):
        contenders = _ranked(list(entrants.values()))
        start, cpu = time.perf_counter(), time.process_time()
        draw = engine(contenders, seed=seed * 1000 + r, **options)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        report = RoundReport(r, seconds, cpu, draw, tuple(contenders))
        reports.append(report)
        if on_round:
            on_round(report)
        for out in draw.byes:
            entrants[out].sat_out += 1
        for table in draw.tables:
            for seat, a in enumerate(table):
                for other_seat, b in enumerate(table):
                    if a == b:
                        continue
                    if partnership and seat % 2 == other_seat % 2:
                        entrants[a].partners.add(b)
                    else:
                        entrants[a].opponents.add(b)
            # random scores: the stronger tend to score more
            for a in table:
                entrants[a].points += rng.randrange(0, 4) + (entrants[a].strength > rng.random())
    return reports


def tables_event(
    n: int,
    rounds: int,
    *,
    size: int = 4,
    seed: int = 1,
    clubs: tuple[float, int] = (0.0, 0),
    on_round: Callable[[RoundReport], None] | None = None,
) -> list[RoundReport]:
    """An individual event of `n` players at tables of `size` over `rounds` rounds."""
    return _table_event(
        tables,
        n,
        rounds,
        seed=seed,
        partnership=False,
        on_round=on_round,
        clubs=clubs,
        size=size,
    )


def progressive_event(
    n: int,
    rounds: int,
    *,
    seed: int = 1,
    clubs: tuple[float, int] = (0.0, 0),
    on_round: Callable[[RoundReport], None] | None = None,
) -> list[RoundReport]:
    """A progressive partnership event ("whist drive") of `n` players over `rounds` rounds."""
    return _table_event(
        progressive, n, rounds, seed=seed, partnership=True, on_round=on_round, clubs=clubs
    )

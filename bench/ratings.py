"""Ratings-engine benchmark: games rated per second, raw openskill vs tournaments.ratings.rate.

Run from the repository root:

    .venv/bin/python bench/ratings.py                  # 10,000 games per table shape, best of 3
    .venv/bin/python bench/ratings.py --games 50000 --players 500 --repeat 5

Single core (pinned when the OS allows), time.perf_counter, best of --repeat runs. The games are
random (random.Random(--seed)) over a pool of --players players, one a minute. See
docs/ratings.md for what each line measures and the latest figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import openskill  # noqa: E402
from openskill.models import PlackettLuce  # noqa: E402

from bench import report  # noqa: E402
from tournaments.ratings import RatedGame, leaderboard, rate  # noqa: E402

SHAPES = {"2v2": (2, 2), "1v1": (2, 1), "4-player": (4, 1)}  # (sides, players per side)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def pin_to_one_core(cpu: int | None) -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0)) if cpu is None else cpu})
        return f"pinned to CPU {min(os.sched_getaffinity(0))}"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"


def make_games(shape: str, n: int, players: int, seed: int) -> list[RatedGame]:
    n_sides, per_side = SHAPES[shape]
    rnd = random.Random(seed)
    games = []
    for i in range(n):
        table = rnd.sample(range(1, players + 1), n_sides * per_side)
        sides = tuple(tuple(table[s * per_side : (s + 1) * per_side]) for s in range(n_sides))
        places = tuple(rnd.sample(range(1, n_sides + 1), n_sides))
        games.append(RatedGame(i + 1, T0 + timedelta(minutes=i), sides, places, tournament=1))
    return games


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def raw_openskill(games: list[RatedGame]) -> None:
    """openskill alone: a dict of rating objects, model.rate per game, nothing else."""
    model = PlackettLuce()
    ratings: dict[int, object] = {}
    for g in games:
        teams = [[ratings.get(p) or model.rating() for p in side] for side in g.sides]
        for side, team in zip(g.sides, model.rate(teams, ranks=list(g.places)), strict=True):
            for p, r in zip(side, team, strict=True):
                ratings[p] = r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cpu", type=int, help="CPU to pin to (default: the lowest allowed)")
    parser.add_argument("--increment", type=int, default=100, help="games per incremental run")
    args = parser.parse_args()

    pinned = pin_to_one_core(args.cpu)
    print(
        f"# Python {platform.python_version()}, openskill {openskill.__version__}, {pinned}, "
        f"{args.players} players, seed {args.seed}, best of {args.repeat}"
    )
    print(f"| {'measurement':<46} | {'games':>7} | {'seconds':>7} | {'games/s':>8} |")
    print(f"|{'-' * 48}|{'-' * 8}:|{'-' * 8}:|{'-' * 9}:|")

    def line(what: str, n: int, seconds: float) -> None:
        print(f"| {what:<46} | {n:>7,} | {seconds:>7.3f} | {n / seconds:>8,.0f} |", flush=True)
        if what.startswith("rate("):  # for the record in bench/all.py's table (no bar)
            report.figure(bar=f"Ratings: {what}, games/s", value=n / seconds, unit="games/s")

    model = PlackettLuce()
    four = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    line(
        "openskill model.rate, same 4 ratings, no ranks",
        args.games,
        best_of(args.repeat, lambda: [model.rate(four) for _ in range(args.games)]),
    )
    for shape in SHAPES:
        games = make_games(shape, args.games, args.players, args.seed)
        line(
            f"openskill model.rate alone, {shape}",
            len(games),
            best_of(args.repeat, lambda g=games: raw_openskill(g)),
        )
        line(
            f"rate() from scratch, {shape}",
            len(games),
            best_of(args.repeat, lambda g=games: rate(g)),
        )

    games = make_games("2v2", args.games + args.increment, args.players, args.seed)
    stored = rate(games[: args.games])
    new = games[args.games :]
    line(
        f"rate(+{args.increment}, previous={args.games:,} games), 2v2",
        len(new),
        best_of(args.repeat, lambda: rate(new, previous=stored)),
    )
    everything = rate(games)
    seconds = best_of(args.repeat, lambda: leaderboard(everything, min_games=5))
    print(f"\nleaderboard() of {len(everything)} players: {seconds * 1e3:.3f} ms")


if __name__ == "__main__":
    main()

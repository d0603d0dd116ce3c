"""Simulated duplicate events for the benchmark and the tests: every board of a movement
played, with random Spades-like scores (no rules engine: this exercises the comparison)."""

from __future__ import annotations

import random

from .compare import Result
from .movements import Movement, plays

__all__ = ["simulated_results"]


def simulated_results(movement: Movement, per_round: int, *, seed: int = 1,
                      compare: str = "own") -> list[Result]:
    """One result for every board the movement plays: each side's own score a multiple of 10
    plus bags, drawn at random around the board's par (so that results tie now and then)."""
    rng = random.Random(seed)
    out = []
    for play in plays(movement, per_round):
        par = (play.board * 37) % 9 + 2  # the board's "par" bid for NS
        ns_bid = max(1, par + rng.randint(-1, 1))
        ew_bid = max(1, 11 - par + rng.randint(-1, 1))
        ns_taken = max(0, min(13, par + rng.randint(-2, 2)))
        ew_taken = 13 - ns_taken
        ns = 10 * ns_bid + ns_taken - ns_bid if ns_taken >= ns_bid else -10 * ns_bid
        ew = 10 * ew_bid + ew_taken - ew_bid if ew_taken >= ew_bid else -10 * ew_bid
        if compare == "net":
            ns, ew = ns - ew, ew - ns
        out.append(Result(board=play.board, ns=play.ns, ew=play.ew, ns_score=ns, ew_score=ew,
                          table=play.table, round=play.round))
    return out

"""Simulated duplicate events for the benchmark and the tests: every board of a movement
played, with random Spades-like scores (no rules engine: this exercises the comparison); and
one board played legally from its deal (`play_board`, for the demo and the tests)."""

from __future__ import annotations

import random
from typing import Any

from .boards import SEATS, Board
from .compare import Result
from .movements import Movement, plays

__all__ = ["play_board", "simulated_results"]


def simulated_results(
    movement: Movement, per_round: int, *, seed: int = 1, compare: str = "own"
) -> list[Result]:
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
        out.append(
            Result(
                board=play.board,
                ns=play.ns,
                ew=play.ew,
                ns_score=ns,
                ew_score=ew,
                table=play.table,
                round=play.round,
            )
        )
    return out


class _Stacked(random.Random):
    """A random source whose first `shuffle` stacks the pack as given (the board's deal), the
    rest of its draws random: the game's simulator then plays that deal legally."""

    def __init__(self, seed: int, deck: list[Any]) -> None:
        super().__init__(seed)
        self._deck: list[Any] | None = deck

    def shuffle(self, x: list[Any], *args: object, **kwargs: object) -> None:  # type: ignore[override]
        if self._deck is not None:
            x[:] = self._deck
            self._deck = None
            return
        super().shuffle(x, *args, **kwargs)


def play_board(board: Board, game: str, rules: dict[str, Any], *, seed: int = 1) -> dict[str, Any]:
    """A full `hand/1` record of `board` played at random but legally by the game's simulator
    (`games.simulate`): the board's deal, dealer and (Whist) turned card, random bids and play."""
    from games.cards import NAMES

    if game == "spades":
        from games.simulate import spades as spades_sim
        from games.spades import BOOK

        compiled = BOOK.resolve(rules)[0]
        index = {name: i for i, name in enumerate(NAMES)}
        table = compiled.tables[board.dealer]
        deck = [index[c] for seat in table.seats for c in board.hands[seat]]
        record = spades_sim.random_hand(_Stacked(seed, deck), rules, dealer=board.dealer)
    elif game == "whist":
        from games.simulate import whist as whist_sim

        d = SEATS.index(board.dealer)
        order = []
        for i in range(4):
            seat = SEATS[(d + 1 + i) % 4]
            cards = [c for c in board.hands[seat] if c != board.turned] + (
                [board.turned] if seat == board.dealer else []
            )
            order.append(cards)
        cards_dealt = [order[i][k] for k in range(13) for i in range(4)]
        record = whist_sim.random_hand(_Stacked(seed, cards_dealt), rules, dealer=board.dealer)
    else:
        raise ValueError(f"duplicate is played at spades or whist, not {game!r}")
    record.pop("rules", None)
    return record

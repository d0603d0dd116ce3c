"""Boards: numbering, the dealer by board number, seeded deals, and board sets per round.

A board is one deal with a number, a dealer and, for Whist, the turned card. The dealer goes
round the table with the board number: board 1 N, 2 E, 3 S, 4 W, 5 N ... A seeded deal is a
shuffle of the 52 cards by `random.Random` seeded with the text ``"<seed>/<board>"`` (the same
seed and board number give the same deal, on every machine and Python version: a str seed is
hashed with SHA-512). The cards are dealt one at a time clockwise from the dealer's left, so
the dealer receives the last card: for Whist that card is the turned card (`turned`, as in a
hand record), which stays in the dealer's hand. Cards are named as hand records name them
("AS", "TD"); each hand lists spades, hearts, diamonds, clubs, each from the ace down.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.cards import NAMES

from .errors import DuplicateError

__all__ = [
    "GAMES",
    "SEATS",
    "Board",
    "board_set",
    "board_sets",
    "deal_board",
    "deal_boards",
    "dealer_of",
    "dealers",
    "set_of",
]

SEATS = "NESW"
#: The games played in duplicate (Solo Whist and German Whist are not: spec, "Boards").
GAMES = ("spades", "whist")


@dataclass(frozen=True, slots=True)
class Board:
    """One board: its number, dealer, each seat's 13 cards and, for Whist, the turned card."""

    number: int
    dealer: str
    hands: dict[str, tuple[str, ...]]
    turned: str | None = None

    def record_fields(self) -> dict[str, Any]:
        """The fields a full hand record of this board must carry: `dealer`, `deal` and (Whist)
        `turned`."""
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "deal": {s: list(self.hands[s]) for s in SEATS},
        }
        if self.turned is not None:
            out["turned"] = self.turned
        return out


def _check_board(number: object) -> int:
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise DuplicateError(
            "bad-board", f"a board number is a whole number from 1, not {number!r}"
        )
    return number


def dealer_of(number: int) -> str:
    """The dealer of board `number`: 1 N, 2 E, 3 S, 4 W, 5 N ..."""
    return SEATS[(_check_board(number) - 1) % 4]


def _display_order(card: int) -> tuple[int, int]:
    return card // 13, -(card % 13)  # suit S H D C, then rank from the ace down


def deal_board(seed: int | str, number: int, game: str = "spades") -> Board:
    """Board `number` dealt from `seed` for `game` ("spades" or "whist")."""
    if game not in GAMES:
        raise DuplicateError(
            "bad-game", f"duplicate is played at {' or '.join(GAMES)}, not {game!r}"
        )
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise DuplicateError("bad-seed", f"a deal seed is an int or a str, not {seed!r}")
    dealer = dealer_of(number)
    pack = list(range(52))
    random.Random(f"{seed}/{number}").shuffle(pack)
    first = (SEATS.index(dealer) + 1) % 4  # the dealer's left receives the first card
    dealt: dict[str, list[int]] = {s: [] for s in SEATS}
    for k, card in enumerate(pack):
        dealt[SEATS[(first + k) % 4]].append(card)
    turned = NAMES[dealt[dealer][-1]] if game == "whist" else None  # the dealer's last card
    hands = {
        s: tuple(NAMES[c] for c in sorted(cards, key=_display_order)) for s, cards in dealt.items()
    }
    return Board(number=number, dealer=dealer, hands=hands, turned=turned)


def deal_boards(
    seed: int | str, count: int, game: str = "spades", *, first: int = 1
) -> list[Board]:
    """Boards `first` .. `first + count - 1` dealt from `seed`."""
    return [deal_board(seed, n, game) for n in range(_check_board(first), first + count)]


def board_set(number: int, per_round: int) -> tuple[int, ...]:
    """The board numbers of set `number` (1-based) of `per_round` boards: set 1 is boards
    1..per_round, set 2 the next per_round, and so on."""
    _check_board(number)
    _check_board(per_round)
    start = (number - 1) * per_round + 1
    return tuple(range(start, start + per_round))


def board_sets(sets: int, per_round: int) -> list[tuple[int, ...]]:
    """Every set's board numbers, set 1 first."""
    return [board_set(s, per_round) for s in range(1, sets + 1)]


def set_of(board: int, per_round: int) -> int:
    """The set board `board` belongs to."""
    return (_check_board(board) - 1) // _check_board(per_round) + 1


def dealers(boards: Sequence[int]) -> dict[int, str]:
    """The dealer of each board number."""
    return {b: dealer_of(b) for b in boards}

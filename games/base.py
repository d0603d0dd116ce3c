"""What every game engine provides (`Game`), and helpers the games share.

A game module exposes ``GAME``, an object satisfying `Game`, and is listed once in
`games.registry`: records, the command line and the tournaments' choices all read that list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from games.cards import CARD_BITS, NAMES, parse_cards
from games.errors import RecordError
from games.rules import RuleBook

#: A game's compiled rules (`SpadesRules`, `WhistRules` ...): each engine takes its own, so the
#: protocol leaves them open.
CompiledRules = Any


class Game(Protocol):
    """A rules engine, one per game. State, records and results are plain JSON data."""

    #: The record's `game` ("spades", "solo-whist" ...).
    name: str
    #: The rule options and presets, and how to compile them (`book.resolve(rules)`).
    book: RuleBook

    def seats(self, rules: CompiledRules) -> str:
        """The seat letters at the table, clockwise."""
        ...

    def initial_state(self, rules: CompiledRules) -> dict[str, Any]:
        """The match state before its first hand."""
        ...

    def read_state(self, before: Any, rules: CompiledRules) -> dict[str, Any]:
        """A record's `before`, checked (a `bad-state` RecordError otherwise)."""
        ...

    def check_hand(
        self, record: dict[str, Any], rules: CompiledRules, state: dict[str, Any]
    ) -> dict[str, Any]:
        """The result fields of one hand (`tricks`, `score`, `after`, `notes`, and for a full
        record `trick_winners`: the seat that won each trick played), or a `RecordError`."""
        ...

    def next_dealer(self, rules: CompiledRules, dealer: str) -> str:
        """Who deals the next hand of a match."""
        ...

    def match_end(self, rules: CompiledRules, state: dict[str, Any]) -> tuple[bool, str | None]:
        """Whether the rules end the match in this state, and the winning side or seat."""
        ...

    def match_summary(self, rules: CompiledRules, state: dict[str, Any]) -> dict[str, Any]:
        """Extra fields of a match result (games, game points, net)."""
        ...


def next_seat(seats: str, seat: str) -> str:
    """The seat to the left (clockwise) of `seat`."""
    return seats[(seats.index(seat) + 1) % len(seats)]


def read_dealer(record: dict[str, Any], seats: str) -> str:
    dealer = record.get("dealer")
    if dealer is None:
        raise RecordError("bad-format", "the hand has no dealer")
    if not isinstance(dealer, str) or dealer not in seats:
        raise RecordError("bad-seat", f"dealer {dealer!r} is not one of the seats {seats}")
    return dealer


def read_counts(value: Any, keys: str | tuple[str, ...], what: str) -> dict[str, int]:
    """A dict of non-negative ints with exactly the given keys (seats or sides)."""
    if not isinstance(value, dict):
        raise RecordError("bad-format", f"{what} must be an object keyed by {', '.join(keys)}")
    if set(value) != set(keys):
        raise RecordError(
            "bad-seat", f"{what} must name exactly {', '.join(keys)}, not {', '.join(value)}"
        )
    counts = {}
    for key in keys:
        n = value[key]
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RecordError("bad-format", f"{what}[{key}] must be a whole number, not {n!r}")
        counts[key] = n
    return counts


def read_scores(value: Any, keys: str | tuple[str, ...], what: str) -> dict[str, int]:
    """A dict of ints (negative allowed) with exactly the given keys."""
    if not isinstance(value, dict) or set(value) != set(keys):
        raise RecordError("bad-state", f"{what} must be an object keyed by {', '.join(keys)}")
    for key in keys:
        n = value[key]
        if not isinstance(n, int) or isinstance(n, bool):
            raise RecordError("bad-state", f"{what}[{key}] must be an integer, not {n!r}")
    return {key: value[key] for key in keys}


def read_hands(deal: dict[str, Any], seats: str, sizes: Sequence[int], pack: int) -> list[int]:
    """Each seat's dealt cards as a bitmask, in `seats` order, or `bad-deal` naming the seat
    and card: a card dealt twice, a card not in `pack`, or a hand that is not `sizes[i]` cards.
    Checking that `deal` names exactly the right seats is the caller's."""
    masks, used = [], 0
    for seat, size in zip(seats, sizes, strict=True):
        cards: Any = deal.get(seat)
        try:
            # distinct cards: the sum is their union
            m: int = sum(map(CARD_BITS.__getitem__, cards))
            fast = type(cards) is list and m.bit_count() == len(cards)
        except (KeyError, TypeError):
            fast = False
        if not fast or m & used or m & ~pack:
            if cards is None:
                raise RecordError("bad-deal", f"the deal must give the hands of {', '.join(seats)}")
            m = 0
            for c in parse_cards(cards, seat=seat):
                if (m | used) >> c & 1:
                    raise RecordError(
                        "bad-deal", f"{NAMES[c]} is dealt twice", seat=seat, card=NAMES[c]
                    )
                if not pack >> c & 1:
                    raise RecordError(
                        "bad-deal", f"{NAMES[c]} is not in the pack", seat=seat, card=NAMES[c]
                    )
                m |= 1 << c
        if m.bit_count() != size:
            raise RecordError(
                "bad-deal", f"{seat} was dealt {m.bit_count()} cards, not {size}", seat=seat
            )
        used |= m
        masks.append(m)
    return masks


def read_claim(claim: Any, seats: str, remaining: int) -> tuple[str, int]:
    """The claimer's seat (one of `seats`) and the tricks claimed, or `bad-claim`."""
    if not isinstance(claim, dict) or set(claim) != {"seat", "tricks"}:
        raise RecordError("bad-claim", 'a claim is {"seat": ..., "tricks": ...}')
    seat, n = claim["seat"], claim["tricks"]
    if not isinstance(seat, str) or len(seat) != 1 or seat not in seats:
        raise RecordError("bad-claim", f"{seat!r} is not a player at this table")
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= remaining:
        raise RecordError(
            "bad-claim", f"{seat} claims {n!r} tricks but {remaining} remain", seat=seat
        )
    return seat, n


def signed(n: Any) -> str:
    """A score change with its sign, as notes write it: +64, -50, 0."""
    return f"+{n}" if n > 0 else str(n)

"""Cards, suits and seats as small integers, and the forgiving card reader.

A card is an int: ``suit * 13 + (rank - 2)`` with suits S=0, H=1, D=2, C=3 and ranks 2..14
(ace high); the little joker is 52 and the big joker 53. A set of cards is an int bitmask.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Unpack

from games.errors import RecordError, Where

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
LITTLE_JOKER = 52
BIG_JOKER = 53
PACK_52 = (1 << 52) - 1

NAMES: tuple[str, ...] = tuple([r + s for s in SUITS for r in RANKS] + ["LJ", "BJ"])
SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(52)) + (SPADES, SPADES)
RANK_OF: tuple[int, ...] = tuple(c % 13 + 2 for c in range(52)) + (15, 16)
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))

#: Each suit's sign as printed (the one home of these symbols: pages, sheets, the rules in words).
SUIT_SIGNS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOLS = {sign: letter for letter, sign in SUIT_SIGNS.items()} | {
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}


def _spellings() -> dict[str, int]:
    """Every accepted spelling of every card: AS, as, As, 10S, TS, A♠, ♠A, 10♠ ..."""
    table: dict[str, int] = {}
    for card in range(52):
        rank, suit = RANKS[card % 13], SUITS[card // 13]
        ranks = [rank, "10"] if rank == "T" else [rank]
        suits = [suit] + [sym for sym, letter in _SYMBOLS.items() if letter == suit]
        for r in ranks:
            for s in suits:
                for text in (r + s, s + r):
                    table[text] = card
                    table[text.lower()] = card
                    table[text.upper()] = card
                    table[r.lower() + s] = card
                    table[r + s.lower()] = card
    for text, card in (("LJ", LITTLE_JOKER), ("BJ", BIG_JOKER)):
        table[text] = card
        table[text.lower()] = card
    return table


CARD_IDS: dict[str, int] = _spellings()
CARD_BITS: dict[str, int] = {text: 1 << card for text, card in CARD_IDS.items()}


def parse_card(text: object, **where: Unpack[Where]) -> int:
    """The card a string names, or a `bad-card` error."""
    card = CARD_IDS.get(text) if isinstance(text, str) else None
    if card is None:
        if isinstance(text, str):
            card = CARD_IDS.get(text.strip())
        if card is None:
            raise RecordError("bad-card", f"{text!r} is not a card", **where)
    return card


def parse_cards(value: object, **where: Unpack[Where]) -> list[int]:
    """A list of cards: a JSON list of card strings, or one string of cards split by spaces."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    elif not isinstance(value, list):
        raise RecordError("bad-format", f"expected a list of cards, got {value!r}", **where)
    ids = CARD_IDS
    try:
        return [ids[c] for c in value]
    except (KeyError, TypeError):
        return [parse_card(c, **where) for c in value]


def cards_in(mask: int) -> list[int]:
    """The cards of a bitmask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names(cards: Iterable[int]) -> list[str]:
    return [NAMES[c] for c in cards]


def parse_suit(text: object, **where: Unpack[Where]) -> int:
    """A suit letter or symbol (S, h, ♦ ...), or a `bad-format` error."""
    if isinstance(text, str):
        letter = _SYMBOLS.get(text, text.upper())
        if len(letter) == 1 and letter in SUITS:
            return SUITS.index(letter)
    raise RecordError("bad-format", f"{text!r} is not a suit (S, H, D, C)", **where)

"""How a game is shown: what every game's presentation module provides (`GamePresentation`),
and the parts most games share (`Presentation`, a base class with the common defaults).

One module per game (spades.py, whist.py ...), registered once in `tournaments.presentation`;
the pages, the scoring page, the printed sheets, the hand checker and the rules in words all
ask it. The rules engine (`games`) stays the authority: a presentation writes what the engine
decided (its results, its compiled rules), never works a score out again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.base import next_seat
from games.cards import CARD_IDS, NAMES, SUIT_SIGNS
from tournaments.words.rules import call_label
from tournaments.words.rules import card as card_label

Label = str | Promise  # a translatable text, translated when shown


@dataclass
class TrickView:
    """One trick of a full record as the match page shows it."""

    number: int
    leader: str | None
    plays: list[tuple[str | None, str]]  # (seat, card as printed), in the order played
    winner: str | None


class GamePresentation(Protocol):
    """Everything the tournaments layer shows of one game. (Its data are read-only properties
    here: a game states them as plain class attributes, of these types or narrower.)"""

    @property
    def name(self) -> str:
        """The record's `game`, as in `games.registry`."""
        ...

    @property
    def label(self) -> Label:
        """The game's name for people ("Solo Whist")."""
        ...

    @property
    def preset_names(self) -> Mapping[str, Label]:
        """The presets as players call them (an id missing here is shown as written)."""
        ...

    @property
    def sheet_leading(self) -> tuple[Label, ...]:
        """The paper score sheet: columns for the hand as a whole, then a group per side."""
        ...

    @property
    def sheet_per_side(self) -> tuple[Label, ...]: ...

    @property
    def sheet_rows(self) -> int:
        """Sheet rows when the match runs to a target score or until the round is closed."""
        ...

    @property
    def form_template(self) -> str:
        """The scoring form's facts of a hand (the scoring page and the director's correction)."""
        ...

    @property
    def card_entry(self) -> bool:
        """Whether a hand may be entered card by card (the deal and every trick) at four seats."""
        ...

    @property
    def turned_card(self) -> bool:
        """Whether the dealer turns up a card for trumps (card-by-card entry asks which)."""
        ...

    def rules_in_words(self, options: dict[str, Any], compiled: Any) -> list[str]:
        """One sentence per rule, from the engine's full option dict and compiled rules."""
        ...

    def call_word(self, call: str) -> str:
        """A call of a hand record in the reader's language."""
        ...

    def target_sentences(self, options: dict[str, Any]) -> list[str]:
        """Those of `rules_in_words` that say how a game is won by reaching a score: left out
        where the tournament's matches end otherwise (a number of hands)."""
        ...

    def facts(self, record: dict, result: dict) -> list[tuple[str, str]]:
        """The match page's (label, value) facts of a hand: bags, honours, contract ..."""
        ...

    def summary(self, record: dict, result: dict) -> str:
        """The scoring page's one line of what was bid or played in a hand."""
        ...

    def form(self, compiled: Any) -> dict[str, Any]:
        """What the scoring form offers under these rules (calls, tricks in a hand ...)."""
        ...

    def layouts(self, compiled: Any, seats: str, sides: tuple[str, ...]) -> dict[str, Any]:
        """For each possible dealer: the seats in play, the calling order, the sides."""
        ...

    def dummy_seats(self, compiled: Any) -> list[str]:
        """Seats only a dummy occupies (none but in two-handed Spades)."""
        ...

    def tricks(self, record: dict, result: dict) -> list[TrickView]:
        """Each trick of a full record: who led, who played what, who won (the engine's
        `trick_winners`)."""
        ...

    def demo_record(self, rng: random.Random) -> Any:
        """A simulated record of legal play to try the hand checker with."""
        ...

    @property
    def demo_label(self) -> Label:
        """The hand checker's link to that demo ("a Spades match")."""
        ...


def suit_sign(letter: str | None) -> str:
    """S -> ♠ (anything else as given)."""
    return SUIT_SIGNS.get(letter or "", letter or "")


def per_side(values: Mapping[str, Any]) -> str:
    """{"NS": 3, "EW": 4} -> "NS 3 · EW 4"."""
    return " · ".join(f"{side} {value}" for side, value in values.items())


def order_from_left(seats: str, dealer: str) -> list[str]:
    """Seats clockwise from the dealer's left (the order of the calls)."""
    order, seat = [], dealer
    for _n in range(len(seats)):
        seat = next_seat(seats, seat)
        order.append(seat)
    return order


def canonical(name: str) -> str:
    """A card as the engine names it (AS, TH, BJ), however the record spelled it."""
    return NAMES[CARD_IDS[name]]


def trick_cards(play: list) -> list[list[str]]:
    """Each trick's cards, canonical (a trick may be a list or one string)."""
    return [[canonical(n) for n in (t.split() if isinstance(t, str) else list(t))] for t in play]


def engine_winners(record: dict, result: dict, tricks: int) -> list[str | None]:
    """The engine's winner of each trick, or None for each where the result does not say
    (a result stored before the engine returned `trick_winners`)."""
    winners = result.get("trick_winners")
    if isinstance(winners, list) and len(winners) == tricks:
        return list(winners)
    return [None] * tricks


class Presentation:
    """The defaults most games share: calls go clockwise from the dealer's left, nobody is a
    dummy, each card's player is read from the deal (after any exchange)."""

    name: str
    label: Label
    preset_names: Mapping[str, Label] = {}
    sheet_leading: tuple[Label, ...] = (_("Hand"), _("Dealer"))
    sheet_per_side: tuple[Label, ...] = ()
    sheet_rows = 16
    form_template: str
    card_entry = True
    turned_card = False

    @property
    def demo_label(self) -> Label:
        """The game's name, unless the game says what its demo is."""
        return self.label

    def call_word(self, call: str) -> str:
        return call_label(call)

    def target_sentences(self, options: dict[str, Any]) -> list[str]:
        return []

    def facts(self, record: dict, result: dict) -> list[tuple[str, str]]:
        return []

    def summary(self, record: dict, result: dict) -> str:
        return ""

    def layouts(self, compiled: Any, seats: str, sides: tuple[str, ...]) -> dict[str, Any]:
        out = {}
        for dealer in seats:
            out[dealer] = {
                "seats": list(seats),
                "order": order_from_left(seats, dealer),
                "dummy": None,
                "sides": list(sides),
                "members": {side: [s for s in seats if s in side] for side in sides},
                "sideOf": {s: next(side for side in sides if s in side) for s in seats},
                "consult": list(sides),
            }
        return out

    def dummy_seats(self, compiled: Any) -> list[str]:
        return []

    def tricks(self, record: dict, result: dict) -> list[TrickView]:
        cards = trick_cards(record["play"])
        owner = _owners(record)
        winners = engine_winners(record, result, len(cards))
        views = []
        for number, (trick, winner) in enumerate(zip(cards, winners, strict=True), 1):
            seats = [owner.get(c) for c in trick]
            views.append(
                TrickView(
                    number=number,
                    leader=seats[0] if seats else None,
                    plays=[(seat, card_label(c)) for seat, c in zip(seats, trick, strict=True)],
                    winner=winner,
                )
            )
        return views


def _owners(record: dict) -> dict[str, str]:
    """Who held each card when it was played: the deal, then any exchange of cards."""
    owner = {}
    for seat, held in record["deal"].items():
        for name in held:
            owner[canonical(name)] = seat
    for move in record.get("exchange") or []:
        for name in move.get("cards", []):
            owner[canonical(name)] = move.get("to", owner.get(canonical(name)))
    return owner

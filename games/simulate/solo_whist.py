"""Random legal Solo Whist hands: a random deal, a random legal auction, random legal play."""

from __future__ import annotations

import random
from typing import Any

from games.cards import BIG_JOKER, NAMES, PACK_52, SUIT_MASKS, SUIT_OF, SUITS, cards_in, parse_cards
from games.simulate import play_match
from games.solo_whist import (
    ABUNDANCE,
    DECLAREDS,
    GAME,
    SEATS,
    Auction,
    SoloRules,
)

# How often a random player makes each call when it is legal (pass is the common call).
WEIGHTS = {
    "pass": 16,
    "prop": 4,
    "cop": 6,
    "solo": 3,
    "misere": 2,
    "abundance": 1,
    "abundance-in-trumps": 1,
    "misere-ouverte": 0.5,
    "abundance-declared": 0.3,
    "abundance-declared-in-trumps": 0.3,
}


def random_match(rng: random.Random, rules: Any = "phillips", *, hands: int = 8) -> dict[str, Any]:
    """A `match/1` record of `hands` hands in rotation (the rules never end this game's
    matches: a tournament caps them)."""
    from games.solo_whist import GAME

    return play_match(GAME, random_hand, rng, rules, max_hands=hands)


def random_hand(
    rng: random.Random,
    rules: Any = "phillips",
    *,
    dealer: str | None = None,
    before: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A full hand/1 record, dealt, bid and played at random but legally under `rules`."""
    compiled, canonical = GAME.book.resolve(rules)
    state = (
        GAME.read_state(before, compiled) if before is not None else GAME.initial_state(compiled)
    )
    dealer = dealer if dealer is not None else rng.choice(SEATS)
    record: dict[str, Any] = {
        "format": "hand/1",
        "game": GAME.name,
        "rules": canonical,
        "dealer": dealer,
    }
    if before is not None:
        record["before"] = state

    hands, turned = _deal(rng, compiled, dealer)
    record["deal"] = {s: [NAMES[c] for c in _order(rng, hands[s])] for s in SEATS}
    if turned is not None:
        record["turned"] = NAMES[turned]
    turned_suit = SUIT_OF[turned] if turned is not None else state["deals"] % 4

    auction = Auction(compiled, dealer)
    calls = []
    while not auction.over and auction.turn is not None:
        seat = auction.turn
        legal = auction.legal()
        call = rng.choices(legal, [WEIGHTS[c] for c in legal])[0]
        calls.append({"seat": seat, "call": call})
        auction.call(seat, call)
    record["calls"] = calls
    if auction.thrown_in:
        return record

    bid, declarer = auction.declared()
    trump: int | None = None
    if compiled.names_trump(bid):
        trump = rng.randrange(4)
        record["trump"] = SUITS[trump]
    elif bid in ("prop", "solo", "abundance-in-trumps"):
        trump = turned_suit
    first_trump = turned_suit if bid == ABUNDANCE and compiled.turned_first else trump
    leader = declarer if bid in DECLAREDS else SEATS[(SEATS.index(dealer) + 1) % 4]
    record["play"], record["tricks"] = _play(
        rng, compiled, hands, turned, leader, trump, first_trump
    )
    return record


def _deal(rng: random.Random, rules: SoloRules, dealer: str) -> tuple[dict[str, int], int | None]:
    joker = rules.indicator == "joker"
    pack = cards_in(PACK_52 | (1 << BIG_JOKER if joker else 0))
    while True:
        rng.shuffle(pack)
        hands = {s: sum(1 << c for c in pack[13 * i : 13 * i + 13]) for i, s in enumerate(SEATS)}
        if not joker:
            break
        if pack[52] != BIG_JOKER:  # a turned joker means a redeal
            return hands, pack[52]
    if rules.indicator == "dealer-card":
        return hands, rng.choice(cards_in(hands[dealer]))
    if rules.indicator == "second-pack":
        return hands, rng.randrange(52)
    return hands, None  # rotation


def _order(rng: random.Random, mask: int) -> list[int]:
    cards = cards_in(mask)
    rng.shuffle(cards)
    return cards


def _play(
    rng: random.Random,
    rules: SoloRules,
    hands: dict[str, int],
    turned: int | None,
    leader: str,
    trump: int | None,
    first_trump: int | None,
) -> tuple[list[list[str]], dict[str, int]]:
    hands = dict(hands)
    joker_as = turned if rules.indicator == "joker" else None  # the card the joker plays as
    suit_masks = list(SUIT_MASKS)
    if joker_as is not None:
        suit_masks[SUIT_OF[joker_as]] |= 1 << BIG_JOKER

    def eff(card: int) -> int:
        return joker_as if joker_as is not None and card == BIG_JOKER else card

    won = dict.fromkeys(SEATS, 0)
    play = []
    for number in range(1, 14):
        t = first_trump if number == 1 else trump
        trick: list[str] = []
        seat, led, best, best_seat = leader, -1, -1, leader  # led, best: set by the lead
        for _ in range(4):
            hand = hands[seat]
            follow = hand & suit_masks[led] if led >= 0 else 0
            card = rng.choice(cards_in(follow or hand))
            e = eff(card)
            if led < 0:
                led, best, best_seat = SUIT_OF[e], e, seat
            elif (SUIT_OF[e] == SUIT_OF[best] and e > best) or (
                SUIT_OF[e] == t and SUIT_OF[best] != t
            ):
                best, best_seat = e, seat
            hands[seat] &= ~(1 << card)
            trick.append(NAMES[card])
            seat = SEATS[(SEATS.index(seat) + 1) % 4]
        won[best_seat] += 1
        leader = best_seat
        play.append(trick)
    return play, won


def to_summary(full_record: dict[str, Any]) -> dict[str, Any]:
    """The summary record of a full one: no deal and no play; turned and tricks kept."""
    compiled, _ = GAME.book.resolve(full_record["rules"])
    summary = {k: v for k, v in full_record.items() if k not in ("deal", "play", "claim")}
    if "turned" not in summary and compiled.indicator == "joker":
        dealt = sum(1 << c for s in SEATS for c in parse_cards(full_record["deal"][s]))
        summary["turned"] = NAMES[cards_in((PACK_52 | 1 << BIG_JOKER) & ~dealt)[0]]
    if "tricks" not in summary:
        state = (
            GAME.read_state(full_record["before"], compiled)
            if "before" in full_record
            else GAME.initial_state(compiled)
        )
        result = GAME.check_hand(full_record, compiled, state)
        if "tricks" in result:
            summary["tricks"] = result["tricks"]
    return summary

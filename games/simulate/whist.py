"""Random whist hands and rubbers: full `hand/1` records dealt and played at random.

The play here is its own small implementation (card strings, lists), independent of the
engine's bitmask replay, so that property tests compare two implementations.
"""

from __future__ import annotations

import random
from typing import Any

from games.simulate import play_match

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "23456789TJQKA"
PACK = [r + s for s in SUITS for r in RANKS]
HONOURS = "AKQJ"


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _winner(cards: list[str], trump: str) -> int:
    """Index (0 = leader) of the card that wins a trick."""
    led = cards[0][1]
    best = 0
    for i, card in enumerate(cards[1:], 1):
        top = cards[best]
        if card[1] == top[1]:
            if _rank(card) > _rank(top):
                best = i
        elif card[1] == trump:
            best = i
    return best if cards[best][1] in (led, trump) else 0


def random_hand(
    rng: random.Random,
    rules: Any = "short-whist",
    *,
    dealer: str | None = None,
    before: dict[str, Any] | None = None,
    revoke_rate: float = 0.0,
    penalty: str | None = None,
) -> dict[str, Any]:
    """A full whist record: a random deal and random play that follows suit.

    With ``revoke_rate`` > 0 a player able to follow suit instead revokes with that
    probability (when holding another suit); the record then carries ``penalty`` (the given
    one, or a random choice). `tricks` and `honours` are filled in consistently.
    """
    if dealer is None:
        dealer = rng.choice(SEATS)
    deck = list(PACK)
    rng.shuffle(deck)
    d = SEATS.index(dealer)
    # one card at a time from the dealer's left: the dealer receives the 52nd card, turned up
    hands = {SEATS[(d + 1 + i) % 4]: deck[i::4] for i in range(4)}
    turned = deck[51]
    assert turned in hands[dealer]
    trump = turned[1]
    deal = {seat: list(hands[seat]) for seat in SEATS}
    held = {seat: list(hands[seat]) for seat in SEATS}
    leader = (d + 1) % 4
    play = []
    tricks = {"NS": 0, "EW": 0}
    revoked = False
    for _ in range(13):
        cards: list[str] = []
        for k in range(4):
            seat = SEATS[(leader + k) % 4]
            hand = held[seat]
            if cards:
                follow = [c for c in hand if c[1] == cards[0][1]]
                other = [c for c in hand if c[1] != cards[0][1]]
                if follow and other and revoke_rate and rng.random() < revoke_rate:
                    choice = rng.choice(other)
                    revoked = True
                else:
                    choice = rng.choice(follow or hand)
            else:
                choice = rng.choice(hand)
            hand.remove(choice)
            cards.append(choice)
        play.append(cards)
        leader = (leader + _winner(cards, trump)) % 4
        tricks["NS" if leader % 2 == 0 else "EW"] += 1
    honour_cards = {h + trump for h in HONOURS}
    honours = {
        "NS": len(honour_cards & set(deal["N"] + deal["S"])),
        "EW": len(honour_cards & set(deal["E"] + deal["W"])),
    }
    record: dict[str, Any] = {"format": "hand/1", "game": "whist", "rules": rules, "dealer": dealer}
    if before is not None:
        record["before"] = before
    record.update(
        {"deal": deal, "turned": turned, "play": play, "tricks": tricks, "honours": honours}
    )
    if revoked:
        record["penalty"] = penalty or rng.choice(("transfer", "deduct"))
    return record


def random_match(
    rng: random.Random, rules: Any = "short-whist", **hand_options: Any
) -> dict[str, Any]:
    """A complete `match/1` record: hands dealt in rotation until the rules end the match
    (every hand scores at least one point, so a rubber always ends)."""
    from games.whist import GAME

    record = play_match(GAME, random_hand, rng, rules, max_hands=10_000, **hand_options)
    record["seats"] = {"N": "North", "E": "East", "S": "South", "W": "West"}
    return record


def to_summary(full: dict[str, Any]) -> dict[str, Any]:
    """The summary record equivalent to a full one (what checking the full record proves)."""
    from games.records import check_hand

    result = check_hand(full)
    if not result["ok"]:
        raise ValueError(f"not a valid record: {result['errors']}")
    summary: dict[str, Any] = {
        key: full[key]
        for key in ("format", "game", "rules", "dealer", "before", "penalty")
        if key in full
    }
    summary["trump"] = result["trump"]
    summary["tricks"] = result["tricks"]
    summary["honours"] = result["honours"]
    counts: dict[str, int] = {}
    for entry in result["revokes"]:
        counts[entry["seat"]] = counts.get(entry["seat"], 0) + 1
    if counts:
        summary["revokes"] = [{"seat": seat, "count": n} for seat, n in counts.items()]
    return summary

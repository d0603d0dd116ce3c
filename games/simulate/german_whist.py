"""Random German Whist games: full `hand/1` records dealt and played at random but legally.

The play here is its own small implementation (card strings, lists), independent of the
engine's bitmask replay, so that property tests compare two implementations.
"""

from __future__ import annotations

import random
from typing import Any

from games.simulate import play_match

SEATS = "NS"
SUITS = "SHDC"
RANKS = "23456789TJQKA"
PACK = [r + s for s in SUITS for r in RANKS]


def _leader_wins(lead: str, follow: str, trump: str) -> bool:
    if follow[1] == lead[1]:
        return RANKS.index(lead[0]) > RANKS.index(follow[0])
    return follow[1] != trump


def random_match(rng: random.Random, rules: Any = "standard", *, hands: int = 6) -> dict[str, Any]:
    """A `match/1` record of `hands` hands in rotation (the rules never end this game's
    matches: a tournament caps them)."""
    from games.german_whist import GAME

    return play_match(GAME, random_hand, rng, rules, max_hands=hands)


def random_hand(
    rng: random.Random,
    rules: Any = "standard",
    *,
    dealer: str | None = None,
    before: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A full German Whist record: random deal, random legal play, `tricks` and `winner`."""
    from games.german_whist import GAME

    compiled, _ = GAME.book.resolve(rules)
    size = compiled.hand_size
    if dealer is None:
        dealer = rng.choice(SEATS)
    other = "S" if dealer == "N" else "N"
    deck = list(PACK)
    rng.shuffle(deck)
    # one card at a time, starting with the non-dealer; the rest is the stock, top card turned
    deal = {other: deck[0 : 2 * size : 2], dealer: deck[1 : 2 * size : 2]}
    stock = deck[2 * size :]
    trump = stock[0][1]
    held = {seat: list(deal[seat]) for seat in SEATS}
    drawing = len(stock) // 2
    leader = other
    play = []
    taken = {"N": 0, "S": 0}
    for number in range(1, 27):
        follower = "S" if leader == "N" else "N"
        lead = rng.choice(held[leader])
        held[leader].remove(lead)
        suited = [c for c in held[follower] if c[1] == lead[1]]
        follow = rng.choice(suited or held[follower])
        held[follower].remove(follow)
        play.append([lead, follow])
        winner = leader if _leader_wins(lead, follow, trump) else follower
        loser = "S" if winner == "N" else "N"
        if number <= drawing:
            held[winner].append(stock[2 * (number - 1)])
            held[loser].append(stock[2 * number - 1])
        if number > drawing or compiled.all_count:
            taken[winner] += 1
        leader = winner
    record: dict[str, Any] = {
        "format": "hand/1",
        "game": "german-whist",
        "rules": rules,
        "dealer": dealer,
    }
    if before is not None:
        record["before"] = before
    record.update(
        {
            "deal": {"N": deal["N"], "S": deal["S"]},
            "stock": stock,
            "turned": stock[0],
            "play": play,
            "tricks": taken,
        }
    )
    return record


def to_summary(full: dict[str, Any]) -> dict[str, Any]:
    """The summary record equivalent to a full one (what checking the full record proves)."""
    from games.records import check_hand

    result = check_hand(full)
    if not result["ok"]:
        raise ValueError(f"not a valid record: {result['errors']}")
    summary: dict[str, Any] = {
        key: full[key] for key in ("format", "game", "rules", "dealer", "before") if key in full
    }
    summary["tricks"] = result["tricks"]
    summary["winner"] = result["winner"]
    return summary

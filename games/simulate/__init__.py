"""Random legal hand records, one module per game, for property tests, benchmarks and demo data.

Each module offers ``random_hand(rng, rules=..., *, dealer=None, before=None) -> dict``: a full
`hand/1` record dealt at random and played at random but legally under the given rules, and
``random_match(rng, rules=...)``: a `match/1` record of such hands (see `play_match`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def play_match(
    game: Any,
    random_hand: Callable[..., dict[str, Any]],
    rng: random.Random,
    rules: Any,
    *,
    max_hands: int,
    **hand_options: Any,
) -> dict[str, Any]:
    """A `match/1` record: hands dealt in rotation, each from the state the earlier ones left,
    until the rules end the match or `max_hands` have been played."""
    compiled, canonical = game.book.resolve(rules)
    state = game.initial_state(compiled)
    dealer = rng.choice(game.seats(compiled))
    hands = []
    for _ in range(max_hands):
        hand = random_hand(rng, canonical, dealer=dealer, before=state, **hand_options)
        for key in ("format", "game", "rules", "before"):
            hand.pop(key, None)
        state = game.check_hand(hand, compiled, state)["after"]
        hands.append(hand)
        if game.match_end(compiled, state)[0]:
            break
        dealer = game.next_dealer(compiled, dealer)
    return {"format": "match/1", "game": game.name, "rules": canonical, "hands": hands}

"""Conversions between TrickTable Spades records and OpenSpiel's `spades` game.

Used by the differential tests (tests/games/test_openspiel_spades.py) and the rules-engine
benchmark (bench/rules_engine.py). OpenSpiel is an optional extra (`make openspiel`): this module
imports without it, and `pyspiel` is None then.

What OpenSpiel 2.0.2's `spades` is (read from open_spiel/games/spades/spades.cc and
spades_scoring.cc), and how it maps onto TrickTable's options:

- Players 0, 1, 2, 3 are N, E, S, W; partnerships 0 & 2 (NS) and 1 & 3 (EW).
- A card action is ``suit * 13 + rank`` with suits C, D, H, S = 0..3 and ranks 2..A = 0..12
  (``action_to_string``: "C2" ... "SA"). TrickTable's card ids use suits S, H, D, C = 0..3, so
  the suit index is mirrored: ``tt = (3 - os // 13) * 13 + os % 13`` (and the same back).
- The deal is 52 chance actions; the i-th card dealt goes to player ``i % 4``.
- North (player 0) always bids first and leads to the first trick: in TrickTable terms the
  dealer is W. A TrickTable hand with another dealer is rotated so that the dealer's left
  becomes player 0.
- Bids are actions 52 + n, n = 0..13; n = 0 is Nil (OpenSpiel has no numeric zero bid, no
  double nil, no blind bids). Each player bids their own tricks and the side's contract is the
  sum (TrickTable ``bidding: sum``); the two bids of a side may not add up to more than 13.
- Play: follow suit; spades may be led only by a player who holds nothing else (OpenSpiel never
  sets "spades broken"). TrickTable lets anyone lead a spade once one has been played, so every
  OpenSpiel game is legal for TrickTable but not the converse.
- Scoring of one hand, per side: contract = sum of the bids (nil counts 0), tricks = all the
  side's tricks (a failed nil's included: TrickTable's RESOLUTIONS["side-tricks"]); made:
  10 x contract + 1 per overtrick; set: -10 x contract; nil +-100; sandbag: -100 x
  ((current_score % 10 + overtricks) // 10), i.e. the bags are the last digit of the running
  score (C++ ``%``, so negative scores give negative "bags"). TrickTable counts bags separately
  (`before.bags`); both agree whenever the running score is >= 0 and ``bags == score % 10``,
  in particular for a hand from a zero score.
- ``returns()`` are the side's hand score, plus ``win_or_loss_bonus`` when the *hand* score
  reaches ``win_threshold`` or falls to ``mercy_threshold`` (OpenSpiel tests the hand score,
  not the cumulative one). `PARAMS` sets the bonus to 0 and the mercy threshold to 0 (which is
  what disables the mercy rule in ScoreUp; ``use_mercy_rule`` itself is not consulted there),
  so the returns are exactly the hand score.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from games.cards import CARD_IDS, NAMES

try:  # optional extra
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None

# TrickTable options matching OpenSpiel's rules: each player bids their own tricks, a bid of 0 is
# nil, no double nil, the sandbagging rule at 10 bags for -100. Everything else is `standard`
# (nil 100, set -10 x bid, 1 point an overtrick, spades broken, left of dealer leads).
RULES: dict[str, Any] = {
    "preset": "standard",
    "options": {
        "bidding": "sum",
        "zero_bid_is_nil": True,
        "double_nil": "never",
        "sandbag": True,
    },
}
# OpenSpiel parameters under which a hand's returns are the pure hand score.
PARAMS: dict[str, Any] = {"use_mercy_rule": False, "mercy_threshold": 0, "win_or_loss_bonus": 0}

SEATS = "NESW"
SIDES = ("NS", "EW")
BID_BASE = 52  # OpenSpiel's first bidding action (bid 0 = Nil)
SPADES_OS = 3  # OpenSpiel's suit index of spades


def tt_card(action: int) -> int:
    """TrickTable's card id of an OpenSpiel card action (the map is its own inverse)."""
    return (3 - action // 13) * 13 + action % 13


os_card = tt_card
TT_NAME: tuple[str, ...] = tuple(NAMES[tt_card(a)] for a in range(52))  # action -> "AS"
OS_ACTION: dict[str, int] = {NAMES[tt_card(a)]: a for a in range(52)}  # "AS" -> action


def load_game(**params: Any) -> Any:
    """OpenSpiel's `spades` with `PARAMS` (overridable)."""
    if pyspiel is None:
        raise RuntimeError("OpenSpiel is not installed (make openspiel)")
    return pyspiel.load_game("spades", {**PARAMS, **params})


# -- OpenSpiel -> TrickTable -------------------------------------------------------------------


def record_from_history(
    history: Iterable[int], start_scores: tuple[int, int] | None = None, rules: Any = None
) -> dict[str, Any]:
    """The TrickTable `hand/1` full record of a finished OpenSpiel game's action history.

    `start_scores` are the scores OpenSpiel started from (`set_current_scores`): they become
    `before`, with each side's bags the last digit of its score (OpenSpiel's bag rule; scores
    must then be >= 0 for the two to agree)."""
    history = list(history)
    if len(history) != 52 + 4 + 52:
        raise ValueError(f"a finished OpenSpiel spades game has 108 actions, not {len(history)}")
    deal: dict[str, list[str]] = {s: [] for s in SEATS}
    for i, a in enumerate(history[:52]):
        deal[SEATS[i % 4]].append(TT_NAME[a])
    calls = []
    for p, a in enumerate(history[52:56]):
        n = a - BID_BASE
        if not 0 <= n <= 13:
            raise ValueError(f"action {a} is not a bid")
        calls.append({"seat": SEATS[p], "call": "nil" if n == 0 else str(n)})
    cards = [TT_NAME[a] for a in history[56:]]
    record: dict[str, Any] = {
        "format": "hand/1",
        "game": "spades",
        "rules": RULES if rules is None else rules,
        "dealer": "W",  # North bids first and leads: the dealer's left
    }
    if start_scores is not None:
        if min(start_scores) < 0:
            raise ValueError("OpenSpiel's bags match TrickTable's only from scores >= 0")
        record["before"] = {
            "score": dict(zip(SIDES, start_scores, strict=True)),
            "bags": {side: s % 10 for side, s in zip(SIDES, start_scores, strict=True)},
        }
    record["deal"] = deal
    record["calls"] = calls
    record["play"] = [cards[i : i + 4] for i in range(0, 52, 4)]
    return record


_TRICKS = re.compile(
    r"Tricks taken:\s*North East\s+South\s+West\s*\n\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)"
)


def seat_order(dealer: str = "W") -> str:
    """TrickTable's seat of each OpenSpiel player 0..3 for a hand dealt by `dealer`: player 0
    sits at the dealer's left."""
    left = (SEATS.index(dealer) + 1) % 4
    return "".join(SEATS[(left + p) % 4] for p in range(4))


def openspiel_tricks(state: Any, dealer: str = "W") -> dict[str, int]:
    """Tricks per TrickTable seat as OpenSpiel counted them (from its state string)."""
    m = _TRICKS.search(str(state))
    if m is None:
        raise ValueError("the state shows no tricks taken")
    return dict(zip(seat_order(dealer), map(int, m.groups()), strict=True))


def openspiel_scores(state: Any, dealer: str = "W") -> dict[str, int]:
    """Each TrickTable side's returns of a finished game (the hand score under `PARAMS`):
    OpenSpiel's partnership of players 0 and 2 is NS unless the seats were rotated by one."""
    returns = state.returns()
    first = "NS" if seat_order(dealer)[0] in "NS" else "EW"
    second = "EW" if first == "NS" else "NS"
    return {first: round(returns[0]), second: round(returns[1])}


def openspiel_start_scores(
    before: dict[str, Any] | None, dealer: str = "W"
) -> tuple[int, int] | None:
    """The (player 0 and 2's, player 1 and 3's) scores to `set_current_scores` for a TrickTable
    `before`; OpenSpiel has no separate bags, so `before.bags` must be the scores' last digits."""
    if not before:
        return None
    score = before.get("score", {"NS": 0, "EW": 0})
    bags = before.get("bags", {"NS": 0, "EW": 0})
    if any(score[s] < 0 or bags[s] != score[s] % 10 for s in SIDES):
        raise ValueError("OpenSpiel keeps bags as the last digit of a score >= 0")
    first = "NS" if seat_order(dealer)[0] in "NS" else "EW"
    return (score[first], score["EW" if first == "NS" else "NS"])


# -- TrickTable -> OpenSpiel -------------------------------------------------------------------


def actions_from_record(record: dict[str, Any], *, bids: str = "exact") -> list[int]:
    """OpenSpiel's action sequence (52 deal actions, 4 bids, 52 cards) for a 4-player
    partnership full record without exchange or claim; seats are rotated so that the dealer's
    left is OpenSpiel's player 0.

    bids="exact": each call must be an OpenSpiel bid ("nil", or "0".."13" meaning the player's
    own tricks, as under `RULES`), else ValueError. bids="legal": any call is turned into some
    legal OpenSpiel bid (nils to Nil, numbers clamped so a side's bids sum to at most 13), for
    replay timing only: the scores then mean nothing."""
    if "exchange" in record or "claim" in record:
        raise ValueError("OpenSpiel has no card exchange and no claims")
    dealer = record["dealer"]
    order = seat_order(dealer)  # OpenSpiel player p sits at order[p]
    deal = record["deal"]
    hands = [deal[seat] for seat in order]
    if any(len(h) != 13 for h in hands):
        raise ValueError("OpenSpiel deals 13 cards to each of 4 players")
    actions = [OS_ACTION[_name(hands[i % 4][i // 4])] for i in range(52)]
    own = [-1, -1, -1, -1]
    calls = record["calls"]
    if len(calls) != 4:
        raise ValueError("OpenSpiel has exactly one call per player")
    for p, entry in enumerate(calls):
        if entry.get("seat") != order[p]:
            raise ValueError(f"call {p + 1} is not {order[p]}'s")
        call = str(entry["call"]).strip().lower()
        partner = own[(p + 2) % 4]
        if call.isdigit():
            n = int(call)
        elif call == "nil" or (bids == "legal" and "nil" in call):
            n = 0
        else:
            raise ValueError(f"OpenSpiel has no call {call!r}")
        if bids == "legal":
            n = min(n, 13 - max(partner, 0))
        elif not 0 <= n <= 13 or (partner >= 0 and n + partner > 13):
            raise ValueError(f"OpenSpiel does not allow the bid {call!r} here")
        own[p] = n
        actions.append(BID_BASE + n)
    play = record["play"]
    if len(play) != 13:
        raise ValueError("OpenSpiel plays all 13 tricks")
    for trick in play:
        cards = trick.split() if isinstance(trick, str) else trick
        actions.extend(OS_ACTION[_name(c)] for c in cards)
    return actions


def _name(card: str) -> str:
    return NAMES[CARD_IDS[card]]


class Rejected(Exception):
    """OpenSpiel refused an action: `index` in the sequence, `reason` ("spades-lead" when only
    its stricter spade-leading rule forbids the card, else "illegal")."""

    def __init__(self, index: int, action: int, reason: str) -> None:
        super().__init__(f"action {index} ({action}) rejected: {reason}")
        self.index, self.action, self.reason = index, action, reason


def replay(game: Any, actions: list[int], start_scores: tuple[int, int] | None = None) -> Any:
    """Apply `actions` to a new game, each checked against OpenSpiel's `legal_actions()`; the
    terminal state, or `Rejected` naming the first refused action and why.

    (`apply_action_with_legality_check` does the same check in C++, faster, but OpenSpiel
    prints every refusal to standard error; the benchmark uses it on accepted hands.)"""
    state = game.new_initial_state()
    if start_scores is not None:
        state.set_current_scores(list(start_scores))
    for i, a in enumerate(actions):
        if a not in state.legal_actions():
            raise Rejected(i, a, _reason(state, i, a))
        state.apply_action(a)
    if not state.is_terminal():
        raise Rejected(len(actions), -1, "unfinished")
    return state


def _reason(state: Any, index: int, action: int) -> str:
    """ "spades-lead" when the refused action is a spade led, after a spade has been played, by
    a player who holds it and other suits too: legal for TrickTable (spades broken), not for
    OpenSpiel. Anything else is "illegal"."""
    played = index - 56
    if played < 0 or played % 4 or action // 13 != SPADES_OS:
        return "illegal"
    # The leader's hand, from OpenSpiel's own view: lines "S AK2", "H none" ...
    lines = state.observation_string(state.current_player()).splitlines()[:4]
    holds = {line[0]: line[2:].strip() for line in lines}
    if "23456789TJQKA"[action % 13] not in holds.get("S", ""):
        return "illegal"
    if all(holds.get(s, "none") == "none" for s in "HDC"):
        return "illegal"
    broken = any(a // 13 == SPADES_OS for a in state.history()[56:])
    return "spades-lead" if broken else "illegal"


def random_game(
    game: Any, rng: Any, *, start_scores: tuple[int, int] | None = None, max_bid: int = 13
) -> Any:
    """A finished OpenSpiel game: a random deal (uniform chance outcomes), random legal bids
    (at most `max_bid` each) and random legal plays."""
    state = game.new_initial_state()
    if start_scores is not None:
        state.set_current_scores(list(start_scores))
    deck = list(range(52))
    rng.shuffle(deck)
    for a in deck:  # each chance outcome is an undealt card, uniformly
        state.apply_action(a)
    for _ in range(4):
        legal = [a for a in state.legal_actions() if a - BID_BASE <= max_bid]
        state.apply_action(rng.choice(legal))
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state

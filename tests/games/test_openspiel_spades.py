"""Differential tests: TrickTable's Spades engine against OpenSpiel's `spades` (C++).

OpenSpiel's rules and how they map onto TrickTable's options are described in
games/simulate/openspiel.py: `RULES` (standard with bidding "sum", a bid of 0 is nil, no double
nil, sandbagging at 10 bags) and `PARAMS` (no win bonus, no mercy rule, so a hand's returns are
its score).

1. Thousands of OpenSpiel games (random deal through the chance nodes, random legal bids and
   plays) become TrickTable full records: every one must validate (OpenSpiel's play rules are
   stricter than TrickTable's) and give the same tricks per seat and the same score per side,
   from a zero score and from running scores whose last digit is the side's bags.
2. The converse: TrickTable's random hands under the same rules, replayed by OpenSpiel with its
   legality check. OpenSpiel refuses a spade led after spades are broken by a player holding
   other suits (it never breaks spades); those hands are skipped, any other refusal fails.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.records import check_record
from games.simulate import openspiel as osp
from games.simulate.spades import random_hand
from tests.conftest import require

try:
    import pyspiel
except ImportError:  # OpenSpiel is an optional extra: `make openspiel`
    pyspiel = None


@pytest.fixture(scope="module", autouse=True)
def _openspiel():
    """Skip without OpenSpiel locally; in CI (which installs it) its absence is a failure.
    Module-scoped, so it runs before the module-scoped `game` (which also asks for it): a
    function-scoped check would come after `game` had already failed to load OpenSpiel."""
    require(pyspiel is not None, "needs OpenSpiel: make openspiel")


OPENSPIEL_GAMES = 10_000  # compared in test_openspiel_games_...
TRICKTABLE_HANDS = 6_000  # offered to OpenSpiel in test_tricktable_hands_...


@pytest.fixture(scope="module")
def game(_openspiel):
    return osp.load_game()


def _hand_of(observation: str) -> list[str]:
    """The cards in an OpenSpiel observation string's hand lines ("S AK2", "H none" ...)."""
    cards = []
    for line in observation.splitlines()[:4]:
        suit, ranks = line[0], line[2:].strip()
        if ranks != "none":
            cards += [r + suit for r in ranks]
    return cards


def test_card_encoding_matches_openspiel(game):
    state = game.new_initial_state()
    for action in range(52):
        os_name = state.action_to_string(pyspiel.PlayerId.CHANCE, action)  # e.g. "CT"
        assert osp.TT_NAME[action] == os_name[1] + os_name[0]
        assert osp.OS_ACTION[osp.TT_NAME[action]] == action
        assert osp.os_card(osp.tt_card(action)) == action
    for n in range(14):
        assert state.action_to_string(0, osp.BID_BASE + n) == ("Nil" if n == 0 else str(n))


def test_seats_and_deal_order_match_openspiel(game):
    """Chance action i deals to player i % 4; player 0 is N and bids and leads first."""
    rng = random.Random(7)
    for _ in range(20):
        state = game.new_initial_state()
        deck = list(range(52))
        rng.shuffle(deck)
        for a in deck:
            state.apply_action(a)
        assert state.current_player() == 0  # North bids first
        record = osp.record_from_history(deck + [osp.BID_BASE + 1] * 4 + [0] * 52)
        for p, seat in enumerate("NESW"):
            assert sorted(_hand_of(state.observation_string(p))) == sorted(record["deal"][seat])
        for _ in range(4):
            state.apply_action(osp.BID_BASE + 3)
        assert state.current_player() == 0  # and North leads
    assert osp.seat_order("W") == "NESW" and osp.seat_order("N") == "ESWN"


def test_parameters_make_returns_the_hand_score(game):
    """The parameters OpenSpiel has, and ours: no win/mercy bonus in a hand's returns."""
    spec = next(g for g in pyspiel.registered_games() if g.short_name == "spades")
    assert set(spec.parameter_specification) == {
        "use_mercy_rule",
        "mercy_threshold",
        "win_threshold",
        "win_or_loss_bonus",
        "num_tricks",
    }
    params = game.get_parameters()
    assert params["win_or_loss_bonus"] == 0 and params["mercy_threshold"] == 0


def _compare(state, record, dealer="W"):
    """Differences between OpenSpiel's finished game and TrickTable's result for the record."""
    result = check_record(record)
    if not result["ok"]:
        return result, [f"TrickTable rejects it: {result['errors']}"]
    diffs = []
    tricks = osp.openspiel_tricks(state, dealer)
    if result["tricks"] != tricks:
        diffs.append(f"tricks {result['tricks']} != OpenSpiel {tricks}")
    scores = osp.openspiel_scores(state, dealer)
    if result["score"] != scores:
        diffs.append(f"score {result['score']} != OpenSpiel {scores}")
    return result, diffs


def test_openspiel_games_are_legal_and_score_the_same(game):
    rng = random.Random(20261)
    seen: Counter = Counter()
    failures = []
    for n in range(OPENSPIEL_GAMES):
        mode = n % 3
        # 0: from zero, any bids; 1: from zero, low bids (many overtricks: 10 bags in one hand);
        # 2: from running scores >= 0, whose last digit is each side's bags (OpenSpiel's rule).
        start = (rng.randrange(500), rng.randrange(500)) if mode == 2 else None
        state = osp.random_game(game, rng, start_scores=start, max_bid=3 if mode == 1 else 13)
        record = osp.record_from_history(state.history(), start)
        result, diffs = _compare(state, record)
        if result["ok"]:
            after = result["after"]
            os_after = dict(zip(osp.SIDES, state.get_current_scores(), strict=True))
            if after["score"] != os_after:
                diffs.append(f"after {after['score']} != OpenSpiel {os_after}")
            for side, score in after["score"].items():
                if score >= 0 and after["bags"][side] != score % 10:
                    diffs.append(f"{side} bags {after['bags'][side]} != last digit of {score}")
            notes = " | ".join(result["notes"])
            seen["nil made"] += notes.count("made nil")
            seen["nil failed"] += notes.count("failed nil")
            seen["set"] += notes.count(": set")
            seen["10 bags"] += notes.count("bags (-100)")
            seen["both nil"] += all(c["call"] == "nil" for c in record["calls"][0::2]) or all(
                c["call"] == "nil" for c in record["calls"][1::2]
            )
        if diffs:
            failures.append((n, state.history(), start, diffs))
    assert not failures, f"{len(failures)} of {OPENSPIEL_GAMES} games differ; first: {failures[:3]}"
    # The games exercised every scoring rule OpenSpiel has.
    for what in ("nil made", "nil failed", "set", "10 bags", "both nil"):
        assert seen[what] >= 10, (what, seen)


def test_tricktable_hands_replay_in_openspiel(game):
    rng = random.Random(20262)
    outcome: Counter = Counter()
    failures = []
    for n in range(TRICKTABLE_HANDS):
        before = None
        if n % 2:
            score = {"NS": rng.randrange(500), "EW": rng.randrange(500)}
            before = {"score": score, "bags": {s: v % 10 for s, v in score.items()}}
        hand = random_hand(rng, osp.RULES, before=before)
        dealer = hand["dealer"]
        actions = osp.actions_from_record(hand)  # every call under RULES is an OpenSpiel bid
        try:
            state = osp.replay(game, actions, osp.openspiel_start_scores(before, dealer))
        except osp.Rejected as refused:
            outcome[refused.reason] += 1
            if refused.reason != "spades-lead":
                failures.append((n, hand, str(refused)))
            continue
        result, diffs = _compare(state, hand, dealer)
        outcome["compared"] += 1
        if diffs:
            failures.append((n, hand, diffs))
    assert not failures, f"{len(failures)} hands differ; first: {failures[:2]}"
    # Random play leads spades freely once they are broken, so most hands are refused; enough
    # are left to compare.
    assert outcome["compared"] >= TRICKTABLE_HANDS // 20, outcome


def test_spade_lead_refused_by_openspiel_is_legal_for_tricktable(game):
    """The one rule where OpenSpiel is stricter, on a constructed hand: N leads a spade on the
    second trick, after E trumped the first, while still holding hearts."""
    deal = {
        "N": "AS KS QS JS AH KH QH JH TH 9H 8H 7H 6H",
        "E": "2S 3S 4S 5S 6S 7S 8S 9S TS AC KC QC JC",
        "S": "5H 4H 3H 2H AD KD QD JD TD 9D 8D 7D 6D",
        "W": "5D 4D 3D 2D TC 9C 8C 7C 6C 5C 4C 3C 2C",
    }
    play = [["AH", "2S", "5H", "5D"], ["3S", "4H", "4D", "AS"]]
    # E won the first trick with 2S (spades are broken) and leads 3S holding clubs: legal for
    # TrickTable. N wins it and claims the rest.
    record = {
        "format": "hand/1",
        "game": "spades",
        "rules": osp.RULES,
        "dealer": "W",
        "deal": {s: v.split() for s, v in deal.items()},
        "calls": [{"seat": s, "call": "3"} for s in "NESW"],
        "play": play,
        "claim": {"seat": "N", "tricks": 11},
    }
    result = check_record(record)
    assert result["ok"], result
    assert result["tricks"] == {"N": 12, "E": 1, "S": 0, "W": 0}
    actions = [osp.OS_ACTION[c] for i in range(52) for c in [deal["NESW"[i % 4]].split()[i // 4]]]
    actions += [osp.BID_BASE + 3] * 4 + [osp.OS_ACTION[c] for t in play for c in t]
    with pytest.raises(osp.Rejected) as refused:
        osp.replay(game, actions)
    assert refused.value.reason == "spades-lead" and refused.value.index == 56 + 4

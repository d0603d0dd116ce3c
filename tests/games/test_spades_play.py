"""Spades full records (deal, exchange, every card), matches, and properties of the replay."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import check_record
from games.cards import CARD_IDS, NAMES, SUIT_OF
from games.simulate.spades import random_hand, random_match, to_summary
from games.spades import BOOK, PRESETS
from tests import sizes
from tests.games.spades_records import SUITED_DEAL, calls, hand, opts, state

DUMMY = opts(players=2, partnership=False, two_player_deal="dummy")
DRAW = opts(players=2, partnership=False)
VARIANTS = [
    *PRESETS,
    DUMMY,
    opts(players=2, partnership=False, two_player_deal="dummy", dummy_seat="right"),
    DRAW,
    opts("windswept", jokers=2),
    opts("windswept", jokers=1),
    opts(dealer_discards=2, jokers=2),
    opts(bidding_rounds=2, first_lead="highest-bidder", double_blind_nil=True),
    opts(deuce_of_spades_high=True, high_trumps=["2D", "2H"], removed_cards=[]),
    opts("pagat-1996", double_blind_nil=True, last_trick_bonus="sequence"),
]


def check(record: dict) -> dict:
    return check_record(json.loads(json.dumps(record)))


def first_error(record: dict) -> dict:
    result = check(record)
    assert not result["ok"], "expected an error"
    return result["errors"][0]


def full(deal: dict, call_text: str, play: list, **fields) -> dict:
    record = {"format": "hand/1", "game": "spades", "rules": "standard", "deal": deal}
    record.update(fields)
    record["calls"] = calls(call_text)
    record["play"] = play
    return record


# --- hand-made deals ----------------------------------------------------------------------------


def test_a_leader_holding_only_spades_may_lead_them_before_they_are_broken():
    play = [[f"{r}S", f"{r}H", f"{r}D", f"{r}C"] for r in "AKQJT98765432"]
    result = check(full(SUITED_DEAL, "N:4 E:0 S:9 W:0", play, dealer="W"))
    assert result["tricks"] == {"N": 13, "E": 0, "S": 0, "W": 0}
    assert result["score"] == {"NS": 94, "EW": 0}


def test_trumping_in_breaks_spades_and_the_winner_leads_next():
    # E leads the ace of hearts, N trumps with the two; from then on N leads spades.
    play = [["AH", "AD", "AC", "2S"]]
    play += [
        [f"{r}S", f"{h}H", f"{h}D", f"{h}C"]
        for r, h in zip("AKQJT9876543", "KQJT98765432", strict=True)
    ]
    result = check(full(SUITED_DEAL, "E:0 S:4 W:0 N:9", play, dealer="N"))
    assert result["tricks"] == {"N": 13, "E": 0, "S": 0, "W": 0}


def test_the_stated_tricks_must_match_the_replay():
    play = [[f"{r}S", f"{r}H", f"{r}D", f"{r}C"] for r in "AKQJT98765432"]
    record = full(
        SUITED_DEAL, "N:4 E:0 S:9 W:0", play, dealer="W", tricks={"N": 12, "E": 1, "S": 0, "W": 0}
    )
    assert first_error(record)["code"] == "tricks-mismatch"


def dummy_record() -> dict:
    """Dealer N, dummy E (the dealer's left), player S. 2D is not dealt."""
    deal = {
        "N": [r + "H" for r in "AKQJT98765432"] + ["AD", "KD", "QD", "JD"],
        "E": [r + "S" for r in "AKQJT98765432"] + ["TD", "9D", "8D", "7D"],
        "S": [r + "C" for r in "AKQJT98765432"] + ["6D", "5D", "4D", "3D"],
    }
    # The first lead passes from the dummy to S; the dummy's top spade wins and S leads again.
    play = [[f"{r}C", f"{r}H", f"{r}S"] for r in "AKQJT98765432"]
    play += [["6D", "AD", "TD"], ["KD", "9D", "5D"], ["QD", "8D", "4D"], ["JD", "7D", "3D"]]
    return {
        "format": "hand/1",
        "game": "spades",
        "rules": DUMMY,
        "dealer": "N",
        "deal": deal,
        "calls": calls("S:0 N:4"),
        "play": play,
    }


def test_the_dummy_plays_its_top_card_and_the_player_at_its_left_leads_for_it():
    result = check(dummy_record())
    assert result["tricks"] == {"N": 4, "E": 13, "S": 0}
    assert result["score"] == {"N": 40, "S": 0}


def test_the_dummy_must_play_its_top_card():
    record = dummy_record()
    record["play"][0] = ["AC", "AH", "KS"]
    error = first_error(record)
    assert (error["code"], error["trick"], error["seat"], error["card"]) == (
        "must-play-top-card",
        1,
        "E",
        "KS",
    )


def test_a_deal_must_be_a_permutation_of_the_pack():
    base = full(SUITED_DEAL, "N:4 E:0 S:9 W:0", [], dealer="W")
    twice = copy.deepcopy(base)
    twice["deal"]["E"][0] = "AS"
    assert first_error(twice)["code"] == "bad-deal"
    assert first_error(twice)["card"] == "AS"
    short = copy.deepcopy(base)
    short["deal"]["W"] = short["deal"]["W"][:12]
    assert first_error(short)["code"] == "bad-deal"
    joker = copy.deepcopy(base)
    joker["deal"]["W"][0] = "BJ"
    assert first_error(joker) == {
        "code": "bad-deal",
        "message": "BJ is not in the pack",
        "seat": "W",
        "card": "BJ",
    }


def test_cards_may_be_written_forgivingly():
    deal = {
        seat: [c.replace("T", "10").lower() for c in cards] for seat, cards in SUITED_DEAL.items()
    }
    deal["N"] = [c.replace("s", "♠") for c in deal["N"]]
    play = [" ".join([f"{r}S", f"{r}H", f"{r}D", f"{r}C"]) for r in "AKQJT98765432"]
    assert check(full(deal, "N:4 E:0 S:9 W:0", play, dealer="W"))["ok"]


def test_a_trick_needs_one_card_from_each_player():
    play = [[f"{r}S", f"{r}H", f"{r}D"] for r in "AKQJT98765432"]
    assert first_error(full(SUITED_DEAL, "N:4 E:0 S:9 W:0", play, dealer="W")) == {
        "code": "bad-trick",
        "message": "trick 1 has 3 cards, not 4",
        "trick": 1,
    }


def test_the_play_must_not_stop_early_without_a_claim_nor_run_long():
    play = [[f"{r}S", f"{r}H", f"{r}D", f"{r}C"] for r in "AKQJT98765432"]
    short = full(SUITED_DEAL, "N:4 E:0 S:9 W:0", play[:12], dealer="W")
    assert first_error(short)["code"] == "play-incomplete"
    long = full(SUITED_DEAL, "N:4 E:0 S:9 W:0", [*play, play[0]], dealer="W")
    assert first_error(long)["code"] == "too-many-tricks"


def test_a_claim_closes_the_record_and_gives_the_rest_to_the_claimer():
    play = [[f"{r}S", f"{r}H", f"{r}D", f"{r}C"] for r in "AKQJT98765432"]
    record = full(
        SUITED_DEAL, "N:4 E:0 S:9 W:0", play[:9], dealer="W", claim={"seat": "N", "tricks": 4}
    )
    assert check(record)["tricks"] == {"N": 13, "E": 0, "S": 0, "W": 0}
    record["claim"] = {"seat": "N", "tricks": 5}
    assert first_error(record)["code"] == "bad-claim"


def test_a_claim_that_concedes_tricks_to_two_opponents_needs_the_tricks_stated():
    play = [[f"{r}S", f"{r}H", f"{r}D", f"{r}C"] for r in "AKQJT98765432"]
    record = full(
        SUITED_DEAL, "N:4 E:0 S:9 W:0", play[:9], dealer="W", claim={"seat": "N", "tricks": 2}
    )
    assert first_error(record)["code"] == "claim-ambiguous"
    record["tricks"] = {"N": 11, "E": 1, "S": 0, "W": 1}
    assert check(record)["tricks"] == {"N": 11, "E": 1, "S": 0, "W": 1}
    record["tricks"] = {"N": 10, "E": 1, "S": 1, "W": 1}  # NS gain 2 between them: agreed
    assert check(record)["ok"]
    record["tricks"] = {"N": 10, "E": 2, "S": 0, "W": 1}  # NS gain 1, not the 2 claimed
    assert first_error(record)["code"] == "tricks-mismatch"


# --- rule tables ---------------------------------------------------------------------------------


def trump_order(rules) -> list[str]:
    compiled, _ = BOOK.resolve(rules)
    key = compiled.keys[1]  # hearts led
    return sorted(
        (NAMES[c] for c in range(54) if compiled.pack >> c & 1 and key[c] >= 100),
        key=lambda name: -key[CARD_IDS[name]],
    )


def test_barmore_trumps_run_big_joker_little_joker_deuce_ace_down_to_three():
    assert trump_order("pagat-barmore") == [
        "BJ",
        "LJ",
        "2S",
        "AS",
        "KS",
        "QS",
        "JS",
        "TS",
        "9S",
        "8S",
        "7S",
        "6S",
        "5S",
        "4S",
        "3S",
    ]


def test_winspades_trumps_run_big_joker_little_joker_ace_down_to_deuce():
    assert trump_order("winspades")[:4] == ["BJ", "LJ", "AS", "KS"]
    assert trump_order("winspades")[-1] == "2S"


def test_off_suit_high_trumps_rank_above_every_spade_in_their_order():
    assert trump_order(opts(high_trumps=["2D", "2H"]))[:3] == ["2D", "2H", "AS"]


def test_one_joker_is_the_big_joker_and_removes_the_two_of_clubs():
    compiled, _ = BOOK.resolve(opts("windswept", jokers=1))
    assert compiled.pack >> CARD_IDS["BJ"] & 1
    assert not compiled.pack >> CARD_IDS["2C"] & 1
    assert compiled.pack.bit_count() == 52


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("hoyle", {"double_nil": "always", "nil_exchange": 3, "exchange_when_both_nil": False}),
        (
            "pagat-1996",
            {
                "bidding": "consult",
                "nil_value": 50,
                "double_nil_value": 100,
                "set_penalty": "shortfall",
                "sandbag": True,
                "first_lead": "lowest-clubs",
            },
        ),
        (
            "pagat-barmore",
            {
                "jokers": 2,
                "removed_cards": ("2C", "2H"),
                "nil": False,
                "blind_bid_min": 7,
                "spades_broken": False,
            },
        ),
        (
            "pagat-3p",
            {
                "players": 3,
                "partnership": False,
                "first_lead": "two-of-clubs",
                "overtrick_points": -10,
                "target": 300,
                "blind_bid_min": 6,
            },
        ),
        (
            "dan-brad",
            {
                "double_nil_behind": 200,
                "double_nil_exchange": 0,
                "minimum_bid": 4,
                "ten_for_two": True,
                "double_nil_penalty": 100,
                "all_tricks_wins": True,
            },
        ),
        ("network-spades", {"partnership": False, "all_tricks_bonus": 200, "target": 300}),
        (
            "windswept",
            {
                "partnership": False,
                "zero_bid_is_nil": True,
                "exact_bid_bonus": 20,
                "nil_exchange": 3,
                "double_nil_exchange": 3,
            },
        ),
        ("spaceways", {"minimum_bid": 2, "ten_for_200": "at-least", "double_nil": "never"}),
        (
            "winspades",
            {
                "removed_cards": ("2D", "2H"),
                "big_bid_bonus": 100,
                "blind_made": "bonus-100",
                "blind_failed": "normal",
                "minimum_bid": 4,
            },
        ),
    ],
)
def test_each_seed_preset_sets_the_options_the_seed_names(preset, expected):
    compiled, _ = BOOK.resolve(preset)
    assert {name: compiled.options[name] for name in expected} == expected


def test_a_club_can_register_a_house_preset():
    BOOK.register_preset("club-house", {"target": 250, "sandbag": True}, base="hoyle")
    try:
        compiled, canonical = BOOK.resolve("club-house")
        assert canonical == "club-house"
        assert (compiled.options["target"], compiled.options["nil_exchange"]) == (250, 3)
    finally:
        del BOOK.presets["club-house"]
        BOOK._cache.clear()


# --- exchanges ----------------------------------------------------------------------------


def hand_with_exchange(preset: str) -> dict:
    """A random hand whose only special call is one plain nil, with its exchange."""
    rng = random.Random(11)
    while True:
        record = random_hand(rng, preset)
        special = [c["call"] for c in record["calls"] if not c["call"].isdigit()]
        if record.get("exchange") and special == ["nil"]:
            return record


def test_nil_partners_exchange_the_cards_the_rules_call_for():
    record = hand_with_exchange("hoyle")
    assert check(record)["ok"]
    assert {len(e["cards"]) for e in record["exchange"]} == {3}


def test_an_exchange_must_be_complete_and_from_the_givers_hand():
    record = hand_with_exchange("hoyle")
    missing = copy.deepcopy(record)
    missing["exchange"] = missing["exchange"][:1]
    assert first_error(missing)["code"] == "bad-exchange"
    foreign = copy.deepcopy(record)
    giver, taker = foreign["exchange"][0]["from"], foreign["exchange"][0]["to"]
    foreign["exchange"][0]["cards"][0] = foreign["deal"][taker][0]
    assert first_error(foreign) == {
        "code": "bad-exchange",
        "message": f"{giver} passes {foreign['deal'][taker][0].upper()} without holding it",
        "seat": giver,
        "card": foreign["deal"][taker][0],
    }


def test_no_exchange_is_due_for_a_nil_under_the_standard_rules():
    record = hand_with_exchange("hoyle")
    record["rules"] = "standard"
    assert first_error(record)["code"] == "bad-exchange"


# --- leaders ----------------------------------------------------------------------------


def holder(record: dict, card: str) -> str:
    return next(seat for seat, cards in record["deal"].items() if card in cards)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=sizes.examples(40), deadline=None)
def test_under_two_of_clubs_the_lowest_club_dealt_leads(seed):
    record = random_hand(random.Random(seed), "pagat-3p")
    dealt = [c for cards in record["deal"].values() for c in cards if c.endswith("C")]
    lowest = min(dealt, key=lambda c: CARD_IDS[c])
    assert record["play"][0][0] in record["deal"][holder(record, lowest)]
    assert check(record)["ok"]


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=sizes.examples(40), deadline=None)
def test_under_highest_bidder_the_first_highest_numeric_bid_leads(seed):
    rules = opts(first_lead="highest-bidder", bidding="sum")
    record = random_hand(random.Random(seed), rules)
    numeric = [(int(c["call"]), c["seat"]) for c in record["calls"] if c["call"].isdigit()]
    best = max(n for n, _ in numeric)
    leader = next(seat for n, seat in numeric if n == best)
    assert record["play"][0][0] in record["deal"][leader]
    assert check(record)["ok"]


# --- matches ----------------------------------------------------------------------------


def match(*hands: dict, rules="standard") -> dict:
    stripped = []
    for h in hands:
        h = dict(h)
        for key in ("format", "game", "rules"):
            h.pop(key, None)
        stripped.append(h)
    return {"format": "match/1", "game": "spades", "rules": rules, "hands": stripped}


def test_a_match_carries_the_score_and_rotates_the_dealer():
    result = check(
        match(
            hand("E:3 S:4 W:6 N:4", "N3 E2 S4 W4", dealer="N"),
            hand("S:3 W:4 N:5 E:4", "N5 E3 S2 W3", dealer="E"),
        )
    )
    assert result["ok"]
    # Hand 1: NS 4 of 4... N bids after S: side bid 4, took 7: 43; EW 6 of 6: 60.
    # Hand 2: NS 5, took 7: 52; EW 4, took 6: 42.
    assert [h["score"] for h in result["hands"]] == [{"NS": 43, "EW": 60}, {"NS": 52, "EW": 42}]
    assert result["after"] == {"score": {"NS": 95, "EW": 102}, "bags": {"NS": 5, "EW": 2}}
    assert (result["ended"], result["winner"]) == (False, None)


def test_a_hand_dealt_by_the_wrong_seat_is_wrong_dealer():
    result = check(
        match(
            hand("E:3 S:4 W:6 N:4", "N3 E2 S4 W4", dealer="N"),
            hand("W:3 N:4 E:5 S:4", "N5 E3 S2 W3", dealer="S"),
        )
    )
    assert result["errors"][0]["code"] == "wrong-dealer"
    assert result["errors"][0]["hand"] == 2


def test_the_game_ends_at_the_target_and_later_hands_are_match_over():
    near = hand("E:3 S:4 W:6 N:4", "N3 E2 S4 W4", dealer="N", before=state(480, 200))
    rules = "standard"
    record = match(near, hand("S:3 W:4 N:5 E:4", "N5 E3 S2 W3", dealer="E"), rules=rules)
    record["before"] = state(480, 200)
    del record["hands"][0]["before"]
    result = check(record)
    assert result["errors"][0]["code"] == "match-over"
    assert result["errors"][0]["hand"] == 2
    record["hands"] = record["hands"][:1]
    result = check(record)
    assert (result["ended"], result["winner"]) == (True, "NS")


def test_a_tie_at_the_target_plays_on():
    record = match(hand("E:3 S:4 W:6 N:4", "N3 E2 S4 W4", dealer="N"))
    record["before"] = state(457, 440)  # 457 + 43 = 500 = 440 + 60
    result = check(record)
    assert result["after"]["score"] == {"NS": 500, "EW": 500}
    assert (result["ended"], result["winner"]) == (False, None)


def test_a_hand_that_restates_a_different_state_or_rule_set_is_rejected():
    first = hand("E:3 S:4 W:6 N:4", "N3 E2 S4 W4", dealer="N")
    second = hand("S:3 W:4 N:5 E:4", "N5 E3 S2 W3", dealer="E", before=state(0, 0))
    assert check(match(first, second))["errors"][0]["code"] == "bad-state"
    record = match(first)
    record["hands"][0]["rules"] = "hoyle"
    assert check(record)["errors"][0]["code"] == "rules-mismatch"


def test_double_nil_eligibility_follows_the_score_through_a_match():
    losing = hand("E:3 S:4 W:6 N:4", "N0 E6 S1 W6", dealer="N")  # NS set: -40; EW 6 of 6 + 6
    dnil = hand("S:double-nil W:4 N:5 E:4", "N5 E4 S0 W4", dealer="E")
    result = check(match(losing, dnil))
    assert result["ok"], result
    assert result["hands"][1]["score"]["NS"] == 250


# --- properties ----------------------------------------------------------------------------

variant = st.sampled_from(VARIANTS)
seed = st.integers(0, 2**32 - 1)


@given(rules=variant, seed=seed)
@settings(
    max_examples=sizes.examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
def test_any_random_legal_hand_validates_and_its_tricks_sum_to_the_tricks_in_play(rules, seed):
    record = random_hand(random.Random(seed), rules)
    result = check(record)
    assert result["ok"], result.get("errors")
    compiled, _ = BOOK.resolve(rules)
    assert sum(result["tricks"].values()) == compiled.total_tricks


@given(rules=variant, seed=seed)
@settings(max_examples=sizes.examples(100), deadline=None)
def test_scoring_is_deterministic_and_a_summary_scores_like_its_full_record(rules, seed):
    record = random_hand(random.Random(seed), rules)
    once, again = check(record), check(copy.deepcopy(record))
    assert once == again
    summary = check(to_summary(record))
    if BOOK.resolve(rules)[0].options["last_trick_bonus"] == "off":
        # the full record's result adds who won each trick, which a summary cannot say
        assert len(once.pop("trick_winners")) == len(record["play"])
        assert summary == once


def breakable_follow(record: dict, compiled) -> tuple[int, int, int, int] | None:
    """A seat that followed suit in trick t (not leading) and, later in trick u, played a card
    of another suit: swapping the two makes trick t a failure to follow suit."""
    suit = compiled.suit
    owner = {CARD_IDS[c]: seat for seat, cards in record["deal"].items() for c in cards}
    plays = [[CARD_IDS[c] for c in trick] for trick in record["play"]]
    for t, trick in enumerate(plays):
        led = suit[trick[0]]
        for j in range(1, len(trick)):
            seat = owner[trick[j]]
            if suit[trick[j]] != led:
                continue
            for u in range(t + 1, len(plays)):
                for k, b in enumerate(plays[u]):
                    if owner[b] == seat and suit[b] != led:
                        return t, j, u, k
    return None


@given(
    seed=seed,
    rules=st.sampled_from(["standard", "hoyle", "pagat-barmore", "winspades", "network-spades"]),
)
@settings(max_examples=sizes.examples(150), deadline=None)
def test_swapping_two_plays_so_a_seat_fails_to_follow_suit_is_must_follow_suit(seed, rules):
    record = random_hand(random.Random(seed), rules)
    if "exchange" in record:
        return  # exchanged cards change owners; other examples cover the rule
    compiled, _ = BOOK.resolve(rules)
    found = breakable_follow(record, compiled)
    if found is None:
        return
    t, j, u, k = found
    a, b = record["play"][t][j], record["play"][u][k]
    record["play"][t][j], record["play"][u][k] = b, a
    error = first_error(record)
    seat = next(s for s, cards in record["deal"].items() if a in cards)
    assert (error["code"], error["trick"], error["seat"], error["card"]) == (
        "must-follow-suit",
        t + 1,
        seat,
        b,
    )


@given(seed=seed)
@settings(max_examples=sizes.examples(150), deadline=None)
def test_leading_a_spade_before_spades_are_broken_is_spades_not_broken(seed):
    record = random_hand(random.Random(seed), "standard")
    if "exchange" in record:
        return
    owner = {c: s for s, cards in record["deal"].items() for c in cards}
    broken = False
    for t, trick in enumerate(record["play"]):
        leader = owner[trick[0]]
        held = {c for c in record["deal"][leader]} - {c for tr in record["play"][:t] for c in tr}
        spades = [c for c in held if SUIT_OF[CARD_IDS[c]] == 0]
        if not broken and trick[0][1] != "S" and spades:
            later = next(
                (u, k)
                for u in range(t + 1, len(record["play"]))
                for k, c in enumerate(record["play"][u])
                if c == spades[0]
            )
            u, k = later
            record["play"][t][0], record["play"][u][k] = spades[0], trick[0]
            error = first_error(record)
            assert (error["code"], error["trick"], error["seat"], error["card"]) == (
                "spades-not-broken",
                t + 1,
                leader,
                spades[0],
            )
            return
        if any(c.endswith("S") for c in trick):
            broken = True


@given(rules=st.sampled_from(["standard", "pagat-1996", "network-spades", "pagat-3p"]), seed=seed)
@settings(max_examples=sizes.examples(20), deadline=None)
def test_a_random_match_ends_only_when_the_rules_end_it(rules, seed):
    record = random_match(random.Random(seed), rules)
    result = check(record)
    assert result["ok"], result.get("errors")
    target = BOOK.resolve(rules)[0].options["target"]
    scores = result["after"]["score"]
    if result["ended"]:
        assert scores[result["winner"]] == max(scores.values()) >= target
        assert list(scores.values()).count(max(scores.values())) == 1


# Values each option takes in the combination property (ranges kept to what can be dealt/bid).
OPTION_VALUES = {
    "players": [4, 3, 2],
    "partnership": [True, False],
    "two_player_deal": ["draw", "dummy"],
    "dummy_seat": ["left", "right"],
    "jokers": [0, 1, 2],
    "removed_cards": [[], ["2C"], ["2C", "2H"], ["2D", "2H"]],
    "dealer_discards": [0, 2],
    "deuce_of_spades_high": [False, True],
    "high_trumps": [[], ["2D"], ["2D", "2H"]],
    "bidding": ["last-bidder", "sum", "consult"],
    "bidding_rounds": [1, 2],
    "nil": [True, False],
    "nil_value": [100, 50],
    "double_nil": ["never", "always", "when-behind"],
    "double_nil_exchange": [0, 2, 3],
    "nil_exchange": [0, 1, 3],
    "exchange_when_both_nil": [True, False],
    "zero_bid_is_nil": [False, True],
    "double_blind_nil": [False, True],
    "blind_bid_min": [0, 6, 7],
    "blind_bid_behind": [100, 0],
    "blind_bid_exact": [False, True],
    "blind_made": ["double", "bonus-100"],
    "blind_failed": ["double", "normal", "penalty-100"],
    "moon": [False, True],
    "thirteen_is_moon": [False, True],
    "blind_moon": [False, True],
    "moon_wins_game": [False, True],
    "minimum_bid": [0, 2, 4],
    "first_lead": ["left-of-dealer", "two-of-clubs", "lowest-clubs", "highest-bidder"],
    "spades_broken": [True, False],
    "set_penalty": ["bid", "shortfall"],
    "overtrick_points": [1, -1, -10],
    "sandbag": [False, True],
    "ten_for_200": ["off", "at-least", "exact"],
    "ten_for_two": [False, True],
    "big_bid_bonus": [0, 100],
    "exact_bid_bonus": [0, 20],
    "all_tricks_bonus": [0, 200],
    "all_tricks_wins": [False, True],
    "last_trick_bonus": ["off", "last", "sequence"],
    "seven_plus_bonus": [False, True],
    "small_exact_bids": [False, True],
    "target": [500, 300],
}


@st.composite
def option_sets(draw) -> dict:
    names = draw(st.sets(st.sampled_from(sorted(OPTION_VALUES)), max_size=12))
    return {name: draw(st.sampled_from(OPTION_VALUES[name])) for name in sorted(names)}


@given(options=option_sets(), seed=seed)
@settings(
    max_examples=sizes.examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
def test_any_combination_of_options_either_works_or_is_bad_rules(options, seed):
    from games.errors import RecordError

    rules = opts(**options)
    try:
        BOOK.resolve(rules)
    except RecordError as error:
        assert error.code == "bad-rules"
        return
    rng = random.Random(seed)
    before = {"score": None}
    compiled, _ = BOOK.resolve(rules)
    sides = compiled.tables[compiled.seat_letters[0]].sides
    # Sometimes a side is far behind, so that score-dependent bids come into play.
    scores = {s: rng.choice([0, 0, 250]) for s in sides}
    before = {"score": scores, "bags": dict.fromkeys(sides, 0)}
    record = random_hand(rng, rules, before=before)
    result = check(record)
    assert result["ok"], (options, result.get("errors"))

"""Spades summary records: bidding rules and scoring, one worked example per rule of spades.md.

Every expected figure is worked out by hand from the rules text, never by the engine.
"""

from __future__ import annotations

import pytest

from games import check_record
from games.errors import CODES
from tests.games.spades_records import hand, opts, state


def score(record: dict) -> dict:
    result = check_record(record)
    assert result["ok"], result.get("errors")
    return result["score"]


def error(record: dict) -> str:
    result = check_record(record)
    assert not result["ok"], result
    code = result["errors"][0]["code"]
    assert code in CODES
    return code


# --- the spec's own example (hand-records.md) -------------------------------------------------


def test_the_format_example_scores_as_documented():
    result = check_record(
        hand(
            "E:4 S:nil W:6 N:5",
            "N3 E4 S0 W6",
            before={"score": {"NS": 120, "EW": 80}, "bags": {"NS": 3, "EW": 0}},
        )
    )
    assert result == {
        "ok": True,
        "game": "spades",
        "rules": "standard",
        "tricks": {"N": 3, "E": 4, "S": 0, "W": 6},
        "score": {"NS": 50, "EW": 64},
        "after": {"score": {"NS": 170, "EW": 144}, "bags": {"NS": 3, "EW": 4}},
        "notes": ["S made nil (+100)", "NS bid 5, took 3: set (-50)", "EW bid 6, took 10 (+64)"],
    }


# --- standard scoring ------------------------------------------------------------------------


def test_a_made_bid_scores_ten_a_trick_plus_one_an_overtrick():
    # NS bid 6 (S bids last: 6 >= N's 2), took 8: 6 x 10 + 2 = 62. EW bid 5, took 5: 50.
    assert score(hand("N:2 E:3 S:6 W:5", "N4 E3 S4 W2")) == {"NS": 62, "EW": 50}


def test_a_set_bid_loses_ten_a_trick_of_the_bid_however_short():
    # EW bid 7, took 5: -70. NS bid 4, took 8: 44.
    assert score(hand("N:3 E:2 S:4 W:7", "N4 E2 S4 W3")) == {"NS": 44, "EW": -70}


def test_the_second_partner_must_bid_at_least_the_first():
    assert error(hand("N:6 E:5 S:3 W:4", "N4 E3 S3 W3")) == "bid-too-low"


def test_a_bid_of_zero_is_legal_and_made_with_no_tricks():
    # NS bid 5 (S bids after N), took 13: 50 + 8.
    assert score(hand("N:4 E:0 S:5 W:0", "N4 E0 S9 W0")) == {"NS": 58, "EW": 0}


def test_nil_made_and_failed_are_worth_a_hundred():
    # S nil made: +100; N bid 4 (S's nil makes N's number the side's), took 9: 45.
    # W nil failed with 1 trick: -100; E bid 3, took 3, plus W's trick: 4 of 3 -> 31.
    assert score(hand("N:4 E:3 S:nil W:nil", "N9 E3 S0 W1")) == {"NS": 145, "EW": -69}


def test_a_failed_nil_bidders_tricks_count_towards_the_partners_bid():
    # N bids 4 and takes 2; S bid nil and took 2: the side took 4 of 4 -> 40, nil -100.
    assert score(hand("N:4 E:4 S:nil W:5", "N2 E4 S2 W5"))["NS"] == -60


def test_when_both_partners_bid_nil_every_trick_is_an_overtrick():
    # N and S both nil; N took 1 (failed -100), S none (+100); side bid 0 took 1: +1.
    result = check_record(hand("N:nil E:5 S:nil W:7", "N1 E5 S0 W7"))
    assert result["score"]["NS"] == 1
    assert result["after"]["bags"]["NS"] == 1


def test_double_nil_is_worth_two_hundred_and_needs_the_side_behind_by_a_hundred():
    behind = state(100, 250)
    assert score(hand("N:4 E:4 S:double-nil W:5", "N4 E4 S0 W5", before=behind))["NS"] == 240
    assert score(hand("N:4 E:4 S:double-nil W:5", "N3 E4 S1 W5", before=behind))["NS"] == -160
    assert error(hand("N:4 E:4 S:double-nil W:5", "N4 E4 S0 W5", before=state(100, 199))) == (
        "not-eligible"
    )


def test_a_standalone_hand_starts_from_zero_so_double_nil_is_not_eligible():
    assert error(hand("N:4 E:4 S:double-nil W:5", "N4 E4 S0 W5")) == "not-eligible"


def test_hoyle_allows_double_nil_at_any_score():
    assert score(hand("N:4 E:4 S:double-nil W:5", "N4 E4 S0 W5", rules="hoyle"))["NS"] == 240


def test_tricks_must_sum_to_thirteen():
    assert error(hand("N:3 E:4 S:4 W:5", "N4 E4 S1 W5")) == "tricks-do-not-sum"


def test_calls_must_come_in_turn_from_the_dealers_left():
    assert error(hand("S:3 E:4 W:5 N:4", "N4 E4 S0 W5")) == "call-out-of-turn"
    assert error(hand("E:4 S:3 W:5", "N4 E4 S0 W5")) == "call-out-of-turn"
    assert error(hand("E:4 S:3 W:5 N:4 E:2", "N4 E4 S0 W5")) == "call-out-of-turn"


def test_an_unknown_call_is_bad_call():
    assert error(hand("N:4 E:4 S:lots W:5", "N4 E4 S0 W5")) == "bad-call"


def test_more_than_thirteen_is_not_a_bid():
    assert error(hand("N:4 E:14 S:3 W:5", "N4 E4 S0 W5")) == "bid-not-allowed"


# --- sandbagging -----------------------------------------------------------------------------


def test_bags_reaching_ten_cost_a_hundred_and_the_count_drops_by_ten():
    rules = opts(sandbag=True)
    # NS bid 4, took 7: 43 and 3 bags; 8 + 3 = 11 bags -> -100, 1 bag left.
    result = check_record(
        hand("N:2 E:3 S:4 W:6", "N3 E2 S4 W4", rules=rules, before=state(200, 100, 8, 0))
    )
    assert result["score"]["NS"] == 43 - 100
    assert result["after"] == {"score": {"NS": 143, "EW": 160}, "bags": {"NS": 1, "EW": 0}}


def test_the_bag_counter_works_below_zero():
    rules = opts(sandbag=True)
    result = check_record(
        hand("N:2 E:3 S:4 W:6", "N3 E2 S4 W4", rules=rules, before=state(-150, 100, 9, 0))
    )
    assert result["after"]["score"]["NS"] == -150 + 43 - 100
    assert result["after"]["bags"]["NS"] == 2


def test_bags_are_counted_but_not_penalised_without_the_sandbag_rule():
    result = check_record(hand("N:2 E:3 S:4 W:6", "N3 E2 S4 W4", before=state(0, 0, 9, 0)))
    assert result["score"]["NS"] == 43
    assert result["after"]["bags"]["NS"] == 12


# --- scoring variations ------------------------------------------------------------------------


def test_set_penalty_by_shortfall():
    # bid 8, took 6: -(8 - 6) x 10 = -20.
    assert (
        score(hand("N:4 E:3 S:8 W:5", "N3 E4 S3 W3", rules=opts(set_penalty="shortfall")))["NS"]
        == -20
    )


@pytest.mark.parametrize(("points", "expected"), [(-1, 47), (-10, 20)])
def test_overtricks_can_be_subtracted(points, expected):
    # bid 5, took 8: 50 - 3 = 47, or 50 - 30 = 20.
    rules = opts(overtrick_points=points)
    assert score(hand("N:2 E:3 S:5 W:5", "N4 E3 S4 W2", rules=rules))["NS"] == expected


def test_subtracted_overtricks_and_sandbagging_do_not_combine():
    assert (
        error(hand("N:2 E:3 S:5 W:5", "N4 E3 S4 W2", rules=opts(overtrick_points=-1, sandbag=True)))
        == "bad-rules"
    )


def test_ten_for_200_at_least_and_exact():
    at_least = opts(ten_for_200="at-least")
    # NS bid 11, took 11: 110 + 200; failed with 9: -110 - 200.
    assert score(hand("N:5 E:1 S:11 W:1", "N5 E1 S6 W1", rules=at_least))["NS"] == 310
    assert score(hand("N:5 E:2 S:11 W:2", "N4 E2 S5 W2", rules=at_least))["NS"] == -310
    exact = opts(ten_for_200="exact")
    assert score(hand("N:5 E:1 S:10 W:2", "N5 E1 S5 W2", rules=exact))["NS"] == 300
    assert score(hand("N:5 E:1 S:11 W:1", "N5 E1 S6 W1", rules=exact))["NS"] == 110


def test_ten_for_two_scores_twenty_a_bid_trick():
    # bid 10, took 11: 10 x 20 + 1 = 201.
    assert score(hand("N:5 E:1 S:10 W:1", "N5 E1 S6 W1", rules=opts(ten_for_two=True)))["NS"] == 201


def test_seven_plus_bonus_adds_ten_a_bid_trick_above_six():
    # bid 8, took 8: 80 + 20.
    assert (
        score(hand("N:4 E:2 S:8 W:3", "N4 E2 S4 W3", rules=opts(seven_plus_bonus=True)))["NS"]
        == 100
    )


@pytest.mark.parametrize(
    ("bid", "took", "expected"), [(2, 2, 40), (1, 1, 60), (0, 0, 100), (2, 3, 21)]
)
def test_small_exact_bids(bid, took, expected):
    # E bids 0 on its own... the side bid is W's (last bidder).
    record = hand(
        f"N:3 E:0 S:5 W:{bid}", f"N4 E0 S{9 - took} W{took}", rules=opts(small_exact_bids=True)
    )
    assert score(record)["EW"] == expected


def test_exact_bid_bonus_and_big_bid_bonus():
    assert score(hand("N:3 E:2 S:5 W:4", "N3 E2 S2 W6", rules=opts(exact_bid_bonus=20)))["NS"] == 70
    big = opts(big_bid_bonus=100)
    assert score(hand("N:5 E:1 S:10 W:1", "N5 E1 S5 W2", rules=big))["NS"] == 200
    assert score(hand("N:5 E:1 S:10 W:1", "N5 E2 S4 W2", rules=big))["NS"] == -200


def test_all_tricks_bonus_and_all_tricks_wins():
    assert (
        score(hand("N:4 E:0 S:9 W:0", "N6 E0 S7 W0", rules=opts(all_tricks_bonus=200)))["NS"]
        == 94 + 200
    )
    # dan-brad has a minimum bid of 4: EW bid 4 and are set.
    result = check_record(hand("N:4 E:2 S:9 W:4", "N6 E0 S7 W0", rules="dan-brad"))
    assert result["after"]["won"] == "NS"


def test_the_last_trick_bonus_needs_a_full_record():
    assert error(hand("N:3 E:2 S:5 W:4", "N3 E2 S2 W6", rules=opts(last_trick_bonus="last"))) == (
        "full-record-required"
    )


# --- blind bids and moons ----------------------------------------------------------------------


def test_blind_six_made_doubles_the_bid_score_but_not_overtricks():
    behind = state(0, 150)
    rules = opts(blind_bid_min=6)
    # NS blind 6, took 8: 120 + 2.
    result = check_record(hand("NS=blind-6 E:2 W:3", "N4 E3 S4 W2", rules=rules, before=behind))
    assert result["score"]["NS"] == 122
    # took 5: -120.
    assert (
        score(hand("NS=blind-6 E:3 W:5", "N3 E3 S2 W5", rules=rules, before=behind))["NS"] == -120
    )


def test_blind_bid_options_bonus_normal_penalty_and_exact():
    behind = state(0, 150)
    made = "N4 E3 S4 W2"
    failed = "N3 E3 S2 W5"
    bonus = opts(blind_bid_min=6, blind_made="bonus-100", blind_failed="normal")
    assert score(hand("NS=blind-6 E:2 W:3", made, rules=bonus, before=behind))["NS"] == 162
    assert score(hand("NS=blind-6 E:3 W:5", failed, rules=bonus, before=behind))["NS"] == -60
    penalty = opts(blind_bid_min=6, blind_failed="penalty-100")
    assert score(hand("NS=blind-6 E:3 W:5", failed, rules=penalty, before=behind))["NS"] == -160
    exact = opts(blind_bid_min=6, blind_bid_exact=True)
    assert score(hand("NS=blind-6 E:2 W:3", made, rules=exact, before=behind))["NS"] == -120


def test_blind_bids_need_the_rule_the_minimum_and_the_score():
    made = "N4 E3 S4 W2"
    assert error(hand("NS=blind-6 E:2 W:3", made, before=state(0, 150))) == "bid-not-allowed"
    seven = opts(blind_bid_min=7)
    assert error(hand("NS=blind-6 E:2 W:3", made, rules=seven, before=state(0, 150))) == (
        "bid-too-low"
    )
    six = opts(blind_bid_min=6)
    assert error(hand("NS=blind-6 E:2 W:3", made, rules=six, before=state(0, 99))) == (
        "not-eligible"
    )


def test_a_blind_side_makes_no_other_call_and_bids_before_everyone():
    six = opts(blind_bid_min=6)
    behind = state(0, 150)
    assert error(hand("E:3 NS=blind-6 W:2", "N4 E3 S4 W2", rules=six, before=behind)) == (
        "call-out-of-turn"
    )
    assert error(hand("NS=blind-6 E:3 S:2 W:2", "N4 E3 S4 W2", rules=six, before=behind)) == (
        "call-out-of-turn"
    )


def test_moon_and_blind_moon():
    moon = opts(moon=True)
    assert score(hand("N:5 E:0 S:moon W:0", "N6 E0 S7 W0", rules=moon))["NS"] == 200
    assert score(hand("N:5 E:0 S:moon W:1", "N6 E1 S6 W0", rules=moon))["NS"] == -200
    blind_moon = opts(moon=True, blind_moon=True)
    assert (
        score(hand("NS=blind-moon E:0 W:0", "N6 E0 S7 W0", rules=blind_moon, before=state(0, 100)))[
            "NS"
        ]
        == 400
    )
    assert error(hand("N:5 E:0 S:moon W:0", "N6 E0 S7 W0")) == "bid-not-allowed"


def test_thirteen_is_moon_and_moon_wins_the_game():
    rules = opts(moon=True, thirteen_is_moon=True, moon_wins_game=True)
    result = check_record(hand("N:6 E:0 S:13 W:0", "N6 E0 S7 W0", rules=rules))
    assert result["score"]["NS"] == 200
    assert result["after"]["won"] == "NS"


def test_minimum_bid_binds_the_side_even_with_a_nil():
    rules = opts(minimum_bid=4)
    assert error(hand("N:1 E:2 S:3 W:4", "N4 E3 S3 W3", rules=rules)) == "bid-too-low"
    assert error(hand("N:3 E:4 S:nil W:4", "N4 E3 S0 W6", rules=rules)) == "bid-too-low"
    assert score(hand("N:4 E:4 S:nil W:4", "N4 E3 S0 W6", rules=rules))["NS"] == 140


def test_nil_can_be_forbidden_and_zero_can_be_nil():
    assert error(hand("N:4 E:4 S:nil W:4", "N4 E3 S0 W6", rules="winspades")) == ("bid-not-allowed")
    # windswept: individual play, a bid of 0 is nil.
    result = check_record(hand("N:4 E:4 S:0 W:4", "N4 E3 S0 W6", rules="windswept"))
    assert result["score"]["S"] == 100


# --- bidding modes -----------------------------------------------------------------------------


def test_sum_bidding_adds_the_partners_bids():
    # NS 2 + 4 = 6, took 7: 61. EW 3 + 2 = 5, took 6: 51.
    assert score(hand("N:2 E:3 S:4 W:2", "N3 E3 S4 W3", rules=opts(bidding="sum"))) == {
        "NS": 61,
        "EW": 51,
    }


def test_consultation_bids_by_side_non_dealer_side_first():
    record = hand("EW=4 S:nil NS=5", "N5 E4 S0 W4", rules="pagat-1996", dealer="N")
    # pagat-1996: nil is worth 50. NS: S nil +50, N bid 5 took 5: 50. EW bid 4, took 8: 44.
    assert score(record) == {"NS": 100, "EW": 44}
    assert error(hand("NS=5 EW=4", "N5 E4 S0 W4", rules="pagat-1996", dealer="N")) == (
        "call-out-of-turn"
    )


def test_a_second_bidding_round_may_raise_or_pass():
    rules = opts(bidding_rounds=2)
    record = hand("E:2 S:3 W:3 N:4 E:pass S:5 W:pass N:pass", "N3 E3 S3 W4", rules=rules)
    # NS raised to 5, took 6: 51. EW bid 3, took 7: 34.
    assert score(record) == {"NS": 51, "EW": 34}
    lower = hand("E:2 S:3 W:3 N:4 E:pass S:4 W:pass N:pass", "N3 E3 S3 W4", rules=rules)
    assert error(lower) == "bid-too-low"


# --- players and deals -------------------------------------------------------------------------


def test_cutthroat_scores_each_player_alone():
    result = check_record(hand("E:3 S:2 W:4 N:3", "N3 E3 S3 W4", rules="network-spades"))
    # N 3/3: 30; E 3/3: 30; S 2 took 3: 21; W 4/4: 40.
    assert result["score"] == {"N": 30, "E": 30, "S": 21, "W": 40}


def test_three_players_take_seventeen_tricks():
    result = check_record(hand("E:6 S:5 N:5", "N5 E6 S6", rules="pagat-3p"))
    # pagat-3p: overtricks -10 each. S bid 5 took 6: 50 - 10.
    assert result["score"] == {"N": 50, "E": 60, "S": 40}
    assert error(hand("E:6 S:5 N:5", "N4 E6 S6", rules="pagat-3p")) == "tricks-do-not-sum"


def test_a_partnership_needs_four_players():
    assert (
        error(hand("E:6 S:5 N:5", "N5 E6 S6", rules=opts("pagat-3p", partnership=True)))
        == "bad-rules"
    )


# --- rule sets ---------------------------------------------------------------------------------


def test_unknown_options_presets_and_values_are_bad_rules():
    assert error(hand("N:2 E:3 S:4 W:6", "N3 E2 S4 W4", rules="house")) == "bad-rules"
    assert error(hand("N:2 E:3 S:4 W:6", "N3 E2 S4 W4", rules=opts(jokers=3))) == "bad-rules"
    assert error(hand("N:2 E:3 S:4 W:6", "N3 E2 S4 W4", rules=opts(bags=True))) == "bad-rules"
    assert error(hand("N:2 E:3 S:4 W:6", "N3 E2 S4 W4", rules=opts(nil="yes"))) == "bad-rules"


def test_rules_with_options_are_echoed_canonically():
    result = check_record(hand("N:2 E:3 S:4 W:6", "N3 E2 S4 W4", rules=opts(target=300)))
    assert result["rules"] == {"preset": "standard", "options": {"target": 300}}


def test_every_resolution_is_documented():
    from pathlib import Path

    from games.spades import RESOLUTIONS

    docs = (Path(__file__).parents[2] / "docs" / "spades.md").read_text()
    assert [key for key in RESOLUTIONS if f"**{key}**" not in docs] == []

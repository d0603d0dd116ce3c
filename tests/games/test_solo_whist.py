"""Solo Whist: auction, contract, trump indicators, replay, early stops, settlement, matches.

Expected values are written by hand from shared/spec/games/solo-whist.md (never computed by the
engine): the sums are shown in comments where they are not obvious.
"""

from __future__ import annotations

import copy
import inspect
import random
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import check_hand, check_match, solo_whist
from games.errors import CODES
from games.simulate.solo_whist import random_hand, to_summary
from games.solo_whist import GAME, RESOLUTIONS
from tests import sizes

ZERO = {"N": "0", "E": "0", "S": "0", "W": "0"}


# ------------------------------------------------------------------------------------- helpers
def calls(text: str) -> list[dict]:
    """ "E pass S solo" -> [{"seat": "E", "call": "pass"}, {"seat": "S", "call": "solo"}]."""
    words = text.split()
    return [{"seat": s, "call": c} for s, c in zip(words[::2], words[1::2], strict=True)]


def rules(**options) -> dict:
    return {"preset": "phillips", "options": options}


def summary(dealer: str, auction: str, tricks=None, *, rules="phillips", turned="5H", **extra):
    record = {
        "format": "hand/1",
        "game": "solo-whist",
        "rules": rules,
        "dealer": dealer,
        "calls": calls(auction),
    }
    if turned is not None:
        record["turned"] = turned
    if tricks is not None:
        record["tricks"] = dict(zip("NESW", tricks, strict=True))
    record.update(extra)
    return record


def ok(record: dict) -> dict:
    result = check_hand(record)
    assert result["ok"], result
    return result


def error(record: dict) -> dict:
    result = check_hand(record)
    assert not result["ok"], result
    return result["errors"][0]


def suit(letter: str, ranks: str = "AKQJT98765432") -> list[str]:
    return [r + letter for r in ranks]


# Deal A: every seat holds one whole suit.
DEAL_A = {"N": suit("S"), "E": suit("H"), "S": suit("D"), "W": suit("C")}
# Deal B: as A, but N and E swap their twos (N holds 2H, E holds 2S).
DEAL_B = {
    "N": suit("S", "AKQJT9876543") + ["2H"],
    "E": suit("H", "AKQJT9876543") + ["2S"],
    "S": suit("D"),
    "W": suit("C"),
}
# Deal J (joker pack): 7H is left over; N holds the joker instead of 2S, E holds 2S.
DEAL_J = {
    "N": suit("S", "AKQJT9876543") + ["BJ"],
    "E": suit("H", "AKQJT986543") + ["2H", "2S"],
    "S": suit("D"),
    "W": suit("C"),
}


def full(dealer, auction, deal, play, *, rules="phillips", turned=None, **extra) -> dict:
    record = {
        "format": "hand/1",
        "game": "solo-whist",
        "rules": rules,
        "dealer": dealer,
        "deal": deal,
        "calls": calls(auction),
        "play": play,
    }
    if turned is not None:
        record["turned"] = turned
    record.update(extra)
    return record


def scores(n, e, s, w) -> dict:
    return {"N": n, "E": e, "S": s, "W": w}


# --------------------------------------------------------------- settlement: worked examples
# Spec: "solo, 7 taken: 2 overtricks x 1/4 = 1/2; with the base 1, each of the three pays 1 1/2"
# and "abundance (9 needed), 5 taken: 4 short -> 3 undertricks".
@pytest.mark.parametrize(
    ("table", "declarer", "each"),
    [
        ("phillips", "9/2", "-3/2"),  # v = 1 + 2 x 1/4 = 3/2
        ("parlett-1", "21/5", "-7/5"),  # v = 1 + 2 x 2/10 = 7/5
        ("parlett-2", "6", "-2"),  # v = 2, no overtricks
        ("parlett-3", "6", "-2"),  # v = 2, no overtricks
    ],
)
def test_solo_with_seven_tricks_pays_the_tables_value(table, declarer, each):
    result = ok(summary("N", "E pass S solo W pass N pass", (2, 2, 7, 2), rules=table))
    assert result["score"] == scores(each, each, declarer, each)


@pytest.mark.parametrize(
    ("table", "declarer", "each"),
    [
        ("phillips", "-27/2", "9/2"),  # v = 3 + 3 x 1/2 = 9/2
        ("parlett-1", "-117/10", "39/10"),  # v = 3 + 3 x 3/10 = 39/10
        ("parlett-2", "-12", "4"),  # v = 4
        ("parlett-3", "-18", "6"),  # v = 6
    ],
)
def test_abundance_with_five_tricks_has_three_undertricks(table, declarer, each):
    record = summary("N", "E abundance S pass W pass N pass", (3, 5, 3, 2), rules=table, trump="C")
    assert ok(record)["score"] == scores(each, declarer, each, each)


# Each bid made exactly: the declarer receives the base value from each opponent.
@pytest.mark.parametrize(
    ("table", "bid", "tricks", "declarer", "each"),
    [
        ("phillips", "misere", (5, 0, 4, 4), "6", "-2"),
        ("parlett-1", "misere", (5, 0, 4, 4), "6", "-2"),
        ("parlett-2", "misere", (5, 0, 4, 4), "9", "-3"),
        ("parlett-3", "misere", (5, 0, 4, 4), "12", "-4"),
        ("phillips", "misere-ouverte", (5, 0, 4, 4), "12", "-4"),
        ("parlett-1", "misere-ouverte", (5, 0, 4, 4), "12", "-4"),
        ("parlett-2", "misere-ouverte", (5, 0, 4, 4), "18", "-6"),
        ("parlett-3", "misere-ouverte", (5, 0, 4, 4), "24", "-8"),
        ("phillips", "abundance-declared", (0, 13, 0, 0), "18", "-6"),
        ("parlett-1", "abundance-declared", (0, 13, 0, 0), "18", "-6"),
        ("parlett-2", "abundance-declared", (0, 13, 0, 0), "24", "-8"),
        ("parlett-3", "abundance-declared", (0, 13, 0, 0), "36", "-12"),
        ("phillips", "solo", (3, 5, 3, 2), "3", "-1"),
        ("parlett-1", "solo", (3, 5, 3, 2), "3", "-1"),
        ("parlett-2", "solo", (3, 5, 3, 2), "6", "-2"),
        ("parlett-3", "solo", (3, 5, 3, 2), "6", "-2"),
        ("phillips", "abundance", (2, 9, 1, 1), "9", "-3"),
        ("parlett-1", "abundance", (2, 9, 1, 1), "9", "-3"),
        ("parlett-2", "abundance", (2, 9, 1, 1), "12", "-4"),
        ("parlett-3", "abundance", (2, 9, 1, 1), "18", "-6"),
    ],
)
def test_each_bid_made_exactly_earns_its_base_value(table, bid, tricks, declarer, each):
    extra = {"trump": "S"} if bid == "abundance" else {}
    record = summary("N", f"E {bid} S pass W pass N pass", tricks, rules=table, **extra)
    assert ok(record)["score"] == scores(each, declarer, each, each)


@pytest.mark.parametrize(
    ("table", "partners", "opponents"),
    [
        ("phillips", "1", "-1"),
        ("parlett-1", "1", "-1"),
        ("parlett-2", "2", "-2"),
        ("parlett-3", "1", "-1"),
    ],
)
def test_prop_and_cop_made_exactly_moves_the_base_between_each_partner_and_an_opponent(
    table, partners, opponents
):
    record = summary("N", "E prop S cop W pass N pass", (2, 4, 4, 3), rules=table)
    result = ok(record)
    assert result["score"] == scores(opponents, partners, partners, opponents)
    assert result["contract"] == {"bid": "prop", "declarer": "E", "partner": "S", "trump": "H"}


def test_abundance_in_trumps_made_exactly_earns_its_base():
    record = summary("N", "E abundance S abundance-in-trumps W pass N pass E pass", (1, 2, 9, 1))
    result = ok(record)
    assert result["score"] == scores("-3", "-3", "9", "-3")
    assert result["contract"]["trump"] == "H"  # the turned 5H's suit


def test_prop_and_cop_overtricks_are_paid_to_each_partner():
    # 10 taken of 8: v = 1 + 2 x 1/4 = 3/2
    result = ok(summary("N", "E prop S cop W pass N pass", (1, 5, 5, 2)))
    assert result["score"] == scores("-3/2", "3/2", "3/2", "-3/2")


def test_failing_by_one_trick_costs_only_the_base():
    result = ok(summary("N", "E solo S pass W pass N pass", (3, 4, 3, 3)))
    assert result["score"] == scores("1", "-3", "1", "1")


def test_failing_by_three_tricks_costs_two_undertricks():
    # solo with 2: 3 short, 2 undertricks: v = 1 + 2 x 1/4 = 3/2
    result = ok(summary("N", "E solo S pass W pass N pass", (4, 2, 4, 3)))
    assert result["score"] == scores("3/2", "-9/2", "3/2", "3/2")


def test_overtricks_false_scores_only_the_base():
    record = summary(
        "N", "E solo S pass W pass N pass", (1, 9, 2, 1), rules=rules(overtricks=False)
    )
    assert ok(record)["score"] == scores("-1", "3", "-1", "-1")


def test_misere_with_one_trick_fails_and_pays_the_base():
    result = ok(summary("N", "E misere S pass W pass N pass", (4, 1, 4, 4)))
    assert result["score"] == scores("2", "-6", "2", "2")


def test_solo_result_fields_and_note():
    result = ok(summary("N", "E pass S pass W solo N pass", (2, 2, 2, 7)))
    assert result["tricks"] == {"N": 2, "E": 2, "S": 2, "W": 7}
    assert result["contract"] == {"bid": "solo", "declarer": "W", "trump": "H"}
    assert result["notes"][0] == "W solo: took 7 of 5 (+2 overtricks)"
    assert result["after"] == {"score": scores("-3/2", "-3/2", "-3/2", "9/2"), "deals": 1}


# ---------------------------------------------------------------------------------- auction
# Dealer N throughout: the eldest is E, and the order is E S W N.
def test_a_lower_bid_after_a_higher_one_is_too_low():
    e = error(summary("N", "E solo S prop", (0, 0, 0, 0)))
    assert (e["code"], e["seat"]) == ("bid-too-low", "S")


def test_an_equal_bid_is_too_low():
    assert error(summary("N", "E solo S solo", (0, 0, 0, 0)))["code"] == "bid-too-low"


def test_a_player_who_passed_may_not_bid_again():
    e = error(summary("N", "E pass S prop W pass N solo E solo"))
    assert (e["code"], e["seat"]) == ("call-out-of-turn", "E")


def test_calls_must_start_left_of_the_dealer():
    e = error(summary("N", "S solo"))
    assert (e["code"], e["seat"]) == ("call-out-of-turn", "S")


def test_the_eldest_may_accept_after_passing():
    result = ok(summary("N", "E pass S prop W pass N pass E cop", (2, 4, 5, 2)))
    # 9 taken of 8: v = 1 + 1/4 = 5/4
    assert result["contract"]["partner"] == "E"
    assert result["score"] == scores("-5/4", "5/4", "5/4", "-5/4")


def test_another_passed_player_may_not_accept():
    e = error(summary("N", "E pass S pass W prop N pass S cop"))
    assert (e["code"], e["seat"]) == ("call-out-of-turn", "S")


def test_the_passed_eldest_may_only_accept_not_bid():
    e = error(summary("N", "E pass S prop W pass N pass E solo"))
    assert (e["code"], e["seat"]) == ("bid-not-allowed", "E")


def test_a_record_stopping_before_the_eldest_answers_a_proposal_names_the_eldest():
    e = error(summary("N", "E pass S prop W pass N pass"))
    assert (e["code"], e["seat"]) == ("call-out-of-turn", "E")


def test_cop_without_a_proposal_is_not_allowed():
    assert error(summary("N", "E solo S cop"))["code"] == "bid-not-allowed"


def test_cop_of_an_already_accepted_proposal_is_not_allowed():
    assert error(summary("N", "E prop S cop W cop"))["code"] == "bid-not-allowed"


def test_cop_of_an_overcalled_proposal_is_not_allowed():
    assert error(summary("N", "E prop S solo W cop"))["code"] == "bid-not-allowed"


def test_abundance_in_trumps_only_overcalls_abundance():
    e = error(summary("N", "E solo S abundance-in-trumps"))
    assert (e["code"], e["seat"]) == ("bid-not-allowed", "S")


def test_accepted_proposal_ends_when_the_others_pass_without_the_proposer():
    result = ok(summary("N", "E prop S cop W pass N pass", (2, 4, 4, 3)))
    assert result["contract"]["declarer"] == "E"


def test_a_call_after_the_auction_ended_is_auction_over():
    e = error(summary("N", "E solo S pass W pass N pass E pass", (0, 5, 4, 4)))
    assert (e["code"], e["seat"]) == ("auction-over", "E")


def test_a_call_after_an_accepted_proposal_ended_is_auction_over():
    assert error(summary("N", "E prop S cop W pass N pass E pass"))["code"] == "auction-over"


def test_unknown_call_is_bad_call():
    assert error(summary("N", "E grand"))["code"] == "bad-call"


def test_all_pass_throws_the_hand_in():
    result = ok(summary("N", "E pass S pass W pass N pass", turned=None))
    assert result["score"] == ZERO
    assert result["notes"] == ["thrown in"]
    assert "tricks" not in result
    assert result["after"] == {"score": ZERO, "deals": 1}


def test_a_thrown_in_hand_has_no_play():
    record = summary("N", "E pass S pass W pass N pass", play=[["2S", "3S", "4S", "5S"]])
    assert error(record)["code"] == "too-many-tricks"


# after_unaccepted_prop
def test_any_bid_lets_the_unaccepted_proposer_bid_again():
    result = ok(summary("N", "E pass S prop W pass N pass E pass S misere", (4, 4, 0, 5)))
    assert result["contract"] == {"bid": "misere", "declarer": "S", "trump": None}


def test_any_bid_proposer_who_passes_again_throws_the_hand_in():
    result = ok(summary("N", "E pass S prop W pass N pass E pass S pass"))
    assert result["notes"] == ["thrown in"]


def test_the_unaccepted_proposers_call_is_required():
    e = error(summary("N", "E pass S prop W pass N pass E pass"))
    assert (e["code"], e["seat"]) == ("call-out-of-turn", "S")


def test_proposer_cannot_accept_own_proposal():
    assert error(summary("N", "E prop S pass W pass N pass E cop"))["code"] == "bid-not-allowed"


def test_eldest_only_throws_in_a_non_eldest_unaccepted_proposal():
    r = rules(after_unaccepted_prop="eldest-only")
    assert ok(summary("N", "E pass S prop W pass N pass E pass", rules=r))["notes"] == ["thrown in"]
    e = error(summary("N", "E pass S prop W pass N pass E pass S misere", rules=r))
    assert e["code"] == "auction-over"


def test_eldest_only_lets_the_eldest_proposer_bid_again():
    r = rules(after_unaccepted_prop="eldest-only")
    record = summary("N", "E prop S pass W pass N pass E misere", (4, 0, 4, 5), rules=r)
    assert ok(record)["contract"]["bid"] == "misere"


def test_solo_only_lets_the_proposer_bid_solo():
    r = rules(after_unaccepted_prop="solo-only")
    record = summary("N", "E pass S prop W pass N pass E pass S solo", (3, 3, 5, 2), rules=r)
    assert ok(record)["contract"]["bid"] == "solo"


def test_solo_only_forbids_the_proposer_any_other_bid():
    r = rules(after_unaccepted_prop="solo-only")
    e = error(summary("N", "E pass S prop W pass N pass E pass S misere", rules=r))
    assert (e["code"], e["seat"]) == ("bid-not-allowed", "S")


def test_misere_outranks_solo_by_default():
    assert error(summary("N", "E misere S solo"))["code"] == "bid-too-low"


def test_misere_below_solo_lets_solo_overcall_misere():
    r = rules(misere_below_solo=True)
    record = summary("N", "E misere S solo W pass N pass E pass", (2, 3, 6, 2), rules=r)
    assert ok(record)["contract"]["bid"] == "solo"
    assert error(summary("N", "E solo S misere", rules=r))["code"] == "bid-too-low"


def test_prop_and_cop_false_forbids_prop():
    e = error(summary("N", "E prop", rules=rules(prop_and_cop=False)))
    assert (e["code"], e["seat"]) == ("bid-not-allowed", "E")


def test_abundance_declared_in_trumps_needs_ranks_above():
    assert error(summary("N", "E abundance-declared-in-trumps"))["code"] == "bid-not-allowed"


def test_ranks_above_puts_declared_in_trumps_over_abundance_declared():
    r = rules(declared_with_trumps="ranks-above")
    auction = "E abundance-declared S abundance-declared-in-trumps W pass N pass E pass"
    result = ok(summary("N", auction, (0, 0, 13, 0), rules=r, trump="D"))
    assert result["contract"] == {
        "bid": "abundance-declared-in-trumps",
        "declarer": "S",
        "trump": "D",
    }
    assert result["score"] == scores("-6", "-6", "18", "-6")


def test_replaces_makes_abundance_declared_name_a_trump():
    r = rules(declared_with_trumps="replaces")
    auction = "E abundance-declared S pass W pass N pass"
    assert error(summary("N", auction, (0, 13, 0, 0), rules=r))["code"] == "bad-trump"
    result = ok(summary("N", auction, (0, 13, 0, 0), rules=r, trump="S"))
    assert result["contract"]["trump"] == "S"


# ---------------------------------------------------------------------------------- trumps
def test_abundance_needs_a_named_trump():
    record = summary("N", "E abundance S pass W pass N pass", (1, 9, 2, 1))
    assert error(record)["code"] == "bad-trump"


def test_abundance_trump_must_be_a_suit():
    record = summary("N", "E abundance S pass W pass N pass", (1, 9, 2, 1), trump="X")
    assert error(record)["code"] == "bad-trump"


def test_a_trump_in_a_solo_is_not_allowed():
    record = summary("N", "E solo S pass W pass N pass", (1, 9, 2, 1), trump="H")
    assert error(record)["code"] == "bad-trump"


def test_abundance_contract_reports_the_named_trump():
    record = summary("N", "E abundance S pass W pass N pass", (1, 9, 2, 1), trump="c")
    assert ok(record)["contract"]["trump"] == "C"


def test_summary_needs_the_turned_card():
    record = summary("N", "E solo S pass W pass N pass", (1, 9, 2, 1), turned=None)
    assert error(record)["code"] == "bad-turned"


# ------------------------------------------------------------------------- trump indicators
def test_dealer_card_turned_card_must_be_in_the_dealers_hand():
    play = [["2S", "2H", "2D", "2C"]]
    record = full("W", "N misere E pass S pass W pass", DEAL_A, play, turned="5H")
    e = error(record)
    assert (e["code"], e["seat"], e["card"]) == ("bad-turned", "W", "5H")


def test_second_pack_turned_card_need_not_be_dealt_to_the_dealer():
    # Hearts are trumps (turned 5H from another pack): E's 2H ruffs N's ace.
    play = [["AS", "2H", "2D", "2C"]]
    record = full(
        "W",
        "N solo E pass S pass W pass",
        DEAL_A,
        play,
        turned="5H",
        rules=rules(trump_indicator="second-pack"),
        claim={"seat": "E", "tricks": 12},
        tricks={"N": 0, "E": 13, "S": 0, "W": 0},
    )
    result = ok(record)
    assert result["contract"]["trump"] == "H"
    # N solo took 0 of 5: 5 short, 4 undertricks: v = 1 + 4 x 1/4 = 2
    assert result["score"] == scores("-6", "2", "2", "2")


@pytest.mark.parametrize(("deals", "trump"), [(0, "S"), (1, "H"), (2, "D"), (3, "C"), (5, "H")])
def test_rotation_turns_the_suit_by_the_number_of_deals(deals, trump):
    record = summary(
        "N",
        "E solo S pass W pass N pass",
        (1, 9, 2, 1),
        turned=None,
        rules=rules(trump_indicator="rotation"),
        before={"score": ZERO, "deals": deals},
    )
    assert ok(record)["contract"]["trump"] == trump


def test_rotation_turned_card_must_agree_in_suit():
    record = summary(
        "N",
        "E solo S pass W pass N pass",
        (1, 9, 2, 1),
        turned="5S",
        rules=rules(trump_indicator="rotation"),
        before={"score": ZERO, "deals": 1},
    )
    assert error(record)["code"] == "bad-turned"


JOKER = rules(trump_indicator="joker")
JOKER_AUCTION = "N solo E pass S pass W pass"  # dealer W, eldest N; trumps = 7H's suit


def joker_play(third: list[str]) -> list[list[str]]:
    return [["AS", "2S", "2D", "2C"], ["KS", "6H", "3D", "3C"], third]


def test_joker_plays_as_the_turned_card_and_beats_a_lower_trump():
    # Trick 1 N; trick 2 E (ruff); trick 3 E leads 5H, N's joker (the 7H) wins.
    record = full(
        "W",
        JOKER_AUCTION,
        DEAL_J,
        joker_play(["5H", "4D", "4C", "BJ"]),
        rules=JOKER,
        claim={"seat": "N", "tricks": 10},
    )
    result = ok(record)
    assert result["tricks"] == {"N": 12, "E": 1, "S": 0, "W": 0}
    # 12 of 5: v = 1 + 7 x 1/4 = 11/4
    assert result["score"] == scores("33/4", "-11/4", "-11/4", "-11/4")


def test_joker_loses_to_a_higher_trump():
    record = full(
        "W",
        JOKER_AUCTION,
        DEAL_J,
        joker_play(["8H", "4D", "4C", "BJ"]),
        rules=JOKER,
        claim={"seat": "N", "tricks": 10},
    )
    assert ok(record)["tricks"] == {"N": 11, "E": 2, "S": 0, "W": 0}


def test_joker_holder_must_follow_the_turned_suit_with_it():
    record = full(
        "W",
        JOKER_AUCTION,
        DEAL_J,
        joker_play(["5H", "4D", "4C", "3S"]),
        rules=JOKER,
        claim={"seat": "N", "tricks": 10},
    )
    e = error(record)
    assert (e["code"], e["trick"], e["seat"], e["card"]) == ("must-follow-suit", 3, "N", "3S")


def test_joker_turned_card_must_be_the_card_left_over():
    record = full(
        "W",
        JOKER_AUCTION,
        DEAL_J,
        joker_play(["5H", "4D", "4C", "BJ"]),
        rules=JOKER,
        claim={"seat": "N", "tricks": 10},
        turned="8H",
    )
    assert error(record)["code"] == "bad-turned"


def test_a_turned_joker_means_a_redeal():
    record = full("W", JOKER_AUCTION, DEAL_A, [], rules=JOKER)
    assert error(record)["code"] == "bad-turned"


# ------------------------------------------------------------------- replay and early stops
AD_AUCTION = "W pass N pass E abundance-declared S pass"  # dealer S, eldest W, E declares


def test_abundance_declared_declarer_leads_and_stops_when_a_trick_is_lost():
    record = full("S", AD_AUCTION, DEAL_B, [["2S", "2D", "2C", "AS"]], turned="5D")
    result = ok(record)
    assert result["tricks"] == {"N": 1, "E": 0, "S": 0, "W": 0}
    assert result["score"] == scores("6", "-18", "6", "6")
    assert result["contract"] == {"bid": "abundance-declared", "declarer": "E", "trump": None}


def test_abundance_declared_without_a_lost_trick_is_incomplete():
    record = full("S", AD_AUCTION, DEAL_B, [], turned="5D")
    assert error(record)["code"] == "play-incomplete"


def test_failing_to_follow_suit_is_an_error():
    record = full("S", AD_AUCTION, DEAL_B, [["2S", "2D", "2C", "2H"]], turned="5D")
    e = error(record)
    assert (e["code"], e["trick"], e["seat"], e["card"]) == ("must-follow-suit", 1, "N", "2H")


def test_playing_a_card_not_held_is_an_error():
    record = full("S", AD_AUCTION, DEAL_B, [["AS", "2D", "2C", "2H"]], turned="5D")
    e = error(record)
    assert (e["code"], e["trick"], e["seat"], e["card"]) == ("card-not-held", 1, "E", "AS")


def test_misere_stops_when_the_bidder_takes_a_trick():
    record = full(
        "W", "N misere E pass S pass W pass", DEAL_A, [["2S", "2H", "2D", "2C"]], turned="5C"
    )
    result = ok(record)
    assert result["tricks"] == {"N": 1, "E": 0, "S": 0, "W": 0}
    assert result["score"] == scores("-6", "2", "2", "2")


def test_misere_without_a_trick_taken_is_incomplete():
    record = full("W", "N misere E pass S pass W pass", DEAL_A, [], turned="5C")
    e = error(record)
    assert (e["code"], e["trick"]) == ("play-incomplete", 1)


def nine_club_tricks() -> list[list[str]]:
    # Clubs are trumps (turned 5C): W ruffs N's lead, then leads clubs nobody can follow.
    spades, hearts, diamonds, clubs = (suit(x, "AKQJT98765432"[::-1]) for x in "SHDC")
    play = [["AS", "2H", "2D", "2C"]]
    for k in range(1, 9):
        play.append([clubs[k], spades[k - 1], hearts[k], diamonds[k]])
    return play


def test_solo_without_overtricks_stops_once_it_can_no_longer_be_made():
    # N took 0 of 9 played; 4 remain < 5 needed. parlett-2: v = 2.
    record = full(
        "W",
        "N solo E pass S pass W pass",
        DEAL_A,
        nine_club_tricks(),
        turned="5C",
        rules="parlett-2",
    )
    result = ok(record)
    assert result["tricks"] == {"N": 0, "E": 0, "S": 0, "W": 9}
    assert result["score"] == scores("-6", "2", "2", "2")


def test_solo_without_overtricks_one_trick_earlier_is_incomplete():
    record = full(
        "W",
        "N solo E pass S pass W pass",
        DEAL_A,
        nine_club_tricks()[:8],
        turned="5C",
        rules="parlett-2",
    )
    assert error(record)["code"] == "play-incomplete"


def test_solo_with_overtricks_scored_must_be_played_out():
    record = full("W", "N solo E pass S pass W pass", DEAL_A, nine_club_tricks(), turned="5C")
    assert error(record)["code"] == "play-incomplete"


def test_stated_tricks_must_match_the_replay():
    record = full(
        "W",
        "N misere E pass S pass W pass",
        DEAL_A,
        [["2S", "2H", "2D", "2C"]],
        turned="5C",
        tricks={"N": 0, "E": 1, "S": 0, "W": 0},
    )
    assert error(record)["code"] == "tricks-mismatch"


def test_a_defenders_claim_without_per_seat_tricks_is_ambiguous():
    record = full(
        "W",
        "N solo E pass S pass W pass",
        DEAL_A,
        [["AS", "2H", "2D", "2C"]],
        turned="5C",
        claim={"seat": "E", "tricks": 12},
    )
    assert error(record)["code"] == "claim-ambiguous"


def test_a_claim_of_more_tricks_than_remain_is_bad():
    record = full(
        "W",
        "N solo E pass S pass W pass",
        DEAL_A,
        [["AS", "2H", "2D", "2C"]],
        turned="5C",
        claim={"seat": "W", "tricks": 13},
    )
    assert error(record)["code"] == "bad-claim"


def test_abundance_first_trick_in_the_turned_suit():
    # Dealer E turns 5H; W bids abundance, names clubs. Eldest S leads 2D: in trick 1 hearts are
    # trumps, so E's 2H wins it; W claims the other 12: 12 of 9, v = 3 + 3 x 1/2 = 9/2.
    play = [["2D", "2C", "2S", "2H"]]
    auction = "S pass W abundance N pass E pass"
    r = rules(abundance_first_trick="turned-suit")
    record = full(
        "E",
        auction,
        DEAL_A,
        play,
        turned="5H",
        trump="C",
        rules=r,
        claim={"seat": "W", "tricks": 12},
    )
    result = ok(record)
    assert result["tricks"] == {"N": 0, "E": 1, "S": 0, "W": 12}
    assert result["score"] == scores("-9/2", "-9/2", "-9/2", "27/2")
    # Under the default the named clubs are trumps from trick 1: W wins all 13, v = 3 + 4/2 = 5.
    record["rules"] = "phillips"
    assert ok(record)["score"] == scores("-5", "-5", "-5", "15")


def test_summary_under_13_tricks_is_accepted_only_when_settled():
    assert ok(summary("N", "E misere S pass W pass N pass", (0, 1, 0, 0)))["score"] == scores(
        "2", "-6", "2", "2"
    )
    e = error(summary("N", "E solo S pass W pass N pass", (0, 5, 0, 0)))
    assert e["code"] == "tricks-do-not-sum"
    # Without overtricks the same counts settle the solo (5 made): v = 2 in parlett-2.
    record = summary("N", "E solo S pass W pass N pass", (0, 5, 0, 0), rules="parlett-2")
    assert ok(record)["score"] == scores("-2", "6", "-2", "-2")


def test_summary_over_13_tricks_is_an_error():
    e = error(summary("N", "E solo S pass W pass N pass", (4, 5, 4, 4)))
    assert e["code"] == "tricks-do-not-sum"


# ------------------------------------------------------------------------ state and matches
def test_before_accepts_fraction_strings_and_ints():
    record = summary(
        "N",
        "E solo S pass W pass N pass",
        (2, 7, 2, 2),
        before={"score": {"N": "-3/2", "E": 1, "S": "1/2", "W": "0"}, "deals": 4},
    )
    result = ok(record)
    # + (-3/2, 9/2, -3/2, -3/2)
    assert result["after"] == {"score": scores("-3", "11/2", "-1", "-3/2"), "deals": 5}


def test_before_rejects_floats():
    record = summary(
        "N",
        "E solo S pass W pass N pass",
        (2, 7, 2, 2),
        before={"score": {"N": -1.5, "E": 1.5, "S": 0, "W": 0}, "deals": 0},
    )
    assert error(record)["code"] == "bad-state"


def match_hands() -> list[dict]:
    def hand(dealer, auction, tricks=None):
        h = summary(dealer, auction, tricks, turned=None)
        for key in ("format", "game", "rules"):
            del h[key]
        return h

    return [
        hand("N", "E pass S solo W pass N pass", (2, 2, 7, 2)),
        hand("E", "S pass W pass N pass E pass"),
        hand("S", "W pass N prop E pass S cop", (4, 2, 5, 2)),
        hand("W", "N pass E pass S pass W pass"),
    ]


def test_a_match_carries_fractional_totals_through_thrown_in_hands():
    match = {
        "format": "match/1",
        "game": "solo-whist",
        "rules": rules(trump_indicator="rotation"),
        "hands": match_hands(),
    }
    result = check_match(match)
    assert result["ok"], result
    # hand 1 S solo 7: (-3/2, -3/2, 9/2, -3/2); hand 3 N+S prop 9: (5/4, -5/4, 5/4, -5/4)
    assert result["after"] == {"score": scores("-1/4", "-11/4", "23/4", "-11/4"), "deals": 4}
    assert result["hands"][0]["contract"]["trump"] == "S"  # deal 1 by rotation
    assert result["hands"][2]["contract"]["trump"] == "D"  # deal 3, after a thrown-in deal 2
    assert (result["ended"], result["winner"]) == (False, "S")


def test_a_match_dealer_must_rotate_through_thrown_in_hands():
    hands = match_hands()
    hands[2]["dealer"] = "E"
    hands[2]["calls"] = calls("S pass W prop N pass E cop")
    match = {
        "format": "match/1",
        "game": "solo-whist",
        "rules": rules(trump_indicator="rotation"),
        "hands": hands,
    }
    e = check_match(match)["errors"][0]
    assert (e["code"], e["hand"]) == ("wrong-dealer", 3)


def test_a_match_hand_before_must_agree_with_the_running_totals():
    hands = match_hands()
    hands[1]["before"] = {"score": scores("-3/2", "-3/2", "9/2", "-3/2"), "deals": 1}
    hands[2]["before"] = {"score": ZERO, "deals": 2}
    match = {
        "format": "match/1",
        "game": "solo-whist",
        "rules": rules(trump_indicator="rotation"),
        "hands": hands,
    }
    e = check_match(match)["errors"][0]
    assert (e["code"], e["hand"]) == ("bad-state", 3)


def test_a_tied_match_has_no_winner():
    assert GAME.match_end(None, {"score": ZERO, "deals": 3}) == (False, None)


# --------------------------------------------------------------------------------- rules
def test_presets_set_the_table_and_overtricks():
    options = GAME.book.resolve("parlett-2")[0].options
    assert (options["table"], options["overtricks"]) == ("parlett-2", False)
    assert GAME.book.resolve("parlett-1")[0].options["overtricks"] is True
    assert set(GAME.book.presets) == {"phillips", "parlett-1", "parlett-2", "parlett-3"}


@pytest.mark.parametrize(
    "bad",
    [
        "hoyle",
        rules(table="hoyle"),
        rules(overtricks="yes"),
        rules(jokers=True),
        rules(trump_indicator="dealer"),
    ],
)
def test_unknown_rules_are_bad_rules(bad):
    assert error(summary("N", "E pass S pass W pass N pass", rules=bad))["code"] == "bad-rules"


OPTION_NAMES = set(GAME.book.options)


@given(st.text(min_size=1, max_size=12).filter(lambda t: t not in OPTION_NAMES), st.booleans())
def test_any_unknown_option_is_bad_rules(name, value):
    assert (
        error(summary("N", "E pass", rules={"preset": "phillips", "options": {name: value}}))[
            "code"
        ]
        == "bad-rules"
    )


@given(st.sampled_from(sorted(OPTION_NAMES)), st.text(max_size=8) | st.integers())
def test_any_value_outside_an_option_is_bad_rules(name, value):
    option = GAME.book.options[name]
    assume(value not in option.choices)
    record = summary("N", "E pass", rules={"preset": "phillips", "options": {name: value}})
    assert error(record)["code"] == "bad-rules"


def test_resolutions_are_listed_and_every_raised_code_is_catalogued():
    assert len(RESOLUTIONS) >= 10
    source = inspect.getsource(solo_whist)
    raised = set(re.findall(r'RecordError\(\s*"([a-z-]+)"', source))
    assert raised and raised <= set(CODES)


# ----------------------------------------------------------------------- random properties
RULE_SETS = [
    "phillips",
    "parlett-1",
    "parlett-2",
    "parlett-3",
    rules(trump_indicator="joker", declared_with_trumps="ranks-above"),
    rules(trump_indicator="rotation", after_unaccepted_prop="solo-only", misere_below_solo=True),
    rules(trump_indicator="second-pack", prop_and_cop=False, declared_with_trumps="replaces"),
    rules(after_unaccepted_prop="eldest-only", abundance_first_trick="turned-suit"),
    rules(abundance_trumps_named="after-opening-lead", trump_indicator="rotation"),
]
SEEDS = st.integers(0, 2**32 - 1)
RULES = st.sampled_from(RULE_SETS)
BEFORE = st.builds(
    lambda a, b, c, d: {
        "score": scores(
            str(Fraction(a, 4)),
            str(Fraction(b, 10)),
            str(Fraction(c, 2)),
            str(-Fraction(a, 4) - Fraction(b, 10) - Fraction(c, 2)),
        ),
        "deals": d,
    },
    st.integers(-40, 40),
    st.integers(-40, 40),
    st.integers(-40, 40),
    st.integers(0, 50),
)
FRACTION = re.compile(r"-?[0-9]+(/[0-9]+)?")


@settings(max_examples=sizes.examples(150), deadline=None)
@given(SEEDS, RULES, BEFORE)
def test_any_random_legal_hand_validates_and_settles_exactly(seed, rule_set, before):
    record = random_hand(random.Random(seed), rule_set, before=before)
    result = ok(record)
    assert all(FRACTION.fullmatch(v) for v in result["score"].values())
    assert sum(Fraction(v) for v in result["score"].values()) == 0
    for seat in "NESW":
        expected = Fraction(before["score"][seat]) + Fraction(result["score"][seat])
        assert Fraction(result["after"]["score"][seat]) == expected
    assert result["after"]["deals"] == before["deals"] + 1


@settings(max_examples=sizes.examples(150), deadline=None)
@given(SEEDS, RULES)
def test_tricks_sum_to_13_when_played_out(seed, rule_set):
    record = random_hand(random.Random(seed), rule_set)
    assume("play" in record)
    assert len(record["play"]) == 13
    assert sum(ok(record)["tricks"].values()) == 13


@settings(max_examples=sizes.examples(100), deadline=None)
@given(SEEDS, RULES)
def test_scoring_is_deterministic(seed, rule_set):
    record = random_hand(random.Random(seed), rule_set)
    assert check_hand(copy.deepcopy(record)) == check_hand(copy.deepcopy(record))


@settings(max_examples=sizes.examples(150), deadline=None)
@given(SEEDS, RULES)
def test_full_record_and_its_summary_score_the_same(seed, rule_set):
    record = random_hand(random.Random(seed), rule_set)
    summary_record = to_summary(record)
    assert "deal" not in summary_record and "play" not in summary_record
    a, b = ok(record), ok(summary_record)
    assert (a["score"], a.get("tricks"), a["contract"]) == (
        b["score"],
        b.get("tricks"),
        b["contract"],
    )


def _effective_suit(card: str, record: dict) -> str:
    return record["turned"][-1] if card == "BJ" else card[-1]


@settings(
    max_examples=sizes.examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(SEEDS, RULES, st.integers(0, 10**6))
def test_a_swap_that_breaks_following_suit_is_reported_where_it_happens(seed, rule_set, pick):
    record = random_hand(random.Random(seed), rule_set)
    assume("play" in record)
    owner = {card: seat for seat, cards in record["deal"].items() for card in cards}
    # Candidates: a seat that followed suit in trick i (not leading) and played, in a later
    # trick j, a card of another suit. Swapping the two makes it fail to follow in trick i.
    candidates = []
    play = record["play"]
    for i, trick in enumerate(play):
        led = _effective_suit(trick[0], record)
        for pos in range(1, 4):
            card = trick[pos]
            if _effective_suit(card, record) != led:
                continue
            seat = owner[card]
            for j in range(i + 1, 13):
                for pos2, later in enumerate(play[j]):
                    if owner[later] == seat and _effective_suit(later, record) != led:
                        candidates.append((i, pos, j, pos2))
    assume(candidates)
    i, pos, j, pos2 = candidates[pick % len(candidates)]
    bad = copy.deepcopy(record)
    del bad["tricks"]
    bad["play"][i][pos], bad["play"][j][pos2] = play[j][pos2], play[i][pos]
    e = error(bad)
    assert (e["code"], e["trick"], e["seat"], e["card"]) == (
        "must-follow-suit",
        i + 1,
        owner[play[i][pos]],
        play[j][pos2],
    )

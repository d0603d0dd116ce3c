"""Whist: worked examples of every rule in shared/spec/games/whist.md, full-record replays,
and properties over random legal hands. Expected values are worked out by hand from the rules."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import check_hand, check_match
from games.errors import CODES
from games.simulate.whist import random_hand, random_match, to_summary
from games.whist import BOOK, RESOLUTIONS
from tests import sizes

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PRESETS = ["short-whist", "long-whist", "long-whist-9", "american-whist"]


def hand(**fields):
    record = {
        "format": "hand/1",
        "game": "whist",
        "rules": "short-whist",
        "dealer": "N",
        "trump": "H",
        "tricks": {"NS": 6, "EW": 7},
        "honours": {"NS": 2, "EW": 2},
    }
    record.update(fields)
    return record


def ok(**fields):
    result = check_hand(hand(**fields))
    assert result["ok"], result
    return result


def error(result):
    assert not result["ok"], result
    (err,) = result["errors"]
    assert err["code"] in CODES
    return err


def before(ns, ew, **more):
    return {"score": {"NS": ns, "EW": ew}, **more}


def tricks(ns):
    return {"NS": ns, "EW": 13 - ns}


# --- odd tricks ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("taken", "points"), [(7, 1), (8, 2), (9, 3), (10, 4), (11, 5), (12, 6), (13, 7)]
)
def test_each_trick_over_six_scores_one_point(taken, points):
    result = ok(tricks=tricks(taken))
    assert result["score"] == {"NS": points, "EW": 0}


def test_side_with_six_tricks_scores_nothing_for_tricks():
    result = ok(tricks={"NS": 6, "EW": 7})
    assert result["score"] == {"NS": 0, "EW": 1}


def test_trick_note_names_side_tricks_and_points():
    result = ok(tricks=tricks(9))
    assert "NS took 9 tricks (+3)" in result["notes"]


# --- honours ------------------------------------------------------------------------------------


def test_four_honours_score_four():
    result = ok(honours={"NS": 4, "EW": 0})
    assert result["score"] == {"NS": 4, "EW": 1}


def test_three_honours_score_two():
    result = ok(honours={"NS": 1, "EW": 3})
    assert result["score"] == {"NS": 0, "EW": 3}


def test_two_honours_each_score_nothing():
    result = ok(honours={"NS": 2, "EW": 2})
    assert result["score"] == {"NS": 0, "EW": 1}


def test_honours_barred_for_a_side_at_four():
    result = ok(before=before(4, 0), honours={"NS": 4, "EW": 0})
    assert result["score"] == {"NS": 0, "EW": 1}
    assert any("not scored" in note for note in result["notes"])


def test_honours_not_barred_for_a_side_at_three():
    result = ok(before=before(3, 0), honours={"NS": 3, "EW": 1})
    assert result["score"] == {"NS": 2, "EW": 1}


def test_long_whist_bars_honours_at_nine():
    result = ok(rules="long-whist", before=before(9, 0), honours={"NS": 3, "EW": 1})
    assert result["score"] == {"NS": 0, "EW": 1}


def test_long_whist_allows_honours_at_eight():
    result = ok(rules="long-whist", before=before(8, 0), honours={"NS": 3, "EW": 1})
    assert result["score"] == {"NS": 2, "EW": 1}


def test_long_whist_9_bars_honours_at_eight():
    result = ok(rules="long-whist-9", before=before(8, 0), honours={"NS": 3, "EW": 1})
    assert result["score"] == {"NS": 0, "EW": 1}


def test_barred_at_zero_never_bars_honours():
    rules = {"preset": "short-whist", "options": {"honours_barred_at": 0, "target": 10}}
    result = ok(rules=rules, before=before(8, 0), honours={"NS": 4, "EW": 0})
    assert result["score"] == {"NS": 4, "EW": 1}


def test_honours_can_reach_game():
    result = ok(before=before(3, 0), tricks=tricks(6), honours={"NS": 4, "EW": 0})
    # NS 3 + 4 = 7: game; EW took 7 tricks (+1), so the losers have 1: 2 game points
    assert result["game_over"] == {"winner": "NS", "score": {"NS": 7, "EW": 1}, "game_points": 2}


def test_no_honours_after_the_other_side_reached_game_on_tricks():
    result = ok(before=before(4, 1), tricks=tricks(7), honours={"NS": 0, "EW": 4})
    assert result["score"] == {"NS": 1, "EW": 0}
    assert result["game_over"]["game_points"] == 2  # EW stayed at 1


def test_american_whist_has_no_honours():
    result = ok(rules="american-whist", honours={"NS": 4, "EW": 0})
    assert result["score"] == {"NS": 0, "EW": 1}


def test_american_whist_summary_needs_no_honours():
    record = hand(rules="american-whist")
    del record["honours"]
    assert check_hand(record)["ok"]


def test_short_whist_summary_needs_honours():
    record = hand()
    del record["honours"]
    assert error(check_hand(record))["code"] == "bad-format"


def test_honours_must_add_up_to_four():
    assert error(check_hand(hand(honours={"NS": 3, "EW": 2})))["code"] == "bad-format"


# --- revokes ------------------------------------------------------------------------------------


def test_revoke_transfer_gives_three_to_the_opponents():
    result = ok(before=before(1, 2), revokes=[{"seat": "E", "count": 1}], penalty="transfer")
    assert result["score"] == {"NS": 3, "EW": 1}
    assert result["after"]["score"] == {"NS": 4, "EW": 3}


def test_revoke_deduct_takes_three_from_the_revokers():
    result = ok(before=before(1, 2), revokes=[{"seat": "E", "count": 1}], penalty="deduct")
    assert result["score"] == {"NS": 0, "EW": -2}
    assert result["after"]["score"] == {"NS": 1, "EW": 0}


def test_each_revoke_is_penalised():
    result = ok(revokes=[{"seat": "W", "count": 2}, {"seat": "E"}], penalty="transfer")
    assert result["score"] == {"NS": 9, "EW": 1}


def test_revoke_penalty_option_changes_the_points():
    rules = {"preset": "short-whist", "options": {"revoke_penalty": 2}}
    result = ok(rules=rules, revokes=[{"seat": "S", "count": 1}], penalty="transfer")
    assert result["score"] == {"NS": 0, "EW": 3}


def test_revoke_note_names_seat_and_points():
    result = ok(revokes=[{"seat": "E", "count": 1}], penalty="transfer")
    assert "E revoked: +3 to NS" in result["notes"]


def test_revoke_needs_a_penalty_choice():
    err = error(check_hand(hand(revokes=[{"seat": "E", "count": 1}])))
    assert err["code"] == "bad-format"


def test_penalty_must_be_transfer_or_deduct():
    record = hand(revokes=[{"seat": "E", "count": 1}], penalty="double")
    assert error(check_hand(record))["code"] == "bad-format"


def test_revoke_by_unknown_seat_is_bad_seat():
    record = hand(revokes=[{"seat": "X", "count": 1}], penalty="transfer")
    assert error(check_hand(record))["code"] == "bad-seat"


def test_revoke_reaching_game_beats_trick_points_and_bars_honours():
    # NS 2 + 3 (E's revoke) = 5: game at the revoke stage. EW's 9 tricks still count
    # (3 + 3 = 6) but EW's four honours do not, and NS win although EW also passed 5.
    result = ok(
        before=before(2, 3),
        tricks=tricks(4),
        honours={"NS": 0, "EW": 4},
        revokes=[{"seat": "E", "count": 1}],
        penalty="transfer",
    )
    assert result["score"] == {"NS": 3, "EW": 3}
    assert result["game_over"] == {"winner": "NS", "score": {"NS": 5, "EW": 6}, "game_points": 1}


def test_both_sides_reaching_game_on_revokes_higher_score_wins():
    # both revoked: NS 3 + 3 = 6, EW 3 + 3 = 6; then NS take 8 tricks: 8 to 6
    result = ok(
        before=before(3, 3),
        tricks=tricks(8),
        revokes=[{"seat": "N", "count": 1}, {"seat": "E", "count": 1}],
        penalty="transfer",
    )
    assert result["game_over"]["winner"] == "NS"
    assert result["game_over"]["score"] == {"NS": 8, "EW": 6}


# --- games and game points ----------------------------------------------------------------------


@pytest.mark.parametrize(("losers", "points"), [(0, 3), (1, 2), (2, 2), (3, 1), (4, 1)])
def test_short_game_points_by_losers_score(losers, points):
    result = ok(before=before(4, losers), tricks=tricks(7), honours={"NS": 2, "EW": 2})
    assert result["game_over"] == {
        "winner": "NS",
        "score": {"NS": 5, "EW": losers},
        "game_points": points,
    }


def test_losers_below_zero_give_three_game_points():
    result = ok(
        before=before(3, 1),
        tricks=tricks(8),
        revokes=[{"seat": "W", "count": 1}],
        penalty="deduct",
    )
    assert result["game_over"]["score"] == {"NS": 5, "EW": -2}
    assert result["game_over"]["game_points"] == 3


@pytest.mark.parametrize(("losers", "points"), [(0, 2), (4, 2), (5, 1), (9, 1)])
def test_long_game_points_by_losers_score(losers, points):
    result = ok(rules="long-whist", before=before(9, losers), tricks=tricks(7))
    assert result["game_over"]["game_points"] == points


def test_game_resets_both_scores_and_counts_the_game():
    result = ok(before=before(4, 3), tricks=tricks(8))
    assert result["after"] == {
        "score": {"NS": 0, "EW": 0},
        "games": {"NS": 1, "EW": 0},
        "game_points": {"NS": 1, "EW": 0},
    }


def test_no_game_below_target():
    result = ok(before=before(2, 3), tricks=tricks(8))
    assert "game_over" not in result
    assert result["after"]["score"] == {"NS": 4, "EW": 3}


def test_before_at_target_is_bad_state():
    assert error(check_hand(hand(before=before(5, 0))))["code"] == "bad-state"


def test_before_with_unknown_field_is_bad_state():
    assert error(check_hand(hand(before={"bags": {"NS": 0, "EW": 0}})))["code"] == "bad-state"


# --- matches: rubbers ---------------------------------------------------------------------------


def summary(dealer, ns_tricks, **fields):
    return {
        "dealer": dealer,
        "trump": "S",
        "tricks": tricks(ns_tricks),
        "honours": {"NS": 2, "EW": 2},
        **fields,
    }


def match(hands, rules="short-whist"):
    return check_match({"format": "match/1", "game": "whist", "rules": rules, "hands": hands})


def test_rubber_ends_after_two_games_to_nil():
    # each game: 13 tricks (+7) against 0 -> 3 game points; the rubber adds 2
    result = match([summary("N", 13), summary("E", 13)])
    assert result["ok"], result
    assert (result["ended"], result["winner"]) == (True, "NS")
    assert result["games"] == {"NS": 2, "EW": 0}
    assert result["game_points"] == {"NS": 8, "EW": 0}
    assert result["net"] == {"NS": 8, "EW": -8}


def test_rubber_goes_to_a_third_game_at_one_game_all():
    result = match([summary("N", 13), summary("E", 0)])
    assert result["ok"], result
    assert result["ended"] is False
    assert result["games"] == {"NS": 1, "EW": 1}


def test_third_game_decides_the_rubber_with_two_bonus_points():
    # game 1 NS 3 points; game 2 EW 3; game 3 over three hands: NS 2, EW 1, NS 3 -> 5 to 1
    hands = [summary("N", 13), summary("E", 0), summary("S", 8), summary("W", 6), summary("N", 9)]
    result = match(hands)
    assert result["ok"], result
    assert (result["ended"], result["winner"]) == (True, "NS")
    assert result["game_points"] == {"NS": 3 + 2 + 2, "EW": 3}
    assert result["net"] == {"NS": 4, "EW": -4}


def test_hand_after_the_rubber_is_match_over():
    result = match([summary("N", 13), summary("E", 13), summary("S", 7)])
    err = error(result)
    assert (err["code"], err["hand"]) == ("match-over", 3)


def test_dealer_must_rotate_clockwise():
    result = match([summary("N", 8), summary("S", 8)])
    err = error(result)
    assert (err["code"], err["hand"]) == ("wrong-dealer", 2)


def test_before_in_a_match_must_agree():
    hands = [summary("N", 8), summary("E", 8, before=before(1, 0))]
    err = error(match(hands))
    assert (err["code"], err["hand"]) == ("bad-state", 2)


# --- american whist -----------------------------------------------------------------------------


def american(settle):
    rules = {"preset": "american-whist", "options": {"settle": settle}}
    hands = [
        {"dealer": "N", "trump": "S", "tricks": tricks(10)},  # NS 4
        {"dealer": "E", "trump": "S", "tricks": tricks(5)},  # EW 2
        {"dealer": "S", "trump": "S", "tricks": tricks(10)},  # NS 8: game
    ]
    return match(hands, rules)


def test_american_whist_settles_the_difference():
    result = american("difference")
    assert result["ok"], result
    assert (result["ended"], result["winner"]) == (True, "NS")
    assert result["net"] == {"NS": 6, "EW": -6}  # 8 - 2


def test_american_whist_official_settlement_is_target_minus_losers():
    result = american("official")
    assert result["net"] == {"NS": 5, "EW": -5}  # 7 - 2


def test_american_whist_match_ends_after_one_game():
    hands = [
        {"dealer": "N", "trump": "S", "tricks": tricks(13)},
        {"dealer": "E", "trump": "S", "tricks": tricks(13)},
    ]
    err = error(match(hands, "american-whist"))
    assert (err["code"], err["hand"]) == ("match-over", 2)


# --- rules --------------------------------------------------------------------------------------


def test_presets_have_the_documented_options():
    base = {
        "target": 5,
        "honours": True,
        "honours_barred_at": 4,
        "game_points": "short",
        "rubber": True,
        "settle": "difference",
        "revoke_penalty": 3,
    }
    assert BOOK.resolve("short-whist")[0].options == base
    assert BOOK.resolve("long-whist")[0].options == {
        **base,
        "target": 10,
        "honours_barred_at": 9,
        "game_points": "long",
    }
    assert BOOK.resolve("long-whist-9")[0].options == {
        **base,
        "target": 9,
        "honours_barred_at": 8,
        "game_points": "long",
    }
    assert BOOK.resolve("american-whist")[0].options == {
        **base,
        "target": 7,
        "honours": False,
        "game_points": "none",
        "rubber": False,
    }


@pytest.mark.parametrize(
    "rules",
    [
        "bridge",
        {"preset": "short-whist", "options": {"trumps": "none"}},
        {"preset": "short-whist", "options": {"game_points": "double"}},
        {"preset": "short-whist", "options": {"target": "5"}},
        {"preset": "short-whist", "options": {"honours": 1}},
    ],
)
def test_unknown_preset_option_or_value_is_bad_rules(rules):
    assert error(check_hand(hand(rules=rules)))["code"] == "bad-rules"


def test_every_resolution_is_documented():
    text = (Path(__file__).parents[2] / "docs" / "whist.md").read_text(encoding="utf-8")
    for key in RESOLUTIONS:
        assert f"`{key}`" in text, key


# --- summary record checks ----------------------------------------------------------------------


def test_tricks_must_sum_to_thirteen():
    assert error(check_hand(hand(tricks={"NS": 7, "EW": 7})))["code"] == "tricks-do-not-sum"


def test_summary_needs_trump_or_turned():
    record = hand()
    del record["trump"]
    assert error(check_hand(record))["code"] == "bad-trump"


def test_trump_must_agree_with_turned_card():
    assert error(check_hand(hand(trump="H", turned="5S")))["code"] == "bad-trump"


def test_turned_card_gives_the_trump():
    record = hand(turned="5♠")
    del record["trump"]
    assert check_hand(record)["trump"] == "S"


# --- full records -------------------------------------------------------------------------------

# N: spades A..3 and 2H; E: hearts A..3 and 2S; S: all diamonds; W (dealer): all clubs, 2C turned.
SPADES = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S"]
HEARTS = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H"]
DEAL = {
    "N": SPADES + ["2H"],
    "E": HEARTS + ["2S"],
    "S": [r + "D" for r in "AKQJT98765432"],
    "W": [r + "C" for r in "AKQJT98765432"],
}
CLUBS_UP = [r + "C" for r in "3456789TJQKA"]
# Trick 1: N leads AS; E plays AH although holding 2S (a revoke); W trumps with 2C.
# Then W leads a club to each trick; nobody else has a club, so W wins all 13.
PLAY = [["AS", "AH", "2D", "2C"]] + [
    [w, n, e, s]
    for w, n, e, s in zip(
        CLUBS_UP,
        SPADES[1:] + ["2H"],
        HEARTS[1:] + ["2S"],
        [r + "D" for r in "3456789TJQKA"],
        strict=True,
    )
]


def full(**fields):
    record = {
        "format": "hand/1",
        "game": "whist",
        "rules": "short-whist",
        "dealer": "W",
        "deal": copy.deepcopy(DEAL),
        "turned": "2C",
        "play": copy.deepcopy(PLAY),
        "penalty": "transfer",
    }
    record.update(fields)
    return record


def test_replay_finds_the_revoke_and_its_trick():
    result = check_hand(full())
    assert result["ok"], result
    assert result["revokes"] == [{"seat": "E", "trick": 1}]


def test_replay_scores_revoke_tricks_and_honours_in_order():
    # NS +3 (E's revoke); EW 13 tricks (+7) and all four club honours (+4): 11 to 3
    result = check_hand(full())
    assert result["tricks"] == {"NS": 0, "EW": 13}
    assert result["honours"] == {"NS": 0, "EW": 4}
    assert result["score"] == {"NS": 3, "EW": 11}
    assert result["game_over"] == {"winner": "EW", "score": {"NS": 3, "EW": 11}, "game_points": 1}


def test_replay_with_deduct_penalty():
    # EW -3, +7, +4 = 8; NS 0: three game points
    result = check_hand(full(penalty="deduct"))
    assert result["score"] == {"NS": 0, "EW": 8}
    assert result["game_over"]["game_points"] == 3


def test_revoke_note_gives_trick():
    assert "E revoked (trick 1): +3 to NS" in check_hand(full())["notes"]


def test_replay_revoke_needs_penalty():
    record = full()
    del record["penalty"]
    assert error(check_hand(record))["code"] == "bad-format"


def test_stated_revokes_that_match_the_replay_are_accepted():
    assert check_hand(full(revokes=[{"seat": "E", "count": 1}]))["ok"]


def test_stated_no_revokes_against_a_revoking_play_is_revokes_mismatch():
    err = error(check_hand(full(revokes=[])))
    assert (err["code"], err["seat"]) == ("revokes-mismatch", "E")


def test_stated_revoke_at_wrong_trick_is_revokes_mismatch():
    err = error(check_hand(full(revokes=[{"seat": "E", "trick": 2}])))
    assert (err["code"], err["trick"]) == ("revokes-mismatch", 2)


def test_card_not_held_names_trick_seat_and_card():
    record = full()
    record["play"][0] = ["2D", "AH", "3D", "2C"]
    err = error(check_hand(record))
    assert (err["code"], err["trick"], err["seat"], err["card"]) == ("card-not-held", 1, "N", "2D")


def test_card_played_twice_is_card_not_held():
    record = full()
    record["play"][2][0] = "3C"  # W played 3C to trick 2
    err = error(check_hand(record))
    assert (err["code"], err["trick"], err["seat"], err["card"]) == ("card-not-held", 3, "W", "3C")


def test_wrong_leader_is_an_error_at_that_trick():
    record = full()
    record["play"][1] = ["KS", "KH", "3D", "3C"]  # as if N led trick 2; W won trick 1
    err = error(check_hand(record))
    assert (err["code"], err["trick"], err["seat"], err["card"]) == ("card-not-held", 2, "W", "KS")


def test_trick_as_one_string_is_accepted():
    record = full()
    record["play"][0] = "AS AH 2D 2C"
    assert check_hand(record)["ok"]


def test_trick_with_three_cards_is_bad_trick():
    record = full()
    record["play"][4] = record["play"][4][:3]
    err = error(check_hand(record))
    assert (err["code"], err["trick"]) == ("bad-trick", 5)


def test_card_dealt_twice_is_bad_deal():
    deal = copy.deepcopy(DEAL)
    deal["E"][-1] = "AS"  # E's 2S replaced by N's AS: AS twice, 2S missing
    err = error(check_hand(full(deal=deal)))
    assert (err["code"], err["seat"], err["card"]) == ("bad-deal", "E", "AS")


def test_hand_of_twelve_is_bad_deal():
    deal = copy.deepcopy(DEAL)
    deal["S"] = deal["S"][:12]
    err = error(check_hand(full(deal=deal)))
    assert (err["code"], err["seat"]) == ("bad-deal", "S")


def test_turned_card_not_in_dealers_hand_is_bad_turned():
    err = error(check_hand(full(turned="2D")))
    assert (err["code"], err["seat"], err["card"]) == ("bad-turned", "W", "2D")


def test_full_record_needs_turned():
    record = full()
    del record["turned"]
    assert error(check_hand(record))["code"] == "bad-turned"


def test_stated_tricks_must_match_the_replay():
    err = error(check_hand(full(tricks={"NS": 1, "EW": 12})))
    assert err["code"] == "tricks-mismatch"


def test_stated_honours_must_match_the_deal():
    err = error(check_hand(full(honours={"NS": 1, "EW": 3})))
    assert err["code"] == "honours-mismatch"


def test_claim_closes_the_play():
    result = check_hand(full(play=PLAY[:1], claim={"seat": "W", "tricks": 12}))
    assert result["tricks"] == {"NS": 0, "EW": 13}


def test_claim_gives_the_rest_to_the_opponents():
    result = check_hand(full(play=PLAY[:1], claim={"seat": "W", "tricks": 5}))
    assert result["tricks"] == {"NS": 7, "EW": 6}


def test_claim_of_more_tricks_than_remain_is_bad_claim():
    err = error(check_hand(full(play=PLAY[:1], claim={"seat": "W", "tricks": 13})))
    assert err["code"] == "bad-claim"


def test_short_play_without_claim_is_play_incomplete():
    err = error(check_hand(full(play=PLAY[:5])))
    assert (err["code"], err["trick"]) == ("play-incomplete", 6)


def test_fourteen_tricks_is_too_many():
    err = error(check_hand(full(play=PLAY + [PLAY[0]])))
    assert err["code"] == "too-many-tricks"


# --- properties ---------------------------------------------------------------------------------

TRUMP_FREE = settings(
    max_examples=sizes.examples(60), suppress_health_check=[HealthCheck.filter_too_much]
)


def _winner(cards, trump):
    order = "23456789TJQKA"

    def power(card):
        if card[1] == trump:
            return 100 + order.index(card[0])
        return order.index(card[0]) if card[1] == cards[0][1] else -1

    return max(range(4), key=lambda i: power(cards[i]))


@settings(max_examples=sizes.examples(60))
@given(SEEDS, st.sampled_from(PRESETS))
def test_random_legal_hand_validates_without_revokes(seed, rules):
    result = check_hand(random_hand(random.Random(seed), rules))
    assert result["ok"], result
    assert result["revokes"] == []


@settings(max_examples=sizes.examples(60))
@given(SEEDS)
def test_tricks_sum_to_thirteen(seed):
    result = check_hand(random_hand(random.Random(seed), revoke_rate=0.2))
    assert result["tricks"]["NS"] + result["tricks"]["EW"] == 13


@TRUMP_FREE
@given(SEEDS)
def test_swapping_cards_so_a_player_fails_to_follow_is_a_revoke(seed):
    record = random_hand(random.Random(seed))
    play, trump = record["play"], record["turned"][1]
    leader = ("NESW".index(record["dealer"]) + 1) % 4
    trick_info = []
    for cards in play:
        winner = (leader + _winner(cards, trump)) % 4
        trick_info.append((leader, winner))
        leader = winner
    found = None
    for i in range(13):
        for j in range(i + 1, 13):
            for seat in range(4):
                (li, wi), (lj, wj) = trick_info[i], trick_info[j]
                if seat in (li, wi, lj, wj):
                    continue
                a, b = play[i][(seat - li) % 4], play[j][(seat - lj) % 4]
                led_i, led_j = play[i][0][1], play[j][0][1]
                if a[1] == led_i and b[1] not in (led_i, trump) and a[1] not in (led_j, trump):
                    found = (i, j, seat, li, lj)
                    break
            if found:
                break
        if found:
            break
    assume(found)
    i, j, seat, li, lj = found
    pi, pj = (seat - li) % 4, (seat - lj) % 4
    play[i][pi], play[j][pj] = play[j][pj], play[i][pi]
    record["penalty"] = "transfer"
    result = check_hand(record)
    assert result["ok"], result
    assert {"seat": "NESW"[seat], "trick": i + 1} in result["revokes"]


@settings(max_examples=sizes.examples(40))
@given(SEEDS, st.sampled_from(PRESETS))
def test_scoring_is_deterministic(seed, rules):
    record = random_hand(random.Random(seed), rules, revoke_rate=0.1)
    assert check_hand(record) == check_hand(copy.deepcopy(record))


@settings(max_examples=sizes.examples(60))
@given(SEEDS, st.sampled_from(PRESETS), st.integers(0, 4), st.integers(0, 4))
def test_full_record_and_its_summary_score_the_same(seed, rules, ns, ew):
    rng = random.Random(seed)
    start = before(min(ns, 3), min(ew, 3))
    record = random_hand(rng, rules, before=start, revoke_rate=0.1)
    full_result = check_hand(record)
    summary_result = check_hand(to_summary(record))
    assert summary_result["ok"], summary_result
    for key in ("tricks", "score", "after", "game_over"):
        assert full_result.get(key) == summary_result.get(key), key


@settings(max_examples=sizes.examples(25))
@given(SEEDS, st.sampled_from(PRESETS))
def test_random_match_validates_and_ends(seed, rules):
    result = check_match(random_match(random.Random(seed), rules))
    assert result["ok"], result
    assert result["ended"] is True
    assert result["net"]["NS"] == -result["net"]["EW"]

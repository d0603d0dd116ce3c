"""German Whist: worked examples from shared/spec/games/german-whist.md, full-record replays
with the stock, and properties over random legal games. Expected values are worked out by hand."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import check_hand, check_match
from games.errors import CODES
from games.german_whist import BOOK, RESOLUTIONS
from games.simulate.german_whist import random_hand, to_summary
from tests import sizes

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
RULES = [
    "standard",
    {"preset": "standard", "options": {"counted_tricks": "all-26"}},
    {"preset": "standard", "options": {"score": "difference"}},
    {"preset": "standard", "options": {"hand_size": 6}},
    {"preset": "standard", "options": {"hand_size": 6, "counted_tricks": "all-26"}},
]
ALL_26 = {"preset": "standard", "options": {"counted_tricks": "all-26"}}
DIFFERENCE = {"preset": "standard", "options": {"score": "difference"}}
SIX = {"preset": "standard", "options": {"hand_size": 6}}


def summary(n, s, **fields):
    record = {
        "format": "hand/1",
        "game": "german-whist",
        "rules": "standard",
        "dealer": "N",
        "tricks": {"N": n, "S": s},
    }
    record.update(fields)
    return record


def ok(record):
    result = check_hand(record)
    assert result["ok"], result
    return result


def error(result):
    assert not result["ok"], result
    (err,) = result["errors"]
    assert err["code"] in CODES
    return err


# --- summary records ----------------------------------------------------------------------------


def test_seven_of_the_last_thirteen_wins_one_point():
    result = ok(summary(7, 6))
    assert (result["winner"], result["score"]) == ("N", {"N": 1, "S": 0})


def test_more_tricks_wins_for_either_seat():
    result = ok(summary(5, 8))
    assert (result["winner"], result["score"]) == ("S", {"N": 0, "S": 1})


def test_difference_option_scores_the_trick_difference():
    result = ok(summary(5, 8, rules=DIFFERENCE))
    assert result["score"] == {"N": 0, "S": 3}


def test_all_26_tricks_must_sum_to_26():
    assert error(check_hand(summary(8, 5, rules=ALL_26)))["code"] == "tricks-do-not-sum"


def test_all_26_winner_needs_more_than_13():
    result = ok(summary(14, 12, rules=ALL_26))
    assert (result["winner"], result["score"]) == ("N", {"N": 1, "S": 0})


def test_all_26_tie_scores_nothing_and_has_no_winner():
    result = ok(summary(13, 13, rules=ALL_26))
    assert (result["winner"], result["score"]) == (None, {"N": 0, "S": 0})


def test_last_13_tricks_must_sum_to_13():
    assert error(check_hand(summary(7, 7)))["code"] == "tricks-do-not-sum"


def test_hand_size_six_counts_six_tricks():
    result = ok(summary(4, 2, rules=SIX))
    assert result["score"] == {"N": 1, "S": 0}


def test_hand_size_six_three_all_is_a_tie():
    assert ok(summary(3, 3, rules=SIX))["winner"] is None


def test_stated_winner_must_agree_with_the_tricks():
    err = error(check_hand(summary(8, 5, winner="S")))
    assert err["code"] == "winner-mismatch"


def test_stated_winner_that_agrees_is_accepted():
    assert ok(summary(8, 5, winner="N"))["winner"] == "N"


def test_stated_null_winner_with_a_winner_is_winner_mismatch():
    assert error(check_hand(summary(8, 5, winner=None)))["code"] == "winner-mismatch"


def test_score_accumulates_from_before():
    result = ok(summary(8, 5, before={"score": {"N": 2, "S": 4}}))
    assert result["after"] == {"score": {"N": 3, "S": 4}}


def test_negative_before_is_bad_state():
    err = error(check_hand(summary(8, 5, before={"score": {"N": -1, "S": 0}})))
    assert err["code"] == "bad-state"


def test_dealer_must_be_n_or_s():
    assert error(check_hand(summary(8, 5, dealer="E")))["code"] == "bad-seat"


# --- matches ------------------------------------------------------------------------------------


def match(hands, rules="standard"):
    return check_match(
        {"format": "match/1", "game": "german-whist", "rules": rules, "hands": hands}
    )


def test_dealer_alternates():
    err = error(
        match(
            [
                {"dealer": "N", "tricks": {"N": 8, "S": 5}},
                {"dealer": "N", "tricks": {"N": 8, "S": 5}},
            ]
        )
    )
    assert (err["code"], err["hand"]) == ("wrong-dealer", 2)


def test_match_never_ends_and_leader_is_the_winner_so_far():
    result = match(
        [
            {"dealer": "N", "tricks": {"N": 8, "S": 5}},
            {"dealer": "S", "tricks": {"N": 2, "S": 11}},
            {"dealer": "N", "tricks": {"N": 1, "S": 12}},
        ]
    )
    assert result["ok"], result
    assert (result["ended"], result["winner"]) == (False, "S")
    assert result["after"] == {"score": {"N": 1, "S": 2}}


def test_level_match_has_no_winner():
    result = match(
        [{"dealer": "N", "tricks": {"N": 8, "S": 5}}, {"dealer": "S", "tricks": {"N": 2, "S": 11}}]
    )
    assert (result["ended"], result["winner"]) == (False, None)


# --- rules --------------------------------------------------------------------------------------


def test_standard_preset_options():
    assert BOOK.resolve("standard")[0].options == {
        "counted_tricks": "last-13",
        "score": "win",
        "hand_size": 13,
    }


@pytest.mark.parametrize(
    "rules",
    [
        "classic",
        {"preset": "standard", "options": {"hand_size": 7}},
        {"preset": "standard", "options": {"hand_size": "6"}},
        {"preset": "standard", "options": {"counted_tricks": "first-13"}},
        {"preset": "standard", "options": {"trump": "H"}},
    ],
)
def test_unknown_preset_option_or_value_is_bad_rules(rules):
    assert error(check_hand(summary(8, 5, rules=rules)))["code"] == "bad-rules"


def test_every_resolution_is_documented():
    text = (Path(__file__).parents[2] / "docs" / "german-whist.md").read_text(encoding="utf-8")
    for key in RESOLUTIONS:
        assert f"`{key}`" in text, key


# --- full records -------------------------------------------------------------------------------

# S deals; N (the non-dealer) holds all spades, S all hearts; the stock alternates diamonds and
# clubs from the 2s up, so 2D is turned and diamonds are trumps. N leads spades from the bottom,
# S (void) discards hearts and loses every drawing trick: N draws each diamond, S each club.
# Then N leads diamonds (trumps) and S, with only clubs, loses all 13 counted tricks.
UP = "23456789TJQKA"
STOCK = [card for r in UP for card in (r + "D", r + "C")]
DEAL = {"N": [r + "S" for r in UP], "S": [r + "H" for r in UP]}
PLAY = [[r + "S", r + "H"] for r in UP] + [[r + "D", r + "C"] for r in UP]


def full(**fields):
    record = {
        "format": "hand/1",
        "game": "german-whist",
        "rules": "standard",
        "dealer": "S",
        "deal": copy.deepcopy(DEAL),
        "stock": list(STOCK),
        "turned": "2D",
        "play": copy.deepcopy(PLAY),
    }
    record.update(fields)
    return record


def test_replay_counts_the_last_13_tricks():
    result = ok(full())
    assert (result["tricks"], result["winner"]) == ({"N": 13, "S": 0}, "N")


def test_replay_counts_all_26_under_that_option():
    assert ok(full(rules=ALL_26))["tricks"] == {"N": 26, "S": 0}


def test_replay_with_difference_scores_thirteen():
    assert ok(full(rules=DIFFERENCE))["score"] == {"N": 13, "S": 0}


def test_failing_to_follow_suit_is_must_follow_suit():
    deal = copy.deepcopy(DEAL)
    deal["N"][0], deal["S"][0] = "2H", "2S"  # S now holds 2S
    play = copy.deepcopy(PLAY)
    play[0] = ["3S", "3H"]  # N leads a spade; S discards a heart while holding 2S
    err = error(check_hand(full(deal=deal, play=play)))
    assert (err["code"], err["trick"], err["seat"], err["card"]) == (
        "must-follow-suit",
        1,
        "S",
        "3H",
    )


def test_card_from_the_stock_not_yet_drawn_is_not_held():
    play = copy.deepcopy(PLAY)
    play[0] = ["2D", "2H"]  # 2D is the turned card, still in the stock
    err = error(check_hand(full(play=play)))
    assert (err["code"], err["trick"], err["seat"], err["card"]) == ("card-not-held", 1, "N", "2D")


def test_card_drawn_by_the_other_player_is_not_held():
    play = copy.deepcopy(PLAY)
    play[1] = ["3S", "2D"]  # N won trick 1 and drew 2D; S drew 2C
    err = error(check_hand(full(play=play)))
    assert (err["code"], err["trick"], err["seat"], err["card"]) == ("card-not-held", 2, "S", "2D")


def test_loser_draws_the_card_under_the_turned_one():
    play = copy.deepcopy(PLAY)
    play[13] = ["2C", "2D"]  # as if N held 2C in the counted phase: S drew it
    err = error(check_hand(full(play=play)))
    assert (err["code"], err["trick"], err["seat"], err["card"]) == ("card-not-held", 14, "N", "2C")


def test_non_dealer_leads_the_first_trick():
    err = error(check_hand(full(dealer="N")))
    assert (err["code"], err["trick"], err["seat"]) == ("card-not-held", 1, "S")


def test_turned_card_must_be_the_first_stock_card():
    err = error(check_hand(full(turned="2C")))
    assert (err["code"], err["card"]) == ("bad-turned", "2C")


def test_stock_card_twice_is_bad_deal():
    stock = list(STOCK)
    stock[-1] = "AS"  # AC missing, AS in N's hand and the stock
    err = error(check_hand(full(stock=stock)))
    assert (err["code"], err["card"]) == ("bad-deal", "AS")


def test_short_hand_is_bad_deal():
    deal = copy.deepcopy(DEAL)
    deal["N"] = deal["N"][1:]
    err = error(check_hand(full(deal=deal)))
    assert (err["code"], err["seat"]) == ("bad-deal", "N")


def test_full_record_needs_the_stock():
    record = full()
    del record["stock"]
    assert error(check_hand(record))["code"] == "bad-format"


def test_stated_tricks_must_match_the_replay():
    assert error(check_hand(full(tricks={"N": 7, "S": 6})))["code"] == "tricks-mismatch"


def test_trick_with_one_card_is_bad_trick():
    play = copy.deepcopy(PLAY)
    play[3] = play[3][:1]
    err = error(check_hand(full(play=play)))
    assert (err["code"], err["trick"]) == ("bad-trick", 4)


def test_claim_in_the_counted_phase():
    result = ok(full(play=PLAY[:16], claim={"seat": "S", "tricks": 4}))
    # N took tricks 14-16; S claims 4 of the 10 left, N the other 6
    assert result["tricks"] == {"N": 9, "S": 4}


def test_claim_in_the_drawing_phase_distributes_every_counted_trick():
    result = ok(full(play=PLAY[:5], claim={"seat": "N", "tricks": 10}))
    assert result["tricks"] == {"N": 10, "S": 3}


def test_claim_in_the_drawing_phase_with_all_26():
    result = ok(full(rules=ALL_26, play=PLAY[:5], claim={"seat": "N", "tricks": 20}))
    assert result["tricks"] == {"N": 25, "S": 1}


def test_claim_of_more_than_remain_is_bad_claim():
    err = error(check_hand(full(play=PLAY[:16], claim={"seat": "N", "tricks": 11})))
    assert err["code"] == "bad-claim"


def test_short_play_without_claim_is_play_incomplete():
    err = error(check_hand(full(play=PLAY[:20])))
    assert (err["code"], err["trick"]) == ("play-incomplete", 21)


def test_play_incomplete_names_each_trick_winner_and_the_next_leader():
    """Card by card the phone asks after each trick who won it and who leads the next."""
    whole = ok(full())["trick_winners"]
    for length in (0, 1, 13, 20):
        result = check_hand(full(play=PLAY[:length]))
        assert error(result)["code"] == "play-incomplete"
        assert result["trick_winners"] == whole[:length]
        # the non-dealer leads trick 1, each trick's winner the next
        first = "S" if full()["dealer"] == "N" else "N"
        assert result["next_leader"] == (whole[length - 1] if length else first)


# --- properties ---------------------------------------------------------------------------------


def _leader_wins(lead, follow, trump):
    order = "23456789TJQKA"
    if follow[1] == lead[1]:
        return order.index(lead[0]) > order.index(follow[0])
    return follow[1] != trump


def _trace(record):
    """[(leader, holdings of each seat before the trick)] for every trick of a legal record."""
    stock = record["stock"]
    trump = stock[0][1]
    held = {seat: set(record["deal"][seat]) for seat in "NS"}
    leader = "S" if record["dealer"] == "N" else "N"
    drawing = len(stock) // 2
    out = []
    for number, (lead, follow) in enumerate(record["play"], 1):
        out.append((leader, {seat: set(cards) for seat, cards in held.items()}))
        other = "S" if leader == "N" else "N"
        held[leader].remove(lead)
        held[other].remove(follow)
        winner = leader if _leader_wins(lead, follow, trump) else other
        if number <= drawing:
            held[winner].add(stock[2 * number - 2])
            held["S" if winner == "N" else "N"].add(stock[2 * number - 1])
        leader = winner
    return out


@settings(max_examples=sizes.examples(60))
@given(SEEDS, st.sampled_from(RULES))
def test_random_legal_game_validates(seed, rules):
    assert ok(random_hand(random.Random(seed), rules))


@settings(max_examples=sizes.examples(60))
@given(SEEDS, st.sampled_from(RULES))
def test_tricks_sum_to_the_counted_total(seed, rules):
    result = ok(random_hand(random.Random(seed), rules))
    options = BOOK.resolve(rules)[0].options
    total = 26 if options["counted_tricks"] == "all-26" else options["hand_size"]
    assert result["tricks"]["N"] + result["tricks"]["S"] == total


@settings(max_examples=sizes.examples(60), suppress_health_check=[HealthCheck.filter_too_much])
@given(SEEDS, st.sampled_from(RULES))
def test_swapping_cards_so_a_player_fails_to_follow_is_must_follow_suit(seed, rules):
    record = random_hand(random.Random(seed), rules)
    play = record["play"]
    trace = _trace(record)
    found = None
    for i, (leader, held) in enumerate(trace):
        follower = "S" if leader == "N" else "N"
        a = play[i][1]
        if a[1] != play[i][0][1]:
            continue  # the follower did not follow here
        for j in range(i + 1, len(play)):
            slot = 0 if trace[j][0] == follower else 1
            b = play[j][slot]
            if b[1] != a[1] and b in held[follower]:
                found = (i, j, slot, follower, b)
                break
        if found:
            break
    assume(found)
    i, j, slot, follower, b = found
    play[i][1], play[j][slot] = play[j][slot], play[i][1]
    err = error(check_hand(record))
    assert (err["code"], err["trick"], err["seat"], err["card"]) == (
        "must-follow-suit",
        i + 1,
        follower,
        b,
    )


@settings(max_examples=sizes.examples(40))
@given(SEEDS, st.sampled_from(RULES))
def test_scoring_is_deterministic(seed, rules):
    record = random_hand(random.Random(seed), rules)
    assert check_hand(record) == check_hand(copy.deepcopy(record))


@settings(max_examples=sizes.examples(60))
@given(SEEDS, st.sampled_from(RULES), st.integers(0, 9), st.integers(0, 9))
def test_full_record_and_its_summary_score_the_same(seed, rules, n, s):
    record = random_hand(random.Random(seed), rules, before={"score": {"N": n, "S": s}})
    full_result = ok(record)
    summary_result = ok(to_summary(record))
    for key in ("tricks", "score", "after", "winner"):
        assert full_result[key] == summary_result[key], key

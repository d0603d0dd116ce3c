"""A bid that is too low says the least bid allowed and the rule that asks it (issue 28: "That
bid is too low. (N)" said neither), from the engine's error (`rule`, `minimum`, `standing`)
through the sentence the pages and the API show, in English and Japanese."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import check_hand
from games.errors import RULES_TOO_LOW
from tests.games.spades_records import hand, opts, state
from tests.games.test_solo_whist import summary
from tournaments.words.engine import BID_TOO_LOW, error_sentence, translate_errors

CASES = {
    # the second partner bids 3 below the first's 6 (last-bidder: the side's bid is the 3)
    "partner-bid": (hand("N:6 E:5 S:3 W:4", "N4 E3 S3 W3"), 6, "S"),
    # last-bidder: N 1, then S 3: the side bids 3, below the minimum of 4
    "side-minimum": (hand("N:1 E:2 S:3 W:4", "N4 E3 S3 W3", rules=opts(minimum_bid=4)), 4, "NS"),
    "blind-minimum": (
        hand(
            "NS=blind-6 E:2 W:3", "N4 E3 S3 W3", rules=opts(blind_bid_min=7), before=state(0, 150)
        ),
        7,
        None,  # the side's call, by consultation
    ),
    # a second-round bid of 4 does not raise the side's 4
    "raise-side": (
        hand(
            "E:2 S:3 W:3 N:4 E:pass S:4 W:pass N:pass", "N3 E3 S3 W4", rules=opts(bidding_rounds=2)
        ),
        5,
        "S",
    ),
}


def first_error(record: dict) -> dict:
    result = check_hand(record)
    assert not result["ok"], result
    return result["errors"][0]


@pytest.mark.parametrize("rule", sorted(CASES))
def test_a_spades_bid_too_low_names_its_rule_and_minimum(rule):
    record, minimum, seat = CASES[rule]
    error = first_error(record)
    assert (error["code"], error["rule"], error["minimum"], error.get("seat")) == (
        "bid-too-low",
        rule,
        minimum,
        seat,
    )
    with translation.override("en"):
        en = error_sentence(error)
    with translation.override("ja"):
        ja = error_sentence(error)
    assert str(minimum) in en and str(minimum) in ja
    assert en.startswith("That bid is too low: ") and en != "That bid is too low."
    assert ja != en


def test_the_sentences_say_the_rule():
    with translation.override("en"):
        side = error_sentence(first_error(CASES["side-minimum"][0]))
        partner = error_sentence(first_error(CASES["partner-bid"][0]))
    assert side == ("That bid is too low: under these rules a side bids at least 4 tricks. (NS)")
    assert partner == (
        "That bid is too low: the side's bid is its second bid, which is at least the "
        "partner's 6. (S)"
    )


def test_a_solo_whist_call_must_outrank_the_standing_one():
    error = first_error(summary("N", "E solo S prop", (0, 0, 0, 0)))
    assert (error["rule"], error["standing"], error["seat"]) == ("outrank", "solo", "S")
    with translation.override("en"):
        en = error_sentence(error)
    with translation.override("ja"):
        ja = error_sentence(error)
    assert en == "That bid is too low: each bid must outrank the standing Solo. (S)"
    assert "ソロ" in ja


def test_the_api_sends_the_sentence_and_keeps_the_rule_and_minimum():
    error = first_error(CASES["side-minimum"][0])
    with translation.override("ja"):
        [shown] = translate_errors([error])
    assert (shown["rule"], shown["minimum"]) == ("side-minimum", 4)
    assert "4" in shown["message"] and shown["detail"] == error["message"]


def test_every_rule_has_a_sentence_in_both_languages():
    assert set(BID_TOO_LOW) == set(RULES_TOO_LOW)
    for rule in RULES_TOO_LOW:
        error = {
            "code": "bid-too-low",
            "message": "x",
            "rule": rule,
            "minimum": 3,
            "standing": "solo",
        }
        with translation.override("en"):
            en = error_sentence(error)
        with translation.override("ja"):
            ja = error_sentence(error)
        assert en != ja and "too low:" in en

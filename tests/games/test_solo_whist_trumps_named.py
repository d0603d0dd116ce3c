"""Solo Whist, issue 19: `abundance_trumps_named: after-opening-lead` — the abundance declarer
names trumps once the opening lead is on the table, and the whole first trick is played with them.

Expected values are worked out by hand from solo-whist.md (and shown in docs/solo-whist.md).
"""

from __future__ import annotations

import copy
import json
import random

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import check_hand
from games.schema import load_schema
from games.simulate.solo_whist import random_hand
from games.solo_whist import GAME
from tests import sizes

AFTER_LEAD = {"preset": "phillips", "options": {"abundance_trumps_named": "after-opening-lead"}}
SUITS = {"N": "S", "E": "H", "S": "D", "W": "C"}  # each seat holds one whole suit
DEAL = {seat: [r + s for r in "AKQJT98765432"] for seat, s in SUITS.items()}


def opening_lead_record(rules: object = AFTER_LEAD) -> dict:
    """docs/solo-whist.md, "Trumps named after the opening lead": E deals and turns the 5H; W
    bids abundance. S (the eldest) leads the 2D; only then does W name clubs. Trick 1 is
    played with clubs as trumps: W's 2C wins it, and W claims the other twelve."""
    return {
        "format": "hand/1",
        "game": "solo-whist",
        "rules": rules,
        "dealer": "E",
        "deal": copy.deepcopy(DEAL),
        "turned": "5H",
        "calls": [
            {"seat": "S", "call": "pass"},
            {"seat": "W", "call": "abundance"},
            {"seat": "N", "call": "pass"},
            {"seat": "E", "call": "pass"},
        ],
        "trump": "C",
        "play": [["2D", "2C", "2S", "2H"]],
        "claim": {"seat": "W", "tricks": 12},
    }


def test_the_whole_first_trick_is_played_with_the_trumps_named_after_the_lead():
    result = check_hand(opening_lead_record())
    assert result["ok"], result
    # W takes 13 of 9: 4 overtricks x 1/2 = 2; v = 3 + 2 = 5; W receives 5 from each.
    assert result["tricks"] == {"N": 0, "E": 0, "S": 0, "W": 13}
    assert result["score"] == {"N": "-5", "E": "-5", "S": "-5", "W": "15"}
    assert result["contract"] == {"bid": "abundance", "declarer": "W", "trump": "C"}
    assert result["notes"][0] == (
        "W abundance (C trumps, named after the opening lead): took 13 of 9 (+4 overtricks)"
    )


def test_it_differs_from_the_turned_suit_first_trick_where_the_opening_lead_is_trumped_in_hearts():
    turned = {"preset": "phillips", "options": {"abundance_first_trick": "turned-suit"}}
    result = check_hand(opening_lead_record(turned))
    # Hearts (the turned suit) are trumps in trick 1: E's 2H wins it. W: 12 of 9, v = 9/2.
    assert result["tricks"] == {"N": 0, "E": 1, "S": 0, "W": 12}
    assert result["score"] == {"N": "-9/2", "E": "-9/2", "S": "-9/2", "W": "27/2"}


def test_the_record_is_the_same_as_after_the_auction_and_settles_the_same():
    after_lead = check_hand(opening_lead_record())
    after_auction = check_hand(opening_lead_record("phillips"))
    for key in ("tricks", "score", "after", "contract"):
        assert after_lead[key] == after_auction[key]
    assert after_auction["notes"][0].startswith("W abundance (C trumps): took 13")


def test_the_record_validates_against_the_hand_record_schema():
    validator = jsonschema.Draft202012Validator(load_schema("hand-records"))
    assert list(validator.iter_errors(opening_lead_record())) == []


def test_the_named_trump_is_still_required_and_only_in_an_abundance():
    record = opening_lead_record()
    del record["trump"]
    assert check_hand(record)["errors"][0]["code"] == "bad-trump"
    solo = {
        "format": "hand/1",
        "game": "solo-whist",
        "rules": AFTER_LEAD,
        "dealer": "N",
        "turned": "5H",
        "trump": "C",
        "calls": [
            {"seat": s, "call": c}
            for s, c in [("E", "pass"), ("S", "pass"), ("W", "solo"), ("N", "pass")]
        ],
        "tricks": {"N": 2, "E": 2, "S": 2, "W": 7},
    }
    assert check_hand(solo)["errors"][0]["code"] == "bad-trump"


@pytest.mark.parametrize(
    "options",
    [
        {"abundance_trumps_named": "after-opening-lead", "abundance_first_trick": "turned-suit"},
        {"abundance_trumps_named": "before-the-lead"},
        {"abundance_trumps_named": True},
    ],
)
def test_contradictory_or_unknown_settings_are_bad_rules(options):
    record = opening_lead_record({"preset": "phillips", "options": options})
    assert check_hand(record)["errors"][0]["code"] == "bad-rules"


def test_the_option_reads_back_canonically():
    assert GAME.book.defaults()["abundance_trumps_named"] == "after-auction"
    assert check_hand(opening_lead_record())["rules"] == AFTER_LEAD


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=sizes.examples(120), deadline=None)
def test_naming_trumps_after_the_lead_never_changes_tricks_or_settlement(seed):
    # The option changes when the declarer speaks, not which card wins: any legal record
    # settles exactly as it does with trumps named after the auction.
    record = random_hand(random.Random(seed), AFTER_LEAD)
    result = check_hand(json.loads(json.dumps(record)))
    assert result["ok"], result.get("errors")
    record["rules"] = "phillips"
    plain = check_hand(record)
    for key in ("tricks", "score", "after", "contract"):
        assert result.get(key) == plain.get(key)

"""Solo Whist's summary record states what the table counted: the declaring side's tricks.

Spec: shared/spec/games/solo-whist.md section 3, "Summary record: tricks taken by the declaring
side". `tricks` then holds one key, the declaring side named by its seats in the order N E S W
(the declarer alone, or the declarer and partner in prop and cop), and nothing about each
defender (RESOLUTIONS["declaring-side-tricks"]). Expected values are written by hand from the
spec's tables, as in test_solo_whist.py.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import check_hand
from games.schema import load_schema
from games.simulate.solo_whist import random_hand, to_summary
from games.solo_whist import RESOLUTIONS
from tests import sizes
from tests.games.test_solo_whist import (
    DEAL_A,
    RULES,
    SEEDS,
    calls,
    error,
    full,
    ok,
    scores,
)


def declared(dealer: str, auction: str, tricks: dict, **extra) -> dict:
    record = {
        "format": "hand/1",
        "game": "solo-whist",
        "rules": "phillips",
        "dealer": dealer,
        "calls": calls(auction),
        "turned": "5H",
        "tricks": tricks,
    }
    record.update(extra)
    return record


def test_the_resolution_is_written_down():
    assert "declaring side" in RESOLUTIONS["declaring-side-tricks"]


def test_a_solo_states_the_declarers_tricks_alone():
    # W solo, 7 taken: 2 overtricks x 1/4: v = 3/2 from each of the three.
    result = ok(declared("N", "E pass S pass W solo N pass", {"W": 7}))
    assert result["tricks"] == {"W": 7}
    assert result["score"] == scores("-3/2", "-3/2", "-3/2", "9/2")
    assert result["notes"][0] == "W solo: took 7 of 5 (+2 overtricks)"


def test_prop_and_cop_states_the_partners_tricks_together():
    # E proposes, S accepts: the side is "ES"; 10 of 8: v = 1 + 2 x 1/4 = 3/2.
    result = ok(declared("N", "E prop S cop W pass N pass", {"ES": 10}))
    assert result["tricks"] == {"ES": 10}
    assert result["score"] == scores("-3/2", "3/2", "3/2", "-3/2")


@pytest.mark.parametrize(
    ("auction", "side"),
    [
        ("E prop S pass W cop N pass", "EW"),  # opposite seats: the partnership's own name
        ("E pass S pass W prop N cop", "NW"),  # N before W, whoever proposed
    ],
)
def test_the_side_is_named_by_its_seats_in_order(auction, side):
    result = ok(declared("N", auction, {side: 8}))
    assert result["tricks"] == {side: 8}
    assert result["notes"][0].endswith("took 8 of 8")


def test_the_side_named_the_other_way_round_is_refused():
    e = error(declared("N", "E pass S pass W prop N cop", {"WN": 8}))
    assert e["code"] == "bad-seat"
    assert "(NW)" in e["message"]


@pytest.mark.parametrize("tricks", [{"N": 7}, {"E": 7}, {"NS": 7}, {"defenders": 6}])
def test_one_count_for_anyone_but_the_declaring_side_is_refused(tricks):
    # W is the declarer: a count for another seat or a side would be a count nobody asked for
    e = error(declared("N", "E pass S pass W solo N pass", tricks))
    assert e["code"] == "bad-seat"
    assert "declaring side alone (W)" in e["message"]


@pytest.mark.parametrize(
    ("count", "code"), [(14, "tricks-do-not-sum"), (-1, "bad-format"), ("7", "bad-format")]
)
def test_a_count_that_is_not_one_of_13_tricks_is_refused(count, code):
    assert error(declared("N", "E pass S pass W solo N pass", {"W": count}))["code"] == code


def test_the_defenders_take_the_rest_of_the_13():
    # Abundance declared failed with 12: the defenders took the 13th (lost 1): v = 6.
    result = ok(declared("N", "E abundance-declared S pass W pass N pass", {"E": 12}))
    assert result["score"] == scores("6", "-18", "6", "6")
    assert result["notes"][0] == "E abundance declared: lost 1 trick (failed)"
    # Misere with one trick: failed whatever the rest (v = 2).
    result = ok(declared("N", "E misere S pass W pass N pass", {"E": 1}))
    assert result["score"] == scores("2", "-6", "2", "2")
    assert ok(declared("N", "E misere S pass W pass N pass", {"E": 0}))["score"] == scores(
        "-2", "6", "-2", "-2"
    )


def test_the_four_seat_form_is_still_read():
    # records stored before the declaring side's form: each seat's own count
    record = declared("N", "E prop S cop W pass N pass", {"N": 1, "E": 5, "S": 5, "W": 2})
    assert ok(record)["score"] == scores("-3/2", "3/2", "3/2", "-3/2")


def test_a_thrown_in_hand_has_no_declaring_side():
    record = declared("N", "E pass S pass W pass N pass", {"E": 0})
    assert error(record)["code"] == "bad-seat"


def test_a_full_record_may_state_the_declaring_sides_count_and_it_must_agree():
    # N misere, takes the first trick (2S over 2H 2D 2C): the side took 1.
    play = [["2S", "2H", "2D", "2C"]]
    auction = "N misere E pass S pass W pass"
    result = ok(full("W", auction, DEAL_A, play, turned="5C", tricks={"N": 1}))
    assert result["tricks"] == {"N": 1, "E": 0, "S": 0, "W": 0}  # the replay's, per seat
    wrong = full("W", auction, DEAL_A, play, turned="5C", tricks={"N": 0})
    assert error(wrong)["code"] == "tricks-mismatch"


def test_a_defenders_claim_is_settled_by_the_declaring_sides_count():
    # N solo, clubs trumps: W ruffs N's AS, then E claims the other 12 for the defenders: N
    # took none. Per seat this is ambiguous (claim-ambiguous); the declaring side's count is not.
    auction = "N solo E pass S pass W pass"
    play = [["AS", "2H", "2D", "2C"]]
    claim = {"seat": "E", "tricks": 12}
    result = ok(full("W", auction, DEAL_A, play, turned="5C", claim=claim, tricks={"N": 0}))
    assert result["tricks"] == {"N": 0}
    # 0 of 5: 5 short, 4 undertricks: v = 1 + 4 x 1/4 = 2
    assert result["score"] == scores("-6", "2", "2", "2")
    wrong = full("W", auction, DEAL_A, play, turned="5C", claim=claim, tricks={"N": 1})
    assert error(wrong)["code"] == "tricks-mismatch"


def _declaring_side(result: dict) -> tuple[str, int]:
    contract = result["contract"]
    side = "".join(s for s in "NESW" if s in (contract["declarer"], contract.get("partner")))
    return side, sum(result["tricks"][s] for s in side)


@settings(max_examples=sizes.examples(150), deadline=None)
@given(SEEDS, RULES)
def test_the_declaring_sides_count_scores_as_the_full_record(seed, rule_set):
    record = random_hand(random.Random(seed), rule_set)
    played = ok(record)
    if played["contract"] is None:
        return
    side, count = _declaring_side(played)
    summary_record = to_summary(record)
    summary_record["tricks"] = {side: count}
    mine = ok(summary_record)
    assert mine["tricks"] == {side: count}
    assert (mine["score"], mine["after"], mine["contract"]) == (
        played["score"],
        played["after"],
        played["contract"],
    )


@settings(max_examples=sizes.examples(100), deadline=None)
@given(SEEDS, RULES, st.integers(0, 13))
def test_any_count_of_the_declaring_side_settles_to_zero(seed, rule_set, count):
    record = to_summary(random_hand(random.Random(seed), rule_set))
    result = check_hand(record)
    if not result["ok"] or result["contract"] is None:
        return
    side, _ = _declaring_side(result)
    record["tricks"] = {side: count}
    mine = ok(record)
    assert sum(map(Fraction, mine["score"].values())) == 0


def test_the_schemas_describe_the_declaring_sides_form():
    records = jsonschema.Draft202012Validator(load_schema("hand-records"))
    results = jsonschema.Draft202012Validator(load_schema("results"))
    record = declared("N", "E pass S pass W prop N cop", {"NW": 9})
    assert list(records.iter_errors(record)) == []
    result = check_hand(record)
    assert list(results.iter_errors(result)) == []
    record["tricks"] = {"WN": 9}  # not a side's name
    assert list(records.iter_errors(record)) != []


def test_check_hands_reads_a_match_of_declaring_side_records(tmp_path):
    from tests.games.test_check_hands import run

    match = {
        "format": "match/1",
        "game": "solo-whist",
        "rules": "phillips",
        "hands": [
            # N deals: W's solo, 7 taken (v = 3/2); E deals: N and E's prop and cop, 7 of 8
            # (one short: v = 1).
            {
                "dealer": "N",
                "calls": calls("E pass S pass W solo N pass"),
                "turned": "5H",
                "tricks": {"W": 7},
            },
            {
                "dealer": "E",
                "calls": calls("S pass W pass N prop E cop"),
                "turned": "2C",
                "tricks": {"NE": 7},
            },
        ],
    }
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(match))
    status, results, _ = run(str(path))
    assert status == 0, results
    [result] = results
    assert result["ok"], result
    # W: +9/2 then +1; N and E: -3/2 then -1; S: -3/2 then +1
    assert result["after"]["score"] == {"N": "-5/2", "E": "-5/2", "S": "-1/2", "W": "11/2"}

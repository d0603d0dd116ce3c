"""Issue 18: Spades summary records read their `tricks` on a fast path (a plain loop over the
seats) and fall back to `games.base.read_counts` on anything unusual. These tests prove the fast
path decides exactly as the reference reader: the same error code and message for every bad
`tricks`, and the same result for good ones, hand after hand of generated records."""

from __future__ import annotations

import random

import pytest

from games import check_record
from games.base import read_counts
from games.errors import RecordError
from games.simulate.spades import random_hand, to_summary

SEATS = ("N", "E", "S", "W")


def _summary(seed: int) -> dict:
    return to_summary(random_hand(random.Random(seed), "standard"))


BAD_TRICKS = [
    None,
    [3, 3, 3, 4],
    "N3E3S3W4",
    {"N": 3, "E": 3, "S": 3},  # a seat missing
    {"N": 3, "E": 3, "S": 3, "W": 4, "X": 0},  # a seat too many
    {"N": 3, "E": 3, "S": 3, "W": 4.0},
    {"N": 3, "E": 3, "S": 3, "W": "4"},
    {"N": True, "E": 3, "S": 5, "W": 4},
    {"N": -1, "E": 5, "S": 5, "W": 4},
    {"N": 3, "E": 3, "S": 3, "W": None},
]


@pytest.mark.parametrize("tricks", BAD_TRICKS, ids=repr)
def test_bad_summary_tricks_fail_with_the_reference_readers_error(tricks):
    record = _summary(1)
    record["tricks"] = tricks
    result = check_record(record)
    with pytest.raises(RecordError) as reference:
        read_counts(tricks, SEATS, "tricks")
    assert result["ok"] is False
    assert result["errors"][0]["code"] == reference.value.code
    assert result["errors"][0]["message"] == reference.value.message


@pytest.mark.parametrize("seed", range(200))
def test_good_summary_tricks_score_as_through_the_reference_reader(seed):
    record = _summary(seed)
    # The same counts in another key order take the fast path too and must score the same.
    reordered = dict(record, tricks=dict(reversed(list(record["tricks"].items()))))
    expected = check_record(record)
    assert expected["ok"] is True
    assert read_counts(record["tricks"], SEATS, "tricks") == expected["tricks"]
    assert check_record(reordered) == expected


def test_summary_tricks_that_do_not_sum_to_thirteen_are_refused_on_the_fast_path():
    record = _summary(3)
    record["tricks"] = {"N": 4, "E": 3, "S": 3, "W": 4}
    result = check_record(record)
    assert result["ok"] is False
    assert result["errors"][0]["code"] == "tricks-do-not-sum"

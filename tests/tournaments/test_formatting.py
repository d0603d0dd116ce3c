"""The pages' number formatter against the shared cases in tests/data/numbers.json (the scoring
page's script is held to the same file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournaments.words.formatting import number, side_numbers

CASES = json.loads((Path(__file__).parents[1] / "data" / "numbers.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: f"{c['value']!r}-{c.get('signed')}")
def test_every_shared_case_is_written_as_the_rule_says(case):
    assert number(case["value"], signed=case.get("signed", False)) == case["text"]


def test_side_numbers_writes_each_side_with_the_same_rule():
    assert side_numbers({"NS": "129/4", "EW": -12}) == {"NS": "32¼", "EW": "\u221212"}
    assert side_numbers({"N": "7/2"}, signed=True) == {"N": "+3½"}
    assert side_numbers(None) == {}

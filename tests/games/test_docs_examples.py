"""The JSON examples in docs/*.md: the schemas accept them, and the engine agrees with them.

Examples that write "..." for left-out cards or tricks are illustrations of shape: the
placeholders are removed before schema validation, as for the spec's own examples. A complete
record must be valid, and a result shown right after it must be exactly the engine's result.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from games import check_record
from games.schema import load_schema
from tests.games.test_schema import without_placeholders

# The rules pages (one per game) and every other page that shows hand records or results.
GAME_DOCS = ("spades.md", "whist.md", "solo-whist.md", "german-whist.md")
DOCS = sorted(
    page
    for page in (Path(__file__).parents[2] / "docs").glob("*.md")
    if page.name in GAME_DOCS or "```json" in page.read_text()
)


def examples(page: Path) -> list:
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", page.read_text(), re.S)]


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_every_example_fits_the_schemas(page):
    records = jsonschema.Draft202012Validator(load_schema("hand-records"))
    results = jsonschema.Draft202012Validator(load_schema("results"))
    found = examples(page)
    assert found, f"{page.name} has no JSON examples"
    for example in found:
        validator = results if "ok" in example else records
        assert [e.message for e in validator.iter_errors(without_placeholders(example))] == []


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_complete_examples_are_valid_and_their_shown_results_are_the_engines(page):
    found = examples(page)
    checked = 0
    for i, example in enumerate(found):
        if "ok" in example or "..." in json.dumps(example):
            continue
        result = check_record(example)
        assert result["ok"], (page.name, i, result.get("errors"))
        following = found[i + 1] if i + 1 < len(found) else None
        if following is not None and "ok" in following:
            assert following == result, f"{page.name}: the result after example {i} is stale"
        checked += 1
    assert checked, f"{page.name} has no complete record to check"

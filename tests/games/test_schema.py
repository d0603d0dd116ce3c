"""The JSON Schemas of hand records and results agree with the spec, the simulators and the engine.

Spec examples: the hand example in hand-records.md shows every field at once and writes "..."
for cards left out (`["AS", "..."]`) and for fields left out (`{"dealer": "N", "...": "..."}`).
We treat them as illustrations of shape: the "..." placeholders are removed (list items and
keys), and what remains must validate (the hand against the hand/1 schema, the match against
match/1, the result against the results schema). Records proper are checked with the
simulators' output, which must also pass the engine.
"""

from __future__ import annotations

import copy
import importlib
import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from games.cards import CARD_IDS
from games.errors import CODES
from games.records import check_record
from games.registry import GAME_MODULES, get_game
from games.schema import SCHEMAS, load_schema

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "hand-records.md"
SIMULATORS = {
    "spades": "games.simulate.spades",
    "whist": "games.simulate.whist",
    "solo-whist": "games.simulate.solo_whist",
    "german-whist": "games.simulate.german_whist",
}


@pytest.fixture(scope="module")
def records_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema("hand-records"))


@pytest.fixture(scope="module")
def results_validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema("results"))


def errors_of(validator: jsonschema.Validator, value: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message[:300]}" for e in validator.iter_errors(value)]


def simulator(game: str) -> Any:
    try:
        return importlib.import_module(SIMULATORS[game])
    except ImportError:
        if game == "spades":
            raise
        pytest.skip(f"no simulator for {game} yet ({SIMULATORS[game]})")


# -- the schemas themselves -------------------------------------------------------------------


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_load_schema() -> None:
    first = load_schema("hand-records")
    first["title"] = "changed"
    assert load_schema("hand-records.schema.json")["title"] != "changed"
    with pytest.raises(KeyError):
        load_schema("nope")


def test_error_codes_are_the_engines() -> None:
    enum = load_schema("results")["$defs"]["error"]["properties"]["code"]["enum"]
    assert enum == list(CODES)


def test_games_are_the_engines() -> None:
    for name in SCHEMAS:
        assert load_schema(name)["$defs"]["game"]["enum"] == list(GAME_MODULES)


def test_every_card_spelling(records_validator: jsonschema.Validator) -> None:
    card = {"$ref": "#/$defs/card", "$defs": load_schema("hand-records")["$defs"]}
    validator = jsonschema.Draft202012Validator(card)
    for text in CARD_IDS:
        assert validator.is_valid(text), text
    for text in ["1S", "11H", "AX", "A", "", "JJ", "A S", "AS1", "10", 10, None]:
        assert not validator.is_valid(text), text


# -- the spec's examples ----------------------------------------------------------------------


def spec_examples() -> list[Any]:
    if not SPEC.exists():
        pytest.skip(f"the spec is not at {SPEC} (it lives beside the repository)")
    blocks = re.findall(r"```json\n(.*?)```", SPEC.read_text(encoding="utf-8"), re.S)
    return [json.loads(block) for block in blocks]


def without_placeholders(value: Any) -> Any:
    """The example with its "..." placeholders (list items and keys) removed."""
    if isinstance(value, list):
        return [without_placeholders(v) for v in value if v != "..."]
    if isinstance(value, dict):
        return {k: without_placeholders(v) for k, v in value.items() if k != "..."}
    return value


def test_spec_examples(
    records_validator: jsonschema.Validator, results_validator: jsonschema.Validator
) -> None:
    examples = spec_examples()
    hands = [e for e in examples if e.get("format") == "hand/1"]
    matches = [e for e in examples if e.get("format") == "match/1"]
    results = [e for e in examples if "ok" in e]
    assert (len(hands), len(matches), len(results)) == (1, 1, 1), "the spec's examples changed"
    for example in hands + matches:
        assert errors_of(records_validator, without_placeholders(example)) == []
    # The hand example names every field of a hand: the schema knows each of them.
    fields = load_schema("hand-records")["$defs"]["handFields"]["properties"]
    assert set(hands[0]) <= set(fields)
    assert errors_of(results_validator, results[0]) == []
    # Placeholders aside, a wrong field is caught.
    broken = without_placeholders(hands[0]) | {"dealer": "X"}
    assert errors_of(records_validator, broken)


# -- records from the simulators, and the engine's results for them ---------------------------


@pytest.mark.parametrize("game", SIMULATORS)
def test_simulated_records_and_results(
    game: str, records_validator: jsonschema.Validator, results_validator: jsonschema.Validator
) -> None:
    sim = simulator(game)
    rng = random.Random(11)
    for preset in get_game(game).book.presets:
        for _ in range(4):
            full = sim.random_hand(rng, preset)
            for record in (full, sim.to_summary(full)):
                assert errors_of(records_validator, record) == [], (preset, record)
                result = check_record(record)
                assert result["ok"], (preset, result)
                assert errors_of(results_validator, result) == [], (preset, result)


@pytest.mark.parametrize("game", SIMULATORS)
def test_simulated_matches_and_results(
    game: str, records_validator: jsonschema.Validator, results_validator: jsonschema.Validator
) -> None:
    sim = simulator(game)
    match = sim.random_match(random.Random(5))
    assert errors_of(records_validator, match) == []
    assert errors_of(records_validator, [match, match]) == []
    result = check_record(match)
    # Spades and whist matches end by their rules; solo and german whist ones never do.
    assert result["ok"] and result["ended"] == (game in ("spades", "whist"))
    assert errors_of(results_validator, result) == []
    # A match that fails at its second hand: the error names the hand.
    broken = copy.deepcopy(match)
    broken["hands"][1]["dealer"] = broken["hands"][0]["dealer"]
    result = check_record(broken)
    assert not result["ok"] and result["errors"][0]["hand"] == 2
    assert errors_of(results_validator, result) == []


def test_failure_results(results_validator: jsonschema.Validator) -> None:
    rng = random.Random(3)
    hand = simulator("spades").random_hand(rng)
    bad_play = copy.deepcopy(hand)
    bad_play["play"][0] = bad_play["play"][1]
    samples = [
        bad_play,
        {**hand, "deal": {**hand["deal"], "N": hand["deal"]["E"]}},
        {**hand, "rules": "no-such-preset"},
        {**hand, "calls": [{"seat": "N", "call": "bogus"}]},
        {"format": "hand/1"},
        [1, 2],
        "not a record",
        {"format": "match/1", "game": "spades", "rules": "standard", "hands": "x"},
    ]
    for record in samples:
        result = check_record(record)
        assert not result["ok"]
        assert errors_of(results_validator, result) == [], result


# -- the forgiving input, and what the schema turns away ---------------------------------------


def forgiving(hand: dict) -> dict:
    """The same hand spelled loosely: lower case, 10 for T, suit symbols, tricks as strings."""
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

    def loose(card: str, i: int) -> str:
        rank, suit = card[:-1], card[-1]
        rank = "10" if rank == "T" else rank
        return [rank.lower() + suit.lower(), rank + symbols[suit], symbols[suit] + rank][i % 3]

    out = copy.deepcopy(hand)
    out["deal"] = {s: [loose(c, i) for i, c in enumerate(cs)] for s, cs in hand["deal"].items()}
    out["play"] = [
        " ".join(loose(c, i + t) for i, c in enumerate(trick))
        for t, trick in enumerate(hand["play"])
    ]
    return out


def test_forgiving_input(
    records_validator: jsonschema.Validator, results_validator: jsonschema.Validator
) -> None:
    hand = simulator("spades").random_hand(random.Random(9))
    loose = forgiving(hand)
    assert errors_of(records_validator, loose) == []
    assert check_record(loose) == check_record(hand)
    claimed = copy.deepcopy(hand)
    claimed["claim"] = {"seat": "N", "tricks": 0}
    assert errors_of(records_validator, claimed) == []
    more = {
        **hand,
        "before": {"score": {"NS": 120, "EW": 80}, "bags": {"NS": 3, "EW": 0}},
        "calls": [
            {"side": "NS", "call": "blind-7"},
            {"seat": "E", "call": 4},
            {"seat": "S", "call": "double-blind-nil"},
            {"seat": "W", "call": "moon"},
        ],
        "exchange": [{"from": "N", "to": "S", "cards": "2h 3h"}],
        "discard": ["BJ", "lj"],
    }
    assert errors_of(records_validator, more) == []
    solo = {
        "format": "hand/1",
        "game": "solo-whist",
        "rules": "phillips",
        "dealer": "N",
        "before": {"score": {"N": "3/2", "E": "-1.5", "S": 0, "W": "0"}, "deals": 4},
        "turned": "5h",
        "trump": "♠",
        "calls": [
            {"seat": "E", "call": "abundance-declared-in-trumps"},
            {"seat": "S", "call": "pass"},
        ],
        "tricks": {"N": 0, "E": 13, "S": 0, "W": 0},
    }
    assert errors_of(records_validator, solo) == []
    whist = {
        "format": "hand/1",
        "game": "whist",
        "rules": "short-whist",
        "dealer": "S",
        "before": {
            "score": {"NS": 2, "EW": 4},
            "games": {"NS": 1, "EW": 0},
            "game_points": {"NS": 2, "EW": 0},
        },
        "trump": "d",
        "tricks": {"NS": 7, "EW": 6},
        "honours": {"NS": 3, "EW": 1},
        "revokes": [{"seat": "E", "count": 1}, {"seat": "W", "trick": 4}],
        "penalty": "transfer",
    }
    assert errors_of(records_validator, whist) == []
    german = {
        "format": "hand/1",
        "game": "german-whist",
        "dealer": "N",
        "turned": "QS",
        "tricks": {"N": 7, "S": 6},
        "winner": "N",
        "stock": ["QS", "2h", "10D"],
    }
    assert errors_of(records_validator, german) == []


@pytest.mark.parametrize(
    "change",
    [
        {"format": "hand/2"},
        {"game": "bridge"},
        {"dealer": "X"},
        {"trick_count": 3},  # an unknown field (a typo for tricks)
        {"deal": {"N": ["1S"]}},
        {"deal": {"X": ["AS"]}},
        {"play": [["AS", "ZZ"]]},
        {"play": ["AS KS QS JS 9X"]},
        {"play": [3]},
        {"calls": [{"seat": "N", "call": "bogus"}]},
        {"calls": [{"seat": "N", "side": "NS", "call": "4"}]},
        {"calls": [{"call": "4"}]},
        {"rules": {"preset": "standard", "extra": 1}},
        {"rules": {"options": {}}},
        {"tricks": {"N": -1}},
        {"honours": {"NS": 5}},
        {"penalty": "forfeit"},
        {"claim": {"seat": "N"}},
        {"before": {"score": {"NS": 1.5}}},
        {"before": {"points": {}}},
        {"trump": "X"},
    ],
)
def test_rejected(change: dict, records_validator: jsonschema.Validator) -> None:
    hand = {
        "format": "hand/1",
        "game": "spades",
        "rules": "standard",
        "dealer": "N",
        "calls": [],
        "tricks": {"N": 13},
    }
    assert errors_of(records_validator, hand) == []
    assert errors_of(records_validator, hand | change)


def test_records_need_format_and_dealer(records_validator: jsonschema.Validator) -> None:
    assert not records_validator.is_valid({"dealer": "N"})
    assert not records_validator.is_valid({"format": "hand/1"})
    assert not records_validator.is_valid({"format": "match/1"})
    assert records_validator.is_valid({"format": "match/1", "hands": [{"dealer": "N"}]})
    assert not records_validator.is_valid({"format": "match/1", "hands": [{"format": "x"}]})
    assert not records_validator.is_valid([[{"format": "hand/1", "dealer": "N"}]])

"""Hostile input for the rules engine (hypothesis): whatever a record holds, the engine answers
with a result or a refusal with coded errors, never an exception; an impossible deal (a card twice)
is always refused. The long run of the same properties, with atheris too, is bench/fuzz.py."""

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.canonical import canonical_hand, hand_fields
from games.fuzzing import (
    PRESETS,
    broken_contract,
    cards_in,
    check,
    legal_hand,
    paths,
    removed,
    replaced,
    with_duplicate_card,
)
from games.records import check_record

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
CARDISH = st.sampled_from(["AS", "10H", "TD", "BJ", "XX", "1S", "AS ", "as", "", "ZZZ", "0C"])
# bench/fuzz.py runs these same properties with many more examples.
FUZZ = settings(
    max_examples=int(os.environ.get("TRICKTABLE_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
preset = st.sampled_from(PRESETS)


@FUZZ
@given(value=JSON)
def test_any_json_value_gets_an_answer_never_an_exception(value):
    check(value)
    check({"format": "hand/1", "game": "spades", "rules": "standard", "x": value})


@FUZZ
@given(
    game_preset=preset,
    seed=st.integers(0, 2**32),
    pick=st.randoms(use_true_random=False),
    new=JSON | CARDISH,
)
def test_a_legal_record_with_any_field_replaced_gets_an_answer(game_preset, seed, pick, new):
    record = legal_hand(seed, *game_preset)
    path = pick.choice(paths(record))
    check(replaced(record, path, new))


@FUZZ
@given(game_preset=preset, seed=st.integers(0, 2**32), pick=st.randoms(use_true_random=False))
def test_a_legal_record_with_any_field_removed_gets_an_answer(game_preset, seed, pick):
    record = legal_hand(seed, *game_preset)
    check(removed(record, pick.choice(paths(record))))


@FUZZ
@given(game_preset=preset, seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_a_card_named_twice_is_always_refused(game_preset, seed, pick):
    record = legal_hand(seed, *game_preset)
    bent = with_duplicate_card(record, random.Random(pick))
    assert bent is not None
    answer = check(bent)
    assert answer["ok"] is False, (game_preset, seed, pick)


@FUZZ
@given(
    game_preset=preset,
    seed=st.integers(0, 2**32),
    pick=st.randoms(use_true_random=False),
    card=st.sampled_from(["XX", "1S", "11H", "AZ", "ZS", "", "BJJ", "0C", "S"]),
)
def test_a_card_that_does_not_exist_is_always_refused(game_preset, seed, pick, card):
    record = legal_hand(seed, *game_preset)
    spot = pick.choice(cards_in(record))
    answer = check(replaced(record, spot, card))
    assert answer["ok"] is False


@pytest.mark.parametrize("game,preset", PRESETS)
def test_every_preset_s_random_legal_hand_is_accepted(game, preset):
    assert check(legal_hand(7, game, preset))["ok"] is True


def test_the_contract_check_itself_catches_a_refusal_without_errors():
    assert broken_contract({"ok": False, "errors": []}) == "a refusal without errors"
    assert broken_contract({"ok": False, "errors": [{"code": 1}]}).startswith("an error")
    assert broken_contract("nope").startswith("not a result")
    assert broken_contract(check_record({"format": "hand/1"})) is None


def test_a_shape_the_checks_did_not_foresee_is_refused_as_bad_format(monkeypatch):
    from games import records

    game = records.get_game("spades")

    def explode(*args, **kwargs):
        raise TypeError("unhashable type: 'list'")

    monkeypatch.setattr(game, "check_hand", explode)
    answer = check(legal_hand(1, "spades", "standard"))
    assert answer["ok"] is False and answer["errors"][0]["code"] == "bad-format"


@FUZZ
@given(
    game_preset=preset,
    seed=st.integers(0, 2**32),
    summary=st.booleans(),
    junk=st.dictionaries(
        st.text(min_size=1, max_size=8).filter(lambda k: k not in hand_fields()), JSON, max_size=3
    ),
)
def test_the_canonical_form_of_an_accepted_record_scores_the_same_and_drops_only_junk(
    game_preset, seed, summary, junk
):
    import importlib

    from games.fuzzing import SIMULATORS

    record = legal_hand(seed, *game_preset)
    if summary:
        record = {
            **importlib.import_module(SIMULATORS[game_preset[0]]).to_summary(record),
            "game": game_preset[0],
            "rules": game_preset[1],
        }
    lowered = {**record, **junk}
    if "deal" in lowered:
        lowered["deal"] = {s: [c.lower() for c in cards] for s, cards in lowered["deal"].items()}
    canonical = canonical_hand(lowered)
    assert check_record(canonical) == check_record(record)
    assert set(canonical) == set(record)
    assert canonical_hand(canonical) == canonical

"""Every note an engine makes carries a stable code from the one registry and its parameters,
while staying the same English string records and reports print."""

from __future__ import annotations

import copy
import json
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import CODES, RecordError
from games.fuzzing import PRESETS, SIMULATORS, legal_hand
from games.notes import NOTE_CODES, Note, note
from games.records import check_hand, check_match
from tests import sizes


@settings(max_examples=sizes.examples(60))
@given(st.sampled_from(PRESETS), st.integers(0, 10**6))
def test_every_note_of_a_legal_hand_has_a_registered_code_and_is_still_its_text(preset, seed):
    game, name = preset
    result = check_hand(legal_hand(seed, game, name))
    assert result["ok"], result
    for made in result["notes"]:
        assert isinstance(made, Note)
        assert made.code in NOTE_CODES
        assert isinstance(made.params, dict)
        assert json.loads(json.dumps(made)) == str(made)


def test_the_notes_of_whole_matches_have_registered_codes():
    """Matches reach the notes a single hand from the start cannot (games, rubbers, bags)."""
    import importlib

    seen = set()
    for game, preset in PRESETS:
        simulate = importlib.import_module(SIMULATORS[game])
        for seed in range(3):
            record = simulate.random_match(random.Random(seed), preset)
            result = check_match(record, game=game)
            assert result["ok"], result
            for hand in result["hands"]:
                for made in hand["notes"]:
                    assert made.code in NOTE_CODES, made
                    seen.add(made.code)
    assert {"whist-game", "spades-bid-made", "solo-paid-alone", "german-whist-tricks"} <= seen


def test_a_note_keeps_its_code_through_a_copy_and_pickle():
    made = note(
        "spades-bid-set",
        "NS bid 5, took 3: set (-50)",
        {"side": "NS", "bid": "5", "taken": 3, "points": "-50"},
    )
    for again in (copy.deepcopy(made), pickle.loads(pickle.dumps(made))):
        assert isinstance(again, Note)
        assert (again, again.code, again.params) == (made, made.code, made.params)
    assert made == "NS bid 5, took 3: set (-50)"


def test_an_error_gives_its_registered_code_and_where_as_parameters():
    error = RecordError(
        "must-follow-suit", "trick 3: N played AS holding H", trick=3, seat="N", card="AS"
    )
    assert error.code in CODES
    assert error.params == {"trick": 3, "seat": "N", "card": "AS"}
    assert RecordError("bad-format", "no").params == {}

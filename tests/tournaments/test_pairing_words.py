"""The notes the pairing engines and the knockout write read as sentences with the entries'
names, in English and Japanese; a note of an unknown form stays as written."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.words.pairing import note

NAMES = {3: "Ace Hunters", 7: "Nil Whisperers"}


@pytest.mark.parametrize(
    ("text", "english", "japanese"),
    [
        ("rematch unavoidable: 3 v 7", "Ace Hunters v Nil Whisperers is a rematch", "Ace Hunters"),
        ("knockout: 4 match(es)", "Knockout: 4 matches.", "ノックアウト：4 試合。"),
        (
            "knockout: walkover for 7 (the other side withdrew)",
            "Nil Whisperers goes through: the other side withdrew.",
            "Nil Whisperers が勝ち上がり",
        ),
        (
            "match 2 of bracket round 1: its winner is no longer in it (a result was corrected)",
            "Match 2 of bracket round 1: its winner",
            "ラウンド 1 の試合 2",
        ),
        (
            "consolation: rematch unavoidable: 3 v 7",
            "Consolation Swiss: Ace Hunters v Nil Whisperers is a rematch",
            "敗退者のスイス式順位戦：",
        ),
    ],
)
def test_engine_notes_read_as_sentences_in_both_languages(text, english, japanese):
    with translation.override("en"):
        assert english in note(text, NAMES)
    with translation.override("ja"):
        said = note(text, NAMES)
        assert japanese in said
        assert "match(es)" not in said and "withdrew" not in said


def test_a_note_of_an_unknown_form_is_kept_as_written():
    assert note("something new: 3", NAMES) == "something new: 3"

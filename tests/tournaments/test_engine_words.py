"""The engines' notes and errors, the presets and every option value read as sentences and words
in English and Japanese; none is left untranslated (enumerated from the engines' registries)."""

from __future__ import annotations

import re
from functools import cache

import pytest
from django.utils import translation

from games.errors import CODES
from games.fuzzing import PRESETS, legal_hand
from games.notes import NOTE_CODES, note
from games.records import check_hand, get_game
from games.registry import GAMES
from tests.test_translations import PO, read_po
from tournaments.presentation import preset_name
from tournaments.views.director_forms import RulesForm
from tournaments.words.engine import (
    ERROR_MESSAGES,
    NOTE_SENTENCES,
    error_sentence,
    hand_notes,
    note_sentence,
)
from tournaments.words.options import VALUE_LABELS, value_label

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


class AnyParams(dict):
    """Parameters for a note whose real ones a sample did not give: any key is 2."""

    def __missing__(self, key):
        return 2

    def get(self, key, default=None):
        return 2


@cache
def ja_catalog() -> dict[str, str]:
    """The Japanese translation of each msgid the .po translates (no context)."""
    return {
        entry.msgid: entry.msgstr[0]
        for entry in read_po(PO)
        if entry.msgctxt is None and entry.msgid_plural is None
    }


def in_both(say) -> tuple[str, str]:
    with translation.override("en"):
        en = say()
    with translation.override("ja"):
        ja = say()
    return en, ja


def test_every_engine_code_has_a_sentence_here():
    assert set(ERROR_MESSAGES) == set(CODES)
    assert set(NOTE_SENTENCES) == set(NOTE_CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_engine_error_code_reads_in_japanese(code):
    en, ja = in_both(lambda: error_sentence({"code": code, "message": "the engine's English"}))
    assert en != "the engine's English"
    assert JAPANESE.search(ja) and ja != en


@pytest.mark.parametrize("code", sorted(NOTE_CODES))
def test_every_engine_note_code_reads_in_japanese(code):
    made = note(code, "the engine's English", AnyParams())
    en, ja = in_both(lambda: note_sentence(made))
    assert en != "the engine's English"
    assert JAPANESE.search(ja) and ja != en


@pytest.mark.parametrize(
    ("game", "option"),
    [
        (game, name)
        for game in GAMES
        for name, option in get_game(game).book.options.items()
        if option.choices and isinstance(option.choices[0], str)
    ],
)
def test_every_named_option_value_has_words_in_both_languages(game, option):
    for value in get_game(game).book.options[option].choices:
        label = VALUE_LABELS[(game, option)][value]
        with translation.override("en"):
            msgid = str(label)
        assert msgid != value
        assert ja_catalog().get(msgid), (game, option, value)


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_every_preset_has_a_name_in_both_languages(game, preset):
    with translation.override("en"):
        name = preset_name(game, preset)
    assert name != preset
    assert ja_catalog().get(name), (game, preset)


def test_a_spades_hand_reads_in_japanese_from_its_codes():
    record = {
        "format": "hand/1",
        "game": "spades",
        "rules": "standard",
        "dealer": "N",
        "calls": [
            {"seat": "E", "call": "3"},
            {"seat": "S", "call": "nil"},
            {"seat": "W", "call": "4"},
            {"seat": "N", "call": "5"},
        ],
        "tricks": {"N": 3, "E": 3, "S": 0, "W": 7},
    }
    result = check_hand(record)
    en, ja = in_both(lambda: [note_sentence(n) for n in result["notes"]])
    assert (
        en
        == [str(n) for n in result["notes"]]
        == ["S made nil (+100)", "NS bid 5, took 3: set (-50)", "EW bid 4, took 10 (+46)"]
    )
    assert ja == [
        "Sがニル成功（+100）",
        "NS：ビッド5、3トリック獲得：セット（-50）",
        "EW：ビッド4、10トリック獲得（+46）",
    ]


def test_stored_notes_are_read_again_with_their_codes():
    """Stored results are JSON (plain strings): the engine reads the stored record again."""
    record = legal_hand(7, "whist", "short-whist")
    result = check_hand(record)
    stored = {**result, "notes": [str(n) for n in result["notes"]]}
    with translation.override("ja"):
        shown = hand_notes(record, stored, game="whist", rules="short-whist")
    assert shown and all(JAPANESE.search(text) for text in shown)


def test_stored_notes_the_engine_no_longer_gives_stay_as_written():
    record = legal_hand(7, "whist", "short-whist")
    stored = {"notes": ["an old note"]}
    with translation.override("ja"):
        assert hand_notes(record, stored, game="whist", rules="short-whist") == ["an old note"]


def test_an_error_reads_with_where_it_is_and_no_bracketed_code():
    error = {"code": "must-follow-suit", "message": "x", "trick": 3, "seat": "N", "card": "AS"}
    en, ja = in_both(lambda: error_sentence(error))
    assert en == "A player did not follow suit although they could. (trick 3, N, A♠)"
    assert ja.startswith("プレイヤーが同じスートを出せるのに") and "トリック3" in ja
    assert "[" not in en + ja and "must-follow-suit" not in en + ja


def test_option_values_read_as_words_not_engine_ids():
    en, ja = in_both(
        lambda: [
            value_label("spades", "double_nil", "when-behind"),
            value_label("spades", "blind_made", "bonus-100"),
            value_label("spades", "nil", True),
        ]
    )
    assert en == ["Only when behind", "Scores a bonus of 100", "On"]
    assert ja[0] == "負けているときだけ" and all(JAPANESE.search(text) for text in ja)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_off_has_one_spelling_for_switches_and_named_values(language):
    """A switch set off and an option whose value is `off` read the same word, capitalised like
    every other value ("Off", never "off" beside it)."""
    with translation.override(language):
        words = {
            value_label(game, name, False if isinstance(option.default, bool) else "off")
            for game in GAMES
            for name, option in get_game(game).book.options.items()
            if isinstance(option.default, bool) or "off" in (option.choices or ())
        }
        on = value_label("spades", "nil", True)
    assert words == {"Off" if language == "en" else "なし"}
    assert on == ("On" if language == "en" else "あり")


def test_the_director_form_offers_option_values_as_words():
    with translation.override("ja"):
        form = RulesForm(game="spades", preset="standard")
        choices = dict(form.fields["opt_bidding"].choices)
    assert set(choices) == {'"last-bidder"', '"sum"', '"consult"'}
    assert all(JAPANESE.search(str(label)) for label in choices.values())


def test_a_tournaments_rules_read_as_the_presets_name_and_its_house_options_in_words():
    from tournaments.words.options import rules_label

    rules = {"preset": "standard", "options": {"double_nil": "when-behind", "target": 300}}
    en, ja = in_both(lambda: rules_label("spades", rules))
    assert en == "Standard (the club's own rules) (Double nil: Only when behind, Target score: 300)"
    assert "負けているときだけ" in ja and "when-behind" not in ja and "standard" not in ja

"""Template filters for showing hand-record results in the reader's language: the game and its
rules in words, the engine's notes and errors as sentences (tournaments/words/engine.py and
tournaments/words/options.py do the saying)."""

from typing import Any

from django import template

from tournaments.presentation import game_name as name_of_game
from tournaments.words.engine import error_sentence, note_sentence
from tournaments.words.options import rules_label as rules_in_a_line

register = template.Library()


@register.filter
def game_name(game: Any) -> str:
    """A game id as its name ("Solo Whist"); anything else as given."""
    return name_of_game(game) if isinstance(game, str) else ("" if game is None else str(game))


@register.filter
def rules_label(rules: Any, game: Any = "") -> str:
    """A record's rules as people read them: the preset's name and each house option with its
    value in words ("Standard (the club's own rules) (Double nil: Only when behind)")."""
    if rules is None:
        return ""
    try:
        return rules_in_a_line(str(game or ""), rules)
    except (KeyError, LookupError, TypeError, ValueError):  # a record of an unknown game
        return str(rules)


@register.filter
def note_words(note: Any) -> str:
    """An engine note in the active language (a note without its code: as written)."""
    return note_sentence(note)


@register.filter
def error_words(error: Any) -> str:
    """An engine error (its code, and where it is) as a sentence in the active language, with no
    bracketed code."""
    return error_sentence(error) if isinstance(error, dict) else str(error)


@register.filter
def side_scores(scores: Any) -> str:
    """{"NS": 50, "EW": 64} -> "NS 50 · EW 64"."""
    if not isinstance(scores, dict):
        return ""
    return " · ".join(f"{side} {value}" for side, value in scores.items())

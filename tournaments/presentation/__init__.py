"""How each game is shown, one module per game, registered once here.

Adding a game: its engine (games/<game>.py, listed in `games.registry`), then its presentation
(tournaments/presentation/<game>.py with ``PRESENTATION``, a `GamePresentation`) and one line in
`PRESENTATIONS` below. Every page, form, sheet and sentence about a game asks `presentation(game)`.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.registry import GAMES, get_game
from tournaments.presentation import german_whist, solo_whist, spades, whist
from tournaments.presentation.base import GamePresentation, Label, TrickView

__all__ = [
    "GamePresentation",
    "TrickView",
    "choices",
    "describe",
    "game_name",
    "presentation",
    "preset_name",
]

PRESENTATIONS: dict[str, GamePresentation] = {
    p.name: p
    for p in (
        spades.PRESENTATION,
        whist.PRESENTATION,
        solo_whist.PRESENTATION,
        german_whist.PRESENTATION,
    )
}
# Every engine has its presentation, and nothing is shown of a game without an engine.
assert set(PRESENTATIONS) == set(GAMES), "games.registry and the presentations disagree"


def presentation(game: str) -> GamePresentation:
    """How `game` is shown (KeyError for a game the registry does not know)."""
    return PRESENTATIONS[game]


def choices() -> list[tuple[str, Label]]:
    """(game, its name) for every game in the club's order: the model's and forms' choices."""
    return [(game, PRESENTATIONS[game].label) for game in GAMES]


def game_name(game: str) -> str:
    """The game's name for people, in the active language (the id for an unknown game)."""
    found = PRESENTATIONS.get(game)
    return str(found.label) if found is not None else game


def preset_name(game: str, preset: str) -> str:
    """A preset as players call it ("Hoyle's Rules of Games"), or its id for a house preset."""
    found = PRESENTATIONS.get(game)
    names = found.preset_names if found is not None else {}
    return str(names[preset]) if preset in names else preset


def describe(
    game: str, rules: dict | str, *, match_length: str = "target", match_hands: int | None = None
) -> list[str]:
    """Sentences stating the rules (a preset id or {"preset", "options"}), in the active
    language; raises the engine's `RecordError` for rules it does not know. A tournament whose
    matches are not played to the rules' target (`match_length` "hands" or "director") gets
    its own match length in place of the rules' "first side to 500" sentences."""
    book = get_game(game).book
    compiled, canonical = book.resolve(rules)
    preset = canonical if isinstance(canonical, str) else canonical["preset"]
    house = {} if isinstance(canonical, str) else canonical.get("options", {})
    options = dict(compiled.options)
    shown = presentation(game)
    sentences = shown.rules_in_words(options, compiled)
    length = _match_sentence(match_length, match_hands)
    if length:
        target = set(shown.target_sentences(options))
        sentences = [s for s in sentences if s not in target] + [length]
    return [_preset_sentence(game, preset, len(house)), *sentences]


def _match_sentence(match_length: str, match_hands: int | None) -> str:
    if match_length == "hands" and match_hands:
        return ngettext(
            "Match: %(count)d hand; the higher score after it wins the match.",
            "Match: %(count)d hands; the higher score after the last one wins the match.",
            match_hands,
        ) % {"count": match_hands}
    if match_length == "director":
        return _(
            "Match: hands are played until the director closes the round; the higher score "
            "then wins the match."
        )
    return ""


def _preset_sentence(game: str, preset: str, house: int) -> str:
    name = preset_name(game, preset)
    if not house:
        return _("Rules: %(preset)s, as published.") % {"preset": name}
    return ngettext(
        "Rules: %(preset)s, with %(count)d house option.",
        "Rules: %(preset)s, with %(count)d house options.",
        house,
    ) % {"preset": name, "count": house}

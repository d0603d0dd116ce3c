"""The club's words for cards, values, calls and contracts, shared by every game's presentation
(tournaments/presentation/): the rules in words, the match pages and the scoring page.

The rules of a tournament in words are one translatable sentence per rule, from the preset and the
house options, so players read what they play under instead of option names; each game's
sentences live in its presentation module (`rules_in_words`), `presentation.describe` puts them
together.

The rules engine (`games`) stays the authority: every sentence is written from the full option
dict the engine resolves (`RuleBook.resolve`), and where the engine derives something from the
options (the cards taken out of a Spades pack, the order of trumps, the Solo Whist bids and their
values, the German Whist drawing phase) the words read it from the compiled rules rather than
working it out again. An option left at a value that changes nothing (no bonus, no moon) gets no
sentence; an option that matters only beside another (nil's value when nil is off) is described
only where it applies.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.cards import SUIT_SIGNS


def card(name: str) -> str:
    """A card as printed: "TH" -> "10♥", "BJ" -> "big joker"."""
    if name == "BJ":
        return _("big joker")
    if name == "LJ":
        return _("little joker")
    rank, suit = name[:-1], name[-1]
    return ("10" if rank == "T" else rank) + SUIT_SIGNS.get(suit, suit)


def cards(names: Any) -> str:
    return ", ".join(card(n) for n in names)


def amount(value: Fraction | int) -> str:
    """An exact value as written on a score sheet: 1, 1/4, 1 1/2, 3/10."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    whole, part = divmod(abs(value.numerator), value.denominator)
    sign = "-" if value < 0 else ""
    if whole:
        return f"{sign}{whole} {part}/{value.denominator}"
    return f"{sign}{part}/{value.denominator}"


# -- calls and contracts as the club says them (pages and the scoring page) ------------------


def call_label(call: str) -> str:
    """A Spades call as the club says it (Japanese card terms follow the club's notes)."""
    if call.isdigit():
        return call
    if call.startswith("blind-") and call[6:].isdigit():
        # Translators: a Spades blind bid, e.g. "Blind 7" (ブラインド7).
        return _("Blind %(tricks)s") % {"tricks": call[6:]}
    labels = {
        # Translators: Spades bid, ニル in the club's notes.
        "nil": _("Nil"),
        # Translators: Spades bid, ダブル・ニル in the club's notes.
        "double-nil": _("Double nil (blind nil)"),
        # Translators: Spades bid, ダブル・ブラインド・ニル in the club's notes.
        "double-blind-nil": _("Double blind nil"),
        # Translators: Spades bid, ムーン in the club's notes.
        "moon": _("Moon"),
        # Translators: Spades bid, ブラインド・ムーン in the club's notes.
        "blind-moon": _("Blind moon"),
        "pass": pgettext("call", "Pass"),
    }
    return labels.get(call, call)


def solo_labels() -> dict[str, str]:
    """Solo Whist contracts (the club's notes: プロポーズ, ソロ, ミゼール, アバンダンス ...)."""
    return {
        # Translators: Solo Whist, プロポーズ&アクセプト in the club's notes.
        "prop": _("Proposal and acceptance"),
        # Translators: Solo Whist, アクセプト in the club's notes.
        "cop": _("Acceptance"),
        # Translators: Solo Whist, ソロ in the club's notes.
        "solo": _("Solo"),
        # Translators: Solo Whist, ミゼール in the club's notes.
        "misere": _("Misère"),
        # Translators: Solo Whist, アバンダンス in the club's notes.
        "abundance": _("Abundance"),
        # Translators: Solo Whist, アバンダンス・イン・トランプ in the club's notes.
        "abundance-in-trumps": _("Abundance in trumps"),
        # Translators: Solo Whist, ミゼール・ウベルト in the club's notes.
        "misere-ouverte": _("Misère ouverte (open misère)"),
        # Translators: Solo Whist, アバンダンス・デクラレ in the club's notes.
        "abundance-declared": _("Abundance declared"),
        "abundance-declared-in-trumps": _("Abundance declared in trumps"),
        "pass": pgettext("call", "Pass"),
    }

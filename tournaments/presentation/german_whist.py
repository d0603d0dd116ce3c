"""German Whist as the club sees it: its rules in words, the match page's facts and tricks, the
scoring form, and the paper sheet's columns (each hand is a whole game)."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.presentation.base import (
    Presentation,
    TrickView,
    engine_winners,
    suit_sign,
    trick_cards,
)
from tournaments.words.rules import card as card_label


class GermanWhist(Presentation):
    name = "german-whist"
    form_template = "tournaments/scoring/_german-whist.html"
    card_entry = False  # thirteen tricks of two hands: entered as facts only
    label = gettext_lazy("German Whist")
    demo_label = gettext_lazy("a German Whist game")
    preset_names = {
        "standard": gettext_lazy("Standard"),
    }
    sheet_per_side = (gettext_lazy("Tricks"), gettext_lazy("Score"), gettext_lazy("Total"))
    sheet_rows = 10

    def rules_in_words(self, options: dict[str, Any], compiled: Any) -> list[str]:
        return _german_whist(options, compiled)

    def facts(self, record: dict, result: dict) -> list[tuple[str, str]]:
        facts = []
        if result.get("winner"):
            facts.append((_("Winner"), result["winner"]))
        turned = record.get("turned") or (record.get("stock") or [None])[0]
        if turned:
            facts.append((_("Trumps"), suit_sign(turned[-1])))
        return facts

    def form(self, compiled: Any) -> dict[str, Any]:
        return {"total": compiled.counted}

    def tricks(self, record: dict, result: dict) -> list[TrickView]:
        """The non-dealer leads first and each trick's winner leads the next (cards come from
        the stock, so the deal does not say who played what)."""
        cards = trick_cards(record["play"])
        winners = engine_winners(record, result, len(cards))
        leader: str | None = "S" if record.get("dealer", "N") == "N" else "N"
        views = []
        for number, (trick, winner) in enumerate(zip(cards, winners, strict=True), 1):
            other = None if leader is None else "S" if leader == "N" else "N"
            seats = [leader, other]
            views.append(
                TrickView(
                    number=number,
                    leader=leader,
                    plays=[(seat, card_label(c)) for seat, c in zip(seats, trick, strict=False)],
                    winner=winner,
                )
            )
            leader = winner
        return views

    def demo_record(self, rng: random.Random) -> Any:
        from games.simulate.german_whist import random_hand

        return random_hand(rng, "standard")


# --- the rules in words --------------------------------------------------------------------


def _german_whist(o: dict[str, Any], compiled: Any) -> list[str]:
    stock = 52 - 2 * compiled.hand_size
    out = [
        _(
            "Two players, %(count)d cards each; the other %(stock)d form a face-down stock whose "
            "top card is turned: its suit is trumps for the whole game."
        )
        % {"count": compiled.hand_size, "stock": stock},
        _(
            "The non-dealer leads first; follow suit if you can; the highest trump wins, else the "
            "highest card of the suit led."
        ),
        _(
            "For the first %(count)d tricks the winner takes the turned card of the stock and the "
            "loser the face-down card beneath it; then the next card is turned."
        )
        % {"count": compiled.drawing},
    ]
    if compiled.all_count:
        out.append(
            _("All %(count)d tricks count; whoever takes more wins.") % {"count": compiled.counted}
        )
    else:
        out.append(
            _(
                "Only the last %(count)d tricks, played once the stock is empty, count; "
                "whoever takes more of them wins."
            )
            % {"count": compiled.counted}
        )
    if compiled.difference:
        out.append(_("The winner scores the difference between the two players' tricks."))
    else:
        out.append(_("The winner scores 1."))
    return out


PRESENTATION = GermanWhist()

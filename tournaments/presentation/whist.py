"""Whist as the club sees it: its rules in words, the match page's facts, the scoring page's
line and form, and the paper sheet's columns."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.presentation.base import Presentation, per_side, suit_sign


class Whist(Presentation):
    name = "whist"
    form_template = "tournaments/scoring/_whist.html"
    turned_card = True
    label = gettext_lazy("Whist")
    demo_label = gettext_lazy("a Whist rubber")
    preset_names = {
        "short-whist": gettext_lazy("Short whist"),
        "long-whist": gettext_lazy("Long whist"),
        "long-whist-9": gettext_lazy("Long whist, game at 9"),
        "american-whist": gettext_lazy("American whist"),
    }
    sheet_per_side = (
        gettext_lazy("Tricks"),
        gettext_lazy("Honours"),
        gettext_lazy("Score"),
        gettext_lazy("Total"),
    )

    def rules_in_words(self, options: dict[str, Any], compiled: Any) -> list[str]:
        return _whist(options, compiled)

    def facts(self, record: dict, result: dict) -> list[tuple[str, str]]:
        facts = []
        trump = result.get("trump") or record.get("trump")
        if trump:
            facts.append((_("Trumps"), suit_sign(trump)))
        honours = result.get("honours") or record.get("honours")
        if honours:
            facts.append((_("Honours held"), per_side(honours)))
        revokes = result.get("revokes") or []
        if revokes:
            facts.append((_("Revokes"), ", ".join(_revoke(r) for r in revokes)))
        after = result.get("after") or {}
        if after.get("games"):
            facts.append((_("Games"), per_side(after["games"])))
        if after.get("game_points"):
            facts.append((_("Game points"), per_side(after["game_points"])))
        return facts

    def summary(self, record: dict, result: dict) -> str:
        trump = result.get("trump")
        return _("Trumps %(suit)s") % {"suit": suit_sign(trump)} if trump else ""

    def form(self, compiled: Any) -> dict[str, Any]:
        return {"honours": compiled.honours, "revoke_penalty": compiled.revoke_penalty, "total": 13}

    def demo_record(self, rng: random.Random) -> Any:
        from games.simulate.whist import random_match

        return random_match(rng, "short-whist")


def _revoke(revoke: Any) -> str:
    if isinstance(revoke, dict):
        return f"{revoke.get('seat', '?')}×{revoke.get('count', 1)}"
    return str(revoke)


# --- the rules in words --------------------------------------------------------------------


def _whist(o: dict[str, Any], compiled: Any) -> list[str]:
    out = [
        _("Four players in fixed partnerships: North and South against East and West."),
        _("The dealer's last card is turned: its suit is trumps for the hand."),
        _("Follow suit if you can; the highest trump wins, else the highest card of the suit led."),
        _("Each trick over six (odd trick) scores 1; game is %(points)d points.")
        % {"points": o["target"]},
    ]
    if o["honours"]:
        out.append(
            _(
                "Honours: a side dealt all four of the trump ace, king, queen and jack "
                "scores 4, three of them 2."
            )
        )
        if o["honours_barred_at"]:
            out.append(
                _(
                    "A side with %(points)d points or more at the start of a hand cannot "
                    "score honours."
                )
                % {"points": o["honours_barred_at"]}
            )
        else:
            out.append(_("Honours score at any score."))
    else:
        out.append(_("Honours do not score."))
    out.append(
        ngettext(
            "A revoke costs %(points)d point: the opponents add it, or take it off the revoking "
            "side's score.",
            "A revoke costs %(points)d points: the opponents add them, or take them off the "
            "revoking side's score.",
            o["revoke_penalty"],
        )
        % {"points": o["revoke_penalty"]}
    )
    if o["game_points"] == "short":
        out.append(
            _(
                "The winners of a game score game points: 3 if the losers have 0, 2 if "
                "they have 1 or 2, 1 if they have 3 or more."
            )
        )
    elif o["game_points"] == "long":
        out.append(
            _("The winners of a game score game points: 2 if the losers have fewer than 5, else 1.")
        )
    elif o["settle"] == "difference":
        out.append(
            _("No game points: the winners of a game score the difference between the two scores.")
        )
    else:
        out.append(
            _("No game points: the winners of a game score %(points)d less the losers' points.")
            % {"points": o["target"]}
        )
    if o["rubber"]:
        out.append(
            _(
                "Rubber: the first side to win two games wins the rubber and 2 more game "
                "points; the side with more game points receives the difference."
            )
        )
    else:
        out.append(_("Each game is a match of its own, settled alone."))
    return out


PRESENTATION = Whist()

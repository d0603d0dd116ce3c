"""Solo Whist as the club sees it: its rules in words, the match page's facts, the scoring
page's line and form, and the paper sheet's columns."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from tournaments.presentation.base import Presentation, suit_sign
from tournaments.words.rules import amount, solo_labels


class SoloWhist(Presentation):
    name = "solo-whist"
    form_template = "tournaments/scoring/_solo-whist.html"
    label = gettext_lazy("Solo Whist")
    demo_label = gettext_lazy("Solo Whist hands")
    preset_names = {
        "phillips": gettext_lazy("Phillips (Pan Book of Card Games)"),
        "parlett-1": gettext_lazy("Parlett, first table"),
        "parlett-2": gettext_lazy("Parlett, second table"),
        "parlett-3": gettext_lazy("Parlett, third table"),
    }
    sheet_leading = (
        gettext_lazy("Hand"),
        gettext_lazy("Dealer"),
        gettext_lazy("Contract"),
        gettext_lazy("Declarer"),
        gettext_lazy("Tricks"),
    )
    sheet_per_side = (gettext_lazy("Settlement"), gettext_lazy("Total"))

    def rules_in_words(self, options: dict[str, Any], compiled: Any) -> list[str]:
        return _solo_whist(options, compiled)

    def call_word(self, call: str) -> str:
        return solo_labels().get(call, call)

    def facts(self, record: dict, result: dict) -> list[tuple[str, str]]:
        contract = result.get("contract")
        if not contract:
            return [(_("Contract"), _("thrown in (everyone passed)"))]
        bid = contract.get("bid", "")
        name = BID_NAMES[bid]() if bid in BID_NAMES else bid
        if bid == "prop":
            name = _("prop and cop")
        declarer = contract.get("declarer", "?")
        if contract.get("partner"):
            declarer = f"{declarer} + {contract['partner']}"
        trump = contract.get("trump")
        facts = [
            (_("Contract"), str(name)),
            (_("Declarer"), declarer),
            (_("Trumps"), suit_sign(trump) if trump else _("no trumps")),
        ]
        score = result.get("score") or {}
        mine = score.get(contract.get("declarer"))
        if mine is not None:
            made = Fraction(str(mine)) > 0
            facts.append((_("Result"), _("made") if made else _("failed")))
        return facts

    def summary(self, record: dict, result: dict) -> str:
        contract = result.get("contract")
        if not contract:
            return _("Thrown in")
        who = contract["declarer"] + (f"+{contract['partner']}" if contract.get("partner") else "")
        trump = suit_sign(contract.get("trump")) if contract.get("trump") else ""
        return f"{who}: {solo_labels().get(contract['bid'], contract['bid'])} {trump}".strip()

    def form(self, compiled: Any) -> dict[str, Any]:
        labels = solo_labels()
        bids = [bid for bid in sorted(compiled.rank, key=compiled.rank.get) if bid != "cop"]
        return {
            "bids": [(bid, labels[bid]) for bid in bids],
            "names_trump": [bid for bid in bids if compiled.names_trump(bid)],
            "turned": compiled.indicator != "rotation",
            "indicator": compiled.indicator,
        }

    def demo_record(self, rng: random.Random) -> Any:
        from games.simulate.solo_whist import random_hand

        return [random_hand(rng, "phillips", dealer=seat) for seat in "NESW"]


# --- the rules in words --------------------------------------------------------------------


def _solo_whist(o: dict[str, Any], compiled: Any) -> list[str]:
    out = [
        _("Four players, each for themselves; partnerships only through proposal and acceptance.")
    ]
    out.append(
        {
            "dealer-card": _(
                "The dealer's last card is turned: its suit is the turned suit, the "
                "preferred trump."
            ),
            "second-pack": _(
                "A card turned from a second pack gives the turned suit, the preferred trump."
            ),
            "rotation": _(
                "The turned suit, the preferred trump, goes round in turn: spades, "
                "hearts, diamonds, clubs."
            ),
            "joker": _(
                "A joker is added: 13 cards each, the card left over is turned for the "
                "preferred trump and the joker plays as that card."
            ),
        }[o["trump_indicator"]]
    )
    bids = sorted(compiled.rank, key=compiled.rank.get)
    named = [_bid_with_value(bid, compiled.values) for bid in bids if bid != "cop"]
    out.append(
        _("Bids, lowest first (value each player pays or receives): %(bids)s.")
        % {"bids": "; ".join(named)}
    )
    for bid in bids:
        if bid in BID_MEANINGS:
            out.append(BID_MEANINGS[bid](o))
    if o["prop_and_cop"]:
        out.append(
            {
                "any-bid": _(
                    "A proposer left unaccepted, everyone else having passed, may make another bid."
                ),
                "eldest-only": _(
                    "A proposal left unaccepted may be changed only by the player on "
                    "the dealer's left; otherwise the hand is thrown in."
                ),
                "solo-only": _("A proposer left unaccepted may change only to solo."),
            }[o["after_unaccepted_prop"]]
        )
    out.append(_("If everyone passes, the hand is thrown in and the deal passes to the left."))
    if o["overtricks"]:
        out.append(
            _(
                "Overtricks and undertricks are scored: each trick beyond the bid earns the "
                "extra value; one trick short costs the base value only, each further trick "
                "short the extra value."
            )
        )
    else:
        out.append(_("Overtricks and undertricks are not scored."))
    out.append(
        _(
            "Each hand is settled on its own: a successful declarer receives the value "
            "from each opponent; a failed one pays each of them."
        )
    )
    return out


def _bid_with_value(bid: str, values: dict[str, tuple[Fraction, Fraction | None]]) -> str:
    base, over = values[bid]
    name = str(BID_NAMES[bid]())
    if over is None:
        return f"{name} {amount(base)}"
    return _("%(bid)s %(base)s (%(extra)s a trick over or under)") % {
        "bid": name,
        "base": amount(base),
        "extra": amount(over),
    }


BID_NAMES: dict[str, Callable[[], str]] = {
    "prop": lambda: _("proposal and acceptance (prop and cop)"),
    "solo": lambda: pgettext("solo whist bid", "solo"),
    "misere": lambda: pgettext("solo whist bid", "misère"),
    "abundance": lambda: pgettext("solo whist bid", "abundance"),
    "abundance-in-trumps": lambda: pgettext("solo whist bid", "abundance in trumps"),
    "misere-ouverte": lambda: pgettext("solo whist bid", "misère ouverte"),
    "abundance-declared": lambda: pgettext("solo whist bid", "abundance declared"),
    "abundance-declared-in-trumps": lambda: pgettext(
        "solo whist bid", "abundance declared in trumps"
    ),
}


def _declared(o: dict[str, Any]) -> str:
    if o["declared_with_trumps"] == "replaces":
        return _(
            "Abundance declared: all 13 tricks, the declarer naming trumps and leading "
            "to the first trick."
        )
    return _(
        "Abundance declared: all 13 tricks with no trumps; the declarer leads to the first trick."
    )


def _abundance(o: dict[str, Any]) -> str:
    if o["abundance_trumps_named"] == "after-opening-lead":
        return _(
            "Abundance: 9 tricks or more; the declarer names trumps once the opening lead "
            "is on the table, and the whole first trick is played with them."
        )
    if o["abundance_first_trick"] == "turned-suit":
        return _(
            "Abundance: 9 tricks or more; the declarer names trumps, which apply from the "
            "second trick (the first is played with the turned suit as trumps)."
        )
    return _("Abundance: 9 tricks or more, the declarer naming trumps after the auction.")


BID_MEANINGS: dict[str, Callable[[dict[str, Any]], str]] = {
    "prop": lambda o: _(
        "Proposal: 8 tricks or more together with a partner who accepts, the turned suit trumps."
    ),
    "solo": lambda o: _("Solo: 5 tricks or more alone, the turned suit trumps."),
    "misere": lambda o: _("Misère: no trick at all, no trumps."),
    "abundance": _abundance,
    "abundance-in-trumps": lambda o: _(
        "Abundance in trumps: 9 tricks or more with the turned "
        "suit trumps; only as an overcall of an abundance."
    ),
    "misere-ouverte": lambda o: _(
        "Misère ouverte: no trick, no trumps, the declarer's hand "
        "laid face up after the first trick."
    ),
    "abundance-declared": _declared,
    "abundance-declared-in-trumps": lambda o: _(
        "Abundance declared in trumps: all 13 tricks "
        "with trumps the declarer names, ranking just "
        "above abundance declared."
    ),
}


PRESENTATION = SoloWhist()

"""Spades as the club sees it: its rules in words, the match page's facts, the scoring page's
line and form, and the paper sheet's columns."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.cards import NAMES
from tournaments.presentation.base import Presentation, per_side
from tournaments.words.rules import call_label, card, cards

ACE_OF_SPADES = NAMES.index("AS")
NILS = {"nil", "double-nil", "double-blind-nil"}


class Spades(Presentation):
    name = "spades"
    form_template = "tournaments/scoring/_spades.html"
    label = gettext_lazy("Spades")
    demo_label = gettext_lazy("a Spades match")
    preset_names = {
        "standard": gettext_lazy("Standard (the club's own rules)"),
        "hoyle": gettext_lazy("Hoyle's Rules of Games"),
        "pagat-1996": gettext_lazy("Card Games site (Theodore Hwa)"),
        "pagat-barmore": gettext_lazy("Card Games site (Dennis J. Barmore)"),
        "pagat-3p": gettext_lazy("Card Games site, three players (Szu Kay Wong)"),
        "dan-brad": gettext_lazy("Dan & Brad's Spades Career"),
        "network-spades": gettext_lazy("Network Spades"),
        "windswept": gettext_lazy("Windswept Spades"),
        "spaceways": gettext_lazy("Spaceways Spades"),
        "winspades": gettext_lazy("WinSpades"),
    }
    sheet_per_side = (
        gettext_lazy("Bid"),
        gettext_lazy("Nil"),
        gettext_lazy("Tricks"),
        gettext_lazy("Bags"),
        gettext_lazy("Score"),
        gettext_lazy("Total"),
    )

    def rules_in_words(self, options: dict[str, Any], compiled: Any) -> list[str]:
        return _spades(options, compiled)

    def target_sentences(self, options: dict[str, Any]) -> list[str]:
        return _spades_game(options)

    def facts(self, record: dict, result: dict) -> list[tuple[str, str]]:
        facts = []
        tricks = result.get("tricks") or record.get("tricks") or {}
        labels = {
            "nil": _("Nil"),
            "double-nil": _("Double nil"),
            "double-blind-nil": _("Double blind nil"),
        }
        for call in record.get("calls") or []:
            if call.get("call") in NILS and call.get("seat") in tricks:
                made = tricks[call["seat"]] == 0
                word = _("made") if made else _("failed")
                facts.append((labels[call["call"]], f"{call['seat']}: {word}"))
        bags = (result.get("after") or {}).get("bags")
        if bags:
            facts.append((_("Bags"), per_side(bags)))
        return facts

    def summary(self, record: dict, result: dict) -> str:
        parts = []
        for call in record.get("calls") or []:
            if not isinstance(call, dict):
                continue
            who = call.get("seat") or "/".join(str(call.get("side", "")))
            parts.append(f"{who} {call_label(str(call.get('call', '')))}")
        return " · ".join(parts)

    def form(self, compiled: Any) -> dict[str, Any]:
        """The calls a Spades scorer may pick under these rules, and the tricks in a hand."""
        o = compiled.options
        total = compiled.total_tricks
        numbers = [str(n) for n in range(total + 1)]
        specials = []
        if o["nil"]:
            specials.append("nil")
        if o["double_nil"] != "never":
            specials.append("double-nil")
        if o["double_blind_nil"]:
            specials.append("double-blind-nil")
        seat_calls = numbers + specials + (["moon"] if o["moon"] else [])
        blinds = (
            [f"blind-{n}" for n in range(o["blind_bid_min"], total + 1)]
            if o["blind_bid_min"]
            else []
        )
        if o["blind_moon"]:
            blinds.append("blind-moon")
        partnership = compiled.partnership
        if not partnership:
            seat_calls += blinds
        return {
            "total": total,
            "partnership": partnership,
            "consult": partnership and o["bidding"] == "consult",
            "second_round": o["bidding_rounds"] == 2,
            "seat_calls": [(c, call_label(c)) for c in seat_calls],
            "nil_calls": [(c, call_label(c)) for c in specials],
            "side_calls": [(c, call_label(c)) for c in numbers + (["moon"] if o["moon"] else [])],
            "side_blinds": [(c, call_label(c)) for c in blinds] if partnership else [],
            "raises": [(str(n), str(n)) for n in range(1, total + 1)],
            "double_nil_behind": o["double_nil_behind"] if o["double_nil"] == "when-behind" else 0,
            "blind_behind": o["blind_bid_behind"] if blinds else 0,
        }

    def layouts(self, compiled: Any, seats: str, sides: tuple[str, ...]) -> dict[str, Any]:
        """For each possible dealer: the seats in play (with any dummy), the bidding order, the
        sides and their members, and which side bids first by consultation — from the engine."""
        out = {}
        for dealer, table in compiled.tables.items():
            letters = table.seats
            out[dealer] = {
                "seats": list(letters),
                "order": [letters[i] for i in table.bid_order],
                "dummy": letters[table.dummy] if table.dummy is not None else None,
                "sides": list(table.sides),
                "members": {
                    table.sides[k]: [letters[i] for i in members]
                    for k, members in enumerate(table.members)
                },
                "sideOf": {
                    letters[i]: table.sides[k] for i, k in enumerate(table.side_of) if k >= 0
                },
                "consult": [table.sides[k] for k in table.consult_order],
            }
        return out

    def dummy_seats(self, compiled: Any) -> list[str]:
        """Seats that only a dummy occupies (2-player dummy Spades): E or W by dealer."""
        return sorted({t.seats[t.dummy] for t in compiled.tables.values() if t.dummy is not None})

    def demo_record(self, rng: random.Random) -> Any:
        from games.simulate.spades import random_match

        return random_match(rng, "standard")


# --- the rules in words --------------------------------------------------------------------


def _spades(o: dict[str, Any], compiled: Any) -> list[str]:
    out = _spades_table(o, compiled)
    out += _spades_bidding(o)
    out += _spades_nil(o)
    out += _spades_blind(o, compiled)
    out += _spades_play(o)
    out += _spades_scoring(o)
    out += _spades_game(o)
    return out


def _spades_table(o: dict[str, Any], compiled: Any) -> list[str]:
    out = []
    players = o["players"]
    if players == 4 and o["partnership"]:
        out.append(_("Four players in fixed partnerships: North and South against East and West."))
    elif players == 4:
        out.append(_("Four players, each bidding and scoring alone (cutthroat)."))
    elif players == 3:
        out.append(_("Three players, each for themselves, with 17 cards each."))
    elif o["two_player_deal"] == "draw":
        out.append(
            _(
                "Two players build their hands from the stock: take the top card and keep it (then "
                "discard the next) or discard it (then keep the next), until each has 13 cards."
            )
        )
    else:
        out.append(
            _(
                "Two players and a dummy, 17 cards each: the dummy's hand stays face down and "
                "always plays its top card without following suit; it bids and scores nothing, and "
                "when it wins a trick the player on its left leads."
            )
        )
        if o["dummy_seat"] == "left":
            out.append(
                _(
                    "The dummy sits at the dealer's left: it plays after the dealer and "
                    "before the other player, who bids and leads first."
                )
            )
        else:
            out.append(
                _(
                    "The dummy sits at the dealer's right: it plays after the other "
                    "player, who bids and leads first, and before the dealer."
                )
            )
    pack = compiled.pack
    removed = [n for i, n in enumerate(NAMES[:52]) if not pack >> i & 1]
    jokers = o["jokers"]
    if jokers == 2:
        out.append(_("Two jokers, big and little, are added and play as spades."))
    elif jokers == 1:
        out.append(_("One joker is added and plays as the highest spade."))
    if removed:
        out.append(
            ngettext(
                "Taken out of the pack before the deal: %(cards)s.",
                "Taken out of the pack before the deal: %(cards)s.",
                len(removed),
            )
            % {"cards": cards(removed)}
        )
    dealt = compiled.hand_size * (3 if compiled.dummy else players) + o["dealer_discards"]
    unused = compiled.pack_size - dealt
    if unused > 0 and players != 2:
        out.append(
            ngettext(
                "%(count)d card is left over, unseen and out of play.",
                "%(count)d cards are left over, unseen and out of play.",
                unused,
            )
            % {"count": unused}
        )
    if o["dealer_discards"]:
        out.append(
            ngettext(
                "The dealer is dealt %(count)d extra card and discards %(count)d before the bidding.",  # noqa: E501
                "The dealer is dealt %(count)d extra cards and discards %(count)d before the bidding.",  # noqa: E501
                o["dealer_discards"],
            )
            % {"count": o["dealer_discards"]}
        )
    out.append(
        _("Spades are always trumps; from the highest: %(order)s.")
        % {"order": _trump_order(compiled)}
    )
    return out


def _trump_order(compiled: Any) -> str:
    """The trumps from the highest, the plain run of spades shortened to "A♠ … 3♠"."""
    ranked = [c for c in compiled.trump_rank if compiled.pack >> c & 1]  # in the pack only
    order = sorted(ranked, key=compiled.trump_rank.get, reverse=True)
    ace = order.index(ACE_OF_SPADES)
    head, run = order[:ace], order[ace:]

    def name(c: int) -> str:
        if NAMES[c] == "BJ" and compiled.options["jokers"] == 1:
            return _("joker")
        return card(NAMES[c])

    return ", ".join([*(name(c) for c in head), f"{name(run[0])} … {name(run[-1])}"])


def _spades_bidding(o: dict[str, Any]) -> list[str]:
    out = []
    partnership = o["partnership"] and o["players"] == 4
    if not partnership:
        out.append(
            _(
                "Each player in turn from the dealer's left bids the number of tricks they will take."  # noqa: E501
            )
        )
    elif o["bidding"] == "last-bidder":
        out.append(
            _(
                "Each player bids once, from the dealer's left; the second partner to bid must bid "
                "at least as much as the first, and that bid is the side's bid."
            )
        )
    elif o["bidding"] == "sum":
        out.append(
            _(
                "Each player bids their own tricks, from the dealer's left; the side's bid is the "
                "sum of the partners' bids."
            )
        )
    else:
        out.append(
            _(
                "Partners agree their side's bid together, in the hearing of the table (bidding by "
                "consultation); the side without the dealer bids first."
            )
        )
    if o["bidding_rounds"] == 2:
        out.append(_("A second round of bidding: each player may raise their side's bid or pass."))
    if o["minimum_bid"]:
        if partnership:
            text = _("A side's final bid is at least %(count)d, even when a partner bids nil.")
        else:
            text = _("Every bid is at least %(count)d.")
        out.append(text % {"count": o["minimum_bid"]})
    return out


def _spades_nil(o: dict[str, Any]) -> list[str]:
    out = []
    partnership = o["partnership"] and o["players"] == 4
    if not o["nil"]:
        out.append(_("No nil bids."))
    else:
        out.append(
            _(
                "Nil: a player promises to take no trick, for %(value)d points if made and minus "
                "%(value)d if not."
            )
            % {"value": o["nil_value"]}
        )
        if o["zero_bid_is_nil"]:
            out.append(_("A bid of 0 is a nil."))
    if o["double_nil"] == "never":
        out.append(_("No double nil."))
    else:
        values = {"value": o["double_nil_value"], "penalty": o["double_nil_penalty"]}
        out.append(
            _(
                "Double nil: nil bid before looking at the cards, for %(value)d points if made and "
                "minus %(penalty)d if not."
            )
            % values
        )
        if o["double_nil"] == "always":
            out.append(_("Double nil may be bid at any score."))
        else:
            out.append(
                _("Double nil may be bid only by a side %(points)d points or more behind.")
                % {"points": o["double_nil_behind"]}
            )
    if partnership:
        out += _exchanges(o)
    if o["double_blind_nil"]:
        behind = o["double_blind_nil_behind"]
        values = {"value": o["double_blind_nil_value"], "points": behind}
        if behind:
            text = _(
                "Double blind nil: bid without looking, the hand stays face down and plays its "
                "top card each trick; plus or minus %(value)d points; only for a side "
                "%(points)d points or more behind."
            )
        else:
            text = _(
                "Double blind nil: bid without looking, the hand stays face down and plays its "
                "top card each trick; plus or minus %(value)d points, at any score."
            )
        out.append(text % values)
    return out


def _exchanges(o: dict[str, Any]) -> list[str]:
    out = []
    if o["nil"]:
        count = o["nil_exchange"]
        if count:
            out.append(
                ngettext(
                    "After a nil bid the partners exchange %(count)d card face down.",
                    "After a nil bid the partners exchange %(count)d cards face down.",
                    count,
                )
                % {"count": count}
            )
        else:
            out.append(_("No exchange of cards after a nil bid."))
    if o["double_nil"] != "never":
        count = o["double_nil_exchange"]
        if count:
            out.append(
                ngettext(
                    "After a double nil the partners exchange %(count)d card face down.",
                    "After a double nil the partners exchange %(count)d cards face down.",
                    count,
                )
                % {"count": count}
            )
        else:
            out.append(_("No exchange of cards after a double nil."))
    exchanging = (o["nil"] and o["nil_exchange"]) or (
        o["double_nil"] != "never" and o["double_nil_exchange"]
    )
    if exchanging:
        if o["exchange_when_both_nil"]:
            out.append(_("The exchange happens even when both partners bid nil."))
        else:
            out.append(_("No exchange when both partners bid nil or double nil."))
    return out


def _spades_blind(o: dict[str, Any], compiled: Any) -> list[str]:
    out = []
    behind = o["blind_bid_behind"]
    if o["blind_bid_min"]:
        values = {"count": o["blind_bid_min"], "points": behind}
        if behind:
            text = _(
                "Blind bids of %(count)d or more, made before looking at the cards, are allowed "
                "to a side %(points)d points or more behind."
            )
        else:
            text = _(
                "Blind bids of %(count)d or more, made before looking at the cards, are allowed "
                "at any score."
            )
        out.append(text % values)
        if o["blind_bid_exact"]:
            out.append(_("A blind bid must be made exactly: more tricks fail it too."))
        if o["blind_made"] == "double":
            out.append(_("A blind bid made scores its bid double (overtricks single)."))
        else:
            out.append(_("A blind bid made scores normally plus a bonus of 100."))
        out.append(
            {
                "double": _("A blind bid failed loses double."),
                "normal": _("A blind bid failed scores as a normal failed bid."),
                "penalty-100": _(
                    "A blind bid failed scores as a normal failed bid and loses 100 more."
                ),
            }[o["blind_failed"]]
        )
    tricks = compiled.total_tricks
    if o["moon"] or o["thirteen_is_moon"]:
        values = {"value": o["moon_value"], "count": tricks}
        out.append(
            _(
                "Moon: a bid to take all %(count)d tricks, for %(value)d points if made and minus "
                "%(value)d if not, instead of the normal score."
            )
            % values
        )
        if o["thirteen_is_moon"]:
            out.append(_("A bid of %(count)d is a moon.") % {"count": tricks})
    if o["blind_moon"]:
        values = {"value": 2 * o["moon_value"], "points": behind}
        if behind:
            text = _(
                "Blind moon, bid before looking: plus or minus %(value)d points; only for "
                "a side %(points)d points or more behind."
            )
        else:
            text = _(
                "Blind moon, bid before looking: plus or minus %(value)d points, at any score."
            )
        out.append(text % values)
    if o["moon_wins_game"]:
        out.append(_("A moon made wins the game at once."))
    return out


def _spades_play(o: dict[str, Any]) -> list[str]:
    out = [
        {
            "left-of-dealer": _("The player on the dealer's left leads to the first trick."),
            "two-of-clubs": _(
                "The holder of the 2♣ (or of the lowest club in play) leads to the first trick."
            ),
            "lowest-clubs": _(
                "First trick: everyone plays their lowest club, the holder of the 2♣ "
                "first; without a club, a diamond or a heart (never a spade). The "
                "highest club wins."
            ),
            "highest-bidder": _(
                "The highest bidder leads to the first trick (the first of equal "
                "bidders in bidding order)."
            ),
        }[o["first_lead"]]
    ]
    out.append(
        _("Follow suit if you can; the highest trump wins, else the highest card of the suit led.")
    )
    if o["spades_broken"]:
        out.append(
            _(
                "Spades may not be led until a spade has been played, unless the leader "
                "holds nothing else."
            )
        )
    else:
        out.append(_("Spades may be led at any time."))
    return out


def _spades_scoring(o: dict[str, Any]) -> list[str]:
    out = []
    over = {
        1: _("A bid made scores 10 a trick bid, plus 1 for each overtrick."),
        -1: _("A bid made scores 10 a trick bid, minus 1 for each overtrick."),
        -10: _("A bid made scores 10 a trick bid, minus 10 for each overtrick."),
    }[o["overtrick_points"]]
    out.append(over)
    if o["set_penalty"] == "bid":
        out.append(_("A side that fails its bid (set) loses 10 a trick bid, however many it took."))
    else:
        out.append(_("A side that fails its bid (set) loses 10 for each trick short."))
    if o["sandbag"]:
        out.append(
            _("Bags: every %(count)d overtricks counted up cost %(points)d points.")
            % {"count": o["sandbag_limit"], "points": o["sandbag_penalty"]}
        )
    elif o["overtrick_points"] == 1:
        out.append(_("No penalty for bags (overtricks)."))
    if o["ten_for_200"] == "at-least":
        out.append(_("10 for 200: a bid of 10 or more made wins 200 more; failed, it loses 200."))
    elif o["ten_for_200"] == "exact":
        out.append(_("10 for 200: a bid of exactly 10 with exactly 10 tricks wins 200 more."))
    if o["ten_for_two"]:
        out.append(_("10 for 2: a bid of 10 or more made scores 20 a trick bid."))
    if o["big_bid_bonus"]:
        out.append(
            _("A bid of 10 or more wins %(points)d more if made and loses %(points)d if not.")
            % {"points": o["big_bid_bonus"]}
        )
    if o["exact_bid_bonus"]:
        out.append(
            _("A bid made exactly wins a bonus of %(points)d.") % {"points": o["exact_bid_bonus"]}
        )
    if o["all_tricks_bonus"]:
        out.append(
            _("Taking every trick wins a bonus of %(points)d.") % {"points": o["all_tricks_bonus"]}
        )
    if o["last_trick_bonus"] == "last":
        out.append(
            _("A bid made exactly with the last trick won by a trump of 9 or higher wins 10 more.")
        )
    elif o["last_trick_bonus"] == "sequence":
        out.append(
            _(
                "A bid made exactly wins 10 for each of the last two or more tricks won "
                "with trumps of 9 or higher that form a run in rank, in whatever order "
                "they were played (Q, A, K: 30)."
            )
        )
    if o["seven_plus_bonus"]:
        out.append(_("A bid of 7 or more made wins 10 more for each trick bid above 6."))
    if o["small_exact_bids"]:
        out.append(
            _(
                "Small bids taken exactly score instead: 2 for 2 tricks 40, 1 for 1 trick "
                "60, 0 for no trick 100."
            )
        )
    return out


def _spades_game(o: dict[str, Any]) -> list[str]:
    out = [
        _(
            "Game: the first side to %(points)d points or more at the end of a hand wins; "
            "equal totals play another hand."
        )
        % {"points": o["target"]}
    ]
    if o["all_tricks_wins"]:
        out.append(_("Taking every trick of a hand wins the game at once."))
    return out


PRESENTATION = Spades()

"""The rules of a tournament in words: one translatable sentence per rule, from the preset and the
house options, so players read what they play under instead of option names.

The rules engine (`games`) stays the authority: every sentence is written from the full option
dict the engine resolves (`RuleBook.resolve`), and where the engine derives something from the
options (the cards taken out of a Spades pack, the order of trumps, the Solo Whist bids and their
values, the German Whist drawing phase) the words read it from the compiled rules rather than
working it out again. An option left at a value that changes nothing (no bonus, no moon) gets no
sentence; an option that matters only beside another (nil's value when nil is off) is described
only where it applies.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.cards import NAMES
from games.records import get_game

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ACE_OF_SPADES = NAMES.index("AS")


def describe(game: str, rules: dict | str) -> list[str]:
    """Sentences stating the rules (a preset id or {"preset", "options"}), in the active
    language; raises the engine's `RecordError` for rules it does not know."""
    book = get_game(game).book
    compiled, canonical = book.resolve(rules)
    preset = canonical if isinstance(canonical, str) else canonical["preset"]
    house = {} if isinstance(canonical, str) else canonical.get("options", {})
    options = dict(compiled.options)
    return [_preset_sentence(game, preset, len(house)), *WRITERS[game](options, compiled)]


def preset_name(game: str, preset: str) -> str:
    """A preset as players call it ("Hoyle's Rules of Games"), or its id for a house preset."""
    names = PRESET_NAMES.get(game, {})
    return str(names[preset]) if preset in names else preset


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


def _preset_sentence(game: str, preset: str, house: int) -> str:
    name = preset_name(game, preset)
    if not house:
        return _("Rules: %(preset)s, as published.") % {"preset": name}
    return ngettext(
        "Rules: %(preset)s, with %(count)d house option.",
        "Rules: %(preset)s, with %(count)d house options.",
        house,
    ) % {"preset": name, "count": house}


# --- Spades --------------------------------------------------------------------------------


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
        out.append(_(
            "Two players build their hands from the stock: take the top card and keep it (then "
            "discard the next) or discard it (then keep the next), until each has 13 cards."
        ))
    else:
        out.append(_(
            "Two players and a dummy, 17 cards each: the dummy's hand stays face down and "
            "always plays its top card without following suit; it bids and scores nothing, and "
            "when it wins a trick the player on its left leads."
        ))
        if o["dummy_seat"] == "left":
            out.append(_("The dummy sits at the dealer's left: it plays after the dealer and "
                         "before the other player, who bids and leads first."))
        else:
            out.append(_("The dummy sits at the dealer's right: it plays after the other "
                         "player, who bids and leads first, and before the dealer."))
    pack = compiled.pack
    removed = [n for i, n in enumerate(NAMES[:52]) if not pack >> i & 1]
    jokers = o["jokers"]
    if jokers == 2:
        out.append(_("Two jokers, big and little, are added and play as spades."))
    elif jokers == 1:
        out.append(_("One joker is added and plays as the highest spade."))
    if removed:
        out.append(ngettext(
            "Taken out of the pack before the deal: %(cards)s.",
            "Taken out of the pack before the deal: %(cards)s.",
            len(removed),
        ) % {"cards": cards(removed)})
    dealt = compiled.hand_size * (3 if compiled.dummy else players) + o["dealer_discards"]
    unused = compiled.pack_size - dealt
    if unused > 0 and players != 2:
        out.append(ngettext(
            "%(count)d card is left over, unseen and out of play.",
            "%(count)d cards are left over, unseen and out of play.",
            unused,
        ) % {"count": unused})
    if o["dealer_discards"]:
        out.append(ngettext(
            "The dealer is dealt %(count)d extra card and discards %(count)d before the bidding.",
            "The dealer is dealt %(count)d extra cards and discards %(count)d before the bidding.",
            o["dealer_discards"],
        ) % {"count": o["dealer_discards"]})
    out.append(_("Spades are always trumps; from the highest: %(order)s.")
               % {"order": _trump_order(compiled)})
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
        out.append(_(
            "Each player in turn from the dealer's left bids the number of tricks they will take."
        ))
    elif o["bidding"] == "last-bidder":
        out.append(_(
            "Each player bids once, from the dealer's left; the second partner to bid must bid "
            "at least as much as the first, and that bid is the side's bid."
        ))
    elif o["bidding"] == "sum":
        out.append(_(
            "Each player bids their own tricks, from the dealer's left; the side's bid is the "
            "sum of the partners' bids."
        ))
    else:
        out.append(_(
            "Partners agree their side's bid together, in the hearing of the table (bidding by "
            "consultation); the side without the dealer bids first."
        ))
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
        out.append(_(
            "Nil: a player promises to take no trick, for %(value)d points if made and minus "
            "%(value)d if not."
        ) % {"value": o["nil_value"]})
        if o["zero_bid_is_nil"]:
            out.append(_("A bid of 0 is a nil."))
    if o["double_nil"] == "never":
        out.append(_("No double nil."))
    else:
        values = {"value": o["double_nil_value"], "penalty": o["double_nil_penalty"]}
        out.append(_(
            "Double nil: nil bid before looking at the cards, for %(value)d points if made and "
            "minus %(penalty)d if not."
        ) % values)
        if o["double_nil"] == "always":
            out.append(_("Double nil may be bid at any score."))
        else:
            out.append(_(
                "Double nil may be bid only by a side %(points)d points or more behind."
            ) % {"points": o["double_nil_behind"]})
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
            out.append(ngettext(
                "After a nil bid the partners exchange %(count)d card face down.",
                "After a nil bid the partners exchange %(count)d cards face down.",
                count,
            ) % {"count": count})
        else:
            out.append(_("No exchange of cards after a nil bid."))
    if o["double_nil"] != "never":
        count = o["double_nil_exchange"]
        if count:
            out.append(ngettext(
                "After a double nil the partners exchange %(count)d card face down.",
                "After a double nil the partners exchange %(count)d cards face down.",
                count,
            ) % {"count": count})
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
        out.append({
            "double": _("A blind bid failed loses double."),
            "normal": _("A blind bid failed scores as a normal failed bid."),
            "penalty-100": _("A blind bid failed scores as a normal failed bid and loses 100 "
                             "more."),
        }[o["blind_failed"]])
    tricks = compiled.total_tricks
    if o["moon"] or o["thirteen_is_moon"]:
        values = {"value": o["moon_value"], "count": tricks}
        out.append(_(
            "Moon: a bid to take all %(count)d tricks, for %(value)d points if made and minus "
            "%(value)d if not, instead of the normal score."
        ) % values)
        if o["thirteen_is_moon"]:
            out.append(_("A bid of %(count)d is a moon.") % {"count": tricks})
    if o["blind_moon"]:
        values = {"value": 2 * o["moon_value"], "points": behind}
        if behind:
            text = _("Blind moon, bid before looking: plus or minus %(value)d points; only for "
                     "a side %(points)d points or more behind.")
        else:
            text = _("Blind moon, bid before looking: plus or minus %(value)d points, at any "
                     "score.")
        out.append(text % values)
    if o["moon_wins_game"]:
        out.append(_("A moon made wins the game at once."))
    return out


def _spades_play(o: dict[str, Any]) -> list[str]:
    out = [{
        "left-of-dealer": _("The player on the dealer's left leads to the first trick."),
        "two-of-clubs": _("The holder of the 2♣ (or of the lowest club in play) leads to the "
                          "first trick."),
        "lowest-clubs": _("First trick: everyone plays their lowest club, the holder of the 2♣ "
                          "first; without a club, a diamond or a heart (never a spade). The "
                          "highest club wins."),
        "highest-bidder": _("The highest bidder leads to the first trick (the first of equal "
                            "bidders in bidding order)."),
    }[o["first_lead"]]]
    out.append(_("Follow suit if you can; the highest trump wins, else the highest card of the "
                 "suit led."))
    if o["spades_broken"]:
        out.append(_("Spades may not be led until a spade has been played, unless the leader "
                     "holds nothing else."))
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
        out.append(_("A side that fails its bid (set) loses 10 a trick bid, however many it "
                     "took."))
    else:
        out.append(_("A side that fails its bid (set) loses 10 for each trick short."))
    if o["sandbag"]:
        out.append(_("Bags: every %(count)d overtricks counted up cost %(points)d points.")
                   % {"count": o["sandbag_limit"], "points": o["sandbag_penalty"]})
    elif o["overtrick_points"] == 1:
        out.append(_("No penalty for bags (overtricks)."))
    if o["ten_for_200"] == "at-least":
        out.append(_("10 for 200: a bid of 10 or more made wins 200 more; failed, it loses 200."))
    elif o["ten_for_200"] == "exact":
        out.append(_("10 for 200: a bid of exactly 10 with exactly 10 tricks wins 200 more."))
    if o["ten_for_two"]:
        out.append(_("10 for 2: a bid of 10 or more made scores 20 a trick bid."))
    if o["big_bid_bonus"]:
        out.append(_("A bid of 10 or more wins %(points)d more if made and loses %(points)d if "
                     "not.") % {"points": o["big_bid_bonus"]})
    if o["exact_bid_bonus"]:
        out.append(_("A bid made exactly wins a bonus of %(points)d.")
                   % {"points": o["exact_bid_bonus"]})
    if o["all_tricks_bonus"]:
        out.append(_("Taking every trick wins a bonus of %(points)d.")
                   % {"points": o["all_tricks_bonus"]})
    if o["last_trick_bonus"] == "last":
        out.append(_("A bid made exactly with the last trick won by a trump of 9 or higher "
                     "wins 10 more."))
    elif o["last_trick_bonus"] == "sequence":
        out.append(_("A bid made exactly wins 10 for each of the last two or more tricks won "
                     "with trumps of 9 or higher that form a run in rank, in whatever order "
                     "they were played (Q, A, K: 30)."))
    if o["seven_plus_bonus"]:
        out.append(_("A bid of 7 or more made wins 10 more for each trick bid above 6."))
    if o["small_exact_bids"]:
        out.append(_("Small bids taken exactly score instead: 2 for 2 tricks 40, 1 for 1 trick "
                     "60, 0 for no trick 100."))
    return out


def _spades_game(o: dict[str, Any]) -> list[str]:
    out = [_("Game: the first side to %(points)d points or more at the end of a hand wins; "
             "equal totals play another hand.") % {"points": o["target"]}]
    if o["all_tricks_wins"]:
        out.append(_("Taking every trick of a hand wins the game at once."))
    return out


# --- Whist ---------------------------------------------------------------------------------


def _whist(o: dict[str, Any], compiled: Any) -> list[str]:
    out = [
        _("Four players in fixed partnerships: North and South against East and West."),
        _("The dealer's last card is turned: its suit is trumps for the hand."),
        _("Follow suit if you can; the highest trump wins, else the highest card of the suit "
          "led."),
        _("Each trick over six (odd trick) scores 1; game is %(points)d points.")
        % {"points": o["target"]},
    ]
    if o["honours"]:
        out.append(_("Honours: a side dealt all four of the trump ace, king, queen and jack "
                     "scores 4, three of them 2."))
        if o["honours_barred_at"]:
            out.append(_("A side with %(points)d points or more at the start of a hand cannot "
                         "score honours.") % {"points": o["honours_barred_at"]})
        else:
            out.append(_("Honours score at any score."))
    else:
        out.append(_("Honours do not score."))
    out.append(ngettext(
        "A revoke costs %(points)d point: the opponents add it, or take it off the revoking "
        "side's score.",
        "A revoke costs %(points)d points: the opponents add them, or take them off the "
        "revoking side's score.",
        o["revoke_penalty"],
    ) % {"points": o["revoke_penalty"]})
    if o["game_points"] == "short":
        out.append(_("The winners of a game score game points: 3 if the losers have 0, 2 if "
                     "they have 1 or 2, 1 if they have 3 or more."))
    elif o["game_points"] == "long":
        out.append(_("The winners of a game score game points: 2 if the losers have fewer than "
                     "5, else 1."))
    elif o["settle"] == "difference":
        out.append(_("No game points: the winners of a game score the difference between the "
                     "two scores."))
    else:
        out.append(_("No game points: the winners of a game score %(points)d less the losers' "
                     "points.") % {"points": o["target"]})
    if o["rubber"]:
        out.append(_("Rubber: the first side to win two games wins the rubber and 2 more game "
                     "points; the side with more game points receives the difference."))
    else:
        out.append(_("Each game is a match of its own, settled alone."))
    return out


# --- Solo Whist ----------------------------------------------------------------------------


def _solo_whist(o: dict[str, Any], compiled: Any) -> list[str]:
    out = [_("Four players, each for themselves; partnerships only through proposal and "
             "acceptance.")]
    out.append({
        "dealer-card": _("The dealer's last card is turned: its suit is the turned suit, the "
                         "preferred trump."),
        "second-pack": _("A card turned from a second pack gives the turned suit, the "
                         "preferred trump."),
        "rotation": _("The turned suit, the preferred trump, goes round in turn: spades, "
                      "hearts, diamonds, clubs."),
        "joker": _("A joker is added: 13 cards each, the card left over is turned for the "
                   "preferred trump and the joker plays as that card."),
    }[o["trump_indicator"]])
    bids = sorted(compiled.rank, key=compiled.rank.get)
    named = [_bid_with_value(bid, compiled.values) for bid in bids if bid != "cop"]
    out.append(_("Bids, lowest first (value each player pays or receives): %(bids)s.")
               % {"bids": "; ".join(named)})
    for bid in bids:
        if bid in BID_MEANINGS:
            out.append(BID_MEANINGS[bid](o))
    if o["prop_and_cop"]:
        out.append({
            "any-bid": _("A proposer left unaccepted, everyone else having passed, may make "
                         "another bid."),
            "eldest-only": _("A proposal left unaccepted may be changed only by the player on "
                             "the dealer's left; otherwise the hand is thrown in."),
            "solo-only": _("A proposer left unaccepted may change only to solo."),
        }[o["after_unaccepted_prop"]])
    out.append(_("If everyone passes, the hand is thrown in and the deal passes to the left."))
    if o["overtricks"]:
        out.append(_("Overtricks and undertricks are scored: each trick beyond the bid earns the "
                     "extra value; one trick short costs the base value only, each further trick "
                     "short the extra value."))
    else:
        out.append(_("Overtricks and undertricks are not scored."))
    out.append(_("Each hand is settled on its own: a successful declarer receives the value "
                 "from each opponent; a failed one pays each of them."))
    return out


def _bid_with_value(bid: str, values: dict[str, tuple[Fraction, Fraction | None]]) -> str:
    base, over = values[bid]
    name = str(BID_NAMES[bid]())
    if over is None:
        return f"{name} {amount(base)}"
    return _("%(bid)s %(base)s (%(extra)s a trick over or under)") % {
        "bid": name, "base": amount(base), "extra": amount(over)}


BID_NAMES: dict[str, Callable[[], str]] = {
    "prop": lambda: _("proposal and acceptance (prop and cop)"),
    "solo": lambda: pgettext("solo whist bid", "solo"),
    "misere": lambda: pgettext("solo whist bid", "misère"),
    "abundance": lambda: pgettext("solo whist bid", "abundance"),
    "abundance-in-trumps": lambda: pgettext("solo whist bid", "abundance in trumps"),
    "misere-ouverte": lambda: pgettext("solo whist bid", "misère ouverte"),
    "abundance-declared": lambda: pgettext("solo whist bid", "abundance declared"),
    "abundance-declared-in-trumps": lambda: pgettext("solo whist bid",
                                                     "abundance declared in trumps"),
}


def _declared(o: dict[str, Any]) -> str:
    if o["declared_with_trumps"] == "replaces":
        return _("Abundance declared: all 13 tricks, the declarer naming trumps and leading "
                 "to the first trick.")
    return _("Abundance declared: all 13 tricks with no trumps; the declarer leads to the "
             "first trick.")


def _abundance(o: dict[str, Any]) -> str:
    if o["abundance_trumps_named"] == "after-opening-lead":
        return _("Abundance: 9 tricks or more; the declarer names trumps once the opening lead "
                 "is on the table, and the whole first trick is played with them.")
    if o["abundance_first_trick"] == "turned-suit":
        return _("Abundance: 9 tricks or more; the declarer names trumps, which apply from the "
                 "second trick (the first is played with the turned suit as trumps).")
    return _("Abundance: 9 tricks or more, the declarer naming trumps after the auction.")


BID_MEANINGS: dict[str, Callable[[dict[str, Any]], str]] = {
    "prop": lambda o: _("Proposal: 8 tricks or more together with a partner who accepts, the "
                        "turned suit trumps."),
    "solo": lambda o: _("Solo: 5 tricks or more alone, the turned suit trumps."),
    "misere": lambda o: _("Misère: no trick at all, no trumps."),
    "abundance": _abundance,
    "abundance-in-trumps": lambda o: _("Abundance in trumps: 9 tricks or more with the turned "
                                       "suit trumps; only as an overcall of an abundance."),
    "misere-ouverte": lambda o: _("Misère ouverte: no trick, no trumps, the declarer's hand "
                                  "laid face up after the first trick."),
    "abundance-declared": _declared,
    "abundance-declared-in-trumps": lambda o: _("Abundance declared in trumps: all 13 tricks "
                                                "with trumps the declarer names, ranking just "
                                                "above abundance declared."),
}


# --- German Whist --------------------------------------------------------------------------


def _german_whist(o: dict[str, Any], compiled: Any) -> list[str]:
    stock = 52 - 2 * compiled.hand_size
    out = [
        _("Two players, %(count)d cards each; the other %(stock)d form a face-down stock whose "
          "top card is turned: its suit is trumps for the whole game.")
        % {"count": compiled.hand_size, "stock": stock},
        _("The non-dealer leads first; follow suit if you can; the highest trump wins, else the "
          "highest card of the suit led."),
        _("For the first %(count)d tricks the winner takes the turned card of the stock and the "
          "loser the face-down card beneath it; then the next card is turned.")
        % {"count": compiled.drawing},
    ]
    if compiled.all_count:
        out.append(_("All %(count)d tricks count; whoever takes more wins.")
                   % {"count": compiled.counted})
    else:
        out.append(_("Only the last %(count)d tricks, played once the stock is empty, count; "
                     "whoever takes more of them wins.") % {"count": compiled.counted})
    if compiled.difference:
        out.append(_("The winner scores the difference between the two players' tricks."))
    else:
        out.append(_("The winner scores 1."))
    return out


WRITERS: dict[str, Callable[[dict[str, Any], Any], list[str]]] = {
    "spades": _spades,
    "whist": _whist,
    "solo-whist": _solo_whist,
    "german-whist": _german_whist,
}


PRESET_NAMES: dict[str, dict[str, Any]] = {
    "spades": {
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
    },
    "whist": {
        "short-whist": gettext_lazy("Short whist"),
        "long-whist": gettext_lazy("Long whist"),
        "long-whist-9": gettext_lazy("Long whist, game at 9"),
        "american-whist": gettext_lazy("American whist"),
    },
    "solo-whist": {
        "phillips": gettext_lazy("Phillips (Pan Book of Card Games)"),
        "parlett-1": gettext_lazy("Parlett, first table"),
        "parlett-2": gettext_lazy("Parlett, second table"),
        "parlett-3": gettext_lazy("Parlett, third table"),
    },
    "german-whist": {"standard": gettext_lazy("Standard")},
}


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


def call_word(game: str | None, call: object) -> str:
    """A call of a hand record in the reader's language: Spades bids, Solo Whist contracts;
    anything else (a number, another game's call) as written."""
    text = str(call)
    if game == "solo-whist":
        return solo_labels().get(text, text)
    return call_label(text)

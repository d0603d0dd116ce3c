"""The one home of the rule options' values in words: every preset and every value an option
takes, as the director's forms, the tournament pages, the rules in words and the exports show it
("Last bidder decides", never `last-bidder`). The rules engine's value ids stay what is stored.

`VALUE_LABELS` is keyed by (game, option) then by the engine's value; a test checks that every
string value of every game's options (the engines' `RuleBook`s) has a label here with a
Japanese translation, and `tournaments.presentation.preset_name` names the presets.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as lazy
from django.utils.translation import pgettext

from games.records import get_game

#: Labels of the rule options (the names are the public record format's; labels are for people).
OPTION_LABELS = {
    # Spades
    "players": lazy("Players at a table"),
    "partnership": lazy("Fixed partnerships"),
    "two_player_deal": lazy("Two-player deal"),
    "dummy_seat": lazy("Dummy's seat (left or right of the dealer)"),
    "jokers": lazy("Jokers"),
    "removed_cards": lazy("Cards removed before the deal"),
    "dealer_discards": lazy("Extra cards the dealer discards"),
    "deuce_of_spades_high": lazy("Deuce of spades ranks high"),
    "high_trumps": lazy("Off-suit cards above every spade"),
    "bidding": lazy("Bidding"),
    "bidding_rounds": lazy("Rounds of bidding"),
    "nil": lazy("Nil allowed"),
    "nil_value": lazy("Nil: points"),
    "double_nil": lazy("Double nil"),
    "double_nil_behind": lazy("Double nil: points behind needed"),
    "double_nil_value": lazy("Double nil: points when made"),
    "double_nil_penalty": lazy("Double nil: points lost when set"),
    "nil_exchange": lazy("Cards exchanged on nil"),
    "double_nil_exchange": lazy("Cards exchanged on double nil"),
    "exchange_when_both_nil": lazy("Exchange when both partners bid nil"),
    "zero_bid_is_nil": lazy("A bid of 0 is nil"),
    "double_blind_nil": lazy("Double blind nil allowed"),
    "double_blind_nil_value": lazy("Double blind nil: points"),
    "double_blind_nil_behind": lazy("Double blind nil: points behind needed"),
    "blind_bid_min": lazy("Lowest blind bid (0 = none)"),
    "blind_bid_behind": lazy("Blind bid: points behind needed"),
    "blind_bid_exact": lazy("Blind bid must be exact"),
    "blind_made": lazy("Blind bid made"),
    "blind_failed": lazy("Blind bid failed"),
    "moon": lazy("Shooting the moon"),
    "moon_value": lazy("Moon: points"),
    "thirteen_is_moon": lazy("A bid of 13 is a moon"),
    "blind_moon": lazy("Blind moon"),
    "moon_wins_game": lazy("A made moon wins the game"),
    "minimum_bid": lazy("Minimum bid"),
    "first_lead": lazy("First lead"),
    "spades_broken": lazy("Spades must be broken"),
    "set_penalty": lazy("Set penalty"),
    "overtrick_points": lazy("Points per overtrick"),
    "sandbag": lazy("Sandbag penalty"),
    "sandbag_limit": lazy("Bags that trigger the penalty"),
    "sandbag_penalty": lazy("Sandbag penalty: points"),
    "ten_for_200": lazy("Ten for 200"),
    "ten_for_two": lazy("Ten for two"),
    "big_bid_bonus": lazy("Bonus for a bid of 10 or more"),
    "exact_bid_bonus": lazy("Bonus for an exact bid"),
    "all_tricks_bonus": lazy("Bonus for all the tricks"),
    "all_tricks_wins": lazy("All the tricks wins the game"),
    "last_trick_bonus": lazy("Last trick bonus"),
    "seven_plus_bonus": lazy("Bonus for bids of 7 or more"),
    "small_exact_bids": lazy("Small exact bids score extra"),
    "target": lazy("Target score"),
    # Whist
    "honours": lazy("Honours score"),
    "honours_barred_at": lazy("Honours barred at (0 = never)"),
    "game_points": lazy("Game points"),
    "rubber": lazy("Play rubbers"),
    "settle": lazy("Settlement"),
    "revoke_penalty": lazy("Points per revoke"),
    # Solo Whist
    "table": lazy("Scoring table"),
    "overtricks": lazy("Over- and undertricks score"),
    "prop_and_cop": lazy("Prop and cop"),
    "misere_below_solo": lazy("Misère ranks below solo"),
    "after_unaccepted_prop": lazy("After an unaccepted prop"),
    "trump_indicator": lazy("Trump indicator"),
    "abundance_first_trick": lazy("Trumps for the first trick of an abundance"),
    "abundance_trumps_named": lazy("When the abundance declarer names trumps"),
    "declared_with_trumps": lazy("Abundance declared with trumps"),
    # German Whist
    "counted_tricks": lazy("Tricks counted"),
    "score": lazy("Score"),
    "hand_size": lazy("Cards dealt to each player"),
}


def option_label(name: str) -> Any:
    """An option's name in words (its label, or its id made readable)."""
    return OPTION_LABELS.get(name) or name.replace("_", " ").capitalize()


#: A switch's two values, the words of every option's `off` value too (one spelling).
ON_OFF: dict[bool, Any] = {True: lazy("On"), False: lazy("Off")}

VALUE_LABELS: dict[tuple[str, str], dict[Any, Any]] = {
    ("spades", "two_player_deal"): {"draw": lazy("Draw the hands"), "dummy": lazy("A dummy hand")},
    ("spades", "dummy_seat"): {
        "left": lazy("Left of the dealer"),
        "right": lazy("Right of the dealer"),
    },
    ("spades", "bidding"): {
        "last-bidder": lazy("Each partner bids; the last bidder decides"),
        "sum": lazy("Each partner bids; the side's bid is the sum"),
        "consult": lazy("Partners consult and bid together"),
    },
    ("spades", "double_nil"): {
        "never": lazy("Never"),
        "always": lazy("Always"),
        "when-behind": lazy("Only when behind"),
    },
    ("spades", "blind_made"): {
        "double": lazy("Scores double"),
        "bonus-100": lazy("Scores a bonus of 100"),
    },
    ("spades", "blind_failed"): {
        "double": lazy("Loses double"),
        "normal": lazy("Loses as an ordinary bid"),
        "penalty-100": lazy("Loses 100 more"),
    },
    ("spades", "first_lead"): {
        "left-of-dealer": lazy("The player left of the dealer"),
        "two-of-clubs": lazy("The holder of the two of clubs"),
        "lowest-clubs": lazy("Lowest clubs on the first trick"),
        "highest-bidder": lazy("The highest bidder"),
    },
    ("spades", "set_penalty"): {
        "bid": lazy("10 per trick bid"),
        "shortfall": lazy("10 per trick short"),
    },
    ("spades", "ten_for_200"): {
        "off": ON_OFF[False],
        "at-least": lazy("A bid of 10 or more scores 200"),
        "exact": lazy("Exactly 10 tricks on a bid of 10 scores 200"),
    },
    ("spades", "last_trick_bonus"): {
        "off": ON_OFF[False],
        "last": lazy("The last trick"),
        "sequence": lazy("The last tricks in sequence"),
    },
    ("whist", "game_points"): {
        "short": lazy("Short whist game points"),
        "long": lazy("Long whist game points"),
        "none": lazy("None: the loser pays the difference"),
    },
    ("whist", "settle"): {
        "difference": lazy("The difference"),
        "official": lazy("As the official laws settle"),
    },
    ("solo-whist", "table"): {
        "phillips": lazy("Phillips (Pan Book of Card Games)"),
        "parlett-1": lazy("Parlett, first table"),
        "parlett-2": lazy("Parlett, second table"),
        "parlett-3": lazy("Parlett, third table"),
    },
    ("solo-whist", "after_unaccepted_prop"): {
        "any-bid": lazy("Anyone may bid on"),
        "eldest-only": lazy("Only the eldest hand may accept"),
        "solo-only": lazy("Only solo or higher may follow"),
    },
    ("solo-whist", "trump_indicator"): {
        "dealer-card": lazy("The dealer's last card"),
        "second-pack": lazy("A card cut from a second pack"),
        "rotation": lazy("By rotation"),
        "joker": lazy("A joker: the contract names trumps"),
    },
    ("solo-whist", "abundance_first_trick"): {
        "declared-suit": lazy("The declared suit"),
        "turned-suit": lazy("The turned suit"),
    },
    ("solo-whist", "abundance_trumps_named"): {
        "after-auction": lazy("After the auction"),
        "after-opening-lead": lazy("After the opening lead"),
    },
    ("solo-whist", "declared_with_trumps"): {
        "off": ON_OFF[False],
        "replaces": lazy("Replaces abundance declared"),
        "ranks-above": lazy("Ranks above it"),
    },
    ("german-whist", "counted_tricks"): {
        "last-13": lazy("The last 13 tricks"),
        "all-26": lazy("All 26 tricks"),
    },
    ("german-whist", "score"): {
        "win": lazy("1 for a win"),
        "difference": lazy("The difference in tricks"),
    },
}


def value_label(game: str, option: str, value: Any) -> str:
    """An option's value in words in the active language: On/Off, a number as written, a list of
    cards, or the label of a named value (an unknown one: as the engine spells it). A switch
    reads "On"/"Off", capitalised like every named value ("Off" is also the `off` value of the
    options that have one), so a list of options never mixes "off" and "Off"."""
    if isinstance(value, bool):
        return str(ON_OFF[value])
    if isinstance(value, list | tuple):
        from tournaments.words.rules import cards

        return cards(value) or "—"
    label = VALUE_LABELS.get((game, option), {}).get(value)
    return str(label) if label is not None else str(value)


def choices(game: str, option: str) -> list[tuple[Any, str]]:
    """(value, words) for each value the engine's option takes."""
    return [
        (value, value_label(game, option, value))
        for value in get_game(game).book.options[option].choices
    ]


def preset_label(game: str, preset: str) -> str:
    """A preset in words (its name, or the id of a house preset)."""
    from tournaments.presentation import preset_name

    return preset_name(game, preset)


def rules_label(game: str, rules: Any) -> str:
    """A tournament's rules in a line: the preset's name, and each house option with its value
    in words ("Standard (the club's own rules): Target score 300, Double nil Only when behind")."""
    if isinstance(rules, str):
        return preset_label(game, rules)
    if not isinstance(rules, dict):
        return "" if rules is None else str(rules)
    name = preset_label(game, str(rules.get("preset", "")))
    options = pgettext("list separator", ", ").join(
        _("%(option)s: %(value)s")
        % {"option": option_label(option), "value": value_label(game, option, value)}
        for option, value in (rules.get("options") or {}).items()
    )
    if not options:
        return name
    return _("%(preset)s (%(options)s)") % {"preset": name, "options": options}

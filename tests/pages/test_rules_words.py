"""The rules in words: every named preset reads as what it plays, and every rule option shows in
the words when it is changed (so a house option is never invisible to the players)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import translation

from games.errors import RecordError
from games.records import get_game
from tournaments.presentation import describe, preset_name
from tournaments.words.rules import amount, card

GAMES = ("spades", "whist", "solo-whist", "german-whist")
PRESETS = [(game, preset) for game in GAMES for preset in get_game(game).book.presets]

# What each published rule set must say (a few telling sentences per preset, from
# shared/spec/games/*.md).
EXPECTED = {
    ("spades", "standard"): [
        "Four players in fixed partnerships: North and South against East and West.",
        "Spades are always trumps; from the highest: A♠ … 2♠.",
        "Double nil may be bid only by a side 100 points or more behind.",
        "After a double nil the partners exchange 2 cards face down.",
        "No exchange of cards after a nil bid.",
        "Spades may not be led until a spade has been played, unless the leader holds nothing "
        "else.",
        "No penalty for bags (overtricks).",
        "Game: the first side to 500 points or more at the end of a hand wins; equal totals "
        "play another hand.",
    ],
    ("spades", "hoyle"): [
        "Double nil may be bid at any score.",
        "After a nil bid the partners exchange 3 cards face down.",
        "No exchange when both partners bid nil or double nil.",
    ],
    ("spades", "pagat-1996"): [
        "Partners agree their side's bid together, in the hearing of the table (bidding by "
        "consultation); the side without the dealer bids first.",
        "A side that fails its bid (set) loses 10 for each trick short.",
        "Nil: a player promises to take no trick, for 50 points if made and minus 50 if not.",
        "Bags: every 10 overtricks counted up cost 100 points.",
    ],
    ("spades", "pagat-barmore"): [
        "Two jokers, big and little, are added and play as spades.",
        "Taken out of the pack before the deal: 2♥, 2♣.",
        "Spades are always trumps; from the highest: big joker, little joker, 2♠, A♠ … 3♠.",
        "No nil bids.",
        "No double nil.",
        "A blind bid made scores its bid double (overtricks single).",
        "Spades may be led at any time.",
    ],
    ("spades", "pagat-3p"): [
        "Three players, each for themselves, with 17 cards each.",
        "1 card is left over, unseen and out of play.",
        "The holder of the 2♣ (or of the lowest club in play) leads to the first trick.",
        "A bid made scores 10 a trick bid, minus 10 for each overtrick.",
        "Game: the first side to 300 points or more at the end of a hand wins; equal totals "
        "play another hand.",
    ],
    ("spades", "dan-brad"): [
        "A side's final bid is at least 4, even when a partner bids nil.",
        "Double nil: nil bid before looking at the cards, for 200 points if made and minus 100 "
        "if not.",
        "10 for 2: a bid of 10 or more made scores 20 a trick bid.",
        "Taking every trick of a hand wins the game at once.",
    ],
    ("spades", "network-spades"): [
        "Four players, each bidding and scoring alone (cutthroat).",
        "Taking every trick wins a bonus of 200.",
    ],
    ("spades", "windswept"): [
        "A bid of 0 is a nil.",
        "A bid made exactly wins a bonus of 20.",
    ],
    ("spades", "spaceways"): [
        "Every bid is at least 2.",
        "10 for 200: a bid of 10 or more made wins 200 more; failed, it loses 200.",
    ],
    ("spades", "winspades"): [
        "Taken out of the pack before the deal: 2♥, 2♦.",
        "A blind bid made scores normally plus a bonus of 100.",
        "A blind bid failed scores as a normal failed bid.",
        "A bid of 10 or more wins 100 more if made and loses 100 if not.",
    ],
    ("whist", "short-whist"): [
        "Each trick over six (odd trick) scores 1; game is 5 points.",
        "A side with 4 points or more at the start of a hand cannot score honours.",
        "A revoke costs 3 points: the opponents add them, or take them off the revoking side's "
        "score.",
        "The winners of a game score game points: 3 if the losers have 0, 2 if they have 1 or "
        "2, 1 if they have 3 or more.",
    ],
    ("whist", "long-whist"): [
        "Each trick over six (odd trick) scores 1; game is 10 points.",
        "A side with 9 points or more at the start of a hand cannot score honours.",
        "The winners of a game score game points: 2 if the losers have fewer than 5, else 1.",
    ],
    ("whist", "long-whist-9"): [
        "Each trick over six (odd trick) scores 1; game is 9 points.",
        "A side with 8 points or more at the start of a hand cannot score honours.",
    ],
    ("whist", "american-whist"): [
        "Each trick over six (odd trick) scores 1; game is 7 points.",
        "Honours do not score.",
        "No game points: the winners of a game score the difference between the two scores.",
        "Each game is a match of its own, settled alone.",
    ],
    ("solo-whist", "phillips"): [
        "Bids, lowest first (value each player pays or receives): proposal and acceptance (prop "
        "and cop) 1 (1/4 a trick over or under); solo 1 (1/4 a trick over or under); misère 2; "
        "abundance 3 (1/2 a trick over or under); abundance in trumps 3 (1/2 a trick over or "
        "under); misère ouverte 4; abundance declared 6.",
        "Solo: 5 tricks or more alone, the turned suit trumps.",
        "Abundance declared: all 13 tricks with no trumps; the declarer leads to the first trick.",
    ],
    ("solo-whist", "parlett-1"): [
        "Bids, lowest first (value each player pays or receives): proposal and acceptance (prop "
        "and cop) 1 (1/5 a trick over or under); solo 1 (1/5 a trick over or under); misère 2; "
        "abundance 3 (3/10 a trick over or under); abundance in trumps 3 (3/10 a trick over or "
        "under); misère ouverte 4; abundance declared 6.",
    ],
    ("solo-whist", "parlett-2"): [
        "Bids, lowest first (value each player pays or receives): proposal and acceptance (prop "
        "and cop) 2; solo 2; misère 3; abundance 4; abundance in trumps 4; misère ouverte 6; "
        "abundance declared 8.",
        "Overtricks and undertricks are not scored.",
    ],
    ("solo-whist", "parlett-3"): [
        "Bids, lowest first (value each player pays or receives): proposal and acceptance (prop "
        "and cop) 1; solo 2; misère 4; abundance 6; abundance in trumps 6; misère ouverte 8; "
        "abundance declared 12.",
        "Overtricks and undertricks are not scored.",
    ],
    ("german-whist", "standard"): [
        "Two players, 13 cards each; the other 26 form a face-down stock whose top card is "
        "turned: its suit is trumps for the whole game.",
        "Only the last 13 tricks, played once the stock is empty, count; whoever takes more of "
        "them wins.",
        "The winner scores 1.",
    ],
}


def test_every_named_preset_has_its_expectations_written_down():
    assert set(EXPECTED) == set(PRESETS)


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_each_preset_reads_as_published(game, preset):
    words = describe(game, preset)
    assert words[0] == f"Rules: {preset_name(game, preset)}, as published."
    assert all(isinstance(s, str) and s.strip() for s in words)
    assert len(words) == len(set(words)), "a sentence is repeated"
    for sentence in EXPECTED[(game, preset)]:
        assert sentence in words


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_the_canonical_dict_form_reads_like_the_preset_id(game, preset):
    assert describe(game, {"preset": preset, "options": {}}) == describe(game, preset)


def alternatives(option) -> list:
    """Values other than the default that an option takes (a sample for open ranges)."""
    if option.cards:
        return [["2D"], ["2C", "2H"]]
    if isinstance(option.default, bool):
        return [not option.default]
    if option.choices:
        return [c for c in option.choices if c != option.default]
    values = {option.default + 1, option.default + 7, max(option.low or 0, 1), 3}
    return sorted(
        v
        for v in values
        if v != option.default
        and (option.low is None or v >= option.low)
        and (option.high is None or v <= option.high)
    )


# Options that only matter beside another: changed on top of the setting that brings them in.
ENABLERS = {
    ("spades", "two_player_deal"): {"players": 2, "partnership": False},
    ("spades", "dummy_seat"): {"players": 2, "partnership": False, "two_player_deal": "dummy"},
    ("spades", "dealer_discards"): {"jokers": 2},
    ("spades", "double_blind_nil_value"): {"double_blind_nil": True},
    ("spades", "double_blind_nil_behind"): {"double_blind_nil": True},
    ("spades", "moon_value"): {"moon": True},
}


def described_change(game: str, name: str) -> list[tuple[str, object]]:
    """(preset, value) pairs where setting option `name` changes the words of some preset."""
    book = get_game(game).book
    base = ENABLERS.get((game, name), {})
    found = []
    for preset in book.presets:
        try:
            before = describe(game, {"preset": preset, "options": base})[1:]
        except RecordError:
            continue
        for value in alternatives(book.options[name]):
            try:
                after = describe(game, {"preset": preset, "options": {**base, name: value}})
            except RecordError:
                continue  # a combination the engine refuses (e.g. partnership with 3 players)
            if after[1:] != before:
                found.append((preset, value))
    return found


OPTIONS = [(game, name) for game in GAMES for name in get_game(game).book.options]


@pytest.mark.parametrize(("game", "name"), OPTIONS)
def test_every_rule_option_shows_in_the_words(game, name):
    assert described_change(game, name), f"{game} option {name!r} never changes the words"


def test_house_options_are_counted_and_change_the_words():
    words = describe("spades", {"preset": "standard", "options": {"target": 300, "sandbag": True}})
    assert words[0] == "Rules: Standard (the club's own rules), with 2 house options."
    assert "Bags: every 10 overtricks counted up cost 100 points." in words
    assert (
        "Game: the first side to 300 points or more at the end of a hand wins; equal totals "
        "play another hand."
    ) in words
    assert "No penalty for bags (overtricks)." not in words


@pytest.mark.parametrize(("game", "name"), sorted(ENABLERS))
def test_an_option_that_needs_another_is_silent_without_it(game, name):
    book = get_game(game).book
    for value in alternatives(book.options[name]):
        try:
            changed = describe(game, {"preset": "standard", "options": {name: value}})
        except RecordError:
            continue
        assert changed[1:] == describe(game, "standard")[1:]


def test_dependent_options_speak_only_where_they_apply():
    no_nil = describe("spades", {"preset": "standard", "options": {"nil": False, "nil_value": 50}})
    assert not any("50 points" in s for s in no_nil)
    cutthroat = describe("spades", "network-spades")
    assert not any("exchange" in s for s in cutthroat)  # no partner to exchange with


def test_two_player_and_card_options_read_from_the_engines_pack():
    dummy = describe(
        "spades",
        {
            "preset": "standard",
            "options": {
                "players": 2,
                "partnership": False,
                "two_player_deal": "dummy",
                "high_trumps": ["2D"],
                "deuce_of_spades_high": True,
                "moon": True,
            },
        },
    )
    assert any(s.startswith("Two players and a dummy, 17 cards each") for s in dummy)
    assert "Spades are always trumps; from the highest: 2♦, 2♠, A♠ … 3♠." in dummy
    assert any("take all 17 tricks" in s for s in dummy)
    one_joker = describe("spades", {"preset": "windswept", "options": {"jokers": 1}})
    assert "Taken out of the pack before the deal: 2♣." in one_joker
    assert "Spades are always trumps; from the highest: joker, A♠ … 2♠." in one_joker
    short = describe(
        "german-whist",
        {
            "preset": "standard",
            "options": {"hand_size": 6, "counted_tricks": "all-26", "score": "difference"},
        },
    )
    assert (
        "For the first 20 tricks the winner takes the turned card of the stock and the "
        "loser the face-down card beneath it; then the next card is turned."
    ) in short
    assert "All 26 tricks count; whoever takes more wins." in short
    assert "The winner scores the difference between the two players' tricks." in short


def test_solo_whist_bid_order_follows_the_options():
    words = describe(
        "solo-whist",
        {
            "preset": "phillips",
            "options": {
                "misere_below_solo": True,
                "prop_and_cop": False,
                "declared_with_trumps": "ranks-above",
            },
        },
    )
    bids = next(s for s in words if s.startswith("Bids, lowest first"))
    assert "prop and cop" not in bids
    assert bids.index("misère 2") < bids.index("solo 1")
    assert bids.endswith("abundance declared 6; abundance declared in trumps 6.")


def test_unknown_rules_are_the_engines_error():
    with pytest.raises(RecordError):
        describe("spades", "no-such-preset")
    with pytest.raises(RecordError):
        describe("whist", {"preset": "short-whist", "options": {"target": "five"}})


def test_the_words_follow_the_active_language():
    with translation.override("ja"):
        words = describe("spades", "standard")
    assert len(words) == len(describe("spades", "standard"))
    assert all(isinstance(s, str) for s in words)


def test_cards_and_values_are_printed_as_on_a_score_sheet():
    assert [card("TH"), card("2C"), card("AS")] == ["10♥", "2♣", "A♠"]
    assert [amount(3), amount(Fraction(3, 2)), amount(Fraction(-1, 4))] == ["3", "1 1/2", "-1/4"]


def test_issue_19_options_read_in_english_and_japanese():
    two = {"players": 2, "partnership": False, "two_player_deal": "dummy"}
    cases = [
        ("spades", {**two, "dummy_seat": "left"}, "The dummy sits at the dealer's left"),
        ("spades", {**two, "dummy_seat": "right"}, "The dummy sits at the dealer's right"),
        ("spades", {"last_trick_bonus": "sequence"}, "in whatever order they were played"),
        (
            "solo-whist",
            {"abundance_trumps_named": "after-opening-lead"},
            "names trumps once the opening lead is on the table",
        ),
    ]
    for game, options, phrase in cases:
        preset = "phillips" if game == "solo-whist" else "standard"
        rules = {"preset": preset, "options": options}
        english = [s for s in describe(game, rules) if phrase in s]
        assert len(english) == 1, (game, options)
        with translation.override("ja"):
            japanese = describe(game, rules)
        assert english[0] not in japanese, f"untranslated: {english[0]}"

"""The table scoring page's card-by-card entry in real Chromium on a phone: the scorer taps each
seat's 13 cards, then every trick in the order played; the rules engine (not the page) scores the
hand or names the illegal card, and a legal hand is stored with the same deal and play."""

from __future__ import annotations

import copy

import pytest
from playwright.sync_api import expect

from games.fuzzing import legal_hand
from games.records import check_hand
from tests.browser.test_scoring import open_table
from tests.tournaments.builders import make_director, make_match
from tournaments.models import Hand, HandSubmission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RANKS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "Ten", "9": "Nine",
         "8": "Eight", "7": "Seven", "6": "Six", "5": "Five", "4": "Four", "3": "Three", "2": "Two"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
TEAMS = {"N": "Aiko & Ben", "S": "Aiko & Ben", "E": "Chika & Dan", "W": "Chika & Dan"}


def legal_spades_hand() -> dict:
    """A legal full Spades hand dealt by N (the first dealer of the builders' match)."""
    record = legal_hand(2, "spades", "standard")
    assert record["dealer"] == "N"
    return record


def card_button(page, card: str):
    return page.locator("#card-grid").get_by_role(
        "button", name=f"{RANKS[card[0]]} of {SUITS[card[1]]}", exact=True)


def enter_by_cards(page, record: dict) -> None:
    """Bids through the form, then the deal (E, S, W; N is filled in) and every trick."""
    page.get_by_role("radio", name="N/S Aiko & Ben").check()
    page.get_by_role("radio", name="Card by card (the deal and every trick)").check()
    for call in record["calls"]:
        seat = call["seat"]
        page.get_by_role("combobox", name=f"{seat} {TEAMS[seat]}", exact=True).select_option(
            call["call"])
    for seat in "ESW":
        expect(page.locator("#deal-status")).to_contain_text(f"Cards dealt to {seat}: 0 of 13")
        for card in record["deal"][seat]:
            button = card_button(page, card)
            button.click()
            if seat != "W" and card != record["deal"][seat][-1]:
                expect(button).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#deal-status")).to_have_text(
        "The deal is complete. Now tap the cards as they were played.")
    expect(page.locator("[data-deal-count='N']")).to_have_text("13")
    expect(page.locator("#play-status")).to_contain_text("Trick 1: E leads")
    for trick in record["play"]:
        for card in trick:
            card_button(page, card).click()
    expect(page.locator("#played-list li")).to_have_count(len(record["play"]))


def test_a_legal_hand_entered_card_by_card_is_scored_by_the_engine_and_stored(
    page, live_server, screenshot, accessibility
):
    director = make_director("td")
    match = make_match(director)
    record = legal_spades_hand()
    expected = check_hand(record)
    assert expected["ok"]
    open_table(page, live_server, match, director)
    enter_by_cards(page, record)

    # a card taken back can be tapped again; played cards are greyed and disabled
    last = record["play"][-1][-1]
    expect(card_button(page, last)).to_be_disabled()
    page.get_by_role("button", name="Undo the last card").click()
    expect(card_button(page, last)).to_be_enabled()
    card_button(page, last).focus()
    page.keyboard.press("Enter")  # keyboard works as well as a tap
    expect(card_button(page, last)).to_be_disabled()

    page.get_by_role("button", name="Check the score").click()
    preview = page.locator("#preview")
    expect(preview).to_contain_text("The rules engine accepts this hand.")
    score = " · ".join(f"{side[0]}/{side[1]} +{points}" if points >= 0
                       else f"{side[0]}/{side[1]} −{-points}"
                       for side, points in expected["score"].items())
    expect(preview).to_contain_text(score)
    page.get_by_text("The record that will be checked (hand/1 JSON)").click()
    expect(page.locator("#cards-record")).to_contain_text('"play"')
    screenshot(page, "scoring-cards")
    assert accessibility(page) == []

    page.get_by_role("button", name="Submit the hand").click()
    expect(page.locator("#submit-status")).to_contain_text(
        "Hand 1 is stored and awaits confirmation by the other side.")
    version = HandSubmission.objects.get(hand__match=match, hand__number=1)
    # the same cards in each hand (the last seat's filled in suit by suit; order is no fact)
    assert {seat: sorted(cards) for seat, cards in version.record["deal"].items()} == {
        seat: sorted(cards) for seat, cards in record["deal"].items()}
    assert version.record["play"] == record["play"]
    assert version.result["score"] == expected["score"]


def revoked(record: dict) -> tuple[dict, str, str]:
    """The record with two of one seat's cards swapped so that seat does not follow suit in an
    earlier trick although it still holds that suit; gives the record, the seat and the card."""
    holder = {card: seat for seat, cards in record["deal"].items() for card in cards}
    play = record["play"]
    for number, trick in enumerate(play):
        led = trick[0][1]
        for position, card in enumerate(trick[1:], start=1):
            if card[1] != led:
                continue
            seat = holder[card]
            for later in range(number + 1, len(play)):
                for spot, other in enumerate(play[later]):
                    if holder[other] == seat and other[1] != led:
                        broken = copy.deepcopy(record)
                        broken["play"][number][position] = other
                        broken["play"][later][spot] = card
                        return broken, seat, other
    raise AssertionError("no trick to break")


def test_a_card_that_does_not_follow_suit_shows_the_engines_error_and_stores_nothing(
    page, live_server
):
    director = make_director("td")
    match = make_match(director)
    broken, seat, card = revoked(legal_spades_hand())
    assert not check_hand(broken)["ok"]
    open_table(page, live_server, match, director)
    enter_by_cards(page, broken)
    page.get_by_role("button", name="Check the score").click()
    preview = page.locator("#preview")
    expect(preview).to_contain_text("The rules engine refuses this hand:")
    expect(preview).to_contain_text("[must-follow-suit]")
    expect(preview).to_contain_text(f"{seat} {card}")
    expect(page.get_by_role("button", name="Submit the hand")).to_be_disabled()
    assert not Hand.objects.exists() and not HandSubmission.objects.exists()

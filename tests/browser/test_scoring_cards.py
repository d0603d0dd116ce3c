"""The table scoring page's card-by-card entry in real Chromium on a phone: the scorer taps each
seat's 13 cards, then every trick in the order played; the rules engine (not the page) scores the
hand or names the illegal card, and a legal hand is stored with the same deal and play."""

from __future__ import annotations

import copy
import random

import pytest
from playwright.sync_api import expect

from games.fuzzing import legal_hand
from games.records import check_hand
from games.simulate import solo_whist, whist
from tests.browser.test_scoring import open_table, submit_hand
from tests.tournaments.builders import make_director, make_match
from tournaments.models import Hand, HandSubmission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RANKS = {
    "A": "Ace",
    "K": "King",
    "Q": "Queen",
    "J": "Jack",
    "T": "Ten",
    "9": "Nine",
    "8": "Eight",
    "7": "Seven",
    "6": "Six",
    "5": "Five",
    "4": "Four",
    "3": "Three",
    "2": "Two",
}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
TEAMS = {"N": "Aiko & Ben", "S": "Aiko & Ben", "E": "Chika & Dan", "W": "Chika & Dan"}


def legal_spades_hand() -> dict:
    """A legal full Spades hand dealt by N (the first dealer of the builders' match)."""
    record = legal_hand(2, "spades", "standard")
    assert record["dealer"] == "N"
    return record


def card_button(page, card: str):
    return page.locator("#card-grid").get_by_role(
        "button", name=f"{RANKS[card[0]]} of {SUITS[card[1]]}", exact=True
    )


def enter_by_cards(page, record: dict) -> None:
    """Bids through the form, then the deal (E, S, W; N is filled in) and every trick."""
    page.get_by_role("radio", name="N/S Aiko & Ben").check()
    page.get_by_role("radio", name="Card by card (the deal and every trick)").check()
    for call in record["calls"]:
        seat = call["seat"]
        page.get_by_role("combobox", name=f"{seat} {TEAMS[seat]}", exact=True).select_option(
            call["call"]
        )
    for seat in "ESW":
        expect(page.locator("#deal-status")).to_contain_text(f"Cards dealt to {seat}: 0 of 13")
        for card in record["deal"][seat]:
            button = card_button(page, card)
            button.click()
            if seat != "W" and card != record["deal"][seat][-1]:
                expect(button).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#deal-status")).to_have_text(
        "The deal is complete. Now tap the cards as they were played."
    )
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
    score = " · ".join(
        f"{side[0]}/{side[1]} +{points}" if points >= 0 else f"{side[0]}/{side[1]} −{-points}"
        for side, points in expected["score"].items()
    )
    expect(preview).to_contain_text(score)
    page.get_by_text("The record that will be checked (hand/1 JSON)").click()
    expect(page.locator("#cards-record")).to_contain_text('"play"')
    screenshot(page, "scoring-cards")
    assert accessibility(page) == []

    submit_hand(page, match)
    expect(page.locator("#submit-status")).to_contain_text(
        "Hand 1 is stored and awaits confirmation by the other side."
    )
    version = HandSubmission.objects.get(hand__match=match, hand__number=1)
    # the same cards in each hand (the last seat's filled in suit by suit; order is no fact)
    assert {seat: sorted(cards) for seat, cards in version.record["deal"].items()} == {
        seat: sorted(cards) for seat, cards in record["deal"].items()
    }
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
    expect(preview.locator("[data-code=must-follow-suit]")).to_be_visible()  # a sentence, no code
    expect(preview).not_to_contain_text("[must-follow-suit]")
    expect(preview).to_contain_text(f"{seat} {card}")
    expect(page.get_by_role("button", name="Submit the hand")).to_be_disabled()
    assert not Hand.objects.exists() and not HandSubmission.objects.exists()


# -- who leads each trick, the only legal card, one tap per card (issue 15 point 10) -------------


def label(card: str) -> str:
    """A card as the page writes it: 10♥ for TH."""
    return ("10" if card[0] == "T" else card[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]


def by_data(page, card: str):
    return page.locator(f'#card-grid [data-card="{card}"]')


def deal_by_data(page, record: dict) -> None:
    """The deal tapped seat by seat from the dealer's left (the last seat is filled in)."""
    order = {"N": "ESWN", "E": "SWNE", "S": "WNES", "W": "NESW"}[record["dealer"]]
    for seat in order[:3]:
        for card in record["deal"][seat]:
            by_data(page, card).click()
    expect(page.locator(f"[data-deal-count='{order[3]}']")).to_have_text("13")


def only_card(left: list[str], trick: list[str]) -> str | None:
    """The card a seat must play: its one card of the suit led, or its last card."""
    if len(left) == 1:
        return left[0]
    if trick:
        follow = [card for card in left if card[1] == trick[0][1]]
        if len(follow) == 1:
            return follow[0]
    return None


def play_tricks(page, record: dict, winners: list[str], *, english: bool = True, shoot=None) -> int:
    """Every trick, one tap per card. Before each trick the page names the leader (the engine's
    answer: the last trick's winner); a seat with one legal card is offered it first, and that
    offer is what is tapped. Returns how many cards were played from the offer. `shoot()` is
    called once, at the first offer after trick 1 (a screenshot of the play under way)."""
    holder = {card: seat for seat, cards in record["deal"].items() for card in cards}
    left = {seat: list(cards) for seat, cards in record["deal"].items()}
    offered = 0
    status = page.locator("#play-status")
    for number, trick in enumerate(record["play"], 1):
        leader = holder[trick[0]]
        if number > 1:
            assert leader == winners[number - 2]
            if english:
                expect(status).to_have_text(
                    f"Trick {number}: {leader} leads, having won trick {number - 1}."
                )
            else:
                expect(status).to_contain_text(f"トリック {number - 1} を取った {leader}")
        else:
            expect(status).to_contain_text(
                f"Trick 1: {leader} leads" if english else f"{leader} のリード"
            )
        # the seats not to play have their cards set aside for this tap
        other = next(card for seat, cards in left.items() if seat != leader for card in cards)
        expect(by_data(page, other)).to_be_disabled()
        for position, card in enumerate(trick):
            seat = holder[card]
            forced = only_card(left[seat], trick[:position])
            button = page.locator("#only-card")
            if forced is not None:
                assert forced == card  # a legal record plays the one legal card
                expect(button).to_be_visible()
                if english:
                    expect(button).to_have_text(
                        f"Play {label(card)}: the only card {seat} may play"
                    )
                if shoot is not None and number > 1:
                    shoot()
                    shoot = None
                button.click()
                offered += 1
            else:
                expect(button).to_be_hidden()
                by_data(page, card).click()
            left[seat].remove(card)
    expect(status).to_have_text(
        "All 13 tricks are entered." if english else "13 トリックすべて入力しました。"
    )
    return offered


def check_and_submit(page, match, record: dict, expected: dict) -> None:
    page.get_by_role("button", name="Check the score").click()
    expect(page.locator("#preview")).to_contain_text("The rules engine accepts this hand.")
    submit_hand(page, match)
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored")
    stored = HandSubmission.objects.get(hand__match=match, hand__number=1)
    assert stored.record["play"] == [list(trick) for trick in record["play"]]
    assert stored.result["trick_winners"] == expected["trick_winners"]
    assert stored.result["score"] == expected["score"]


def test_spades_card_by_card_names_each_leader_and_offers_the_only_legal_card(
    page, live_server, screenshot, accessibility
):
    director = make_director("td")
    match = make_match(director)
    record = legal_spades_hand()
    expected = check_hand(record)
    open_table(page, live_server, match, director)
    page.get_by_role("radio", name="N/S Aiko & Ben").check()
    page.get_by_role("radio", name="Card by card (the deal and every trick)").check()
    for call in record["calls"]:
        seat = call["seat"]
        page.get_by_role("combobox", name=f"{seat} {TEAMS[seat]}", exact=True).select_option(
            call["call"]
        )
    deal_by_data(page, record)
    offered = play_tricks(
        page,
        record,
        expected["trick_winners"],
        shoot=lambda: screenshot(page, "scoring-cards-spades-offer"),
    )
    assert offered >= 4  # at least the four cards of trick 13
    won = page.locator("#played-list li").nth(0)
    expect(won).to_contain_text(f"won by {expected['trick_winners'][0]}")
    check_and_submit(page, match, record, expected)


def whist_hand() -> tuple[dict, dict]:
    """A legal short whist hand dealt by N with no revoke (the form asks nothing else)."""
    for seed in range(100):
        record = whist.random_hand(random.Random(seed), "short-whist", dealer="N")
        result = check_hand(record)
        if result["ok"] and not result.get("revokes"):
            return record, result
    raise AssertionError("no whist hand without a revoke")


def test_whist_card_by_card_names_each_leader_and_is_stored(
    page, live_server, screenshot, accessibility
):
    director = make_director("td")
    match = make_match(director, game="whist", rules="short-whist")
    record, expected = whist_hand()
    open_table(page, live_server, match, director)
    page.get_by_role("radio", name="N/S Aiko & Ben").check()
    page.get_by_role("radio", name="Card by card (the deal and every trick)").check()
    deal_by_data(page, record)
    # without the turned card the engine cannot say who wins a trick: the page says why
    expect(page.locator("#play-problem")).to_be_visible()
    page.get_by_label("The turned card (the dealer's last card)").select_option(record["turned"])
    expect(page.locator("#play-problem")).to_be_hidden()
    play_tricks(
        page,
        record,
        expected["trick_winners"],
        shoot=lambda: screenshot(page, "scoring-cards-whist-offer"),
    )
    screenshot(page, "scoring-cards-whist")
    assert accessibility(page) == []
    check_and_submit(page, match, record, expected)


def solo_hand() -> tuple[dict, dict]:
    """A legal Solo Whist hand dealt by N, declared as a solo and played to the end."""
    for seed in range(500):
        record = solo_whist.random_hand(random.Random(seed), "phillips", dealer="N")
        result = check_hand(record)
        contract = result.get("contract") or {}
        if result["ok"] and contract.get("bid") == "solo" and len(record["play"]) == 13:
            return record, result
    raise AssertionError("no solo contract played out")


def test_solo_whist_card_by_card_names_each_leader_and_is_stored(
    page, live_server, screenshot, accessibility
):
    director = make_director("td")
    match = make_match(director, game="solo-whist", rules="phillips", fmt="individual")
    record, expected = solo_hand()
    declarer = expected["contract"]["declarer"]
    open_table(page, live_server, match, director)
    page.locator('input[name="entering-side"]').first.check()
    page.get_by_role("radio", name="Card by card (the deal and every trick)").check()
    page.get_by_label("Contract").select_option("solo")
    page.locator(f'input[name="declarer"][value="{declarer}"]').check()
    page.locator("[data-turned-rank]").select_option(record["turned"][0])
    page.locator(f'input[name="turned-suit"][value="{record["turned"][1]}"]').check()
    deal_by_data(page, record)
    play_tricks(
        page,
        record,
        expected["trick_winners"],
        shoot=lambda: screenshot(page, "scoring-cards-solo-offer"),
    )
    screenshot(page, "scoring-cards-solo")
    page.set_viewport_size({"width": 1366, "height": 900})
    screenshot(page, "scoring-cards-solo-laptop")
    assert accessibility(page) == []
    check_and_submit(page, match, record, expected)


def test_card_by_card_in_japanese_names_each_leader(page, live_server, screenshot, accessibility):
    director = make_director("td")
    match = make_match(director)
    record = legal_spades_hand()
    expected = check_hand(record)
    page.goto(live_server.url + "/")
    with page.expect_navigation():
        page.get_by_role("button", name="日本語").click()
    open_table_ja(page, live_server, match, director)
    page.locator('input[name="entering-side"]').first.check()
    page.locator('input[name="mode"][value="cards"]').check()
    for call in record["calls"]:
        page.locator(f'[data-bid-seat="{call["seat"]}"]').select_option(call["call"])
    deal_by_data(page, record)
    play_tricks(
        page,
        record,
        expected["trick_winners"],
        english=False,
        shoot=lambda: screenshot(page, "scoring-cards-ja-offer"),
    )
    screenshot(page, "scoring-cards-ja")
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "scoring-cards-ja-projector")
    assert accessibility(page) == []


def open_table_ja(page, live_server, match, director) -> None:
    from tournaments import services

    _, secret = services.issue_table_token(table=match.table, actor=director)
    page.goto(live_server.url + services.scoring_path(match.table, secret))
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    assert page.locator("html").get_attribute("lang") == "ja"

"""German Whist card by card on the table's phone (390 x 844, real Chromium): the scorer taps
each player's 13 cards, then for each of the first 13 tricks the stock's turned card and the two
cards in order, and the 13 tricks after them; the rules engine (not the page) says who won each
trick, refuses a card that does not follow suit in its own words, and scores the hand, which is
stored with its play."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.records import check_hand
from games.simulate.german_whist import random_hand
from tests.browser.test_director import PASSWORD, sign_in
from tests.browser.test_scoring import open_table
from tests.browser.test_scoring_taps import counted, counting, phone_shot, seated, wait_stored
from tests.tournaments.builders import make_director
from tournaments import services
from tournaments.models import Hand, HandSubmission
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def by_data(page, card: str):
    return page.locator(f'#card-grid [data-card="{card}"]')


def held_by_trick(record: dict, winners: list[str]) -> list[dict[str, set[str]]]:
    """What each player holds at the start of each trick (dealt, drawn, less played): the test's
    own replay of the record, to find a card that does not follow suit."""
    hands = {seat: set(cards) for seat, cards in record["deal"].items()}
    stock = record["stock"]
    leader = "S" if record["dealer"] == "N" else "N"
    out = []
    for number, trick in enumerate(record["play"]):
        out.append({seat: set(cards) for seat, cards in hands.items()})
        follower = "N" if leader == "S" else "S"
        hands[leader].discard(trick[0])
        hands[follower].discard(trick[1])
        winner = winners[number]
        if number < 13:
            hands[winner].add(stock[2 * number])
            hands["N" if winner == "S" else "S"].add(stock[2 * number + 1])
        leader = winner
    return out


def a_revoke(record: dict, winners: list[str]) -> tuple[int, str, str]:
    """A trick (0-based) where the follower follows suit and still holds a dealt card of another
    suit: (trick, that card, the follower)."""
    held = held_by_trick(record, winners)
    leader = "S" if record["dealer"] == "N" else "N"
    for number, trick in enumerate(record["play"]):
        follower = "N" if leader == "S" else "S"
        led = trick[0][1]
        if number >= 2 and trick[1][1] == led:
            other = sorted(
                card
                for card in held[number][follower]
                if card[1] != led and card in record["deal"][follower]
            )
            if other:
                return number, other[0], follower
        leader = winners[number]
    raise AssertionError("no trick to break")


def test_a_german_whist_hand_by_cards_on_the_phone_is_checked_scored_and_stored(
    page, live_server, screenshot, accessibility
):
    director = make_director("td")
    match = seated(
        director,
        game="german-whist",
        rules="standard",
        fmt="swiss",
        table_size=2,
        confirmation="same-phone",
    )
    record = random_hand(random.Random(28), "standard", dealer="N")
    expected = check_hand({**record, "game": "german-whist"})
    assert expected["ok"], expected
    winners = expected["trick_winners"]
    broken_at, wrong, follower = a_revoke(record, winners)

    open_table(page, live_server, match, director)
    page.get_by_text("Card by card (the deal and every trick)").click()  # the option's label
    expect(
        page.get_by_role("radio", name="Card by card (the deal and every trick)")
    ).to_be_checked()
    counting(page)  # from here (the option's tap above is one more)
    # the deal: the non-dealer's 13 cards first, then the dealer's
    expect(page.locator("#deal-status")).to_contain_text("Cards dealt to S: 0 of 13")
    for card in record["deal"]["S"]:
        by_data(page, card).click()
    expect(page.locator("#deal-status")).to_contain_text("Cards dealt to N: 0 of 13")
    for card in record["deal"]["N"]:
        by_data(page, card).click()
    expect(page.locator("#deal-status")).to_have_text(
        "The deal is complete. Now tap the cards as they were played."
    )
    expect(page.locator("#play-status")).to_have_text(
        "Trick 1: tap the stock card turned face up (its suit is trumps)."
    )
    # a card dealt to a player is never the turned card
    expect(by_data(page, record["deal"]["N"][0])).to_be_disabled()
    extra = 0
    for number, trick in enumerate(record["play"]):
        if number < 13:
            by_data(page, record["stock"][2 * number]).click()
        lead, follow = trick
        leader = "S" if number == 0 else winners[number - 1]
        other = "N" if leader == "S" else "S"
        # once the engine names who leads, the other player's known cards are not offered
        expect(page.locator("#play-status")).to_contain_text(f"{leader} lead")
        for card in record["deal"][other]:
            if card not in [c for t in record["play"][:number] for c in t]:
                expect(by_data(page, card)).to_be_disabled()
                break
        by_data(page, lead).click()
        if number == broken_at:
            expect(page.locator("#play-status")).to_contain_text(f"{follower} to play")
            by_data(page, wrong).click()
            preview = page.locator("#preview")
            expect(preview).to_contain_text("The rules engine refuses this hand:")
            expect(preview.locator("[data-code=must-follow-suit]")).to_be_visible()
            expect(preview).not_to_contain_text("[must-follow-suit]")
            expect(page.locator("#submit-button")).to_be_disabled()
            page.get_by_role("button", name="Undo the last card").click()
            extra += 2
        by_data(page, follow).click()
        if number == 2:
            by_data(page, record["stock"][6]).click()  # trick 4's turned card, mid-entry
            phone_shot(page, "phone-german-whist-cards-en")
            screenshot(page, "scoring-cards-german-whist")
            page.get_by_role("button", name="Undo the last card").click()  # takes it back
            extra += 2
            expect(page.locator("#play-status")).to_have_text(
                "Trick 4: tap the stock card turned face up before it."
            )
    expect(page.locator("#played-list li")).to_have_count(26)
    expect(page.locator("#play-status")).to_have_text("All 26 tricks are entered.")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("The rules engine accepts this hand.")
    assert accessibility(page) == []
    assert not Hand.objects.exists()

    page.locator("#submit-button").click()
    page.locator("#side-keys button").first.click()
    wait_stored(page, 1)
    seen = counted(page)
    print(f"\ngerman whist by cards: 1 + {seen['taps'] - extra} taps, {seen['typed']} typed")
    assert seen["small"] == [], seen["small"]
    assert seen["typed"] == 0
    # 26 dealt cards, 13 turned, 52 played, Send and who sends (the undone taps aside)
    assert seen["taps"] - extra == 26 + 13 + 52 + 2, seen

    version = HandSubmission.objects.get(hand__match=match, hand__number=1)
    stored = version.record
    assert stored["play"] == record["play"]
    assert {seat: sorted(cards) for seat, cards in stored["deal"].items()} == {
        seat: sorted(cards) for seat, cards in record["deal"].items()
    }
    assert stored["stock"][::2] == record["stock"][::2]  # the turned cards, as tapped
    assert version.result["score"] == expected["score"]
    assert version.result["tricks"] == expected["tricks"]


@pytest.fixture
def td(db):
    """The director who signs in (as in test_director.py)."""
    return get_user_model().objects.create_user("aiko", password=PASSWORD)


def test_a_recorded_german_whist_game_is_corrected_card_by_card(page, live_server, td):
    """The director's correction starts from the stored deal, turned cards and play: the last
    trick taken back and played again, the stored stock kept (the page asks no engine there)."""
    director = Actor(user=td)
    match = seated(
        director,
        game="german-whist",
        rules="standard",
        fmt="swiss",
        table_size=2,
        confirmation="same-phone",
    )
    record = random_hand(random.Random(7), "standard", dealer="N")
    record = {k: v for k, v in record.items() if k not in ("format", "game", "rules")}
    services.submit_hand(match=match, actor=director, record=record)
    tournament = match.round.tournament
    sign_in(page, live_server, f"/director/{tournament.slug}/matches/{match.pk}/hands/1/")

    expect(
        page.get_by_role("radio", name="Card by card (the deal and every trick)")
    ).to_be_checked()
    for seat in "NS":
        expect(page.locator(f"[data-deal-count='{seat}']")).to_have_text("13")
    expect(page.locator("#played-list li")).to_have_count(26)
    for _ in range(2):
        page.get_by_role("button", name="Undo the last card").click()
    expect(page.locator("#played-list li")).to_have_count(25)
    for card in record["play"][-1]:
        by_data(page, card).click()
    page.get_by_label("Reason for the correction").fill("Checked against the score sheet")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Hand 1 corrected.")).to_be_visible()
    current = HandSubmission.objects.get(hand__match=match, is_current=True)
    assert current.version == 2
    assert current.record["play"] == record["play"]
    assert current.record["stock"] == record["stock"]
    expected = check_hand(
        {**record, "format": "hand/1", "game": "german-whist", "rules": "standard"}
    )
    assert current.result["score"] == expected["score"]

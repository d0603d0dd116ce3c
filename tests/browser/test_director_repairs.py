"""A director's repairs in real Chromium (issue 15 point 1): a hand corrected in the game's
terms (the table's own form, filled with the current version; card by card for a recorded
play), a disputed hand voided with a reason, and a match ended with a hand still open, each
step confirmed. Screenshots at phone, laptop and projector sizes, English and Japanese; axe-core
finds nothing on each page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.fuzzing import legal_hand
from games.records import check_hand
from tests.browser.test_director import PASSWORD, make, sign_in
from tests.tournaments.builders import HAND_1, scorer
from tournaments import services
from tournaments.models import AuditEvent, HandSubmission, Match
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 900}
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture
def td(db):
    """The director who signs in (as in test_director.py)."""
    return get_user_model().objects.create_user("aiko", password=PASSWORD)


def published(td):
    tournament = make(td, teams=2)
    director = Actor(user=td)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    return tournament, Match.objects.get(round=round_, is_bye=False), director


def hand_path(tournament, match, number: int = 1) -> str:
    return f"/director/{tournament.slug}/matches/{match.pk}/hands/{number}/"


def test_a_hand_is_corrected_in_the_tables_own_form_filled_with_the_current_version(
    page, live_server, td, screenshot, accessibility
):
    tournament, match, director = published(td)
    services.submit_hand(match=match, actor=director, record=HAND_1)
    sign_in(page, live_server, hand_path(tournament, match))

    # the bids and tricks of version 1, in the scoring page's controls
    expect(page.get_by_role("radio", name="The hand's facts")).to_be_checked()
    for seat, bid in {"E": "4", "S": "3", "W": "7", "N": "6"}.items():
        expect(page.locator(f'[data-bid-seat="{seat}"]')).to_have_value(bid)
    expect(page.locator("#tricks-N")).to_have_value("3")
    expect(page.get_by_label("Hand record (JSON)")).to_be_hidden()  # advanced only
    page.get_by_role("button", name="One more: N").click()
    page.get_by_role("button", name="One fewer: E").click()
    page.get_by_label("Reason for the correction").fill("North took the last trick")
    screenshot(page, "director-correction-facts")
    assert accessibility(page) == []
    with page.expect_navigation():
        page.get_by_role("button", name="Save the correction").click()

    expect(page.get_by_text("Hand 1 corrected.")).to_be_visible()
    current = HandSubmission.objects.get(hand__match=match, is_current=True)
    assert current.version == 2 and current.reason == "North took the last trick"
    assert current.record["tricks"] == {"N": 4, "E": 3, "S": 3, "W": 3}
    assert current.record["calls"] == HAND_1["calls"]
    # the form now starts from version 2, and says so
    expect(page.locator("#tricks-N")).to_have_value("4")
    expect(page.locator("#id_version")).to_have_value("2")
    page.set_viewport_size(LAPTOP)
    screenshot(page, "director-correction-facts-laptop")


def test_a_recorded_play_is_corrected_card_by_card(
    page, live_server, td, screenshot, accessibility
):
    tournament, match, director = published(td)
    record = legal_hand(2, "spades", "standard")
    record = {k: v for k, v in record.items() if k not in ("format", "game", "rules")}
    services.submit_hand(match=match, actor=director, record=record)
    sign_in(page, live_server, hand_path(tournament, match))

    cards = page.get_by_role("radio", name="Card by card (the deal and every trick)")
    expect(cards).to_be_checked()
    for seat in "NESW":
        expect(page.locator(f"[data-deal-count='{seat}']")).to_have_text("13")
    expect(page.locator("#played-list li")).to_have_count(13)
    # take back the last trick and play it again: one tap per card
    for _ in range(4):
        page.get_by_role("button", name="Undo the last card").click()
    expect(page.locator("#played-list li")).to_have_count(12)
    for card in record["play"][-1]:
        page.locator(f'#card-grid [data-card="{card}"]').click()
    page.get_by_label("Reason for the correction").fill("Checked against the score sheet")
    screenshot(page, "director-correction-cards")
    assert accessibility(page) == []
    with page.expect_navigation():
        page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Hand 1 corrected.")).to_be_visible()
    current = HandSubmission.objects.get(hand__match=match, is_current=True)
    assert current.version == 2 and current.record["play"] == record["play"]
    assert (
        current.result["score"]
        == check_hand({**record, "format": "hand/1", "game": "spades", "rules": "standard"})[
            "score"
        ]
    )


def test_a_disputed_hand_is_voided_and_the_match_ended_after_confirming(
    page, live_server, td, screenshot, accessibility
):
    tournament, match, director = published(td)
    pending = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    services.reject_hand(
        submission=pending, actor=scorer(match, "EW"), expected_version=1, reason="we took 4"
    )
    sign_in(page, live_server, f"/director/{tournament.slug}/matches/{match.pk}/")

    page.get_by_role("button", name="End the match").click()
    expect(page.get_by_role("heading", name="One hand is not confirmed")).to_be_visible()
    expect(page.get_by_role("button", name="Yes, end the match")).to_be_disabled()
    expect(page.get_by_role("button", name="Confirm hand 1")).to_have_count(0)  # disputed
    screenshot(page, "director-end-match-open-hand")
    assert accessibility(page) == []
    page.set_viewport_size(PROJECTOR)
    screenshot(page, "director-end-match-open-hand-projector")
    page.set_viewport_size({"width": 390, "height": 844})

    page.get_by_label("Why hand 1 is voided").fill("dealt again at the table")
    with page.expect_navigation():
        page.get_by_role("button", name="Void hand 1").click()
    expect(page.get_by_text("Hand 1 is voided: the table enters it again.")).to_be_visible()
    assert HandSubmission.objects.get(hand__match=match).status == "voided"
    assert AuditEvent.objects.filter(action="hand-voided").count() == 1

    with page.expect_navigation():
        page.get_by_role("button", name="Yes, end the match").click()
    expect(page.get_by_text("The match is finished.")).to_be_visible()
    match.refresh_from_db()
    assert match.state == "finished"


def test_closing_a_round_asks_first_in_japanese(page, live_server, td, screenshot, accessibility):
    tournament, match, director = published(td)
    sign_in(page, live_server, f"/director/{tournament.slug}/rounds/1/")
    with page.expect_navigation():
        page.get_by_role("button", name="日本語").click()
    with page.expect_navigation():
        page.locator("form[action$='/close/'] button").click()
    assert page.locator("html").get_attribute("lang") == "ja"
    expect(page.get_by_role("button", name="はい、ラウンド 1 を締め切る")).to_be_visible()
    screenshot(page, "director-close-round-ja")
    assert accessibility(page) == []
    page.get_by_role("link", name="キャンセル").click()
    tournament.round_set.get(number=1).refresh_from_db()
    assert tournament.round_set.get(number=1).state != "closed"


def test_the_hand_page_in_japanese_offers_the_game_form(
    page, live_server, td, screenshot, accessibility
):
    tournament, match, director = published(td)
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    sign_in(page, live_server, hand_path(tournament, match))
    with page.expect_navigation():
        page.get_by_role("button", name="日本語").click()
    expect(page.locator('[data-bid-seat="W"]')).to_have_value("7")
    screenshot(page, "director-correction-ja")
    assert accessibility(page) == []
    page.set_viewport_size(LAPTOP)
    screenshot(page, "director-correction-ja-laptop")


def test_revoking_a_scoring_link_asks_first(page, live_server, td, screenshot, accessibility):
    tournament, match, director = published(td)
    token, _secret = services.issue_table_token(table=match.table, actor=director)
    sign_in(page, live_server, f"/director/{tournament.slug}/matches/{match.pk}/")
    screenshot(page, "director-match-links")
    assert accessibility(page) == []
    with page.expect_navigation():
        page.get_by_role("button", name="Revoke").click()
    expect(page.get_by_role("heading", name="Revoke this scoring link of table 1?")).to_be_visible()
    screenshot(page, "director-revoke-link-confirm")
    assert accessibility(page) == []
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, revoke the scoring link").click()
    expect(page.get_by_text("The scoring link is revoked.")).to_be_visible()
    token.refresh_from_db()
    assert token.state == "revoked"

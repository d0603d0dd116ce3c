"""The duplicate phone in a few taps (issue 28, item 4): on a phone at 390 x 844 a board is
entered on the pad (the bids and each seat's tricks, the last answer sends), the entering pair's
PIN on a keypad once a round, the other pair confirms with its PIN and one tap; every tap,
typed character and scroll counted, failing above the bars of docs/scoring.md ("The duplicate
phone"). And live: a second phone at the table sees the board to confirm without a reload, and
the phone moves to the next round by itself.

    .venv/bin/pytest -p no:cacheprovider -q -n 0 -s tests/browser/test_duplicate_phone_taps.py
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_scoring_taps import counted, counting, phone_shot, report
from tests.duplicate.builders import make_event, pair_pin, play_round
from tests.tournaments.builders import make_director
from tournaments.duplicate import services as dup
from tournaments.models import BoardResult
from tournaments.services.table_access import issue_round_tokens

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def quick_reconnect(settings):
    """Django's WSGI live server answers the event stream briefly: the browser reconnects
    after a second here (as the `page` fixture sets), not five."""
    settings.LIVE_SHORT_STREAM_RETRY_MS = 1000


def open_phone(browser, url: str, locale: str = "en-US"):
    context = browser.new_context(locale=locale, viewport=PHONE, has_touch=True)
    phone = context.new_page()
    phone.goto(url)
    expect(phone.locator("#table-panel")).to_have_attribute("data-ready", "true")
    return context, phone


def tap(phone, *values: str) -> None:
    keys = phone.locator("form[data-pad-game] [data-pad-keys]")
    for value in values:
        keys.get_by_role("button", name=value, exact=True).click()


def keypad(phone, scope: str, pin: str) -> None:
    pad = phone.locator(f"{scope} .keypad")
    for digit in pin:
        pad.locator(f".key[data-key='{digit}']").click()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_board_in_seven_taps_a_pin_once_a_round_and_live_at_the_other_phone(
    browser, live_server, locale
):
    td = make_director()
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = issue_round_tokens(round=round_, actor=td)[round_.tables.get(number=1).pk]
    url = f"{live_server.url}/duplicate/{tournament.slug}/table/1/#token={secret}"
    context, phone = open_phone(browser, url, locale)
    other_context, other = open_phone(browser, url, locale)
    try:
        lang = locale[:2]
        first, second = dup.boards_of(dup.event_of(tournament), 1, 1)
        # Board 1: four bids, N's, E's and S's tricks (W's derived): the last answer sends,
        # and NS's PIN is asked once this round
        counting(phone)
        tap(phone, "3", "3", "3", "3", "3", "4")
        expect(phone.locator("[data-derived='tricks_W']")).to_contain_text("·")
        phone_shot(phone, f"duplicate-phone-pad-{lang}")
        tap(phone, "3")
        expect(phone.locator("form[data-pad-game] [data-pin-sheet]")).to_be_visible()
        phone_shot(phone, f"duplicate-phone-pin-once-{lang}")
        keypad(phone, "form[data-pad-game]", pair_pin(round_, 1, "NS"))
        sent = time.monotonic()
        expect(phone.locator(".dup-decide")).to_be_visible()
        report(f"duplicate board {first} with the PIN ({lang})", counted(phone), 7 + 4)
        result = BoardResult.objects.get(board__number=first, is_current=True)
        assert result.record["tricks"] == {"N": 3, "E": 4, "S": 3, "W": 3}
        assert result.submitted_side == "NS"

        # the other phone at the table: the board to confirm, live (no reload)
        expect(other.locator(".dup-decide")).to_be_visible()
        print(f"\nother phone shows board {first} to confirm {time.monotonic() - sent:.2f} s after")
        assert other.evaluate("performance.getEntriesByType('navigation').length") == 1

        # EW confirms: Confirm, its PIN on the keypad (the fourth digit sends)
        counting(phone)
        phone.locator(".dup-decide button[value=confirm]").click()
        phone_shot(phone, f"duplicate-phone-confirm-{lang}")
        keypad(phone, ".dup-decide", pair_pin(round_, 1, "EW"))
        expect(phone.locator(".dup-decide")).to_have_count(0)
        report(f"duplicate confirmation ({lang})", counted(phone), 4 + 2)
        result.refresh_from_db()
        assert result.status == "confirmed" and result.decided_side == "EW"

        # Board 2: the PIN is kept for the round: seven taps
        counting(phone)
        tap(phone, "4", "4", "4", "4", "2", "5", "3")
        expect(phone.locator(".dup-decide")).to_be_visible()
        report(f"duplicate board {second} ({lang})", counted(phone), 7)
        assert BoardResult.objects.get(board__number=second, is_current=True).record["tricks"] == {
            "N": 2,
            "E": 5,
            "S": 3,
            "W": 3,
        }
    finally:
        other_context.close()
        context.close()


def test_a_wrong_pin_is_forgotten_and_asked_again_and_the_other_pair_cannot_swap_sides(
    browser, live_server
):
    """PIN mode: a wrong PIN is refused and asked again (the board's answers stay); the pair
    that entered cannot confirm its own board with its own PIN (the side-swap attack on the
    duplicate phone): the server derives the side from the PIN, never from the phone."""
    td = make_director()
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = issue_round_tokens(round=round_, actor=td)[round_.tables.get(number=1).pk]
    url = f"{live_server.url}/duplicate/{tournament.slug}/table/1/#token={secret}"
    context, phone = open_phone(browser, url)
    try:
        ns, ew = pair_pin(round_, 1, "NS"), pair_pin(round_, 1, "EW")
        wrong = next(p for p in ("1111", "2222", "3333") if p not in (ns, ew))
        tap(phone, "3", "3", "3", "3", "3", "4", "3")
        keypad(phone, "form[data-pad-game]", wrong)
        expect(phone.locator('[role=alert][data-code="side-pin-wrong"]')).to_be_visible()
        expect(phone.locator("form[data-pad-game] [data-pin-sheet]")).to_be_visible()
        keypad(phone, "form[data-pad-game]", ns)
        expect(phone.locator(".dup-decide")).to_be_visible()
        phone.locator(".dup-decide button[value=confirm]").click()
        keypad(phone, ".dup-decide", ns)  # NS answering its own board
        expect(phone.locator('[role=alert][data-code="own-side"]')).to_be_visible()
        assert BoardResult.objects.get(is_current=True).status == "pending"
    finally:
        context.close()


def test_the_phone_moves_to_the_next_round_by_itself(browser, live_server):
    td = make_director()
    tournament = make_event(td)
    play_round(tournament, td)  # round 1 played and closed
    first = tournament.round_set.get(number=1)
    secret = issue_round_tokens(round=first, actor=td)[first.tables.get(number=1).pk]
    url = f"{live_server.url}/duplicate/{tournament.slug}/table/1/#token={secret}"
    context, phone = open_phone(browser, url)
    try:
        expect(phone.locator("#who-h")).to_have_text("Round 1")
        expect(phone.locator("#table-panel")).to_have_attribute("data-live-mode", "sse")
        dup.start_round(tournament=tournament, actor=td)
        expect(phone.locator("#who-h")).to_have_text("Round 2")
        expect(phone.locator("form[data-pad-game] [data-pad-keys] button")).not_to_have_count(0)
    finally:
        context.close()


def test_a_whist_board_with_honours_in_two_taps(browser, live_server):
    """Whist boards dealt by TrickTable carry their turned card: N/S's tricks and the honours
    N/S held, E/W's tricks derived; the last answer sends (the PIN once a round)."""
    td = make_director()
    tournament = make_event(
        td, game="whist", rules="short-whist", movement="barometer", tables=2, board_honours=True
    )
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = issue_round_tokens(round=round_, actor=td)[round_.tables.get(number=1).pk]
    url = f"{live_server.url}/duplicate/{tournament.slug}/table/1/#token={secret}"
    context, phone = open_phone(browser, url)
    try:
        counting(phone)
        tap(phone, "8")
        expect(phone.locator("[data-derived='tricks_EW']")).to_contain_text("5")
        tap(phone, "3")  # N/S held three honours: sent, the PIN asked once a round
        keypad(phone, "form[data-pad-game]", pair_pin(round_, 1, "NS"))
        expect(phone.locator(".dup-decide")).to_be_visible()
        report("duplicate whist board with honours, with the PIN", counted(phone), 2 + 4)
        record = BoardResult.objects.get(is_current=True).record
        assert record["tricks"] == {"NS": 8, "EW": 5} and record["honours"] == {"NS": 3, "EW": 1}
    finally:
        context.close()


def test_after_a_refused_pin_the_phone_keeps_its_live_updates(browser, live_server):
    """Issue 28 item 3: after a refusal (a wrong PIN on Confirm, then the entering pair's own PIN)
    the phone still follows the table: the board confirmed meanwhile by the director shows as
    done without a reload."""
    td = make_director()
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = issue_round_tokens(round=round_, actor=td)[round_.tables.get(number=1).pk]
    url = f"{live_server.url}/duplicate/{tournament.slug}/table/1/#token={secret}"
    context, phone = open_phone(browser, url)
    try:
        ns, ew = pair_pin(round_, 1, "NS"), pair_pin(round_, 1, "EW")
        wrong = next(p for p in ("1111", "2222", "3333") if p not in (ns, ew))
        tap(phone, "3", "3", "3", "3", "3", "4", "3")
        keypad(phone, "form[data-pad-game]", ns)
        expect(phone.locator(".dup-decide")).to_be_visible()
        phone.locator(".dup-decide button[value=confirm]").click()
        keypad(phone, ".dup-decide", wrong)
        refused = phone.locator('[role=alert][data-code="side-pin-wrong"]')
        expect(refused).to_be_visible()
        # the director confirms the board meanwhile: the stream's event brings a panel that
        # differs (an update that brings nothing new swaps nothing, so only a change proves the
        # panel was shown again); the board shows as done, and the refusal stays on it
        phone.evaluate("document.querySelector('#table-panel [role=alert]').dataset.probe = '1'")
        result = BoardResult.objects.get(is_current=True)
        dup.confirm_board_result(result=result, actor=td, expected_version=result.version)
        expect(phone.locator(".dup-decide")).to_have_count(0)
        expect(phone.locator("[data-probe]")).to_have_count(0)
        expect(refused).to_be_visible()
        expect(phone.locator("#table-panel")).to_have_attribute("data-live-mode", "sse")
    finally:
        context.close()

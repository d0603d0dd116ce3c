"""The table scoring page in real Chromium on a phone-sized screen: a scorer opens the table
card's QR link, enters a hand as its facts, sees the rules engine's score, submits, and the other
side confirms on the same phone; illegal hands, refusals and the offline queue."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from games.records import check_hand
from tests.tournaments.builders import HAND_1, make_director, make_match, scorer, side_pin
from tournaments import gameplay, services
from tournaments.demo.simulate import next_hand
from tournaments.models import Entry, Hand, HandSubmission, Match, Player, Round, Seat, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def open_table(page, live_server, match, director) -> str:
    """Open the table card's link (the token in the fragment) and wait for the script."""
    _, secret = services.issue_table_token(table=match.table, actor=director)
    page.goto(live_server.url + services.scoring_path(match.table, secret))
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    expect(page.locator("#access-status")).to_have_text("This phone scores for this table.")
    return secret


def seated_match(director, *, rules, fmt: str, table_size: int = 4) -> Match:
    """A published Spades match of players under `rules` (any number of seats), one player per
    seat letter, named after the seat."""
    tournament = services.create_tournament(
        actor=director,
        name="Variants",
        game="spades",
        rules=rules,
        format=fmt,
        rounds=1,
        table_size=table_size,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    match = Match.objects.create(round=round_, table=Table.objects.create(round=round_, number=1))
    shape = gameplay.layout("spades", tournament.rules)
    for seat in shape.seats:
        side = next(side for side in shape.sides if seat in side)
        entry = Entry.objects.create(
            tournament=tournament, player=Player.objects.create(name=f"Player {seat}")
        )
        Seat.objects.create(match=match, entry=entry, side=side, seats=seat)
    return match


def stored_queue(page, match) -> list[dict]:
    return page.evaluate(
        f"JSON.parse(localStorage.getItem('tricktable:table:{match.table_id}:queue') || '[]')"
    )


#: HAND_1 as the pad enters it: each seat's own tricks (the record states them per seat).
HAND_1_PAD = HAND_1


def tap(page, *values: str) -> None:
    """Tap keys of the entry's pad, each on the question it shows then."""
    for value in values:
        page.locator("#pad-keys").get_by_role("button", name=value, exact=True).click()


def enter_spades_hand_1(page) -> None:
    """HAND_1 of the builders on the pad: dealer N; E 4, S 3, W 7, N 6; N took 3, E 4, S 3 (W's
    3 filled in). The last answer sends the hand: `send(..., click=False)` answers what follows."""
    tap(page, "4", "3", "7", "6", "3", "4", "3")


def full_form(page) -> None:
    """Open "Every detail of the hand" (the full form under the pad)."""
    page.get_by_text("Every detail of the hand").click()


def check_score(page) -> None:
    """The engine's score shows as the numbers go in (no check step)."""
    expect(page.locator("#preview dl.live-score")).to_be_visible()


def send(
    page,
    number: int = 1,
    *,
    side: str | bool | None = None,
    pin: str | None = None,
    click: bool = True,
) -> None:
    """Tap Send (click=False: the pad's last answer sent the hand); the first time in a match,
    type the entering entry's PIN (PIN mode: the server derives the side from it) or, in
    same-phone mode, say which side sends."""
    if click:
        page.get_by_role("button", name=f"Send hand {number}").click()
    if side is True:
        page.locator("#side-keys button").first.click()
    elif side:
        page.locator(f"#side-keys [data-send-side='{side}']").click()
    if pin:
        keypad = page.locator("#credential [data-keypad]")
        for digit in pin:
            keypad.get_by_role("button", name=digit, exact=True).click()


def confirm_with_pin(page, number: int, pin: str, action: str = "Confirm") -> None:
    """Tap Confirm (or Reject) on the hand, then the PIN on its keypad (the last digit sends)."""
    decision = page.locator(f"form.decide[data-number='{number}']")
    decision.get_by_role("button", name=f"{action} hand {number}").click()
    for digit in pin:
        decision.locator("[data-keypad]").get_by_role("button", name=digit, exact=True).click()


def test_a_spades_hand_is_scored_submitted_and_confirmed_by_the_other_side(
    page, live_server, screenshot, accessibility
):
    director = make_director("td")
    match = make_match(director)  # PIN mode: the phone passes over, E/W types its PIN
    open_table(page, live_server, match, director)
    # the secret left the address bar and stays on the phone for this table only
    assert "#" not in page.url and page.url.endswith(f"/table/{match.table_id}/")
    assert page.evaluate(f"localStorage.getItem('tricktable:table:{match.table_id}:token')")
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()

    enter_spades_hand_1(page)
    check_score(page)
    preview = page.locator("#preview")
    expect(preview).to_contain_text("N/S +60 · E/W +70")  # the engine's score, not the page's
    expect(preview).to_contain_text("N/S 60 · E/W 70")
    screenshot(page, "scoring-spades")
    assert accessibility(page) == []

    send(page, 1, pin=side_pin(match, "NS"), click=False)
    expect(page.locator("#submit-status")).to_contain_text(
        "Hand 1 is stored and awaits confirmation by the other side."
    )
    pending = page.locator("form.decide[data-number='1']")
    expect(pending).to_contain_text("E/W: check the hand, then confirm or reject it.")
    expect(pending.locator(".hand-over")).to_be_visible()  # N/S entered it: pass the phone
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    expect(page.locator("#entry-dealer")).to_have_text("Dealer: E — Chika & Dan")

    confirm_with_pin(page, 1, side_pin(match, "EW"))
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    expect(page.locator("form.decide")).to_have_count(0)
    expect(page.locator("tr.hand[data-hand='1']")).to_contain_text("Confirmed")
    expect(page.locator(".compass .seat-E")).to_have_class(re.compile(r"\bdealer\b"))
    screenshot(page, "scoring-spades-confirmed")
    assert accessibility(page) == []

    version = HandSubmission.objects.get(hand__match=match, hand__number=1)
    assert version.status == "confirmed" and version.source == "table"
    assert (version.submitted_side, version.decided_side) == ("NS", "EW")
    assert version.result["score"] == {"NS": 60, "EW": 70}
    assert UUID.match(version.idempotency_key)
    assert version.raw == HAND_1_PAD


def test_in_pin_mode_the_other_side_confirms_with_its_pin_and_the_table_code_alone_cannot(
    page, live_server, screenshot, accessibility
):
    """A tournament in PIN mode (the default): the confirmation form asks for the answering
    side's PIN; without it nothing is sent, the submitting side's own PIN is refused and cleared,
    and the other side's PIN confirms the hand."""
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    expect(page.locator("#scoring")).to_have_attribute("data-confirmation", "pin")
    expect(page.locator("#pin-rules")).to_be_visible()
    services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="pin-mode-hand-1"
    )
    decision = page.locator("form.decide[data-number='1']")
    expect(decision).to_be_visible()
    pin = decision.get_by_label("PIN of the side answering")
    expect(pin).to_be_hidden()  # the keypad opens with the answer chosen

    decision.get_by_role("button", name="Confirm hand 1").click()
    expect(decision.locator(".decide-message")).to_contain_text(
        "E/W: type your PIN to confirm hand 1."
    )
    expect(pin).to_be_visible()
    expect(pin).to_be_focused()

    # the PIN of the side that entered the hand: refused (its last digit sends it)
    keypad = decision.locator("[data-keypad]")
    for digit in side_pin(match, "NS"):
        keypad.get_by_role("button", name=digit, exact=True).click()
    expect(decision.locator(".decide-message")).to_contain_text(
        "The other side confirms or rejects a hand."
    )
    expect(pin).to_have_value("")
    assert HandSubmission.objects.get().status == "pending"
    screenshot(page, "scoring-pin-refused")
    assert accessibility(page) == []

    for digit in side_pin(match, "EW"):
        keypad.get_by_role("button", name=digit, exact=True).click()
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    version = HandSubmission.objects.get()
    assert (version.status, version.decided_side) == ("confirmed", "EW")


def test_the_side_swap_attack_is_refused_on_the_page(page, live_server, screenshot):
    """Issue 28: on the page a hand is the side's whose PIN sends it (there is no side to pick
    in PIN mode); the page's own token with N/S's PIN cannot enter it as E/W's (what a phone
    could send by hand), and N/S's PIN cannot confirm N/S's hand."""
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    ns_pin = side_pin(match, "NS")
    swap = page.evaluate(
        """async ([url, tokenKey, pin]) => {
            const response = await fetch(url, {method: 'POST', headers: {
                'Content-Type': 'application/json', 'Idempotency-Key': 'swap-on-the-page',
                'Authorization': `Table ${JSON.parse(localStorage.getItem(tokenKey))}`},
                body: JSON.stringify({record: {dealer: 'N'}, side: 'EW', pin})});
            return [response.status, (await response.json()).code];
        }""",
        [f"/api/v1/matches/{match.pk}/hands", f"tricktable:table:{match.table_id}:token", ns_pin],
    )
    assert swap == [403, "side-pin-mismatch"]
    assert not HandSubmission.objects.exists()

    enter_spades_hand_1(page)
    check_score(page)
    send(page, 1, pin=ns_pin, click=False)
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored")
    assert HandSubmission.objects.get().submitted_side == "NS"
    screenshot(page, "scoring-side-proven-by-pin")

    confirm_with_pin(page, 1, ns_pin)
    expect(page.locator("form.decide[data-number='1'] .decide-message")).to_contain_text(
        "The other side confirms or rejects a hand."
    )
    assert HandSubmission.objects.get().status == "pending"


def test_after_a_wrong_pin_the_list_still_follows_the_table(page, live_server):
    """Issue 28: after a refused PIN the phone stopped updating (the focus stayed in the PIN
    field, and the list waited for it). Now the director's confirmation reaches it live, and
    what is typed in another hand's form is kept across the update."""
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    first = services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="follow-1"
    ).submission
    decision = page.locator("form.decide[data-number='1']")
    wrong = "0000" if "0000" not in (side_pin(match, "EW"), side_pin(match, "NS")) else "0001"
    confirm_with_pin(page, 1, wrong)
    expect(decision.locator(".decide-message")).to_contain_text(
        "That PIN is not the PIN of an entry at this table"
    )
    services.confirm_hand(submission=first, actor=director, expected_version=1)
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    expect(page.locator("form.decide")).to_have_count(0)


def test_an_illegal_hand_shows_the_engines_error_and_stores_nothing(page, live_server):
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    # double nil needs the side 100 behind; nobody is behind before the first hand
    tap(page, "Double nil (blind nil)", "3", "7", "6")
    tap(page, "13", "0", "0")  # N 13, E 0, S 0 (W's 0 filled in)
    preview = page.locator("#preview")
    expect(preview).to_contain_text("The rules engine refuses this hand:")
    expect(preview).to_contain_text("That bid needs the side to be further behind.")
    # a player reads the sentence; the code stays in the item's data (shown to a director)
    expect(preview.locator("[data-code=not-eligible]")).to_be_visible()
    expect(preview).not_to_contain_text("[not-eligible]")
    expect(page.get_by_role("button", name="Send hand 1")).to_be_disabled()
    expect(page.locator("#send-why")).to_have_text(
        "The rules engine refuses this hand: change it to send it."
    )

    # a form that is incomplete never reaches the server, and Send says what it waits for
    full_form(page)
    page.get_by_role("combobox", name="S Aiko & Ben", exact=True).select_option("")
    expect(page.locator("#send-why")).to_have_text("To send it: Choose S's bid.")
    expect(preview).to_be_empty()
    expect(page.get_by_role("button", name="Send hand 1")).to_be_disabled()
    assert not Hand.objects.exists() and not HandSubmission.objects.exists()


def test_a_refusal_is_shown_and_not_queued(page, live_server):
    director = make_director("td")
    match = make_match(director, confirmation="same-phone")  # about the refusal, not the PIN
    open_table(page, live_server, match, director)
    enter_spades_hand_1(page)
    check_score(page)
    # meanwhile the other side enters hand 1 on their own phone
    services.submit_hand(
        match=match, actor=scorer(match, "EW"), record=HAND_1, idempotency_key="other-phone-1"
    )
    send(page, 1, side="NS", click=False)
    status = page.locator("#submit-status")
    expect(status).to_contain_text("Hand 1 was not stored:")
    expect(status).to_contain_text("This hand was already entered and awaits confirmation.")
    expect(status.locator("[data-code=hand-already-submitted]")).to_be_visible()
    expect(status).not_to_contain_text("[hand-already-submitted]")
    expect(page.locator("#queue")).to_be_hidden()
    assert stored_queue(page, match) == []
    assert HandSubmission.objects.count() == 1
    # the list caught up: the other phone's hand awaits our answer (N/S), and we dispute it
    decision = page.locator("form.decide[data-number='1']")
    expect(decision).to_contain_text("N/S: check the hand")
    decision.get_by_text("Something is wrong? Reject…").click()
    decision.get_by_label("Reason (optional)").fill("W took 4, not 3")
    decision.get_by_role("button", name="Reject hand 1").click()
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "rejected")
    expect(page.get_by_role("heading", name="Enter hand 1 again")).to_be_visible()
    version = HandSubmission.objects.get()
    assert (version.status, version.decided_side, version.reason) == (
        "rejected",
        "NS",
        "W took 4, not 3",
    )


def test_offline_a_hand_is_queued_and_stored_once_when_back_online(page, live_server):
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    enter_spades_hand_1(page)
    check_score(page)

    page.context.set_offline(True)
    send(page, 1, pin=side_pin(match, "NS"), click=False)
    expect(page.locator("#submit-status")).to_contain_text("hand 1 is queued on this phone")
    expect(page.locator("#queue")).to_be_visible()
    expect(page.locator("#queued-hands")).to_contain_text("Hand 1, dealt by N")
    # the next hand follows the queued one (its dealer from the rotation), no waiting
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    expect(page.locator("#entry-dealer")).to_have_text("Dealer: E — Chika & Dan")
    expect(page.locator("#offline-banner")).to_be_visible()
    (queued,) = stored_queue(page, match)
    assert queued["number"] == 1 and queued["record"] == HAND_1_PAD and UUID.match(queued["key"])
    assert "pin" not in queued  # the PIN stays in sessionStorage, never in the queue
    assert not HandSubmission.objects.exists()

    page.context.set_offline(False)
    expect(page.locator("#submit-status")).to_contain_text("Queued hand 1 was sent and stored.")
    expect(page.locator("#queue")).to_be_hidden()
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "pending")
    assert stored_queue(page, match) == []
    version = HandSubmission.objects.get()
    assert version.idempotency_key == queued["key"]

    # the same submission sent again (a retry whose answer was lost) is the stored one
    replay = page.evaluate(
        """async ([url, key, record, name, pin]) => {
            const token = localStorage.getItem(name);
            const response = await fetch(url, {method: 'POST', headers: {
                'Content-Type': 'application/json', 'Idempotency-Key': key,
                'Authorization': `Table ${JSON.parse(token)}`},
                body: JSON.stringify({record, number: 1, pin})});
            return [response.status, (await response.json()).id];
        }""",
        [
            f"/api/v1/matches/{match.pk}/hands",
            queued["key"],
            queued["record"],
            f"tricktable:table:{match.table_id}:token",
            side_pin(match, "NS"),
        ],
    )
    assert replay == [200, version.pk]
    assert HandSubmission.objects.count() == 1 and Hand.objects.count() == 1


def test_a_lost_answer_is_retried_with_the_same_key_after_a_reload(page, live_server):
    """The server stores the hand but the phone never hears back: the queued retry (after a
    reload) gets the stored version, and the match still has one hand."""
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    enter_spades_hand_1(page)
    check_score(page)
    hands_url = re.compile(rf"/api/v1/matches/{match.pk}/hands$")

    def store_then_drop(route):
        route.fetch()  # reaches the server
        route.abort("connectionreset")  # the answer is lost

    page.route(hands_url, store_then_drop)
    send(page, 1, pin=side_pin(match, "NS"), click=False)
    expect(page.locator("#queue")).to_be_visible()
    (queued,) = stored_queue(page, match)
    assert HandSubmission.objects.get().idempotency_key == queued["key"]

    # Still no network after the reload, until the scorer presses the button: the page's own
    # retries (when its stream or a refresh comes back) fail until then, so the queued hand is
    # still there to be sent by hand.
    online: list[bool] = []
    page.route(
        hands_url,
        lambda route: route.continue_() if online else route.abort("internetdisconnected"),
    )
    page.reload()
    expect(page.locator("#queued-hands")).to_contain_text("Hand 1, dealt by N")
    retry = page.get_by_role("button", name="Try sending now")
    retry.scroll_into_view_if_needed()
    online.append(True)
    retry.click()
    expect(page.locator("#submit-status")).to_contain_text("Queued hand 1 was sent and stored.")
    expect(page.locator("#queue")).to_be_hidden()
    assert HandSubmission.objects.count() == 1
    assert stored_queue(page, match) == []


def test_a_full_record_is_pasted_checked_and_submitted(page, live_server):
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    record = next_hand(match, random.Random(3))  # a full record: deal, calls, every card
    assert "deal" in record and "play" in record
    page.get_by_role("radio", name="A full record (JSON)").check()
    page.get_by_label("The hand record").fill("[1, 2]")
    expect(page.locator("#send-why")).to_contain_text("Paste one hand")
    page.get_by_label("The hand record").fill(json.dumps(record))
    check_score(page)
    send(page, 1, pin=side_pin(match, "EW"))
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored")
    assert HandSubmission.objects.get().raw == record


def test_the_list_follows_hands_entered_on_another_phone(page, live_server):
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    expect(page.get_by_text("No hands yet.")).to_be_visible()
    services.submit_hand(
        match=match, actor=scorer(match, "EW"), record=HAND_1, idempotency_key="other-phone-2"
    )
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # back to the page
    expect(page.locator("form.decide[data-number='1']")).to_contain_text("N/S: check the hand")
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()


def test_without_a_token_the_page_says_how_to_get_one(page, live_server, accessibility):
    director = make_director("td")
    match = make_match(director)
    services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="no-token-1"
    )
    page.goto(f"{live_server.url}/table/{match.table_id}/")
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    expect(page.locator("#access-status")).to_have_text(
        "To enter scores, scan the QR code on this table's card with this phone's camera."
    )
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.locator("tr.hand[data-hand='1']")).to_be_visible()  # the hands are public
    expect(page.get_by_role("button", name="Confirm hand 1")).to_be_hidden()
    assert accessibility(page) == []


def test_a_withdrawn_card_is_caught_before_a_hand_is_entered(page, live_server):
    director = make_director("td")
    match = make_match(director)
    token, secret = services.issue_table_token(table=match.table, actor=director)
    services.revoke_table_token(token=token, actor=director)
    page.goto(live_server.url + services.scoring_path(match.table, secret))
    expect(page.locator("#access-status")).to_have_text(
        "This scoring code was withdrawn: ask the director for a new table card."
    )
    expect(page.locator("#entry")).to_be_hidden()
    page.get_by_role("button", name="Forget this phone's scoring code").click()
    expect(page.locator("#access-status")).to_contain_text("scan the QR code")
    assert page.evaluate(f"localStorage.getItem('tricktable:table:{match.table_id}:token')") is None


def test_a_signed_in_director_scores_without_a_card(page, live_server):
    """A director's session is enough (the API checks the CSRF token the page sends), and the
    director's hand is confirmed at once."""
    director = make_director("td")
    match = make_match(director)
    client = Client()
    client.force_login(director.user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/table/{match.table_id}/")
    expect(page.locator("#access-status")).to_have_text(
        "You are signed in as a director: hands you enter are confirmed."
    )
    enter_spades_hand_1(page)  # a director says no side and types no PIN: sent
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored and confirmed.")
    version = HandSubmission.objects.get()
    assert (version.status, version.source) == ("confirmed", "director")


def test_a_solo_whist_contract_is_entered_as_the_auctions_outcome(
    page, live_server, screenshot, accessibility
):
    director = make_director("td")
    match = make_match(
        director, game="solo-whist", rules="phillips", fmt="individual", confirmation="same-phone"
    )  # about the contract, not the PIN
    open_table(page, live_server, match, director)
    page.get_by_label("Who deals the first hand?").select_option("W")
    # the contract, its declarer, the named trumps, the turned card (7♣), the declarer's tricks
    tap(page, "Abundance", "E Player E", "♥ Hearts", "7", "♣ Clubs", "10")
    check_score(page)
    preview = page.locator("#preview")
    expect(preview).to_contain_text("E: Abundance ♥ Hearts")
    expect(preview).to_contain_text("E +10½")  # 3 + 1/2 from each of three: the engine's
    screenshot(page, "scoring-solo")
    assert accessibility(page) == []
    send(page, 1, side="N", click=False)
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored")
    decision = page.locator("form.decide[data-number='1']")
    decision.get_by_label("Who is answering?").select_option("S")
    decision.get_by_role("button", name="Confirm hand 1").click()
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    version = HandSubmission.objects.get()
    assert version.result["contract"] == {"bid": "abundance", "declarer": "E", "trump": "H"}
    assert version.decided_side == "S" and version.record["turned"] == "7C"


def test_a_whist_hand_with_honours_and_a_revoke(page, live_server, screenshot, accessibility):
    director = make_director("td")
    match = make_match(director, game="whist", rules="short-whist")
    open_table(page, live_server, match, director)
    full_form(page)  # a revoke: in the full form (open, the pad's last answer does not send)
    tap(page, "♠ Spades", "8", "N/S held three")
    expect(page.get_by_role("spinbutton", name="E/W", exact=True)).to_have_value("5")
    page.get_by_text("Revokes (if any)").click()
    page.get_by_role("button", name="One more: Revokes by E", exact=True).click()
    page.get_by_role("radio", name="Added to the other side's score").check()
    check_score(page)
    # revoke first (+3 to N/S), then 2 for the tricks and 2 for honours: 7, game to N/S
    expect(page.locator("#preview")).to_contain_text("N/S +")
    screenshot(page, "scoring-whist")
    assert accessibility(page) == []
    send(page, 1, pin=side_pin(match, "EW"))
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored")
    version = HandSubmission.objects.get()
    assert version.raw == {
        "dealer": "N",
        "trump": "S",
        "tricks": {"NS": 8, "EW": 5},
        "honours": {"NS": 3, "EW": 1},
        "revokes": [{"seat": "E", "count": 1}],
        "penalty": "transfer",
    }
    assert version.submitted_side == "EW"


def test_the_solo_auctions_the_page_writes_are_legal_for_every_seat(page, live_server):
    director = make_director("td")
    match = make_match(director, game="solo-whist", rules="phillips", fmt="individual")
    open_table(page, live_server, match, director)
    cases = []
    for dealer, declarer, other in itertools.product("NESW", repeat=3):
        if declarer == other:
            continue
        cases.append({"dealer": dealer, "bid": "prop", "declarer": declarer, "partner": other})
        cases.append(
            {
                "dealer": dealer,
                "bid": "abundance-in-trumps",
                "declarer": declarer,
                "overcalled": other,
            }
        )
    for dealer, declarer, bid in itertools.product("NESW", "NESW", ("solo", "misere")):
        cases.append({"dealer": dealer, "bid": bid, "declarer": declarer})
    auctions = page.evaluate(
        """async cases => {
            const {soloCalls} = await import('/static/js/scoring.js');
            const left = {N: 'E', E: 'S', S: 'W', W: 'N'};
            return cases.map(c => {
                const order = [];
                let seat = left[c.dealer];
                while (order.length < 4) { order.push(seat); seat = left[seat]; }
                return soloCalls(order, c);
            });
        }""",
        cases,
    )
    for case, calls in zip(cases, auctions, strict=True):
        record = {
            "format": "hand/1",
            "dealer": case["dealer"],
            "calls": calls,
            "turned": "2H",
            "tricks": {"N": 4, "E": 3, "S": 3, "W": 3},
        }
        if case["bid"] == "misere":
            record["tricks"] = dict.fromkeys("NESW", 3) | {case["declarer"]: 4}
        result = check_hand(record, rules="phillips", game="solo-whist")
        assert result["ok"], (case, json.dumps(calls), result)
        contract = result["contract"]
        assert contract["bid"] == ("prop" if case["bid"] == "prop" else case["bid"])
        side = {contract["declarer"], contract.get("partner")} - {None}
        assert side == {case["declarer"], case.get("partner")} - {None}


def test_the_page_speaks_japanese(page, live_server, screenshot):
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    with page.expect_navigation():
        page.get_by_role("button", name="日本語").click()
    assert page.locator("html").get_attribute("lang") == "ja"
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    # the code stayed on the phone without the fragment: the table can still score
    expect(page.locator("#entry")).to_be_visible()
    assert page.locator("#scoring-strings").count() == 1
    screenshot(page, "scoring-spades-ja")


@pytest.mark.parametrize(
    ("rules", "fmt", "size", "fill", "tricks", "calls"),
    [
        pytest.param(
            "pagat-1996",
            "progressive",
            4,
            [
                ("N/S: the side's bid (agreed together)", "5"),
                ("W: nil?", "nil"),
                ("E/W: the side's bid (agreed together)", "4"),
            ],
            {"N": 3, "E": 4, "S": 3, "W": 3},
            [
                {"seat": "W", "call": "nil"},
                {"side": "EW", "call": "4"},
                {"side": "NS", "call": "5"},
            ],
            id="bids-by-consultation",
        ),
        pytest.param(
            {"preset": "pagat-barmore", "options": {"blind_bid_behind": 0}},
            "progressive",
            4,
            [
                ("N/S: blind bid (before looking at the cards)", "blind-7"),
                ("E Player E", "3"),
                ("W Player W", "4"),
            ],
            {"N": 4, "E": 3, "S": 3, "W": 3},
            [
                {"side": "NS", "call": "blind-7"},
                {"seat": "E", "call": "3"},
                {"seat": "W", "call": "4"},
            ],
            id="a-side-bids-blind",
        ),
        pytest.param(
            {"preset": "pagat-3p", "options": {"blind_bid_behind": 0}},
            "individual",
            3,
            [("E Player E", "5"), ("S Player S", "6"), ("N Player N", "blind-6")],
            {"N": 6, "E": 5, "S": 6},
            [
                {"seat": "E", "call": "5"},
                {"seat": "S", "call": "6"},
                {"seat": "N", "call": "blind-6"},
            ],
            id="three-players",
        ),
        pytest.param(
            {
                "preset": "standard",
                "options": {"players": 2, "partnership": False, "two_player_deal": "dummy"},
            },
            "swiss",
            2,
            [("S Player S", "6"), ("N Player N", "5")],
            {"N": 5, "E": 4, "S": 8},
            [{"seat": "S", "call": "6"}, {"seat": "N", "call": "5"}],
            id="two-players-and-a-dummy",
        ),
    ],
)
def test_spades_variants_build_the_calls_their_rules_expect(
    page, live_server, rules, fmt, size, fill, tricks, calls
):
    director = make_director("td")
    match = seated_match(director, rules=rules, fmt=fmt, table_size=size)
    open_table(page, live_server, match, director)
    full_form(page)
    for label, call in fill:
        page.get_by_role("combobox", name=label, exact=True).select_option(call)
    for seat, taken in tricks.items():
        page.locator(f"input[data-kind=tricks][data-key={seat}]").fill(str(taken))
    for hidden in set("NESW") - set(tricks):  # seats not at this table (or not the dummy's)
        expect(page.locator(f".stepper[data-row-key={hidden}]")).to_be_hidden()
    check_score(page)
    first = page.locator("#side-keys button").first.get_attribute("data-send-side")
    send(page, 1, pin=side_pin(match, first))  # the PIN says which side
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored")
    version = HandSubmission.objects.get()
    assert version.raw == {"dealer": "N", "calls": calls, "tricks": tricks}

"""A scoring phone that survives the club's Wi-Fi, in real Chromium (docs/scoring-offline.md):
hands entered offline wait on the phone, outlive the closed page, are sent once each (with their
idempotency keys) when the page is opened again from the table card, and the other side confirms
them; the page says plainly that hands are kept on the phone. Where the site runs over HTTPS, a
service worker lets the page reload offline and keeps nothing of the API or the scoring code."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_scoring import UUID, stored_queue
from tests.pages.test_scoring_offline import SCORING_MODULES
from tests.tournaments.builders import (
    HAND_1,
    HAND_2,
    make_director,
    make_match,
    scorer,
    side_pin,
)
from tournaments import services
from tournaments.models import Hand, HandSubmission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEAMS = {"N": "Aiko & Ben", "S": "Aiko & Ben", "E": "Chika & Dan", "W": "Chika & Dan"}
OFFLINE_EN = "No connection: hands are kept on this phone and sent when the Wi-Fi returns."
OFFLINE_JA = (
    "接続がありません。ハンドはこのスマートフォンに保存され、Wi-Fi が戻ったら送信されます。"
)
SHOTS = Path(os.environ.get("TRICKTABLE_OFFLINE_SHOTS", "/tmp/shots-offline"))


def card_url(live_server, match, director) -> str:
    """The address the table card's QR code carries: the scoring code in the fragment."""
    _, secret = services.issue_table_token(table=match.table, actor=director)
    return live_server.url + services.scoring_path(match.table, secret)


def open_card(page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")


def full_form(page) -> None:
    """The hand's full form under the pad (each seat's tricks, as the builders' records say)."""
    page.locator("#every-detail").evaluate("details => { details.open = true; }")


def send(page, *, side: str | None = None, pin: str | None = None) -> None:
    """Send; the first time in a match, which side sends (same-phone) or its PIN (PIN mode)."""
    page.locator("#submit-button").click()
    if side:
        page.locator(f"#side-keys [data-send-side='{side}']").click()
    for digit in pin or "":
        page.locator("#credential [data-keypad]").locator(f"[data-key='{digit}']").click()


def enter_spades(page, record: dict) -> None:
    """A Spades hand of the builders, entered as its facts: the bids, the tricks."""
    full_form(page)
    for call in record["calls"]:
        seat = call["seat"]
        page.get_by_role("combobox", name=f"{seat} {TEAMS[seat]}", exact=True).select_option(
            call["call"]
        )
    for seat, tricks in record["tricks"].items():
        page.get_by_role("spinbutton", name=f"{seat} {TEAMS[seat]}", exact=True).fill(str(tricks))
    expect(page.locator(".tricks-group [data-sum]")).to_have_text("Total 13 of 13")


def test_hands_queued_offline_outlive_the_closed_page_and_are_stored_once_then_confirmed(
    page, another_page, live_server, live_in_process
):
    director = make_director("td")
    match = make_match(director, confirmation="same-phone")  # about the queue, not the PIN
    url = card_url(live_server, match, director)
    context = page.context
    open_card(page, url)
    expect(page.locator("#access-status")).to_have_text("This phone scores for this table.")
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()

    context.set_offline(True)
    expect(banner).to_have_text(OFFLINE_EN)
    enter_spades(page, HAND_1)
    expect(page.locator("#preview")).to_contain_text("The server cannot be reached")
    send(page, side="NS")
    expect(page.locator("#submit-status")).to_contain_text("hand 1 is queued on this phone")

    # the next hand follows the queued one: hand 2, dealt by E (the engine's rotation)
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    expect(page.locator("#entry-dealer")).to_have_text("Dealer: E — Chika & Dan")
    enter_spades(page, HAND_2)
    expect(page.locator("#preview")).to_contain_text(
        "The rules engine checks this hand when it is sent"
    )
    send(page)  # the side was said once this match
    expect(page.locator("#submit-status")).to_contain_text(
        "Hand 2 is queued on this phone: it is sent after the hands queued before it."
    )
    queued = page.locator("#queued-hands li")
    expect(queued).to_have_count(2)
    expect(queued.nth(0)).to_contain_text("Hand 1, dealt by N")
    expect(queued.nth(1)).to_contain_text("Hand 2, dealt by E")
    expect(queued.nth(0)).to_contain_text("Kept on this phone")
    expect(queued.nth(1)).to_contain_text("Kept on this phone")
    first, second = stored_queue(page, match)
    assert (first["number"], first["record"]) == (1, HAND_1)
    assert (second["number"], second["record"]) == (2, HAND_2)
    assert UUID.match(first["key"]) and UUID.match(second["key"]) and first["key"] != second["key"]
    assert not Hand.objects.exists()

    page.close()  # the phone's browser is closed while the Wi-Fi is down
    context.set_offline(False)

    # reopened from the card: the queue was on the phone all along
    phone = context.new_page()
    held = []  # the first send is held back a moment, to see what the page shows on opening

    def hold_first(route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    phone.route(re.compile(rf"/api/v1/matches/{match.pk}/hands$"), hold_first)
    open_card(phone, url)
    queued = phone.locator("#queued-hands li")
    expect(queued).to_have_count(2)
    expect(queued.nth(0)).to_contain_text("Hand 1, dealt by N")
    expect(queued.nth(0)).to_contain_text("Sending…")
    expect(queued.nth(1)).to_contain_text("Hand 2, dealt by E")
    expect(queued.nth(1)).to_contain_text("Kept on this phone")
    expect(phone.locator("#offline-banner")).to_be_hidden()
    assert len(held) == 1 and held[0].request.headers["idempotency-key"] == first["key"]
    held[0].continue_()

    expect(phone.locator("#submit-status")).to_contain_text("Queued hand 2 was sent and stored.")
    expect(phone.locator("#queue")).to_be_hidden()
    assert stored_queue(phone, match) == []
    for number in (1, 2):
        expect(phone.locator(f"tr.hand[data-hand='{number}']")).to_have_attribute(
            "data-status", "pending"
        )
    expect(phone.get_by_role("heading", name="Enter hand 3")).to_be_visible()

    # each hand stored exactly once, under the key it was queued with
    assert Hand.objects.filter(match=match).count() == 2
    versions = list(HandSubmission.objects.filter(hand__match=match).order_by("hand__number"))
    assert [
        (v.hand.number, v.version, v.idempotency_key, v.raw, v.submitted_side) for v in versions
    ] == [(1, 1, first["key"], HAND_1, "NS"), (2, 1, second["key"], HAND_2, "NS")]

    # the other side confirms both on its own phone, from the same card
    other = another_page()
    open_card(other, url)
    for number in (1, 2):
        decision = other.locator(f"form.decide[data-number='{number}']")
        expect(decision).to_contain_text("E/W: check the hand, then confirm or reject it.")
        decision.get_by_role("button", name=f"Confirm hand {number}").click()
        expect(other.locator(f"tr.hand[data-hand='{number}']")).to_have_attribute(
            "data-status", "confirmed"
        )
    # and the first phone follows without a reload (the event stream)
    for number in (1, 2):
        expect(phone.locator(f"tr.hand[data-hand='{number}']")).to_have_attribute(
            "data-status", "confirmed"
        )
    expect(phone.locator("form.decide")).to_have_count(0)
    versions = list(HandSubmission.objects.filter(hand__match=match).order_by("hand__number"))
    assert [(v.status, v.decided_side) for v in versions] == [("confirmed", "EW")] * 2
    assert HandSubmission.objects.filter(hand__match=match).count() == 2


@pytest.mark.parametrize(
    ("locale", "lang", "text"), [("en-US", "en", OFFLINE_EN), ("ja-JP", "ja", OFFLINE_JA)]
)
def test_offline_the_page_says_hands_are_kept_on_the_phone(
    page, another_page, live_server, locale, lang, text, accessibility
):
    director = make_director("td")
    match = make_match(director)
    phone = another_page(locale=locale)
    open_card(phone, card_url(live_server, match, director))
    assert phone.locator("html").get_attribute("lang") == lang
    banner = phone.locator("#offline-banner")
    expect(banner).to_be_hidden()
    phone.context.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_have_text(text)
    expect(banner).to_have_attribute("role", "status")
    enter_spades_any_language(phone)
    send(phone, pin=side_pin(match, "NS"))
    expect(phone.locator("#queued-hands li")).to_have_count(1)
    expect(phone.locator("#queued-hands li .badge-queued")).to_be_visible()
    assert accessibility(phone) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.evaluate("window.scrollTo(0, 0)")
    phone.screenshot(path=str(SHOTS / f"scoring-offline-{lang}.png"))
    phone.locator("#queue").scroll_into_view_if_needed()
    phone.screenshot(path=str(SHOTS / f"scoring-offline-queue-{lang}.png"))
    phone.context.set_offline(False)
    expect(banner).to_be_hidden()
    expect(phone.locator("#queue")).to_be_hidden()
    assert HandSubmission.objects.filter(hand__match=match).count() == 1


def enter_spades_any_language(page) -> None:
    """HAND_1 through the form's own controls (no labels: the page may speak Japanese)."""
    full_form(page)
    for call in HAND_1["calls"]:
        page.locator(f"[data-bid-seat='{call['seat']}']").select_option(call["call"])
    for seat, tricks in HAND_1["tricks"].items():
        page.locator(f"input[data-kind='tricks'][data-key='{seat}']").fill(str(tricks))


CACHED = """async () => {
    const found = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            const response = await cache.match(request);
            found.push([new URL(request.url).pathname, await response.text()]);
        }
    }
    return found;
}"""


def test_over_https_a_service_worker_lets_the_page_reload_offline(page, live_server, settings):
    """The worker needs a secure context: the live server's http://localhost is one, and
    PUBLIC_URL says the site runs over HTTPS, so the page offers its worker."""
    settings.PUBLIC_URL = "https://club.example"
    director = make_director("td")
    match = make_match(director)
    _, secret = services.issue_table_token(table=match.table, actor=director)
    url = live_server.url.replace("127.0.0.1", "localhost") + services.scoring_path(
        match.table, secret
    )
    open_card(page, url)
    assert page.evaluate("window.isSecureContext")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page_path = f"/table/{match.table_id}/"
    for _ in range(50):  # the worker keeps the page it did not see load
        if any(path == page_path for path, _body in page.evaluate(CACHED)):
            break
        page.wait_for_timeout(100)
    kept = page.evaluate(CACHED)
    assert sorted(path for path, _body in kept) == sorted(
        [page_path, "/static/css/scoring.css", "/static/js/scoring.js", *SCORING_MODULES]
    )
    # nothing of the API, the hands fragment, the token probe or the scoring code
    assert all(secret not in body for _path, body in kept)
    (html,) = [body for path, body in kept if path == page_path]
    rendered = int(re.search(r'"renderedAt": (\d+)', html).group(1))

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    again = page.evaluate(
        "JSON.parse(document.getElementById('scoring-config').textContent).renderedAt"
    )
    assert again == rendered  # the kept copy, not a new rendering
    expect(page.locator("#offline-banner")).to_have_text(OFFLINE_EN)
    expect(page.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    enter_spades(page, HAND_1)
    send(page, pin=side_pin(match, "NS"))
    expect(page.locator("#queued-hands li")).to_have_count(1)

    page.context.set_offline(False)
    expect(page.locator("#queue")).to_be_hidden()
    assert HandSubmission.objects.filter(hand__match=match).count() == 1
    assert all(
        not path.startswith("/api/") and "hands" not in path and "token" not in path
        for path, _body in page.evaluate(CACHED)
    )


def test_a_stream_the_browser_gives_up_on_is_opened_again_and_the_list_follows(
    page, live_server, live_in_process
):
    """An error answer makes the browser close an event stream for good; the page opens it
    again after a wait, and a hand entered on another phone then shows without a reload."""
    director = make_director("td")
    match = make_match(director)
    events = re.compile(r"/api/v1/tournaments/[^/]+/events")
    refused = []

    def refuse_twice(route) -> None:
        if len(refused) < 2:
            refused.append(route.request.url)
            route.fulfill(status=503, body="")
        else:
            route.continue_()

    page.route(events, refuse_twice)
    page.clock.install()  # Playwright's fake timers: the waits pass when the test says
    open_card(page, card_url(live_server, match, director))
    root = page.locator("#scoring")
    expect(root).to_have_attribute("data-stream", "waiting")

    def refusals(count: int) -> None:
        """Wait until the stream was refused `count` times (or more: the fake clock also runs
        on in real time, so on a loaded machine the next try may already have come)."""
        for _ in range(100):  # the route handler runs while Playwright waits
            if len(refused) >= count:
                break
            page.wait_for_timeout(50)
        assert len(refused) >= count

    refusals(1)
    # opened again after 2 s, refused again, then after 4 s more it gets through (the fake
    # clock also runs on in real time: the test skips the waits, it does not time them)
    page.clock.run_for(2_100)
    refusals(2)
    expect(root).to_have_attribute("data-stream", "waiting")
    page.clock.run_for(4_100)
    expect(root).to_have_attribute("data-stream", "open")
    assert len(refused) == 2

    page.evaluate("window.__sameDocument = true")
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "pending")
    assert page.evaluate("window.__sameDocument") is True  # no reload

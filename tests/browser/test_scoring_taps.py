"""A hand in a few taps (issue 28, item 4): on a phone at 390 x 844, a typical hand of each game
is entered and sent, and the other side confirms, counting every tap, every typed character and
every scroll. A count above the game's bar (docs/scoring.md, "Taps per hand") fails; so does any
typing or scrolling, and any target tapped smaller than 44 px.

    .venv/bin/pytest -p no:cacheprovider -q -n 0 -s tests/browser/test_scoring_taps.py

prints each game's counts (-s)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import sizes
from tests.browser.test_scoring import open_table
from tests.conftest import ARTIFACTS
from tests.tournaments.builders import make_director, make_match, side_pin
from tournaments import gameplay, services
from tournaments.models import Entry, HandSubmission, Match, Player, Round, Seat, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Counting in the page: trusted clicks (a tap is a click), typed characters, scrolling (the
#: window's or any element's), and the smallest side of each tapped target.
COUNTER = """() => {
  const seen = window.__taps = {taps: 0, typed: 0, scrolls: 0, small: []};
  document.addEventListener('click', event => {
    if (!event.isTrusted) return;
    seen.taps += 1;
    const target = event.target.closest('button, summary, label, select, input, a') || event.target;
    const box = target.getBoundingClientRect();
    const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
    const what = `${target.tagName} ${target.textContent.trim().slice(0, 20)}`;
    if (Math.min(box.width, box.height) < 44) seen.small.push(`${what} ${size}`);
  }, true);
  document.addEventListener('keydown', event => {
    if (event.key.length === 1) seen.typed += 1;
  }, true);
  document.addEventListener('scroll', () => { seen.scrolls += 1; }, true);
}"""


def phone_shot(page, name: str) -> None:
    """What the phone shows, no more: the 390 x 844 viewport (the `screenshot` fixture takes
    the whole page), saved where screenshots are wanted (tests/sizes.py)."""
    if sizes.screenshots():
        (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "screenshots" / f"{name}.png"))


def counting(page) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate(COUNTER)


def counted(page) -> dict:
    return page.evaluate("window.__taps")


def tap_pad(page, *values: str) -> None:
    for value in values:
        page.locator("#pad-keys").get_by_role("button", name=value, exact=True).click()


def send(page, number: int) -> None:
    page.get_by_role("button", name=f"Send hand {number}").click()


def pin_in(page, scope, pin: str) -> None:
    keypad = page.locator(f"{scope} [data-keypad]")
    for digit in pin:
        keypad.get_by_role("button", name=digit, exact=True).click()


def stored(number: int) -> HandSubmission:
    expect_count = HandSubmission.objects.filter(hand__number=number)
    assert expect_count.exists()
    return expect_count.get()


def report(name: str, seen: dict, bar: int) -> None:
    taps, typed, scrolls = seen["taps"], seen["typed"], seen["scrolls"]
    print(f"\n{name}: {taps} taps (bar {bar}), {typed} typed, {scrolls} scrolls")
    assert seen["typed"] == 0 and seen["scrolls"] == 0, seen
    assert seen["small"] == [], seen["small"]
    assert seen["taps"] <= bar, seen


def wait_stored(page, number: int) -> None:
    expect(page.locator(f"tr.hand[data-hand='{number}']")).to_be_visible()


def seated(director, *, game: str, rules, fmt: str, table_size: int, confirmation="pin") -> Match:
    tournament = services.create_tournament(
        actor=director,
        name="Taps",
        game=game,
        rules=rules,
        format=fmt,
        rounds=1,
        table_size=table_size,
        confirmation=confirmation,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    match = Match.objects.create(round=round_, table=Table.objects.create(round=round_, number=1))
    shape = gameplay.layout(game, tournament.rules)
    for seat in shape.seats:
        side = next(side for side in shape.sides if seat in side)
        entry = Entry.objects.create(
            tournament=tournament, player=Player.objects.create(name=f"Player {seat}")
        )
        Seat.objects.create(match=match, entry=entry, side=side, seats=seat)
    return match


def test_partnership_spades_a_hand_in_seven_taps_a_nil_in_eleven_a_pin_and_two(
    page, live_server, screenshot
):
    director = make_director("td")
    match = make_match(director)  # PIN mode
    open_table(page, live_server, match, director)

    # Hand 1, and once a match: which side this phone sends for, and its PIN
    counting(page)
    tap_pad(page, "4", "3", "7", "6", "3", "4")  # E 4, S 3, W 7, N 6; N took 3, E 4
    expect(page.locator("#pad-prompt")).to_have_text("Tricks won by S Aiko & Ben")
    phone_shot(page, "phone-spades-hand-en")
    tap_pad(page, "3")  # S 3 (W's 3 filled in): the last answer sends, then the PIN once a match
    expect(page.locator("#preview")).to_contain_text("N/S +60 · E/W +70")  # live, no check step
    expect(page.locator("#credential-prompt")).to_contain_text("PIN")
    phone_shot(page, "phone-spades-pin-once-en")
    pin_in(page, "#credential", side_pin(match, "NS"))
    wait_stored(page, 1)
    report("spades hand 1 (with the PIN, once a match)", counted(page), 7 + 4)
    # the record says what the table counted, seat by seat: no count invented for a partner
    assert stored(1).raw["tricks"] == {"N": 3, "E": 4, "S": 3, "W": 3}

    # the other side confirms: its PIN on the keypad and one tap
    counting(page)
    decision = page.locator("form.decide[data-number='1']")
    phone_shot(page, "phone-spades-awaiting-en")
    decision.get_by_role("button", name="Confirm hand 1").click()
    phone_shot(page, "phone-spades-confirm-en")
    pin_in(page, "form.decide[data-number='1']", side_pin(match, "EW"))
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    report("spades confirmation", counted(page), 4 + 2)

    # Hand 2, the typical hand: four bids and three seats' tricks, the last of which sends (the
    # PIN is remembered)
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    counting(page)
    tap_pad(page, "3", "4", "4", "5", "2", "3")  # S 3, W 4, N 4, E 5; N took 2, E 3
    screenshot(page, "taps-spades")
    # the phone's hands table fits the screen: no status cut ("Awaiting confirma…")
    fits = page.evaluate(
        """() => [...document.querySelectorAll('.hands-table .badge')].every(
            badge => badge.scrollWidth <= badge.clientWidth + 1
                && badge.getBoundingClientRect().right <= window.innerWidth)"""
    )
    assert fits
    tap_pad(page, "4")  # S took 4 (W's 4 filled in): sent
    wait_stored(page, 2)
    report("spades typical hand", counted(page), 7)
    assert stored(2).raw["calls"] == [
        {"seat": "S", "call": "3"},
        {"seat": "W", "call": "4"},
        {"seat": "N", "call": "4"},
        {"seat": "E", "call": "5"},
    ]
    assert stored(2).raw["tricks"] == {"N": 2, "E": 3, "S": 4, "W": 4}

    # Hand 3 with a nil: the tricks seat by seat, the last seat filled in
    expect(page.get_by_role("heading", name="Enter hand 3")).to_be_visible()
    counting(page)
    tap_pad(page, "Nil", "4", "3", "5", "0", "4")  # W nil, N 4, E 3, S 5; N 0, E 4
    phone_shot(page, "phone-spades-nil-en")
    tap_pad(page, "4")  # S 4, W's 5 filled in: sent
    wait_stored(page, 3)
    report("spades hand with a nil", counted(page), 11)
    assert stored(3).raw["tricks"] == {"N": 0, "E": 4, "S": 4, "W": 5}


def test_cutthroat_spades_counts_tricks_on_a_grid_not_by_plus_taps(page, live_server):
    director = make_director("td")
    match = seated(
        director,
        game="spades",
        rules="network-spades",
        fmt="individual",
        table_size=4,
        confirmation="same-phone",
    )
    open_table(page, live_server, match, director)
    counting(page)
    tap_pad(page, "3", "4", "2", "3")  # bids E, S, W, N
    tap_pad(page, "3", "4", "2")  # tricks N, E, S (W's 4 filled in): the last one sends
    page.locator("#side-keys [data-send-side='N']").click()  # once a match: who sends
    wait_stored(page, 1)
    report("cutthroat spades hand 1", counted(page), 9)  # 8: 4 bids, 3 counts, who sends
    assert stored(1).raw["tricks"] == {"N": 3, "E": 4, "S": 2, "W": 4}


def test_whist_trumps_and_tricks(page, live_server, screenshot):
    director = make_director("td")
    match = make_match(director, game="whist", rules="short-whist", confirmation="same-phone")
    open_table(page, live_server, match, director)
    counting(page)
    tap_pad(page, "♠ Spades", "8")  # E/W's 5 tricks filled in
    phone_shot(page, "phone-whist-en")
    tap_pad(page, "N/S held three")  # the last answer sends: once a match, who sends
    expect(page.locator("#preview")).to_contain_text("N/S +")
    page.locator("#side-keys [data-send-side='EW']").click()
    wait_stored(page, 1)
    report("whist hand 1 (who sends, once a match)", counted(page), 5)
    raw = stored(1).raw
    assert raw["tricks"] == {"NS": 8, "EW": 5} and raw["honours"] == {"NS": 3, "EW": 1}


def test_solo_whist_contract_declarer_turned_card_tricks(page, live_server, screenshot):
    director = make_director("td")
    match = make_match(
        director, game="solo-whist", rules="phillips", fmt="individual", confirmation="same-phone"
    )
    open_table(page, live_server, match, director)
    counting(page)
    tap_pad(page, "Solo", "E Player E", "7", "♣ Clubs")
    phone_shot(page, "phone-solo-whist-tricks-en")
    tap_pad(page, "5")  # E's solo, 7♣ turned, E took 5: sent (once a match: who sends)
    expect(page.locator("#preview")).to_contain_text("E: Solo")
    phone_shot(page, "phone-solo-whist-en")
    page.locator("#side-keys [data-send-side='N']").click()
    wait_stored(page, 1)
    report("solo whist hand 1 (who sends, once a match)", counted(page), 7)
    raw = stored(1).raw
    # the spec's summary record: the declaring side's tricks, and nothing about each defender
    assert raw["turned"] == "7C" and raw["tricks"] == {"E": 5}
    assert stored(1).record["tricks"] == {"E": 5}

    # the table answers hand 1 (S, neither the declarer nor the one who sent it), then hand 2
    # (E deals): N proposes, W accepts; the pair's 9 tricks are one count, not split
    page.locator("form.decide[data-number='1']").get_by_role(
        "button", name="Confirm hand 1"
    ).click()
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    expect(page.get_by_role("heading", name="Enter hand 2")).to_be_visible()
    counting(page)
    tap_pad(page, "Proposal and acceptance", "N Player N", "W Player W", "2", "♥ Hearts", "9")
    wait_stored(page, 2)
    report("solo whist hand 2, proposal and acceptance", counted(page), 7)
    assert stored(2).raw["tricks"] == {"NW": 9}
    facts = page.locator("tr.hand[data-hand='2'] + tr.facts-row")
    expect(facts).to_contain_text("Tricks: N+W 9")


def test_german_whist_one_count(page, live_server, screenshot):
    director = make_director("td")
    match = seated(
        director,
        game="german-whist",
        rules="standard",
        fmt="swiss",
        table_size=2,
        confirmation="same-phone",
    )
    open_table(page, live_server, match, director)
    counting(page)
    first = page.locator("#pad-keys")
    expect(first).to_be_visible()
    tap_pad(page, "8")  # the last answer sends (once a match: who sends)
    phone_shot(page, "phone-german-whist-en")
    page.locator("#side-keys button").first.click()
    wait_stored(page, 1)
    report("german whist hand 1 (who sends, once a match)", counted(page), 3)
    assert sorted(stored(1).raw["tricks"].values()) == [5, 8]


def test_in_japanese_the_pad_takes_a_hand_in_the_same_taps(page, live_server):
    """The same typical Spades hand on a phone in Japanese: the same taps, nothing typed, no
    scrolling, and the pad's words in Japanese."""
    director = make_director("td")
    match = make_match(director)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    open_table_ja(page, live_server, match, director)
    counting(page)
    tap_pad(page, "4", "3", "7")
    phone_shot(page, "phone-spades-bids-ja")
    tap_pad(page, "6", "3", "4")
    phone_shot(page, "phone-spades-hand-ja")
    tap_pad(page, "3")  # the last answer sends
    expect(page.locator("#preview")).to_contain_text("N/S +60")
    expect(page.locator("#credential-prompt")).to_contain_text("PIN")
    phone_shot(page, "phone-spades-pin-once-ja")
    pin_in(page, "#credential", side_pin(match, "NS"))
    wait_stored(page, 1)
    report("spades hand 1 in Japanese (with the PIN, once a match)", counted(page), 7 + 4)
    counting(page)
    page.locator("form.decide[data-number='1'] button[data-action=confirm]").click()
    phone_shot(page, "phone-spades-confirm-ja")
    pin_in(page, "form.decide[data-number='1']", side_pin(match, "EW"))
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    report("spades confirmation in Japanese", counted(page), 4 + 2)
    phone_shot(page, "phone-spades-next-ja")


def open_table_ja(page, live_server, match, director) -> None:
    _, secret = services.issue_table_token(table=match.table, actor=director)
    page.goto(live_server.url + services.scoring_path(match.table, secret))
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    assert page.locator("html").get_attribute("lang") == "ja"


def test_bids_entered_when_made_stay_on_the_phone_until_the_tricks_are_in(
    page, live_server, accessibility
):
    """A bids step, then the play, then the tricks: the bids are kept on the phone (a reload or
    a closed page too), and a chip takes the table back to any answer."""
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    tap_pad(page, "4", "3", "7", "6")  # the bids, as they are made
    expect(page.locator("#pad-prompt")).to_have_text("Tricks won by N Aiko & Ben")
    expect(page.locator("#send-why")).to_have_text("To send it: Tricks won by N Aiko & Ben")
    assert accessibility(page) == []
    page.reload()  # the play: the phone sleeps, the page is opened again
    expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
    expect(page.locator("[data-question='bid:W']")).to_contain_text("7")
    expect(page.locator("#pad-prompt")).to_have_text("Tricks won by N Aiko & Ben")
    page.locator("[data-question='bid:S']").click()  # S said 2, not 3
    expect(page.locator("#pad-prompt")).to_have_text("S Aiko & Ben bids")
    tap_pad(page, "2")
    expect(page.locator("#pad-prompt")).to_have_text(
        "Tricks won by N Aiko & Ben"
    )  # on where it was
    tap_pad(page, "3", "4")
    assert accessibility(page) == []
    tap_pad(page, "3")  # the last count: N/S 6, E/W 7, and the hand is sent (the PIN once)
    expect(page.locator("#preview")).to_contain_text("N/S +60 · E/W +70")
    expect(page.locator("#credential-prompt")).to_contain_text("PIN")
    assert accessibility(page) == []
    pin_in(page, "#credential", side_pin(match, "NS"))
    wait_stored(page, 1)
    assert [call["call"] for call in stored(1).raw["calls"]] == ["4", "2", "7", "6"]
    decision = page.locator("form.decide[data-number='1']")
    decision.get_by_role("button", name="Confirm hand 1").click()
    assert accessibility(page) == []
    # the next hand starts empty: nothing of hand 1's answers is left on the phone
    expect(page.locator("#pad-answers .pad-answer.empty")).not_to_have_count(0)
    kept = page.evaluate(
        f"Object.keys(localStorage).filter(key => key.includes(':pad:{match.pk}:1:'))"
    )
    assert kept == []


def test_a_hand_the_engine_refuses_is_not_sent_by_its_last_answer(page, live_server):
    """The last answer sends only a hand the engine accepts: after another first dealer the
    same bids are in another order, E bids last below its partner's 7, and the last count
    leaves the hand on the phone with the engine's refusal, Send disabled."""
    director = make_director("td")
    match = make_match(director)
    open_table(page, live_server, match, director)
    tap_pad(page, "4", "3", "7", "6", "3", "4")  # dealt by N: E 4, S 3, W 7, N 6; N 3, E 4
    page.get_by_label("Who deals the first hand?").select_option("E")
    expect(page.locator("#pad-prompt")).to_have_text("Tricks won by S Aiko & Ben")
    expect(page.locator("#send-why")).to_have_text("To send it: Tricks won by S Aiko & Ben")
    tap_pad(page, "3")
    # checked in the new order: E now bids last, below its partner's 7 (the engine says so)
    expect(page.locator("#preview [data-code=bid-too-low]")).to_be_visible()
    expect(page.get_by_role("button", name="Send hand 1")).to_be_disabled()
    expect(page.locator("#credential")).to_be_hidden()
    assert not HandSubmission.objects.filter(hand__match=match).exists()


def test_german_whist_all_26_counted_with_pins_one_count_and_a_pin(page, live_server):
    """German Whist as the spec's summary record needs it (each player's tricks of the counted
    phase, here all 26; the winner follows): one count on a pad of 27 keys that fits the
    screen, the other player's derived; in PIN mode the player's PIN once a match, and the
    other player confirms with theirs and one tap."""
    director = make_director("td")
    match = seated(
        director,
        game="german-whist",
        rules={"preset": "standard", "options": {"counted_tricks": "all-26"}},
        fmt="swiss",
        table_size=2,
    )
    open_table(page, live_server, match, director)
    counting(page)
    expect(page.locator("#pad-keys button")).to_have_count(27)  # 0..26, no scrolling
    phone_shot(page, "phone-german-whist-26-en")
    tap_pad(page, "15")  # N took 15 of 26 (S's 11 filled in): sent, then the PIN once
    expect(page.locator("#credential-prompt")).to_contain_text("PIN")
    pin_in(page, "#credential", side_pin(match, "N"))
    wait_stored(page, 1)
    report("german whist (all 26 counted) hand 1 with the PIN", counted(page), 1 + 4)
    assert stored(1).raw["tricks"] == {"N": 15, "S": 11}
    counting(page)
    page.locator("form.decide[data-number='1']").get_by_role(
        "button", name="Confirm hand 1"
    ).click()
    pin_in(page, "form.decide[data-number='1']", side_pin(match, "S"))
    expect(page.locator("tr.hand[data-hand='1']")).to_have_attribute("data-status", "confirmed")
    report("german whist confirmation", counted(page), 4 + 2)

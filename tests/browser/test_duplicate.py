"""A whole duplicate Spades evening in real Chromium: the director creates a Mitchell of three
tables, registers a pair, fixes the movement, prints the boards and the guide cards (with the
tables' codes); three phones score three rounds, the other side confirming each board with its
PIN and seeing no other table's result before the release; the director releases, the ranking
and a traveller show (on a projector too), and the results export. Screenshots at phone,
laptop and projector sizes in English and Japanese; axe-core finds nothing on any page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.conftest import sign_in_browser
from tournaments import services
from tournaments.models import BoardResult, Tournament
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


TRICKS = {1: (3, 4, 3, 3), 2: (4, 3, 3, 3), 3: (3, 3, 2, 5)}  # N E S W, by table


def score_board(phone, pin: str, tricks: tuple[int, ...], ns_pin: str) -> None:
    """NS enters the next board on the pad (everyone bid 3; N's, E's and S's tricks, W's
    derived; the last answer sends) and its PIN on the keypad (once a round: kept after);
    EW confirms with its PIN on the keypad (the fourth digit sends)."""
    form = phone.locator("form.score-form")
    keys = form.locator("[data-pad-keys]")
    for value in ["3"] * 4 + [str(taken) for taken in tricks[:3]]:
        keys.get_by_role("button", name=value, exact=True).click()
    sheet = form.locator("[data-pin-sheet]")
    decide = phone.locator(".dup-decide")
    expect(sheet.or_(decide)).to_be_visible()
    if sheet.is_visible():
        for digit in ns_pin:
            sheet.locator(f".key[data-key='{digit}']").click()
    decide.get_by_role("button", name="Confirm", exact=True).click()
    for digit in pin:
        decide.locator(f".key[data-key='{digit}']").click()
    # the answer replaces the panel: wait for it before touching the next board's form
    phone.get_by_text("awaiting the other side").wait_for(state="detached")


def typed(cards: list[str]) -> str:
    """A hand as a director types it: by suit, tens as 10."""
    return " ".join(
        suit + " " + " ".join("10" if c[0] == "T" else c[0] for c in cards if c[1] == suit)
        for suit in "SHDC"
    )


def test_a_whole_duplicate_evening(page, another_page, live_server, screenshot, accessibility):
    user = get_user_model().objects.create_user("aiko", password="a-long-club-password")
    sign_in_browser(page, live_server, user)
    page.set_viewport_size(LAPTOP)

    # the director creates the event
    page.goto(f"{live_server.url}/director/duplicate/new/")
    page.get_by_label("Name", exact=True).fill("Duplicate Spades")
    page.get_by_label("Game and rules").select_option("spades:standard")
    page.get_by_label("Movement", exact=True).select_option("mitchell")
    page.get_by_label("Tables", exact=True).fill("3")
    page.get_by_label("Boards per round").fill("2")
    page.get_by_label("Deal seed").fill("browser")
    screenshot(page, "duplicate-new-laptop-en")
    assert accessibility(page) == []
    page.get_by_role("button", name="Create the duplicate event").click()

    # pairs: one at the desk through the page, five registered already
    page.get_by_label("Player", exact=True).fill("Aiko Sato")
    tournament = Tournament.objects.get(name="Duplicate Spades")
    page.get_by_label("Partner").fill("Ben Jones")
    page.get_by_role("button", name="Add the pair").click()
    expect(page.get_by_text("Aiko Sato").first).to_be_visible()
    director = Actor(user=user)
    for n in range(2, 7):
        services.register_entry(
            tournament=tournament,
            actor=director,
            players=[f"Player {n}a", f"Player {n}b"],
            name=f"Pair {n}",
        )
    page.reload()

    # the director types board 1 as it came out of the physical board (two cards swapped
    # between North and East): first with East's cards given to North too, then right
    board = tournament.boards.get(number=1)
    north, east = list(board.hands["N"]), list(board.hands["E"])
    north[0], east[0] = east[0], north[0]
    page.get_by_role("link", name="Board 1", exact=True).click()
    expect(page.get_by_role("heading", name="Board 1's deal")).to_be_visible()
    page.get_by_label("North").fill(typed(east))
    page.get_by_label("East").fill(typed(east))
    page.get_by_role("button", name="Replace the deal").click()
    expect(page.get_by_role("alert")).to_contain_text("These cards are given twice")
    screenshot(page, "duplicate-deal-error-laptop-en")
    assert accessibility(page) == []
    page.set_viewport_size(PHONE)
    screenshot(page, "duplicate-deal-error-phone-en")
    page.set_viewport_size(LAPTOP)
    page.get_by_label("North").fill(typed(north))
    page.get_by_role("button", name="Replace the deal").click()
    expect(page.get_by_text("Board 1's deal is saved.")).to_be_visible()
    board.refresh_from_db()
    assert (sorted(board.hands["N"]), board.source) == (sorted(north), "director")

    page.get_by_role("button", name="Number the pairs and fix the movement").click()
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("heading", name=re.compile("Round 1"))).to_be_visible()
    screenshot(page, "duplicate-director-laptop-en")
    assert accessibility(page) == []

    # printing: boards (curtain cards, make-up sheet) and the guide cards with the codes
    page.goto(f"{live_server.url}/director/{tournament.slug}/duplicate/print/boards/")
    expect(page.get_by_role("heading", name="Curtain cards")).to_be_visible()
    assert page.locator(".slip").count() == 6 * 4
    pdf = page.request.get(
        f"{live_server.url}/director/{tournament.slug}/duplicate/print/boards/?format=pdf"
    )
    assert pdf.body().startswith(b"%PDF")
    screenshot(page, "duplicate-boards-laptop-en")
    page.goto(f"{live_server.url}/director/{tournament.slug}/duplicate/print/guide/")
    page.get_by_role("button", name=re.compile("^Print with each table.s phone code")).click()
    expect(page.locator("svg.qr")).to_have_count(3)  # once the new page has come back
    screenshot(page, "duplicate-guide-laptop-en")
    links = [page.locator(".phone-link").nth(i).get_attribute("href") for i in range(3)]

    # three phones, one per table, score three rounds
    phones = [another_page(viewport=PHONE) for _ in range(3)]
    for phone, link in zip(phones, links, strict=True):
        phone.goto(link)
    for number in (1, 2, 3):
        if number > 1:
            page.goto(f"{live_server.url}/director/{tournament.slug}/duplicate/")
            page.get_by_role("button", name=f"Start round {number}").click()
        for table, phone in enumerate(phones, 1):
            phone.goto(f"{live_server.url}/duplicate/{tournament.slug}/table/{table}/")
            phone.get_by_role("heading", name=re.compile(f"Round {number}")).wait_for()
            match = tournament.round_set.get(number=number).matches.get(table__number=table)
            pin = match.seats.get(side="EW").entry.pin
            ns_pin = match.seats.get(side="NS").entry.pin
            if number == 1 and table == 1:
                screenshot(phone, "duplicate-phone-en")
                assert accessibility(phone) == []
            score_board(phone, pin, TRICKS[table], ns_pin)
            score_board(phone, pin, TRICKS[table], ns_pin)
            phone.get_by_text("Every board of this round is scored").wait_for()
            # no peeking: nothing of another table before the release
            expect(
                phone.get_by_text("Other tables' results appear when the director releases them")
            ).to_be_visible()
        page.goto(f"{live_server.url}/director/{tournament.slug}/duplicate/")
        page.get_by_role("button", name=f"Close round {number}").click()
        expect(page.get_by_role("button", name=f"Close round {number}")).to_have_count(0)
    assert BoardResult.objects.filter(status="confirmed", is_current=True).count() == 18

    # before the release the public ranking shows nothing
    spectator = another_page(viewport=LAPTOP)
    spectator.goto(f"{live_server.url}/duplicate/{tournament.slug}/")
    expect(spectator.get_by_text("The director has not released any result yet")).to_be_visible()
    page.get_by_role("button", name="Release results up to round 3").click()
    page.get_by_role("button", name=re.compile("Finish the event")).click()
    expect(page.get_by_role("button", name=re.compile("Finish the event"))).to_have_count(0)

    spectator.reload()
    expect(spectator.get_by_role("table", name="North-South")).to_be_visible()
    expect(spectator.get_by_role("table", name="East-West")).to_be_visible()
    screenshot(spectator, "duplicate-ranking-laptop-en")
    assert accessibility(spectator) == []
    spectator.get_by_role("link", name="Board 1", exact=True).click()
    expect(spectator.get_by_role("table", name="Traveller of board 1")).to_be_visible()
    expect(spectator.get_by_role("group", name="Deal of board 1")).to_be_visible()
    screenshot(spectator, "duplicate-traveller-laptop-en")
    assert accessibility(spectator) == []

    # export
    with spectator.expect_download() as download:
        spectator.goto(f"{live_server.url}/duplicate/{tournament.slug}/")
        spectator.evaluate(
            f"() => {{ const a = document.createElement('a'); a.href = "
            f"'/duplicate/{tournament.slug}/export/csv'; a.download = ''; "
            "document.body.appendChild(a); a.click(); }"
        )
    assert "Pair 2" in Path(download.value.path()).read_text(encoding="utf-8")

    # the projector and the phone in Japanese
    for lang, locale in (("en", "en-US"), ("ja", "ja-JP")):
        screen = another_page(viewport=PROJECTOR, locale=locale)
        screen.goto(f"{live_server.url}/duplicate/{tournament.slug}/?view=projector")
        screenshot(screen, f"duplicate-projector-{lang}")
        assert accessibility(screen) == []
        small = another_page(viewport=PHONE, locale=locale)
        small.goto(f"{live_server.url}/duplicate/{tournament.slug}/deals/")
        screenshot(small, f"duplicate-deals-phone-{lang}")
        assert accessibility(small) == []
    japanese_phone = another_page(viewport=PHONE, locale="ja-JP")
    japanese_phone.goto(links[0])
    japanese_phone.locator("#table-panel").wait_for()
    japanese_phone.wait_for_timeout(300)
    screenshot(japanese_phone, "duplicate-phone-ja")
    laptop_ja = another_page(viewport=LAPTOP, locale="ja-JP")
    sign_in_browser(laptop_ja, live_server, user)
    laptop_ja.goto(f"{live_server.url}/director/{tournament.slug}/duplicate/")
    screenshot(laptop_ja, "duplicate-director-laptop-ja")
    assert accessibility(laptop_ja) == []

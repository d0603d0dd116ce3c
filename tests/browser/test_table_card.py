"""A table card in real Chromium on a phone (390 x 844): the card, printed before the draw, opens
its page before round 1 ("Round 1 starts when the director publishes it"); when the director
publishes round 1 the page shows the table's match and who sits where, and when round 2 is
published it moves to round 2's match by itself, without a reload and without scanning again.
Between rounds it says what comes next; after the event, where the results are. English and
Japanese."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.tournaments.builders import make_director
from tests.tournaments.test_table_cards import play_with_card
from tournaments import services
from tournaments.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def club_night(director, rounds: int = 2):
    tournament = services.create_tournament(
        actor=director,
        name="Card night",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=rounds,
        match_length="hands",
        match_hands=1,
    )
    services.open_registration(tournament=tournament, actor=director)
    for n in range(1, 5):
        services.register_entry(
            tournament=tournament,
            actor=director,
            players=[f"North {n}", f"South {n}"],
            name=f"Team {n}",
        )
    return tournament


def play_round(round_) -> None:
    rng = random.Random(round_.number)
    for match in Match.objects.filter(round=round_, is_bye=False).select_related("table"):
        play_with_card(match, match.table.event_table_id, rng)


def test_the_phone_follows_its_table_from_round_to_round_without_a_reload(
    page, live_server, live_in_process, another_page, screenshot, accessibility
):
    director = make_director()
    tournament = club_night(director)
    printed = services.print_cards(tournament=tournament, numbers=[1, 2], actor=director)
    card, secret = printed[1]
    page.goto(live_server.url + services.card_path(card, tournament, secret))

    status = page.locator("#card-now")
    expect(status).to_contain_text("Round 1 starts when the director publishes it.")
    assert "#" not in page.url  # the secret left the address bar
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()
    expect(page.locator("#card-match")).to_be_hidden()
    expect(page.locator("#card-now")).to_have_attribute("data-live-mode", "sse")
    assert accessibility(page) == []
    screenshot(page, "table-card-before-round-1")
    page.evaluate("window.__marker = 'opened before round 1'")

    first = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=first, actor=director)

    expect(status).to_contain_text("Round 1")
    expect(status).to_contain_text("playing now at this table")
    framed = page.frame_locator("#card-match")
    expect(framed.locator("#scoring")).to_have_attribute("data-ready", "true")
    table_1 = first.tables.get(number=1)
    expect(framed.locator("#scoring")).to_have_attribute("data-table", str(table_1.pk))
    expect(framed.locator("#access-status")).to_have_text("This phone scores for this table.")
    for seat in table_1.match.seats.select_related("entry__team__first"):
        expect(framed.locator(".compass")).to_contain_text(seat.entry.team.first.name)
    expect(framed.locator("header")).to_have_count(0)  # the site's header only once, outside
    assert accessibility(page) == []
    screenshot(page, "table-card-round-1")

    play_round(first)
    services.close_round(round=first, actor=director)
    expect(status).to_contain_text("Round 2 starts when the director publishes it.")
    screenshot(page, "table-card-between-rounds")

    second = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=second, actor=director)

    table_2 = second.tables.get(number=1)
    expect(status).to_contain_text("Round 2")
    expect(framed.locator("#scoring")).to_have_attribute("data-table", str(table_2.pk))
    expect(framed.locator("#scoring")).to_have_attribute("data-ready", "true")
    expect(framed.locator("#access-status")).to_have_text("This phone scores for this table.")
    expect(framed.get_by_role("heading", name="Enter hand 1")).to_be_visible()
    assert page.evaluate("window.__marker") == "opened before round 1"  # never reloaded
    screenshot(page, "table-card-round-2")

    # A Japanese phone opens the same table's card in round 2.
    ja = another_page(locale="ja")
    ja.goto(live_server.url + services.card_path(card, tournament, secret))
    expect(ja.frame_locator("#card-match").locator("#scoring")).to_have_attribute(
        "data-table", str(table_2.pk)
    )
    expect(ja.locator("#card-now")).to_contain_text("このテーブルで対戦中")
    screenshot(ja, "table-card-round-2-ja")

    play_round(second)
    services.close_round(round=second, actor=director)
    expect(status).to_contain_text("The last round is over.")
    expect(ja.locator("#card-now")).to_contain_text("最終ラウンドが終わりました。")
    screenshot(ja, "table-card-last-round-over-ja")

    services.finish_tournament(tournament=tournament, actor=director)
    expect(status).to_contain_text("The event is over.")
    expect(page.get_by_role("link", name="See the results")).to_be_visible()
    expect(ja.locator("#card-now")).to_contain_text("イベントは終了しました。")
    expect(page.locator("#card-match")).to_be_hidden()  # the card no longer scores
    screenshot(page, "table-card-over")
    screenshot(ja, "table-card-over-ja")
    assert page.evaluate("window.__marker") == "opened before round 1"


def test_a_japanese_phone_opened_between_rounds_shows_the_last_match_and_what_comes_next(
    page, live_server, live_in_process, another_page, screenshot
):
    director = make_director()
    tournament = club_night(director, rounds=3)
    printed = services.print_cards(tournament=tournament, numbers=[1, 2], actor=director)
    card, secret = printed[2]
    first = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=first, actor=director)
    play_round(first)
    services.close_round(round=first, actor=director)

    ja = another_page(locale="ja")
    ja.goto(live_server.url + services.card_path(card, tournament, secret))

    expect(ja.locator("#card-now")).to_contain_text(
        "ラウンド 2 はディレクターが公開すると始まります。"
    )
    expect(ja.frame_locator("#card-match").locator("#scoring")).to_have_attribute(
        "data-table", str(first.tables.get(number=2).pk)
    )
    screenshot(ja, "table-card-between-rounds-ja")


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_printing_the_events_cards_once_before_the_draw_in_a_browser(
    browser, live_server, settings, accessibility, screenshot, locale
):
    from tests.conftest import sign_in_browser

    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    director = make_director()
    tournament = club_night(director)
    context = browser.new_context(locale=locale, viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        sign_in_browser(page, live_server, director.user)
        page.goto(f"{live_server.url}/director/{tournament.slug}/print/cards/")
        expect(page.locator("#id_tables")).to_have_value("2")  # four teams, two tables
        expect(page.locator(".phone-address")).to_contain_text("http://192.168.1.20:8000/")
        assert accessibility(page) == []
        screenshot(page, f"table-cards-event-confirm-{locale[:2]}")
        with page.expect_navigation():
            page.locator("#print-all button[value=html]").click()
        expect(page.locator("article.card svg.qr")).to_have_count(2)
        urls = page.locator(".qr-url").all_inner_texts()
        assert all(u.startswith("http://192.168.1.20:8000/table/card/") for u in urls)
        assert accessibility(page) == []
        screenshot(page, f"table-cards-event-{locale[:2]}")
    finally:
        context.close()

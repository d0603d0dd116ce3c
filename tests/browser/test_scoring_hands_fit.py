"""The hands table on a phone at a table of four players (Solo Whist: a score column per seat):
the evening walk (bench/evening_walk.py) found its status column cut at the screen's edge
("Con…"), to be swiped to. The status moves under the hand's scores on a narrow screen, and the
table fits: at 390 px, and at the card page's frame width."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_scoring import open_table
from tests.browser.test_scoring_taps import phone_shot, tap_pad, wait_stored
from tests.tournaments.builders import make_director, make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = """() => {
  const region = document.querySelector('.hands .table-scroll');
  const table = region.querySelector('table');
  const shown = [...document.querySelectorAll('tr.hand .badge, tr.facts-row .badge')]
    .filter(badge => badge.getClientRects().length > 0);
  return {
    overflow: table.scrollWidth - region.clientWidth,
    badges: shown.map(badge => badge.textContent.trim()),
    cut: shown.filter(badge => badge.getBoundingClientRect().right
      > region.getBoundingClientRect().right + 1).length,
  };
}"""


def test_a_table_of_four_shows_each_hands_status_without_a_sideways_swipe(page, live_server):
    director = make_director("td")
    match = make_match(
        director, game="solo-whist", rules="phillips", fmt="individual", confirmation="same-phone"
    )
    open_table(page, live_server, match, director)
    tap_pad(page, "Solo", "E Player E", "7", "♣ Clubs", "5")
    page.locator("#side-keys [data-send-side='N']").click()
    wait_stored(page, 1)
    for width in (390, 340):  # the phone; the card page's frame inside it
        page.set_viewport_size({"width": width, "height": 844})
        seen = page.evaluate(FITS)
        assert seen["overflow"] <= 0 and seen["cut"] == 0, (width, seen)
        assert len(seen["badges"]) == 1 and seen["badges"][0], seen  # one status, shown
    phone_shot(page, "phone-solo-whist-hands-fit-en")
    # a wide screen keeps the status column
    page.set_viewport_size({"width": 1024, "height": 768})
    expect(page.locator("tr.hand[data-hand='1'] .status-col .badge")).to_be_visible()


#: Each header cell of the hands table on one line (a range's client rects: one per line box).
HEADER_LINES = """() => [...document.querySelectorAll('.hands-table thead th')]
  .filter(th => th.getClientRects().length > 0)
  .map(th => {
    const range = document.createRange();
    range.selectNodeContents(th);
    const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
    return [th.textContent.trim(), tops.size];
  })"""


def test_in_japanese_the_headers_stay_whole_and_no_fact_starts_with_a_dot(page, live_server):
    """The walk's phone in Japanese showed "ハン/ド", "ディーラ/ー", "ステータ/ス" broken over two
    lines, and each hand's facts began with a stray "·" (the status hidden before them)."""
    from tests.browser.test_scoring_taps import open_table_ja

    director = make_director("td")
    match = make_match(director, confirmation="same-phone")
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    open_table_ja(page, live_server, match, director)
    tap_pad(page, "3", "3", "3", "3", "3", "4", "3")
    page.locator("#side-keys [data-send-side='NS']").click()
    wait_stored(page, 1)
    for width in (390, 340):
        page.set_viewport_size({"width": width, "height": 844})
        lines = page.evaluate(HEADER_LINES)
        assert lines and all(n == 1 for _, n in lines), (width, lines)
        assert page.evaluate(FITS)["overflow"] <= 0
    facts = page.locator("tr.facts-row").first
    assert not facts.inner_text().strip().startswith("·"), facts.inner_text()
    phone_shot(page, "phone-spades-hands-fit-ja")

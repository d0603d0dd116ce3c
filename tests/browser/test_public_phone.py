"""The public match and round pages on a phone (issue 15 point 8): the match's hand-by-hand
table fits 390 px without sideways scrolling for the key facts (hand, score, running total,
status), and the round page follows new results live, as the standings do."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.tournaments.builders import make_director, make_match
from tournaments.demo import simulate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
PROJECTOR = {"width": 1920, "height": 1080}

#: How much wider than its box the hands table is (0: it fits).
OVERFLOW = """() => {
  const table = document.querySelector('table.hands');
  const box = table.closest('.scroll') || table.parentElement;
  return table.scrollWidth - box.clientWidth;
}"""


def played(hands: int = 4):
    match = make_match(make_director("td"), match_length="hands", match_hands=8)
    rng = random.Random(7)
    for _ in range(hands):
        simulate.play_hand(match, rng, summary=rng.random() < 0.5)
    return match


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_match_page_fits_a_phone_with_the_key_facts_first(
    page, live_server, screenshot, accessibility, language
):
    match = played()
    address = f"{live_server.url}/t/{match.round.tournament.slug}/matches/{match.pk}/"
    if language == "ja":
        page.goto(live_server.url + "/")
        with page.expect_navigation():
            page.get_by_role("button", name="日本語").click()
    page.set_viewport_size(PHONE)
    page.goto(address)
    assert page.evaluate(OVERFLOW) <= 0
    first = page.locator("tbody.hand").first
    for fact in ("th", ".hand-score", ".hand-total", ".badge"):
        box = first.locator(fact).first.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], fact
    suffix = "" if language == "en" else "-ja"
    screenshot(page, f"public-match-phone{suffix}")
    assert accessibility(page) == []
    for name, size in (("laptop", LAPTOP), ("projector", PROJECTOR)):
        page.set_viewport_size(size)
        assert page.evaluate(OVERFLOW) <= 0
        screenshot(page, f"public-match-{name}{suffix}")


def test_the_round_page_follows_results_live(
    page, live_server, live_in_process, screenshot, accessibility
):
    match = make_match(make_director("td"), match_length="hands", match_hands=8)
    page.goto(f"{live_server.url}/t/{match.round.tournament.slug}/rounds/1/")
    source = page.locator("[data-live-events]")
    expect(source).to_have_attribute("data-live-mode", "sse")
    row = page.locator("table.pairings tbody tr").first
    expect(row).not_to_contain_text("awaiting confirmation")

    simulate.play_hand(match, random.Random(3), confirm=False)  # a table enters a hand
    expect(row).to_contain_text("1 hand")  # the stream, no reload
    expect(row).to_contain_text("1 awaiting confirmation")
    simulate.play_hand(match, random.Random(4))  # the other side confirms... and one more
    expect(row).to_contain_text("2 hands")
    screenshot(page, "public-round-live-phone")
    assert accessibility(page) == []

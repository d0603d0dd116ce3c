"""The scoring phone says why the rules engine refuses a hand in the server's sentence, naming the
rule and the number broken (issue 28: "That bid is too low. (N)" said neither), in English and
Japanese, in real Chromium at 390 x 844."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.tournaments.builders import make_director, make_match
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAID = {
    "en-US": "the side's bid is its second bid, which is at least the partner's 4.",
    "ja": "先のパートナーの4以上です。",
}


@pytest.mark.parametrize("locale", ["en-US", "ja"])
def test_a_bid_below_the_partners_is_refused_with_the_rule_and_the_least_bid(
    browser, live_server, locale
):
    director = make_director()
    match = make_match(director)  # the club's standard rules: a side bids its second bid
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        _, secret = services.issue_table_token(table=match.table, actor=director)
        page.goto(live_server.url + services.scoring_path(match.table, secret))
        expect(page.locator("#scoring")).to_have_attribute("data-ready", "true")
        keys = page.locator("#pad-keys")
        for bid in ("3", "4", "2", "3"):  # E, S, W, N from the dealer's left: N 3 under S's 4
            keys.locator(f".pad-key[data-value='{bid}']").click()
        for taken in ("5", "3", "2"):  # N, E, S (W 3): the last answer sends, refused unsent
            keys.locator(f".pad-key[data-value='{taken}']").click()
        expect(page.locator("#preview")).to_contain_text(SAID[locale])
    finally:
        context.close()

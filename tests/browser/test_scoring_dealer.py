"""The first dealer of a later round on the scoring page: the card, the form and the seat
diagram name the same seat (issue 28: round 2's phone said East deals and marked North)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_scoring import open_table
from tests.tournaments.builders import make_director, make_match
from tournaments import gameplay
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("number", [1, 2, 3])
def test_the_seat_diagram_marks_the_rounds_first_dealer(page, live_server, number, screenshot):
    director = make_director("td")
    match = make_match(director)
    Round.objects.filter(pk=match.round_id).update(number=number)
    dealer = gameplay.first_dealer("NESW", number)
    open_table(page, live_server, match, director)
    expect(page.locator("#entry-dealer")).to_contain_text(f"Dealer: {dealer}")
    expect(page.locator("#dealer-choice")).to_have_value(dealer)
    expect(page.locator(f".compass .seat-{dealer}")).to_have_class(re.compile(r"\bdealer\b"))
    expect(page.locator(".compass .seat.dealer")).to_have_count(1)
    expect(page.locator(f".compass .seat-{dealer} .dealer-mark")).to_be_visible()
    screenshot(page, f"scoring-round-{number}-dealer")

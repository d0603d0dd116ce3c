"""Solo Whist tricks as the table counted them, in real Chromium: the declaring side's count
(the spec's summary record, what the pad asks) or, in the full form, each player's own count;
a director's correction starts from the stored form and keeps it (a record stored in the
four-seat form stays so)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.test_director import PASSWORD, sign_in
from tests.browser.test_scoring import full_form, open_table, send, tap
from tests.tournaments.builders import make_director, make_match
from tournaments import services
from tournaments.models import HandSubmission
from tournaments.services import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: dealer N: E proposes, S accepts: the declaring side is E and S.
PROP_COP = {
    "dealer": "N",
    "calls": [
        {"seat": "E", "call": "prop"},
        {"seat": "S", "call": "cop"},
        {"seat": "W", "call": "pass"},
        {"seat": "N", "call": "pass"},
    ],
    "turned": "5H",
}


def test_a_table_that_counted_each_players_tricks_says_so_in_the_full_form(page, live_server):
    director = make_director("td")
    match = make_match(
        director, game="solo-whist", rules="phillips", fmt="individual", confirmation="same-phone"
    )
    open_table(page, live_server, match, director)
    page.get_by_label("Who deals the first hand?").select_option("W")
    full_form(page)  # the full form open: the last answer does not send
    tap(page, "Solo", "E Player E", "7", "♣ Clubs", "6")
    expect(page.get_by_role("spinbutton", name="The declaring side")).to_have_value("6")
    page.get_by_role("radio", name="By each player").check()
    for seat, count in {"N": 2, "E": 6, "S": 3, "W": 2}.items():
        page.locator(f"#tricks-{seat}").fill(str(count))
    expect(page.locator("#preview")).to_contain_text("E +")
    send(page, 1, side="N")
    expect(page.locator("#submit-status")).to_contain_text("Hand 1 is stored")
    assert HandSubmission.objects.get().raw["tricks"] == {"N": 2, "E": 6, "S": 3, "W": 2}


@pytest.fixture
def td(db):
    return get_user_model().objects.create_user("aiko", password=PASSWORD)


@pytest.mark.parametrize(
    ("stored", "corrected"),
    [
        ({"ES": 9}, {"ES": 8}),
        # a record stored in the four-seat form before the declaring side's form: kept so
        ({"N": 2, "E": 5, "S": 4, "W": 2}, {"N": 2, "E": 4, "S": 4, "W": 3}),
    ],
)
def test_a_directors_correction_starts_from_the_stored_form(
    page, live_server, td, stored, corrected
):
    director = Actor(user=td)
    match = make_match(director, game="solo-whist", rules="phillips", fmt="individual")
    services.submit_hand(match=match, actor=director, record={**PROP_COP, "tricks": stored})
    tournament = match.round.tournament
    sign_in(page, live_server, f"/director/{tournament.slug}/matches/{match.pk}/hands/1/")
    if len(stored) == 1:
        expect(page.get_by_role("radio", name="By the declaring side", exact=False)).to_be_checked()
        expect(page.locator("#tricks-declaring")).to_have_value("9")
        page.get_by_role("button", name="One fewer: The declaring side").click()
    else:
        expect(page.get_by_role("radio", name="By each player")).to_be_checked()
        expect(page.locator("#tricks-E")).to_have_value("5")
        page.get_by_role("button", name="One fewer: E Player E", exact=False).click()
        page.get_by_role("button", name="One more: W Player W", exact=False).click()
    page.get_by_label("Reason for the correction").fill("recounted")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Hand 1 corrected.")).to_be_visible()
    current = HandSubmission.objects.get(hand__match=match, is_current=True)
    assert current.version == 2 and current.record["tricks"] == corrected

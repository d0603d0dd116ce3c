"""In real Chromium: the registration desk. A director finds entries as they type, selects every
entry shown and checks them in at once, takes one check-in back, and registers a late arrival
checked in — all without the page reloading."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Entry
from tournaments.services import Actor

from .test_director import PASSWORD, make, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def td(db):
    return get_user_model().objects.create_user("aiko", password=PASSWORD)


@pytest.mark.parametrize(
    "viewport",
    [{"width": 390, "height": 844}, {"width": 1366, "height": 768}],
    ids=["phone", "laptop"],
)
def test_the_desk_finds_checks_in_many_undoes_one_and_never_reloads(
    page, live_server, td, screenshot, accessibility, viewport
):
    page.set_viewport_size(viewport)
    tournament = make(td, teams=6)
    sign_in(page, live_server, f"/director/{tournament.slug}/entries/")
    page.evaluate("window.sameDesk = true")  # gone if the page reloads

    page.get_by_role("searchbox").fill("team 1")
    assert page.locator("tr[data-search]:visible").count() == 1
    page.get_by_role("searchbox").fill("player 2a")
    assert page.locator("tr[data-search]:visible").count() == 1
    page.get_by_role("searchbox").fill("")
    assert page.locator("tr[data-search]:visible").count() == 6

    page.get_by_role("checkbox", name="Select Team 2").check()
    page.get_by_role("checkbox", name="Select Team 5").check()
    page.get_by_role("button", name="Check in the selected").click()
    page.get_by_text("2 entries checked in.").wait_for()
    assert set(Entry.objects.filter(status="checked-in").values_list("team__name", flat=True)) == {
        "Team 2",
        "Team 5",
    }

    page.get_by_role("button", name="Undo the check-in of Team 5").click()
    page.get_by_text("The check-in of Team 5 is taken back.").wait_for()
    assert Entry.objects.get(team__name="Team 5").status == "registered"

    page.get_by_role("searchbox").fill("team")
    page.get_by_role("checkbox", name="Select every entry shown").check()
    page.get_by_role("button", name="Check in the selected").click()
    page.get_by_text("5 entries checked in.").wait_for()
    assert not Entry.objects.filter(status="registered").exists()
    assert page.get_by_role("searchbox").input_value() == "team", "the search is kept"
    assert page.evaluate("window.sameDesk") is True
    screenshot(page, f"desk-{'phone' if viewport['width'] < 500 else 'laptop'}")
    assert accessibility(page) == []


def test_a_late_arrival_is_registered_and_checked_in_in_one_step(page, live_server, td):
    tournament = make(td, teams=2)
    services.check_in(entry=tournament.entries.first(), actor=Actor(user=td))  # the desk is open
    sign_in(page, live_server, f"/director/{tournament.slug}/entries/")

    page.get_by_label("Player", exact=True).fill("Mai Ito")
    page.get_by_label("Partner", exact=True).fill("Tom Evans")
    page.get_by_label("Team name").fill("Moonshot")
    assert page.get_by_label("Here now: check in at once").is_checked()
    with page.expect_navigation():
        page.get_by_role("button", name="Register the team").click()

    assert Entry.objects.get(team__name="Moonshot").status == "checked-in"
    assert page.get_by_role("row", name="Moonshot").get_by_text("Checked in").is_visible()

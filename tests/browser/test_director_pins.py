"""The director sees a table whose PINs are locked (20 wrong PINs this hour) on the dashboard,
follows the flag to the match and clears it in one click; the table's right PIN works again
(issue 28 item 3). Real Chromium, signed in."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.test_director import PASSWORD, make, sign_in
from tests.tournaments.builders import HAND_1, scorer, side_pin
from tournaments import services
from tournaments.models import AuditEvent, Entry, HandSubmission, Match, PinFailure
from tournaments.services import Actor, ServiceError, side_pins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_locked_table_is_flagged_on_the_dashboard_and_cleared_by_the_director(page, live_server):
    user = get_user_model().objects.create_user("aiko", password=PASSWORD)
    tournament = make(user, teams=4)
    director = Actor(user=user)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    match = Match.objects.filter(round=round_, is_bye=False).order_by("table__number").first()
    pending = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    taken = set(Entry.objects.values_list("pin", flat=True))
    free = (f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in taken)
    for n in range(side_pins.BUDGET):
        guesser = Actor(table=match.table_id, pin=next(free), client=f"10.6.0.{n + 1}")
        with pytest.raises(ServiceError):
            side_pins.prove_side(match, guesser)

    sign_in(page, live_server, f"/director/{tournament.slug}/")
    # flagged in the live room panel and in the round's progress table
    flags = page.locator(".pins-flag")
    expect(flags).to_have_text(["PINs locked", "PINs locked"])
    flags.first.click()
    expect(page.get_by_role("heading", name="PINs locked at this table")).to_be_visible()
    page.get_by_role("button", name="Clear the wrong PINs").click()
    expect(page.get_by_text("The wrong PINs of table")).to_be_visible()
    expect(page.get_by_role("heading", name="PINs locked at this table")).to_have_count(0)
    assert not PinFailure.objects.exists()
    assert AuditEvent.objects.filter(action="pins-cleared").count() == 1
    page.goto(f"{live_server.url}/director/{tournament.slug}/")
    expect(page.locator(".pins-flag")).to_have_count(0)
    # the other side's right PIN is taken again
    ew = Actor(table=match.table_id, pin=side_pin(match, "EW"), client="10.6.9.9")
    services.confirm_hand(submission=pending.submission, actor=ew, expected_version=1)
    assert HandSubmission.objects.get(pk=pending.submission.pk).status == "confirmed"

"""The director sees a table where wrong PINs are typed — struggling, or locked after 20 in the
hour against an entry's PIN — on the dashboard, the match page and the hand page, and clears it
(issue 28 item 3): one click, in the audit trail, and the table's right PIN works again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.builders import HAND_1, make_director, make_match, scorer, side_pin
from tournaments import services
from tournaments.models import AuditEvent, Entry, PinFailure
from tournaments.services import Actor, ServiceError, side_pins

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    director = make_director("td")
    match = make_match(director)
    pending = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    browser = Client()
    browser.force_login(director.user)
    return director, match, pending.submission, browser


def guess(match, submission, pin: str, client: str = "10.0.0.1"):
    """The other side's phone tries `pin` on the pending hand."""
    actor = Actor(table=match.table_id, pin=pin, client=client, label="EW scorer")
    return services.confirm_hand(submission=submission, actor=actor, expected_version=1)


def wrong_pins(match, count: int):
    taken = set(Entry.objects.values_list("pin", flat=True))
    free = (f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in taken)
    submission = services.current_versions(match)[0]
    for n in range(count):
        with pytest.raises(ServiceError):
            guess(match, submission, next(free), client=f"10.0.1.{n + 1}")


def pages(match, browser) -> dict[str, str]:
    slug = match.round.tournament.slug
    return {
        name: browser.get(reverse(f"tournaments:director-{name}", args=args)).content.decode()
        for name, args in (
            ("dashboard", [slug]),
            ("match", [slug, match.pk]),
            ("hand", [slug, match.pk, 1]),
        )
    }


def test_a_struggling_table_is_flagged_and_the_right_pin_still_works(table):
    director, match, submission, browser = table
    wrong_pins(match, side_pins.STRUGGLING)
    seen = pages(match, browser)
    assert "3 wrong PINs" in seen["dashboard"] and "PINs locked" not in seen["dashboard"]
    for name in ("match", "hand"):
        assert "Wrong PINs at this table" in seen[name] and "Clear the wrong PINs" in seen[name]
    done = guess(match, submission, side_pin(match, "EW"), client="10.0.9.9")
    assert done.status == "confirmed"


def test_a_locked_table_is_shown_and_the_director_clears_it(table):
    director, match, submission, browser = table
    wrong_pins(match, side_pins.BUDGET)
    seen = pages(match, browser)
    assert "PINs locked" in seen["dashboard"]
    assert "PINs locked at this table" in seen["match"]
    assert "PINs locked at this table" in seen["hand"]
    with pytest.raises(ServiceError) as refused:
        guess(match, submission, side_pin(match, "EW"), client="10.0.9.9")
    assert refused.value.code == "side-pin-locked"

    slug = match.round.tournament.slug
    back = reverse("tournaments:director-hand", args=[slug, match.pk, 1])
    cleared = browser.post(
        reverse("tournaments:director-match-pins-clear", args=[slug, match.pk]), {"next": back}
    )
    assert cleared.status_code == 302 and cleared["Location"] == back
    assert not PinFailure.objects.exists()
    event = AuditEvent.objects.get(action="pins-cleared")
    # counted as the dashboard counts them: each guess once, not once per entry tested
    assert event.data["failures"] == side_pins.BUDGET and event.actor == director.user
    audit = browser.get(reverse("tournaments:director-audit", args=[slug])).content.decode()
    assert f"Cleared {side_pins.BUDGET} wrong PINs at table 1, round 1" in audit
    assert "PINs locked" not in pages(match, browser)["dashboard"]
    assert guess(match, submission, side_pin(match, "EW"), client="10.0.9.9").status == "confirmed"


def test_only_a_director_clears_a_table(table):
    director, match, submission, browser = table
    wrong_pins(match, 1)
    stranger = Client()
    stranger.force_login(make_director("other-td").user)
    slug = match.round.tournament.slug
    response = stranger.post(
        reverse("tournaments:director-match-pins-clear", args=[slug, match.pk])
    )
    assert response.status_code in (403, 404)
    assert PinFailure.objects.exists() and not AuditEvent.objects.filter(action="pins-cleared")


def test_a_duplicate_events_director_sees_a_locked_table_and_clears_it():
    """The duplicate evening's director page (its dashboard) flags a table where wrong PINs are
    typed and clears it: the pairs' right PIN works again."""
    from tests.duplicate.builders import make_event, pair_pin
    from tournaments.duplicate import services as dup

    director = make_director("td")
    tournament = make_event(director)
    round_ = dup.start_round(tournament=tournament, actor=director)
    match = round_.matches.get(table__number=1)
    browser = Client()
    browser.force_login(director.user)
    page = reverse("tournaments:duplicate-director", args=[tournament.slug])
    taken = set(Entry.objects.values_list("pin", flat=True))
    free = [f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in taken]
    for n in range(side_pins.STRUGGLING):
        actor = Actor(table=match.table_id, pin=free[n], client=f"10.0.2.{n + 1}", label="EW")
        with pytest.raises(ServiceError):
            side_pins.prove_side(match, actor)
    html = browser.get(page).content.decode()
    assert f"{side_pins.STRUGGLING} wrong PINs" in html and "PINs locked" not in html
    for n in range(side_pins.STRUGGLING, side_pins.BUDGET):
        actor = Actor(table=match.table_id, pin=free[n], client=f"10.0.2.{n + 1}", label="EW")
        with pytest.raises(ServiceError):
            side_pins.prove_side(match, actor)
    html = browser.get(page).content.decode()
    assert "PINs locked" in html and "Clear the wrong PINs" in html
    right = Actor(table=match.table_id, pin=pair_pin(round_, 1, "NS"), client="10.0.9.9")
    with pytest.raises(ServiceError) as refused:
        side_pins.prove_side(match, right)
    assert refused.value.code == "side-pin-locked"
    cleared = browser.post(
        reverse("tournaments:director-match-pins-clear", args=[tournament.slug, match.pk]),
        {"next": page},
    )
    assert cleared.status_code == 302 and cleared["Location"] == page
    assert "PINs locked" not in browser.get(page).content.decode()
    assert side_pins.prove_side(match, right) == "NS"
def test_the_room_panel_flags_the_table_too_and_puts_it_first(table):
    """The room panel (the dashboard's first panel, the tables slowest first, updated live) is
    what the director watches: five wrong PINs at a table showed nothing in its "Needs" column
    (the evening walk, bench/evening_walk.py); only the round's table list further down said it."""
    from tournaments.room import selectors as room

    director, match, submission, browser = table
    wrong_pins(match, side_pins.STRUGGLING)
    dashboard = pages(match, browser)["dashboard"]
    panel = dashboard[dashboard.index('class="data table-progress"') :]
    panel = panel[: panel.index("</table>")]
    assert "3 wrong PINs" in panel and "#pins" in panel
    (row,) = room.table_progress(match.round)
    assert row.needs_director and row.pins is not None and row.pins.failures == 3

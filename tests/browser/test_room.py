"""The room in real Chromium (issue 15 points 4–7): the director runs the round clock and every
phone and the projector count the same time left (even a phone whose own clock is wrong); a
table calls the director, the dashboard alerts live, the director answers and the phone says a
director is on the way; table progress slowest first; the projector at 1920×1080 and 1280×720.
Screenshots at phone, laptop and projector sizes in English and Japanese; axe-core on each page.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests import waiting
from tests.conftest import sign_in_browser
from tournaments import services
from tournaments.demo import club as demo
from tournaments.models import Match, Round, RoundClock, Team, Tournament
from tournaments.room import services as room

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
FULL_HD = {"width": 1920, "height": 1080}
HD = {"width": 1280, "height": 720}


@pytest.fixture(autouse=True)
def in_process(live_in_process):
    return live_in_process


@pytest.fixture
def evening(built_once):
    """The demo's Spades Swiss with 16 teams, round 2 in play (some tables done, some mid-match,
    one hand awaiting confirmation, one disputed, one table not started)."""
    built_once("room-evening", lambda: demo.build_spades(7, teams=16, played=1))
    tournament = Tournament.objects.get(name="Friday Night Spades")
    Team.objects.filter(name="Bag Ladies").update(
        name="The Extraordinarily Long-Named Partnership of Koenji Community Hall"
    )
    round_ = Round.objects.get(tournament=tournament, number=2)
    return tournament, round_, demo.director_actor()


def in_japanese(page, live_server) -> None:
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ja", "url": live_server.url}]
    )


def playing_match(round_: Round) -> Match:
    """A table still playing (not finished)."""
    return (
        Match.objects.filter(round=round_, is_bye=False, state=Match.State.PLAYING)
        .order_by("table__number")
        .first()
    )


def shown_seconds(locator) -> int:
    text = locator.inner_text().strip()
    sign = -1 if text.startswith("-") else 1
    parts = [int(p) for p in text.lstrip("-").split(":")]
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return sign * seconds


def open_scoring(phone, live_server, match, director) -> None:
    _, secret = services.issue_table_token(table=match.table, actor=director)
    phone.goto(live_server.url + services.scoring_path(match.table, secret))
    expect(phone.locator("#scoring")).to_have_attribute("data-ready", "true")


# -- point 4: the round clock ---------------------------------------------------------------------


def test_the_clock_started_by_the_director_counts_the_same_on_a_phone_with_a_wrong_clock(
    page, another_page, live_server, evening, screenshot, accessibility
):
    tournament, round_, td = evening
    sign_in_browser(page, live_server, td.user)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server.url}/director/{tournament.slug}/rounds/2/")
    assert accessibility(page) == []
    page.get_by_role("button", name="Start the clock").click()
    clock = page.locator("[data-clock]")
    expect(clock).to_have_attribute("data-clock-state", "running")

    # A phone whose own clock is an hour and a half fast still counts the server's time.
    phone = another_page(viewport=PHONE)
    phone.add_init_script("""(() => {
      const skew = 90 * 60 * 1000; const real = Date.now.bind(Date);
      Date.now = () => real() + skew;
    })();""")
    open_scoring(phone, live_server, playing_match(round_), td)
    phone_clock = phone.locator("[data-clock] [data-clock-time]")
    expect(phone.locator("[data-clock]")).to_be_visible()
    waiting.until(lambda: 58 * 60 <= shown_seconds(phone_clock) <= 60 * 60, "the phone's clock")
    # Read phone, laptop, phone: the laptop's time lies between the phone's two readings, give or
    # take what each page's estimate of the server's time may be off by (the time its request
    # took, seconds on a loaded machine), however long each reading took: far from the hour and
    # a half the phone's own clock is off by.
    before = shown_seconds(phone_clock)
    laptop = shown_seconds(clock.locator("[data-clock-time]"))
    after = shown_seconds(phone_clock)
    assert after - 30 <= laptop <= before + 30, (before, laptop, after)
    assert 58 * 60 <= shown_seconds(phone_clock) <= 60 * 60
    screenshot(phone, "room-clock-phone")
    assert accessibility(phone) == []

    # Paused on the director's page: the phone hears it through the event stream.
    page.get_by_role("button", name="Pause").click()
    expect(phone.locator("[data-clock] [data-clock-note]")).to_have_text("Clock paused")
    screenshot(page, "room-clock-director-laptop")

    # Resumed, then near the end: "Last hand"; past the end: "Time".
    page.get_by_role("button", name="Resume").click()
    expect(clock).to_have_attribute("data-clock-state", "running")
    clock_row = RoundClock.objects.get(round=round_)
    clock_row.started_at -= timedelta(minutes=52)
    clock_row.save()
    phone.reload()
    expect(phone.locator("[data-clock] [data-clock-note]")).to_have_text("Last hand")
    expect(phone.locator("[data-clock]")).to_have_class(re.compile("clock-last-hand"))
    screenshot(phone, "room-clock-last-hand-phone")
    assert accessibility(phone) == []
    clock_row.started_at -= timedelta(minutes=9)
    clock_row.save()
    phone.reload()
    expect(phone.locator("[data-clock] [data-clock-note]")).to_have_text(
        "Time: finish the hand being played"
    )
    assert shown_seconds(phone_clock) < 0
    screenshot(phone, "room-clock-over-phone")
    assert accessibility(phone) == []


def test_the_clock_on_the_round_page_and_in_japanese(
    page, live_server, evening, screenshot, accessibility
):
    tournament, round_, td = evening
    room.set_clock(round=round_, actor=td, minutes=45, last_hand_minutes=10)
    room.start_clock(round=round_, actor=td)
    page.goto(f"{live_server.url}/t/{tournament.slug}/rounds/2/")
    expect(page.locator("[data-clock]")).to_have_attribute("data-clock-state", "running")
    assert 44 * 60 <= shown_seconds(page.locator("[data-clock-time]")) <= 45 * 60
    screenshot(page, "room-clock-round-page-phone")
    assert accessibility(page) == []
    in_japanese(page, live_server)
    page.reload()
    assert page.locator("html").get_attribute("lang") == "ja"
    screenshot(page, "room-clock-round-page-phone-ja")
    assert accessibility(page) == []


# -- point 5: call the director -------------------------------------------------------------------


def test_a_table_calls_the_director_who_sees_it_live_and_answers(
    page, another_page, live_server, evening, screenshot, accessibility
):
    tournament, round_, td = evening
    match = playing_match(round_)
    sign_in_browser(page, live_server, td.user)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server.url}/director/{tournament.slug}/")
    expect(page.locator("[data-live-events]").first).to_have_attribute("data-live-mode", "sse")
    sound = page.get_by_role("button", name="Turn on the call sound")
    sound.click()  # the user gesture browsers need before a page may play sound
    expect(page.get_by_role("button", name="Sound on")).to_be_visible()

    phone = another_page(viewport=PHONE)
    open_scoring(phone, live_server, match, td)
    phone.locator("summary.call-button").click()
    phone.get_by_label("A ruling (revoke, lead out of turn…)").check()
    phone.get_by_label("A word for the director (optional)").fill("Revoke at trick 7")
    screenshot(phone, "room-call-form-phone")
    assert accessibility(phone) == []
    phone.get_by_role("button", name="Call the director now").click()
    expect(phone.locator("#call-status")).to_have_text(
        "Call received: a director will come to this table."
    )
    screenshot(phone, "room-call-received-phone")

    # The dashboard shows the call without a reload, beeps and announces it.
    alert = page.locator(".call-alert")
    expect(alert).to_contain_text(f"Table {match.table.number}")
    expect(alert).to_contain_text("Revoke at trick 7")
    expect(page.locator("body")).to_have_attribute("data-last-beep", "played")
    expect(page.locator("table.table-progress tbody tr").first).to_have_class(re.compile("calling"))
    screenshot(page, "room-call-dashboard-laptop")
    assert accessibility(page) == []

    # Calling again from the phone is the same call.
    phone.locator("summary.call-button").click()
    phone.get_by_role("button", name="Call the director now").click()
    expect(page.locator(".call-alert")).to_have_count(1)

    page.get_by_role("button", name=f"On my way to table {match.table.number}").click()
    expect(page.locator(".call-alert")).to_have_count(0)
    expect(phone.locator("#call-status")).to_have_text("A director is on the way.")
    screenshot(phone, "room-call-on-the-way-phone")
    assert accessibility(phone) == []

    in_japanese(phone, live_server)
    phone.reload()
    expect(phone.locator("#call-status")).to_have_text("ディレクターが向かっています。")
    screenshot(phone, "room-call-on-the-way-phone-ja")


def test_a_phone_without_the_tables_code_is_told_to_scan_the_card(page, live_server, evening):
    tournament, round_, td = evening
    match = playing_match(round_)
    page.goto(f"{live_server.url}/table/{match.table_id}/")
    page.locator("summary.call-button").click()
    page.get_by_role("button", name="Call the director now").click()
    expect(page.locator("#call-status")).to_contain_text("Scan the QR code")


# -- point 6: table progress ----------------------------------------------------------------------


def test_table_progress_puts_the_slowest_tables_first_and_updates_live(
    page, live_server, evening, screenshot, accessibility
):
    tournament, round_, td = evening
    sign_in_browser(page, live_server, td.user)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server.url}/director/{tournament.slug}/rounds/2/")
    rows = page.locator("table.table-progress tbody tr")
    first = rows.first.inner_text()
    last = rows.last.inner_text()
    assert "Dispute" in first  # the disputed table needs the director first
    assert "Finished" in last
    screenshot(page, "room-progress-laptop")
    assert accessibility(page) == []

    from tournaments.demo import simulate

    match = playing_match(round_)
    simulate.play_hand(match, __import__("random").Random(3), confirm=False)
    number = match.table.number
    row = page.locator(f"table.table-progress tbody tr:has(th a:text-is('{number}'))")
    expect(row.locator("td").nth(3)).not_to_have_text("0")

    in_japanese(page, live_server)
    page.reload()
    screenshot(page, "room-progress-laptop-ja")
    assert accessibility(page) == []
    page.set_viewport_size(PHONE)
    screenshot(page, "room-progress-phone-ja")


# -- point 7: the projector -----------------------------------------------------------------------


def _halves(page) -> tuple[dict, dict]:
    return page.evaluate("""() => [...document.querySelectorAll('.screen > .panel')]
        .map(p => { const r = p.getBoundingClientRect();
                    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })""")


def _overflowing(page) -> list[str]:
    """Cells whose text runs out of their panel."""
    return page.evaluate("""() => {
      const out = [];
      document.querySelectorAll('.screen > .panel').forEach(panel => {
        const box = panel.getBoundingClientRect();
        panel.querySelectorAll('th, td').forEach(cell => {
          const r = cell.getBoundingClientRect();
          if (r.width && (r.right > box.right + 1 || r.left < box.left - 1))
            out.push(cell.textContent.trim().slice(0, 40));
        });
      });
      return out;
    }""")


@pytest.mark.parametrize("size, name", [(FULL_HD, "1080p"), (HD, "720p")])
def test_the_projector_fits_without_overlap_shows_the_clock_and_progress(
    page, live_server, evening, screenshot, accessibility, size, name
):
    tournament, round_, td = evening
    room.start_clock(round=round_, actor=td)
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    screenshot(page, f"room-projector-{name}")
    left, right = _halves(page)
    assert left["right"] <= right["left"]  # the two halves never overlap
    assert _overflowing(page) == []
    expect(page.locator("[data-clock]")).to_be_visible()
    standings = page.locator("table[data-paginate=standings] tbody tr:visible")
    if size == FULL_HD:
        assert standings.count() >= 16
        assert page.locator("[data-page-indicator=standings]").inner_text() == ""
    bottom = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
        'table[data-paginate] tbody tr')].filter(r => !r.hidden)
        .map(r => r.getBoundingClientRect().bottom))""")
    assert bottom <= size["height"]
    long_name = page.locator(".standings-table .name", has_text="Extraordinarily")
    if long_name.count() and long_name.first.is_visible():
        assert long_name.first.evaluate("e => e.scrollWidth > e.clientWidth")  # cut with "…"
    assert page.locator(".pairings .progress .badge.provisional").count() >= 1
    assert accessibility(page) == []
    in_japanese(page, live_server)
    page.reload()
    left, right = _halves(page)
    assert left["right"] <= right["left"]
    assert _overflowing(page) == []
    screenshot(page, f"room-projector-{name}-ja")
    assert accessibility(page) == []


def test_the_projector_follows_a_clock_pause_live(page, live_server, evening):
    tournament, round_, td = evening
    room.start_clock(round=round_, actor=td)
    page.set_viewport_size(FULL_HD)
    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    expect(page.locator("[data-live-events]")).to_have_attribute("data-live-mode", "sse")
    room.pause_clock(round=round_, actor=td)
    expect(page.locator("[data-clock]")).to_have_attribute("data-clock-state", "paused")

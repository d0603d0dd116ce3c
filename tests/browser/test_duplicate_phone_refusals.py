"""The duplicate phone in real Chromium when its board is refused (issue 30, finding 7): the
panel comes back with the refusal in the phone's language and its stable code on the notice,
and nothing is stored."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.duplicate.builders import make_event
from tests.tournaments.builders import make_director
from tournaments.duplicate import services as dup
from tournaments.models import BoardResult
from tournaments.services.table_access import issue_round_tokens

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_refused_board_says_why_with_its_code_on_the_phone(
    another_page, live_server, screenshot, accessibility, locale
):
    td = make_director()
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = issue_round_tokens(round=round_, actor=td)[round_.tables.get(number=1).pk]
    phone = another_page(locale=locale)
    phone.goto(f"{live_server.url}/duplicate/{tournament.slug}/table/1/#token={secret}")
    form = phone.locator("form.score-form")
    form.locator("[data-every-detail] summary").click()  # the full form: any count
    for seat in "NESW":
        form.locator(f"select[name=call_{seat}]").select_option("3")
    for seat, taken in zip("NESW", (9, 4, 3, 3), strict=True):  # 19 tricks: no hand has them
        form.locator(f"input[name=tricks_{seat}]").fill(str(taken))
    form.locator("button[data-enter]").click()
    ns = round_.tables.get(number=1).match.seats.get(side="NS").entry
    for digit in ns.pin:  # the pair entering proves itself, on the keypad
        form.locator(f"[data-pin-sheet] .key[data-key='{digit}']").click()

    notice = phone.locator('[role=alert][data-code="bad-record"]')
    expect(notice).to_be_visible()
    if locale == "ja-JP":
        expect(notice).to_contain_text("トリック数の合計")
    else:
        expect(notice).to_contain_text("The tricks do not add up")
    screenshot(phone, f"duplicate-phone-refused-{locale[:2]}")
    assert accessibility(phone) == []
    assert not BoardResult.objects.exists()

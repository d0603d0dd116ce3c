"""In real Chromium: the new-tournament form puts the chosen format's own default tiebreak chain
in the fields, says what it means, and keeps a chain the director changed (issue 29)."""

from __future__ import annotations

import pytest

from tournaments.models import Tournament
from tournaments.standings import DEFAULT_CHAINS

from .test_director import sign_in, td  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _chain(page) -> list[str]:
    values = [page.locator(f"select[name=tiebreak_{n}]").input_value() for n in range(1, 7)]
    return [v for v in values if v]


def test_the_format_brings_its_own_chain_and_says_what_it_means(
    page,
    live_server,
    td,  # noqa: F811
    accessibility,
    screenshot,
):
    sign_in(page, live_server)
    assert _chain(page) == list(DEFAULT_CHAINS["swiss"])
    page.get_by_label("Name", exact=True).fill("Friday whist drive")
    page.get_by_label("Game", exact=True).select_option("whist")
    page.locator("input[name=options_for][value^='whist:']").wait_for(state="attached")
    page.get_by_label("Format", exact=True).select_option("progressive")
    assert _chain(page) == list(DEFAULT_CHAINS["progressive"])
    meaning = page.locator(".chain-meanings p:visible")
    assert meaning.count() == 1
    assert meaning.inner_text().startswith("Default for a whist drive")
    assert accessibility(page) == []
    screenshot(page, "setup-whist-drive-chain")

    page.get_by_label("Format", exact=True).select_option("individual")
    assert _chain(page) == list(DEFAULT_CHAINS["tables"])
    page.locator("select[name=tiebreak_1]").select_option("match_points")  # place points
    page.get_by_label("Format", exact=True).select_option("progressive")
    assert _chain(page)[0] == "match_points", "the director's own chain stays"
    page.locator("select[name=tiebreak_1]").select_option("points_for")
    page.locator("select[name=tiebreak_2]").select_option("hands_won")
    page.locator("input[name=match_hands]").fill("4")
    page.locator("select[name=match_length]").select_option("hands")
    with page.expect_navigation():
        page.get_by_role("button", name="Create tournament").click()
    made = Tournament.objects.get()
    assert made.format == "progressive" and made.tiebreaks[:2] == ["points_for", "hands_won"]

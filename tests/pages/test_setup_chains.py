"""Issue 29: the new-tournament form offers each format's own default tiebreak chain and says
what it means. A chain posted as it was shown (for the format first shown) with another format
chosen becomes that format's default; a chain the director changed stays theirs."""

from __future__ import annotations

import pytest

from tournaments.models import Tournament
from tournaments.standings import DEFAULT_CHAINS

from .test_director import as_td, form_data, td  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def _new(as_td, **changes):  # noqa: F811
    form = as_td.get("/director/").context["form"]
    data = form_data(form)
    data.update({"name": "Club evening", **changes})
    return data


def _tiebreaks(chain):
    slots = {f"tiebreak_{n}": "" for n in range(1, 7)}
    slots.update({f"tiebreak_{n}": name for n, name in enumerate(chain, 1)})
    return slots


@pytest.mark.parametrize(
    ("game", "preset", "fmt", "chain"),
    [
        ("solo-whist", "phillips", "individual", "tables"),
        ("spades", "network-spades", "individual", "tables"),
        ("whist", "short-whist", "progressive", "progressive"),
        ("spades", "standard", "round-robin", "round_robin"),
        ("spades", "standard", "swiss", "swiss"),
    ],
)
def test_the_chain_left_as_shown_becomes_the_chosen_format_s_own(
    as_td,  # noqa: F811
    game,
    preset,
    fmt,
    chain,
):
    page = as_td.get("/director/")
    assert page.context["form"].initial["chain_for"] == "swiss"
    data = _new(as_td, format=fmt)
    assert [data[f"tiebreak_{n}"] for n in range(1, 6)] == list(DEFAULT_CHAINS["swiss"])
    if game != "spades" or preset != "standard":  # the rules' options are shown first
        data.update({"game": game, "preset": preset, "reload": "1"})
        form = as_td.post("/director/", data).context["form"]
        data = form_data(form)
        data.update({"format": fmt})
    response = as_td.post("/director/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get().tiebreaks == list(DEFAULT_CHAINS[chain])


def test_a_chain_the_director_chose_is_kept_whatever_the_format(as_td):  # noqa: F811
    mine = ["match_points", "placings", "points_for"]  # place points per table
    data = _new(as_td, game="solo-whist", preset="phillips", reload="1")
    data = form_data(as_td.post("/director/", data).context["form"])
    data.update({"format": "individual", **_tiebreaks(mine)})
    assert as_td.post("/director/", data).status_code == 302
    assert Tournament.objects.get().tiebreaks == mine


def test_the_form_says_what_each_format_s_default_means(as_td):  # noqa: F811
    page = as_td.get("/director/").content.decode()
    assert 'data-show-for="progressive"' in page
    assert "Default for a whist drive: each player&#x27;s total points over the evening" in page
    assert "Default for tables of 3 or 4 (Solo Whist, cutthroat and 3-player Spades)" in page
    assert 'data-default-chains="{' in page and 'name="chain_for"' in page


def test_the_form_in_japanese_says_it_too(as_td):  # noqa: F811
    page = as_td.get("/director/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "ホイストドライブ" in page

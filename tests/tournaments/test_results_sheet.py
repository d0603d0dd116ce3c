"""The results sheet's columns: the side is not repeated where it is the seats."""

from __future__ import annotations

import pytest

from tournaments.exports import tabular

from .conftest import play_round

pytestmark = pytest.mark.django_db


def test_results_give_the_side_a_column_only_where_it_differs_from_the_seats(
    make_tournament, director
):
    progressive = make_tournament(format="progressive", rounds=3, players=8)
    play_round(progressive, director)
    sheet = tabular.results_sheet(progressive)
    assert sheet.headers[3:5] == ["Side", "Seats"]
    assert {(row[3], row[4]) for row in sheet.rows} >= {("NS", "N"), ("EW", "E")}
    teams = make_tournament(rounds=3, teams=4)
    play_round(teams, director)
    assert "Side" not in tabular.results_sheet(teams).headers

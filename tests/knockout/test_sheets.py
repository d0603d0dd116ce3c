"""Printed score sheets of a knockout round have the knockout's length, not the Swiss's."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.knockout import services as knockout
from tournaments.printing import paper as printing

from ..tournaments.conftest import play_round

pytestmark = pytest.mark.django_db


def _rows_shown(client, tournament, number) -> int:
    page = client.get(reverse("tournaments:printing-sheets", args=[tournament.slug, number]))
    assert page.status_code == 200
    return page.context["layout"].rows


def test_knockout_sheets_have_the_knockout_hands_and_room_for_tie_breaks(
    client, director_user, director, swiss
):
    tournament = swiss(6, rounds=1)
    tournament.match_length = "hands"
    tournament.match_hands = 4
    tournament.save()
    knockout.set_knockout(
        tournament=tournament, actor=director, top_cut=4, length="hands", count=7, tiebreak_hands=1
    )
    play_round(tournament, director)
    tournament.refresh_from_db()
    listed = services.cut_list(tournament=tournament)
    services.confirm_cut(tournament=tournament, actor=director, entries=listed.ids)
    services.generate_round(tournament=tournament, actor=director)
    tournament.refresh_from_db()
    client.force_login(director_user)
    assert _rows_shown(client, tournament, 1) == 4  # the Swiss round keeps the Swiss's hands
    assert _rows_shown(client, tournament, 2) == 7 + 2  # the knockout's, and two tie-breaks


def test_a_knockout_to_a_target_prints_the_games_usual_rows(swiss, director):
    tournament = swiss(6, rounds=1)
    tournament.match_length = "hands"
    tournament.match_hands = 4
    tournament.save()
    knockout.set_knockout(tournament=tournament, actor=director, top_cut=4, length="target")
    tournament.refresh_from_db()
    usual = printing.presentation(tournament.game).sheet_rows
    assert usual != 4
    assert printing.sheet_rows(tournament, knockout=True) == usual
    assert printing.sheet_rows(tournament, knockout=False) == 4

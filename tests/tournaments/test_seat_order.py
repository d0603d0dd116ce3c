"""Issue 29: a round page lists a table's players in seat order, clockwise from North (the
room's table list read "E v N v S v W"); progressive partners together, "N & S v E & W"."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Seat
from tournaments.room.selectors import table_progress

pytestmark = pytest.mark.django_db


def _round(make_tournament, director, **options):
    tournament = make_tournament(**options)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    return round_


def _by_seat(match) -> dict[str, str]:
    return {s.seats: s.entry.name for s in Seat.objects.filter(match=match).select_related("entry")}


def test_a_table_of_four_reads_north_east_south_west(make_tournament, director):
    round_ = _round(
        make_tournament,
        director,
        game="solo-whist",
        rules="phillips",
        format="individual",
        players=4,
    )
    (table,) = table_progress(round_)
    seat = _by_seat(round_.matches.get())
    assert table.names == [seat["N"], seat["E"], seat["S"], seat["W"]]


def test_a_table_of_three_reads_north_east_south(make_tournament, director):
    round_ = _round(
        make_tournament,
        director,
        game="spades",
        rules="pagat-3p",
        format="individual",
        players=3,
    )
    (table,) = table_progress(round_)
    seat = _by_seat(round_.matches.get())
    assert table.names == [seat["N"], seat["E"], seat["S"]]


def test_progressive_partners_sit_together(make_tournament, director):
    round_ = _round(
        make_tournament,
        director,
        game="whist",
        rules="short-whist",
        format="progressive",
        players=4,
    )
    (table,) = table_progress(round_)
    seat = _by_seat(round_.matches.get())
    assert table.names == [f"{seat['N']} & {seat['S']}", f"{seat['E']} & {seat['W']}"]


def test_two_teams_read_north_south_first(make_tournament, director):
    round_ = _round(make_tournament, director, teams=2)
    (table,) = table_progress(round_)
    seat = _by_seat(round_.matches.get())
    assert table.names == [seat["NS"], seat["EW"]]

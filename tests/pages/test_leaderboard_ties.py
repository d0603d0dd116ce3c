"""Equal ratings share a rank, on the leaderboard and on each player's page."""

from __future__ import annotations

import pytest

from tournaments.models import Player, Rating
from tournaments.selectors.public import home, player

pytestmark = pytest.mark.django_db


def rate(name: str, ordinal: float, games: int = 3) -> Rating:
    return Rating.objects.create(
        player=Player.objects.create(name=name),
        game="spades",
        mu=ordinal + 9,
        sigma=3,
        ordinal=ordinal,
        games=games,
    )


def test_equal_ratings_as_shown_share_a_rank_and_the_next_rank_skips(client):
    rate("Ann", 12.3)
    rate("Bo", 10.04, games=5)
    rate("Cy", 9.96)  # shown as 10.0, like Bo
    dan = rate("Dan", 4.0)

    rows = home.leaderboard("spades")
    page = client.get("/leaderboards/spades/").content.decode()

    assert [(r.rank, r.tied, r.rating.player.name) for r in rows] == [
        (1, False, "Ann"),
        (2, True, "Bo"),
        (2, True, "Cy"),
        (4, False, "Dan"),
    ]
    assert page.count('<td class="num">=2</td>') == 2
    assert [r.rank for r in player.player_ratings(dan.player)] == [4]
    assert [r.rank for r in player.player_ratings(Player.objects.get(name="Cy"))] == [2]


def test_a_team_named_after_its_players_does_not_show_them_twice():
    from tournaments.selectors.public.standings import StandingsRow

    def row(name: str, players: list[str]) -> StandingsRow:
        return StandingsRow(
            rank=1, tied=False, entry=1, name=name, players=players, withdrawn=False, values=[]
        )

    assert row("Ann & Bo", ["Ann", "Bo"]).player_line == ""
    assert row("Moonshot", ["Ann", "Bo"]).player_line == "Ann & Bo"
    assert row("Ann", ["Ann"]).player_line == ""

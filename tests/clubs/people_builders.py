"""Two clubs' events for the tests of one person across clubs (tests/clubs/test_people.py and
the browser's tests/browser/test_people.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth import get_user_model

from tests.tournaments.conftest import play_round
from tournaments import services
from tournaments.models import Club, Tournament
from tournaments.services import Actor
from tournaments.services import standings as standings_service


def director_of(club: Club, username: str, password: str | None = None) -> Actor:
    user = get_user_model().objects.create_user(username, password=password)
    club.directors.add(user)
    return Actor(user=user, club=club)


def club_event(
    director: Actor, name: str, teams: list[tuple[str, str]], *, day: int = 1
) -> Tournament:
    """A one-round Spades Swiss event of the director's club, played and closed, standings
    computed."""
    tournament = services.create_tournament(
        actor=director,
        name=name,
        game="spades",
        rules="standard",
        format="swiss",
        rounds=1,
        starts_at=datetime(2026, 11, day, 19, tzinfo=UTC),
    )
    tournament = services.open_registration(tournament=tournament, actor=director)
    for first, second in teams:
        services.register_entry(tournament=tournament, actor=director, players=[first, second])
    play_round(tournament, director, seed=7)
    standings_service.recompute(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament

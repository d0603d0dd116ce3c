"""Clubs with directors and finished events, through the services (for the federation tests)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tests.tournaments.conftest import play_round
from tournaments import services
from tournaments.models import Club, Tournament, home_club
from tournaments.services import Actor

SPADES = {"preset": "standard"}


def make_club(slug: str, *, federation: bool = True) -> Club:
    home_club()  # the installation's first club is the home club
    return Club.objects.create(name=f"{slug.title()} Club", slug=slug, federation=federation)


def director_of(club: Club) -> Actor:
    user = get_user_model().objects.create_user(f"td-{club.slug}")
    club.directors.add(user)
    return Actor(user=user, club=club)


def finished_event(
    actor: Actor, name: str, teams: list[tuple[str, str]], *, seed: int
) -> Tournament:
    """A one-round Spades Swiss of `teams` (pairs of names, looked up among the club's members),
    played (one simulated hand a match) and finished."""
    tournament = services.create_tournament(
        actor=actor, name=name, game="spades", rules=SPADES, format="swiss", rounds=1
    )
    tournament = services.open_registration(tournament=tournament, actor=actor)
    for first, second in teams:
        services.register_entry(
            tournament=tournament, actor=actor, players=[first, second], name=f"{first} & {second}"
        )
    play_round(tournament, actor, seed=seed)
    return services.finish_tournament(tournament=tournament, actor=actor)

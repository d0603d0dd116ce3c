"""Shared fixtures for the tournament workflow tests: a director, a tournament factory that goes
through the real services, and factories for players and teams."""

from __future__ import annotations

import random
from collections.abc import Callable

import factory
import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Entry, Match, Player, Round, Team, Tournament
from tournaments.services import Actor


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n:03d}")
    club_number = factory.Sequence(lambda n: f"C{n:05d}")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    name = factory.Sequence(lambda n: f"Team {n:03d}")
    first = factory.SubFactory(PlayerFactory)
    second = factory.SubFactory(PlayerFactory)


@pytest.fixture
def director_user(db):
    return get_user_model().objects.create_user("director")


@pytest.fixture
def director(director_user) -> Actor:
    return Actor(user=director_user)


@pytest.fixture
def stranger(db) -> Actor:
    """A signed-in user who directs nothing."""
    return Actor(user=get_user_model().objects.create_user("stranger"))


@pytest.fixture
def public() -> Actor:
    """Someone on the public registration page (not signed in)."""
    return Actor(label="public")


@pytest.fixture
def make_tournament(director) -> Callable[..., Tournament]:
    """A tournament created by `director`, with `teams` team entries (or `players` player
    entries) registered by the director; registration is opened unless `open_=False`."""

    def make(
        *,
        game: str = "spades",
        rules: object = "standard",
        format: str = "swiss",
        rounds: int = 3,
        teams: int = 0,
        players: int = 0,
        open_: bool = True,
        **options,
    ) -> Tournament:
        tournament = services.create_tournament(
            actor=director,
            name=f"{game} {format}",
            game=game,
            rules=rules,
            format=format,
            rounds=rounds,
            **options,
        )
        if open_:
            tournament = services.open_registration(tournament=tournament, actor=director)
        for n in range(1, teams + 1):
            services.register_entry(
                tournament=tournament,
                actor=director,
                players=[f"T{n} North", f"T{n} South"],
                name=f"Team {n}",
            )
        for n in range(1, players + 1):
            services.register_entry(tournament=tournament, actor=director, players=[f"Player {n}"])
        tournament.refresh_from_db()
        return tournament

    return make


@pytest.fixture
def swiss(make_tournament) -> Callable[..., Tournament]:
    """A Spades (standard) Swiss tournament of `n` teams."""

    def make(n: int = 4, **options) -> Tournament:
        return make_tournament(teams=n, **options)

    return make


def entries(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.order_by("id"))


def tables_of(round_: Round) -> list[list[tuple[int, str, str]]]:
    """Each table of a round (by number) as [(entry id, side, seats)] in seat order."""
    out = []
    for match in round_.matches.filter(is_bye=False).order_by("table__number"):
        out.append([(s.entry_id, s.side, s.seats) for s in match.seats.order_by("seats")])
    return out


def bye_entries(round_: Round) -> list[int]:
    return sorted(s.entry_id for m in round_.matches.filter(is_bye=True) for s in m.seats.all())


def finish_round(round_: Round, director: Actor, *, seed: int = 1, hands: int = 1) -> Round:
    """Play `hands` simulated hands at every table of a published round, have the director close
    each match and then the round."""
    from tournaments.demo.simulate import play_match

    rng = random.Random(seed)
    for match in Match.objects.filter(round=round_, is_bye=False).order_by("table__number"):
        play_match(match, rng, director=director, hands=hands)
    return services.close_round(round=round_, actor=director)


def play_round(tournament: Tournament, director: Actor, *, seed: int = 1) -> Round:
    """Generate, publish, play and close the next round."""
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    return finish_round(round_, director, seed=seed)

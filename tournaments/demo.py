"""A realistic club demo, deterministic for a seed: a Spades Swiss (16 teams, 5 rounds, three
played, the fourth in play) and a Solo Whist evening (12 players at tables of four)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from . import services, simulate
from .models import Match, Tournament
from .services import Actor, PlayerSpec

GIVEN = [
    "Aiko", "Ben", "Chika", "Daniel", "Emi", "Fiona", "Goro", "Hana", "Isamu", "Jun", "Kenta",
    "Laura", "Mai", "Naoki", "Olivia", "Priya", "Riku", "Sakura", "Takumi", "Uma", "Wataru",
    "Yui", "Zoe", "Haruto", "Mio", "Sota", "Rin", "Kaito", "Hinata", "Tom", "Ellen", "Marco",
]
FAMILY = [
    "Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura",
    "Kobayashi", "Kato", "Smith", "Jones", "Brown", "Taylor", "Wilson", "Evans", "Clarke",
    "Murphy", "Rossi", "Patel",
]
TEAMS = [
    "Nil Desperandum", "Bag Ladies", "Spade Runners", "Blind Ambition", "Moonshot",
    "The Sandbaggers", "Trump Cards", "Big Slick", "Double Trouble", "Late Bidders",
    "Kyoto Aces", "Shibuya Shufflers", "Ten for Two", "Overtricks", "Set Piece", "Last Trick",
]
DEMO_DIRECTOR = ("director", "tricktable")


def _names(rng: random.Random, count: int) -> list[str]:
    pool = [f"{g} {f}" for g in GIVEN for f in FAMILY]
    return rng.sample(pool, count)


def director_actor() -> Actor:
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_DIRECTOR[0]).first()
    if user is None:
        user = user_model.objects.create_superuser(
            DEMO_DIRECTOR[0], email="director@example.org", password=DEMO_DIRECTOR[1]
        )
    return Actor(user=user, label="demo director")


def _play_round(tournament: Tournament, director: Actor, rng: random.Random,
                *, finish: bool = True) -> None:
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    matches = list(Match.objects.filter(round=round_, is_bye=False).order_by("table__number"))
    if not finish:
        _part_play(matches, director, rng)
        return
    for match in matches:
        simulate.play_match(match, rng, director=director,
                            hands=tournament.match_hands or 24)
    services.close_round(round=round_, actor=director)


def _part_play(matches: list[Match], director: Actor, rng: random.Random) -> None:
    """A round in play: some tables done, some mid-match, one hand awaiting confirmation and
    one disputed (in the director's queue)."""
    for index, match in enumerate(matches):
        if index < len(matches) // 2:
            simulate.play_match(match, rng, director=director, hands=24)
        elif index == len(matches) - 1:
            continue  # not started yet
        else:
            simulate.play_match(match, rng, hands=2 + index % 3)
            if index == len(matches) - 2:
                simulate.play_hand(match, rng, confirm=False)
            elif index == len(matches) - 3:
                pending = simulate.play_hand(match, rng, confirm=False)
                other = next(a for a in simulate.scorers(match)
                             if a.side != pending.submitted_side)
                services.reject_hand(submission=pending, actor=other,
                                     reason="we counted 4 tricks for North, not 3")


@transaction.atomic
def build_spades(seed: int = 2026, *, start: datetime | None = None, teams: int = 16,
                 played: int = 3) -> Tournament:
    """The Spades Swiss: `teams` teams, five rounds, `played` of them closed and the next in
    play."""
    rng = random.Random(seed)
    director = director_actor()
    start = start or timezone.now().replace(hour=18, minute=30, second=0, microsecond=0)
    tournament = services.create_tournament(
        actor=director, name="Friday Night Spades", game="spades", rules="standard",
        format="swiss", rounds=5, match_length="target", seed=seed, starts_at=start,
        venue="Koenji Community Hall",
    )
    services.open_registration(tournament=tournament, actor=director)
    names = _names(rng, 2 * teams)
    for index, team in enumerate(TEAMS[:teams]):
        services.register_entry(tournament=tournament, actor=director, name=team,
                                players=[PlayerSpec(names[2 * index]),
                                         PlayerSpec(names[2 * index + 1])])
    for entry in tournament.entries.all():
        services.check_in(entry=entry, actor=director)
    for _ in range(played):
        _play_round(tournament, director, rng)
    _play_round(tournament, director, rng, finish=False)
    return tournament


@transaction.atomic
def build_solo_whist(seed: int = 2026, *, start: datetime | None = None, players: int = 12,
                     rounds: int = 3) -> Tournament:
    """The Solo Whist evening: `players` players at tables of four, every round played."""
    rng = random.Random(seed + 1)
    director = director_actor()
    start = start or (timezone.now() - timedelta(days=7)).replace(
        hour=19, minute=0, second=0, microsecond=0
    )
    tournament = services.create_tournament(
        actor=director, name="Solo Whist Evening", game="solo-whist", rules="phillips",
        format="individual", rounds=rounds, match_length="hands", match_hands=8,
        place_points=[3, 2, 1, 0], seed=seed, starts_at=start, venue="Koenji Community Hall",
    )
    services.open_registration(tournament=tournament, actor=director)
    for name in _names(rng, players):
        services.register_entry(tournament=tournament, actor=director,
                                players=[PlayerSpec(name)])
    for _ in range(rounds):
        _play_round(tournament, director, rng)
    services.finish_tournament(tournament=tournament, actor=director)
    return tournament


def build(seed: int = 2026) -> list[Tournament]:
    return [build_solo_whist(seed), build_spades(seed)]

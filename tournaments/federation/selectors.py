"""What the federation pages show: a game's leaderboard (person or member record, their
clubs, rating, events counted) and one person's history after each event."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils.dateparse import parse_datetime

from tournaments.models import Club, FederationRating, FederationRun, Player, Tournament
from tournaments.presentation import PRESENTATIONS, game_name


def games() -> list[tuple[str, str]]:
    """Every game, in the club's order, with its name (the pages' tabs)."""
    return [(code, game_name(code)) for code in PRESENTATIONS]


def first_rated_game() -> str:
    """The game the ranking opens on: the first, in the club's order, that has ratings (the
    first game when none has)."""
    rated = set(FederationRating.objects.values_list("game", flat=True).distinct())
    return next((code for code in PRESENTATIONS if code in rated), next(iter(PRESENTATIONS)))


def club_address(slug: str, path: str) -> str:
    """A club's page at `path` (an address reversed at the site's root): under `/c/<slug>/`."""
    prefix = get_script_prefix()
    return f"{prefix}c/{slug}/{path[len(prefix) :]}"


def _names(ratings: list[FederationRating]) -> dict[int, str]:
    """The name each rating is shown under: its member record's, or for a person the name on
    their newest record."""
    names = {r.pk: r.player.name for r in ratings if r.player is not None}
    people = {r.person_id: r.pk for r in ratings if r.person_id is not None}
    for person, name in (
        Player.objects.filter(person_id__in=people)
        .order_by("person_id", "-pk")
        .values_list("person_id", "name")
    ):
        names.setdefault(people[person], name)
    return names


def _clubs(ids: set[int]) -> dict[int, Club]:
    return {c.pk: c for c in Club.objects.filter(pk__in=ids)}


@dataclass(frozen=True)
class BoardRow:
    rank: int
    tied: bool
    rating: FederationRating
    name: str
    clubs: list[Club]


def board(game: str) -> list[BoardRow]:
    """The game's federation leaderboard, best rating first (equal ratings share a rank)."""
    ratings = list(
        FederationRating.objects.filter(game=game)
        .select_related("player")
        .order_by("-ordinal", "-games", "pk")
    )
    names = _names(ratings)
    clubs = _clubs({c for r in ratings for c in r.clubs})
    rows: list[BoardRow] = []
    for i, r in enumerate(ratings):
        tied = (i > 0 and ratings[i - 1].ordinal == r.ordinal) or (
            i + 1 < len(ratings) and ratings[i + 1].ordinal == r.ordinal
        )
        rank = rows[-1].rank if i > 0 and ratings[i - 1].ordinal == r.ordinal else i + 1
        rows.append(
            BoardRow(rank, tied, r, names.get(r.pk, ""), [clubs[c] for c in r.clubs if c in clubs])
        )
    return rows


def last_run(game: str) -> FederationRun | None:
    return FederationRun.objects.filter(game=game).first()


@dataclass(frozen=True)
class HistoryRow:
    ended_at: datetime | None
    event: str
    url: str
    club: str
    mu: float
    sigma: float
    ordinal: float


def history(game: str, pk: int) -> tuple[FederationRating, str, list[HistoryRow]] | None:
    """One rating with its name and its points (rating after each event counted, in order)."""
    rating = FederationRating.objects.filter(game=game, pk=pk).select_related("player").first()
    if rating is None:
        return None
    points: list[list[Any]] = rating.history
    events = {
        t.pk: t
        for t in Tournament.objects.filter(pk__in=[p[1] for p in points]).select_related("club")
    }
    rows = []
    for ended, event, _club, mu, sigma, ordinal in points:
        t = events.get(event)
        rows.append(
            HistoryRow(
                ended_at=parse_datetime(ended) if ended else None,
                event=t.name if t else "",
                url=club_address(
                    t.club.slug, reverse("tournaments:public-tournament", args=[t.slug])
                )
                if t
                else "",
                club=t.club.name if t else "",
                mu=mu,
                sigma=sigma,
                ordinal=ordinal,
            )
        )
    return rating, _names([rating]).get(rating.pk, ""), rows

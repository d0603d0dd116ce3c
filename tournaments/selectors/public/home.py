"""The club home and the leaderboards: the club's tournaments by state, each game's ratings."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from games.registry import GAMES
from tournaments.models import (
    Club,
    Entry,
    Rating,
    Tournament,
    home_club,
)
from tournaments.presentation import game_name


@dataclass
class ClubTournaments:
    running: list[Tournament]
    upcoming: list[Tournament]
    finished: list[Tournament]


def club_tournaments(club: Club | None = None) -> ClubTournaments:
    """Every tournament of the club, grouped the way a visitor looks for them: now, soon,
    past."""
    groups: dict[str, list[Tournament]] = defaultdict(list)
    for tournament in _with_entry_counts().filter(club=club or home_club()):
        groups[tournament.state].append(tournament)
    upcoming = groups[Tournament.State.REGISTRATION] + groups[Tournament.State.SETUP]
    return ClubTournaments(
        running=groups[Tournament.State.RUNNING],
        upcoming=upcoming,
        finished=groups[Tournament.State.FINISHED],
    )


def _with_entry_counts() -> QuerySet[Tournament]:
    active = ~Q(entries__status=Entry.Status.WITHDRAWN)
    return Tournament.objects.annotate(entry_count=Count("entries", filter=active))


def rated_games() -> list[tuple[str, str]]:
    """(game, name) for every game, in the club's order."""
    return [(game, game_name(game)) for game in GAMES]


#: Ratings are shown to one decimal; players whose shown ratings are equal share a rank.
SHOWN_PLACES = 1


def shown(ordinal: float) -> float:
    return round(ordinal, SHOWN_PLACES)


@dataclass
class LeaderRow:
    rank: int
    rating: Rating
    tied: bool = False

    @property
    def win_rate(self) -> float | None:
        games = self.rating.games
        return self.rating.wins / games if games else None


def leaderboard(game: str, club: Club | None = None) -> list[LeaderRow]:
    """The game's ratings of the club's players, best ordinal first (listed by more games, then
    the older player, among equals). Players whose ratings are equal as shown share a rank
    (1, 2, 2, 4)."""
    ratings = (
        Rating.objects.filter(game=game, player__club=club or home_club())
        .select_related("player")
        .order_by("-ordinal", "-games", "player_id")
    )
    rows: list[LeaderRow] = []
    for place, rating in enumerate(ratings, 1):
        before = rows[-1] if rows else None
        if before and shown(before.rating.ordinal) == shown(rating.ordinal):
            before.tied = True
            rows.append(LeaderRow(before.rank, rating, tied=True))
        else:
            rows.append(LeaderRow(place, rating))
    return rows

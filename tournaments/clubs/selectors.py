"""What the clubs' pages show: the installation's clubs with their counts, a club's directors,
its open invitations and its audit trail; and a club's own rows: every look-up a page, an API
call, an export or a stream makes by an address's slug or id goes through `of_club`, so another
club's row is not found at this club's address (docs/clubs.md, "Who sees what").

Each model names the path from its rows to their club once (`CLUB_PATH`); a model not listed is
refused loudly (a new model must say whose it is before a page may look it up by club).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Model, QuerySet
from django.db.models.manager import BaseManager
from django.utils import timezone

from tournaments.clubs.models import Club, ClubAction, ClubAuditEvent, ClubInvitation, home_club
from tournaments.models import Player, Series, Tournament


@dataclass(frozen=True, slots=True)
class ClubRow:
    club: Club
    home: bool
    directors: int
    tournaments: int
    players: int
    seasons: int


def _counts(rows: QuerySet[Any]) -> dict[int, int]:
    return {row["club"]: row["n"] for row in rows.values("club").annotate(n=Count("pk"))}


def clubs_overview() -> list[ClubRow]:
    """Every club with its counts (one query per count, not one per club)."""
    clubs = list(Club.objects.annotate(director_count=Count("directors")).order_by("name", "pk"))
    tournaments = _counts(Tournament.objects.order_by())
    players = _counts(Player.objects.order_by())
    seasons = _counts(Series.objects.order_by())
    home = home_club().pk
    return [
        ClubRow(
            club=club,
            home=club.pk == home,
            directors=club.director_count,
            tournaments=tournaments.get(club.pk, 0),
            players=players.get(club.pk, 0),
            seasons=seasons.get(club.pk, 0),
        )
        for club in clubs
    ]


def public_clubs() -> QuerySet[Club]:
    """The clubs the installation's front page lists (the suspended ones are marked there)."""
    return Club.objects.order_by("name", "pk")


def directors(club: Club) -> QuerySet[Any]:
    return club.directors.order_by("username")


def open_invitations(club: Club) -> QuerySet[ClubInvitation]:
    """The invitations not used, not revoked and not expired."""
    return (
        ClubInvitation.objects.filter(
            club=club,
            accepted_at__isnull=True,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        )
        .select_related("invited_by")
        .order_by("-created_at", "-pk")
    )


def audit(club: Club, *, limit: int = 50) -> QuerySet[ClubAuditEvent]:
    return ClubAuditEvent.objects.filter(club=club).select_related("invitation__invited_by")[:limit]


def suspension_reason(club: Club) -> str:
    """Why the club was suspended (the audit trail's last suspension), while it is."""
    if club.suspended_at is None:
        return ""
    event = (
        ClubAuditEvent.objects.filter(club=club, action=ClubAction.SUSPENDED)
        .order_by("-at", "-pk")
        .first()
    )
    return event.reason if event is not None else ""


# -- a club's own rows -----------------------------------------------------------------------------


#: Model name -> the lookup from its rows to their club.
CLUB_PATH: dict[str, str] = {
    "Tournament": "club",
    "Series": "club",
    "Player": "club",
    "Team": "club",
    "PublishingKey": "club",
    "RemovedName": "club",
    "MembersSettings": "club",
    "Entry": "tournament__club",
    "Round": "tournament__club",
    "KeepApart": "tournament__club",
    "AuditEvent": "tournament__club",
    "ImportJob": "tournament__club",
    "EventTable": "tournament__club",
    "StandingsSnapshot": "tournament__club",
    "DuplicateEvent": "tournament__club",
    "DuplicatePair": "tournament__club",
    "Publication": "tournament__club",
    "Board": "tournament__club",
    "BoardResult": "tournament__club",
    "Table": "round__tournament__club",
    "Match": "round__tournament__club",
    "Seat": "match__round__tournament__club",
    "RoundClock": "round__tournament__club",
    "Hand": "match__round__tournament__club",
    "HandSubmission": "hand__match__round__tournament__club",
    "TableToken": "table__tournament__club",
    "DirectorCall": "table__round__tournament__club",
    "Rating": "player__club",
    "SeriesMember": "series__club",
    "PublishedEvent": "key__club",
}


def club_path(model: type[Model]) -> str:
    """The lookup from the model's rows to their club (KeyError: the model says no club)."""
    return CLUB_PATH[model.__name__]


def of_club[M: Model](found: QuerySet[M] | BaseManager[M], club: Club) -> QuerySet[M]:
    """`found` (a queryset or a model's manager) narrowed to the club's rows."""
    rows: QuerySet[M] = found.all()
    return rows.filter(**{club_path(rows.model): club})

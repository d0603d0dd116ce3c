"""What the clubs' pages show: the installation's clubs with their counts, a club's directors,
its open invitations and its audit trail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet
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

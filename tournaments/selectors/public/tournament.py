"""A tournament's page: the tournament, its entries and the rounds a visitor may see."""

from __future__ import annotations

from tournaments.models import (
    Club,
    Entry,
    Round,
    Tournament,
)


def tournament_by_slug(slug: str, *, club: Club) -> Tournament | None:
    """The club's tournament of that slug (another club's is not found at this club's
    address)."""
    return Tournament.objects.filter(club=club, slug=slug).first()


def entries(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament)
        .select_related("team__first", "team__second", "player")
        .order_by("registered_at", "id")
    )


def visible_rounds(tournament: Tournament, *, director: bool) -> list[Round]:
    """The rounds a visitor may see: published ones, and drafts for the directors."""
    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    if not director:
        rounds = rounds.public()
    return list(rounds)


def current_round(tournament: Tournament) -> Round | None:
    """The round a room watches: the newest one published."""
    return Round.objects.public().filter(tournament=tournament).order_by("-number").first()

"""Reading the members' pages: finding a player by name, and a player's personal score cards of
the duplicate evenings they played (board, opponents, score, matchpoints)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q

from tournaments.duplicate import selectors as duplicate
from tournaments.members import names
from tournaments.models import (
    Club,
    DuplicatePair,
    Entry,
    Player,
    RemovedName,
    Tournament,
    home_club,
)

MAX_FOUND = 50
MIN_QUERY = 2


@dataclass(frozen=True, slots=True)
class Found:
    player: Player
    events: int


@dataclass(frozen=True, slots=True)
class ScoreCard:
    tournament: Tournament
    pair: int
    name: str
    method: str
    rows: list[dict[str, Any]]


def shown(player: Player) -> bool:
    """A player has a public page unless their name was removed on request."""
    return player.name != names.WITHHELD and not RemovedName.objects.filter(uid=player.uid).exists()


def find(query: str, club: Club | None = None) -> list[Found]:
    """The club's players (by default the home club's) whose name (as the site shows it) holds
    `query`, who played at least one event; none for a query shorter than MIN_QUERY
    characters. Names removed on request are not found."""
    query = " ".join(query.split())
    if len(query) < MIN_QUERY:
        return []
    return _listed(_players(club).filter(name__icontains=query)[:MAX_FOUND])


def everyone(club: Club | None = None) -> list[Found]:
    """Every player of the club (by default the home club's) the site shows, by name: the
    finder's page without a query (a static copy of the site, which cannot search, lists them
    all)."""
    return _listed(_players(club))


def _players(club: Club | None) -> Any:
    entered = Entry.objects.filter(
        Q(player=OuterRef("pk")) | Q(team__first=OuterRef("pk")) | Q(team__second=OuterRef("pk"))
    )
    return (
        Player.objects.filter(club=club if club is not None else home_club())
        .exclude(name=names.WITHHELD)
        .exclude(uid__in=RemovedName.objects.values("uid"))
        .filter(Exists(entered))
        .order_by("name", "id")
    )


def _listed(players: Any) -> list[Found]:
    found = list(players)
    counts = _event_counts([p.pk for p in found])
    return [Found(p, counts.get(p.pk, 0)) for p in found]


def _event_counts(player_ids: list[int]) -> dict[int, int]:
    out: dict[int, set[int]] = {pk: set() for pk in player_ids}
    rows = Entry.objects.filter(
        Q(player_id__in=player_ids)
        | Q(team__first_id__in=player_ids)
        | Q(team__second_id__in=player_ids)
    ).values_list("tournament_id", "player_id", "team__first_id", "team__second_id")
    for tournament_id, *people in rows:
        for pk in people:
            if pk in out:
                out[pk].add(tournament_id)
    return {pk: len(ts) for pk, ts in out.items()}


def score_cards(player: Player) -> list[ScoreCard]:
    """The player's personal score card of each duplicate evening they played, as the evening's
    public page shows it (results released so far), the newest evening first."""
    pairs = (
        DuplicatePair.objects.filter(
            Q(entry__player=player) | Q(entry__team__first=player) | Q(entry__team__second=player)
        )
        .select_related("tournament")
        .order_by("-tournament__starts_at", "-tournament_id")
    )
    out = []
    for pair in pairs:
        scored = duplicate.scored(pair.tournament)
        rows = duplicate.card_rows(scored, pair.number)
        out.append(
            ScoreCard(
                tournament=pair.tournament,
                pair=pair.number,
                name=scored.names.get(pair.number, ""),
                method=scored.event.method,
                rows=rows,
            )
        )
    return out

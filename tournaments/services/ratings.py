"""Club ratings: OpenSkill per player per game over every finished match, recomputed from
scratch (deterministic, and cheap at club scale), by Celery when a match finishes."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction

from tournaments.models import Match, Rating
from tournaments.words.formatting import timestamp

from . import scheduling

PENDING_KEY = "tricktable:ratings-pending:{}"


def rated_games(game: str) -> list:
    """Every finished match of a game, as the ratings engine reads it."""
    from tournaments.ratings import RatedGame

    matches = (
        Match.objects.filter(round__tournament__game=game, state=Match.State.FINISHED, is_bye=False)
        .exclude(round__tournament__format="duplicate")  # rated by their fields, below
        .select_related("round")
        .prefetch_related("seats__entry__team", "seats__entry__player")
        .order_by("finished_at", "id")
    )
    out = []
    for match in matches:
        sides: dict[str, list[int]] = defaultdict(list)
        places: dict[str, int] = {}
        for seat in match.seats.all():
            entry = seat.entry
            if entry.team is not None:
                sides[seat.side] += [entry.team.first_id, entry.team.second_id]
            else:
                assert entry.player_id is not None  # a team's entry or a player's
                sides[seat.side].append(entry.player_id)
            places[seat.side] = seat.place or 1
        order = sorted(sides)
        if len(order) < 2:
            continue
        assert match.finished_at is not None  # state=FINISHED
        out.append(
            RatedGame(
                id=match.pk,
                played_at=match.finished_at,
                sides=tuple(tuple(sides[s]) for s in order),
                places=tuple(places[s] for s in order),
                tournament=match.round.tournament_id,
            )
        )
    out.extend(duplicate_games(game))
    out.sort(key=lambda g: (g.played_at, g.id))
    return out


def duplicate_games(game: str, *, tournaments: Any = None) -> list:
    """Each field of every finished duplicate event of `game` as one rated game: its ranking
    is a finishing order (ties share the place). Ids are negative, apart from matches'.
    `tournaments` (ids, or a query of them) keeps to those events (the federation ranking)."""
    from tournaments.duplicate.plan import compared
    from tournaments.models import DuplicateEvent
    from tournaments.ratings import RatedGame

    out = []
    events = DuplicateEvent.objects.filter(
        tournament__game=game, tournament__state="finished"
    ).select_related("tournament")
    if tournaments is not None:
        events = events.filter(tournament__in=tournaments)
    for event in events:
        tournament = event.tournament
        players: dict[int, tuple[int, int]] = {}
        for p in tournament.duplicate_pairs.select_related("entry__team"):
            team = p.entry.team
            assert team is not None  # a duplicate pair is a team's entry
            players[p.number] = (team.first_id, team.second_id)
        played_at = (
            tournament.round_set.order_by("-number").values_list("closed_at", flat=True).first()
        ) or tournament.created_at
        for k, (_name, standings) in enumerate(sorted(compared(tournament).event.rankings.items())):
            rows = [s for s in standings if s.pair in players]
            if len(rows) < 2:
                continue
            out.append(
                RatedGame(
                    id=-(tournament.pk * 10 + k + 1),
                    played_at=played_at,
                    sides=tuple(players[s.pair] for s in rows),
                    places=tuple(s.place for s in rows),
                    tournament=tournament.pk,
                )
            )
    return out


@transaction.atomic
def recompute(*, game: str) -> int:
    """Rate every finished match of `game` from scratch and store the ratings; returns the
    number of players rated."""
    from tournaments.ratings import rate

    ratings = rate(rated_games(game))
    Rating.objects.filter(game=game).delete()
    Rating.objects.bulk_create(
        Rating(
            player_id=r.player,
            game=game,
            mu=r.mu,
            sigma=r.sigma,
            ordinal=r.ordinal,
            games=r.games,
            wins=r.wins,
            draws=r.draws,
            last_played=r.last_played,
            history=[[timestamp(p.played_at), p.game, p.mu, p.sigma, p.ordinal] for p in r.history],
        )
        for r in ratings.values()
    )
    return len(ratings)


def schedule(game: str) -> None:
    """Re-rate a game soon; never raises when sending (a missed update is caught by the next
    one or by `manage.py recompute_ratings`)."""
    scheduling.run_or_send("tournaments.recompute_ratings", game, pending=PENDING_KEY.format(game))


def claim(game: str) -> None:
    """A re-rating task starts: later finished matches must schedule a fresh task."""
    scheduling.release(PENDING_KEY.format(game))

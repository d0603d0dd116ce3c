"""The federation ranking: read the opted-in clubs' finished events, rate them with the pure
engine outside any transaction, write the result in one short transaction; a club opting in or
out; scheduling the recompute (a Celery task, coalesced).

A recompute never locks what publishing or scoring write: it reads the events (no lock) and
writes only the federation's own tables. Two runs at once cannot mix their results: a run
writes only when the game's `FederationRun.version` is still the one it read before
computing (checked under the row's lock in the write transaction); otherwise it reads and
computes again, so the last write is always of inputs read after the one before it.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from tournaments.models import (
    Club,
    FederationRating,
    FederationRun,
    Player,
    Seat,
    Tournament,
)
from tournaments.presentation import PRESENTATIONS
from tournaments.services import ratings, scheduling
from tournaments.services.actors import Actor, require_club_director
from tournaments.words.formatting import timestamp

from .engine import (
    FederationEvent,
    FederationMatch,
    FederationStanding,
    Subject,
    digest,
    federation_ratings,
)

PENDING_KEY = "tricktable:federation-pending:{}"
TASK = "tournaments.recompute_federation"
#: How many times a run computes again when another run wrote while it computed.
ATTEMPTS = 3


def _subject(player: int, person: int | None) -> Subject:
    return ("person", person) if person is not None else ("player", player)


def counted_events(game: str) -> QuerySet[Tournament]:
    """The events the ranking counts: finished events of `game` of the opted-in clubs."""
    return Tournament.objects.filter(
        game=game, state=Tournament.State.FINISHED, club__federation=True
    )


def federation_events(game: str) -> list[FederationEvent]:
    """The counted events as the engine reads them (three queries and the duplicate events'
    fields): the events' end times (their last round's closing, else their creation), the
    finished matches' seats with each member record's person, as the club ratings read them."""
    events = counted_events(game)
    ends = {
        pk: (club, ended or created)
        for pk, club, ended, created in events.annotate(ended=Max("round_set__closed_at"))
        .values_list("pk", "club_id", "ended", "created_at")
        .order_by()
    }
    seats = (
        Seat.objects.filter(  # the events' filter as joins: no IN (subquery) to misplan
            match__round__tournament__game=game,
            match__round__tournament__state=Tournament.State.FINISHED,
            match__round__tournament__club__federation=True,
            match__state="finished",
            match__is_bye=False,
        )
        .exclude(match__round__tournament__format=Tournament.Format.DUPLICATE)
        .values_list(
            "match__round__tournament_id",
            "match__finished_at",
            "match_id",
            "side",
            "place",
            "entry__player_id",
            "entry__player__person_id",
            "entry__team__first_id",
            "entry__team__first__person_id",
            "entry__team__second_id",
            "entry__team__second__person_id",
        )
        .order_by()
    )
    matches: dict[tuple, tuple[dict[str, list[Subject]], dict[str, int]]] = {}
    for tid, finished, mid, side, place, player, person, first, p1, second, p2 in seats.iterator(
        chunk_size=5000
    ):
        sides, places = matches.setdefault((tid, finished is None, finished, mid), ({}, {}))
        members = sides.setdefault(side, [])
        # A player's entry, or a team's (the stubs type the joined ids as never None).
        pairs: list[tuple[int | None, int | None]] = [(player, person), (first, p1), (second, p2)]
        members += [_subject(pk, of) for pk, of in pairs if pk is not None]
        places[side] = place or 1
    by_event: dict[int, list[FederationMatch]] = defaultdict(list)
    for key in sorted(matches):
        sides, places = matches[key]
        order = sorted(sides)
        if len(order) < 2:
            continue
        by_event[key[0]].append(
            FederationMatch(
                sides=tuple(tuple(sides[s]) for s in order),
                places=tuple(places[s] for s in order),
            )
        )
    fields = ratings.duplicate_games(game, tournaments=events.values("pk"))
    if fields:
        records = {p for g in fields for side in g.sides for p in side}
        person_of = dict(Player.objects.filter(pk__in=records).values_list("pk", "person_id"))
        for g in fields:
            by_event[g.tournament].append(
                FederationMatch(
                    sides=tuple(tuple(_subject(p, person_of.get(p)) for p in s) for s in g.sides),
                    places=g.places,
                )
            )
    return [
        FederationEvent(id=pk, club=club, ended_at=ended, matches=tuple(by_event.get(pk, ())))
        for pk, (club, ended) in ends.items()
        if by_event.get(pk)
    ]


@dataclass(frozen=True, slots=True)
class Outcome:
    game: str
    written: bool  # False: the inputs had not changed since the last write
    version: int
    events: int
    people: int
    attempts: int


def recompute(*, game: str) -> Outcome:
    """Rate the counted events of `game` from scratch and store the ratings (if their inputs
    changed since the last write). Reads and computes outside any transaction; writes in one."""
    for attempt in range(1, ATTEMPTS + 1):
        seen = (
            FederationRun.objects.filter(game=game)
            .values_list("version", "inputs", "people")
            .first()
        )
        version, inputs, people = seen if seen is not None else (0, "", 0)
        started = time.perf_counter()
        events = federation_events(game)
        now = digest(events)
        if now == inputs:
            return Outcome(game, False, version, len(events), people, attempt)  # as stored
        result = federation_ratings(events)
        seconds = time.perf_counter() - started
        with transaction.atomic():
            run, _made = FederationRun.objects.select_for_update().get_or_create(game=game)
            if run.version != version:
                continue  # another run wrote meanwhile: read again
            run.version += 1
            _store(game, result.standings.values(), run.version)
            run.inputs = now
            run.events = len(events)
            run.people = len(result.standings)
            run.skipped = result.skipped
            run.seconds = seconds
            run.computed_at = timezone.now()
            run.save()
        return Outcome(game, True, run.version, len(events), len(result.standings), attempt)
    raise RuntimeError(f"federation {game}: other runs kept writing; the next run catches up")


def _store(game: str, standings: Iterable[FederationStanding], version: int) -> None:
    fields = [
        "mu",
        "sigma",
        "ordinal",
        "games",
        "wins",
        "draws",
        "events",
        "clubs",
        "last_played",
        "history",
        "version",
    ]
    rows: dict[str, list[FederationRating]] = {"person": [], "player": []}
    for s in standings:
        kind, pk = s.subject
        rows[kind].append(
            FederationRating(
                game=game,
                person_id=pk if kind == "person" else None,
                player_id=pk if kind == "player" else None,
                mu=s.mu,
                sigma=s.sigma,
                ordinal=s.ordinal,
                games=s.games,
                wins=s.wins,
                draws=s.draws,
                events=s.events,
                clubs=list(s.clubs),
                last_played=s.last_played,
                history=[
                    [timestamp(p.ended_at), p.event, p.club, p.mu, p.sigma, p.ordinal]
                    for p in s.history
                ],
                version=version,
            )
        )
    for kind, made in rows.items():
        if made:
            FederationRating.objects.bulk_create(
                made,
                batch_size=1000,
                update_conflicts=True,
                unique_fields=["game", kind],
                update_fields=fields,
            )
    FederationRating.objects.filter(game=game).exclude(version=version).delete()


def set_federation(*, club: Club, joined: bool, actor: Actor) -> Club:
    """A club opts in to (or out of) the federation ranking; its directors only. Every game is
    re-rated after the change is committed (its events count, or no longer count)."""
    require_club_director(actor, club)
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        if club.federation != joined:
            club.federation = joined
            club.save(update_fields=["federation"])
            transaction.on_commit(schedule_all)
    return club


def schedule(game: str) -> None:
    """Re-rate a game's federation ranking soon: one task for a burst of changes (the task
    starts FEDERATION_DEBOUNCE_SECONDS after the first). Never raises when sending (a missed
    update is caught by the next one or by `manage.py recompute_federation`)."""
    from django.conf import settings

    scheduling.run_or_send(
        TASK,
        game,
        pending=PENDING_KEY.format(game),
        seconds=max(30, int(settings.FEDERATION_DEBOUNCE_SECONDS) + 30),
        countdown=settings.FEDERATION_DEBOUNCE_SECONDS or None,
    )


def schedule_all() -> None:
    """Every game (a club opted in or out, people linked)."""
    for game in PRESENTATIONS:
        schedule(game)


def claim(game: str) -> None:
    """A recompute starts: later changes must schedule a fresh task."""
    scheduling.release(PENDING_KEY.format(game))


def event_changed(*, tournament_id: int) -> None:
    """Results of an event changed (after commit): re-rate its game if the event is finished
    and its club in the federation (one indexed look-up; nothing for a running event)."""
    game = (
        Tournament.objects.filter(
            pk=tournament_id, state=Tournament.State.FINISHED, club__federation=True
        )
        .values_list("game", flat=True)
        .first()
    )
    if game is not None:
        schedule(game)

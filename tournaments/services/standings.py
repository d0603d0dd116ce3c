"""Standings as immutable, versioned snapshots, computed from finished matches.

A change to results bumps the tournament's `results_version` in the same transaction. After
commit a recompute is scheduled: on a Celery worker when Redis is configured (a burst of
changes is coalesced into one task by a short-lived Redis key), in-process otherwise. The
recompute is idempotent: it writes a snapshot only if none exists yet for the results version it
read (compare-and-set under the tournament's row lock), and announces "standings version N".
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments import gameplay
from tournaments.live import events
from tournaments.models import Entry, StandingsChange, StandingsSnapshot, Tournament
from tournaments.standings import Entrant, Standings

from . import history as hist
from . import scheduling

log = logging.getLogger(__name__)
PENDING_KEY = "tricktable:standings-pending:{}"
PENDING_SECONDS = 30


def bump(tournament_id: int, *, match_id: int | None = None) -> None:
    """Count a change to results (inside the workflow's transaction), and note what it was
    about: one match (`match_id`), or anything (None). The count is taken under the
    tournament's row lock, which the update holds until commit, so counts are noted in the
    order they commit."""
    counted = Tournament.objects.filter(pk=tournament_id).update(
        results_version=F("results_version") + 1
    )
    if not counted:
        return
    version = Tournament.objects.filter(pk=tournament_id).values_list("results_version", flat=True)
    StandingsChange.objects.create(
        tournament_id=tournament_id, inputs_version=version.get(), match_id=match_id
    )


def _value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    return value


def _row_values(names: list[str], values: Any, made: dict[int, Any]) -> dict[str, Any]:
    """A row's values as JSON: `_value` of each, made once per distinct object (the engine
    shares one Fraction per distinct value between rows). `made` is keyed by `id()`: every
    value stays alive in the rows until the payload is built, so no id is reused meanwhile."""
    out = {}
    for name, v in zip(names, values, strict=True):
        if type(v) is int:
            out[name] = v
            continue
        key = id(v)
        j = made.get(key)
        if j is None:
            j = made[key] = _value(v)
        out[name] = j
    return out


def _entry_json(entry: hist.EntryFacts) -> dict:
    return {
        "entry": entry.pk,
        "name": entry.name,
        "players": list(entry.players),
        "withdrawn": entry.status == Entry.Status.WITHDRAWN,
    }


#: What a duplicate event ranks by (its own comparison of each board; docs/duplicate.md): the
#: pairs' percentages with matchpoints, their totals with IMPs.
DUPLICATE_RANKED_BY = {"matchpoints": "percentage", "imps": "imps"}


def duplicate_payload(tournament: Tournament) -> dict:
    """A duplicate event's standings: its rankings, field by field (a Mitchell has two), as
    the public pages show them (the released rounds; every round once it is finished). Each
    row's `rank` is its place in its `field`; its values are the percentage (matchpoints) or
    the IMPs total, the total, the top and the boards played."""
    from tournaments.duplicate.plan import compared
    from tournaments.models import DuplicatePair

    event = compared(tournament)
    method = event.event.method
    entry_of = dict(
        DuplicatePair.objects.filter(tournament=tournament).values_list("number", "entry_id")
    )
    facts = {e.pk: e for e in hist.entry_facts(tournament)}
    rows = []
    for field in sorted(event.event.rankings):
        for s in event.event.rankings[field]:
            entry = facts.get(entry_of.get(s.pair, -1))
            if entry is None:
                continue
            values: dict[str, Any] = {
                "total": _value(Fraction(s.total)),
                "top": _value(Fraction(s.top)),
                "boards": s.boards,
            }
            if s.percentage is not None:
                values["percentage"] = _value(s.percentage)
            rows.append(
                {
                    "rank": s.place,
                    "tied": s.tied,
                    **_entry_json(entry),
                    "field": field,
                    "pair": s.pair,
                    "values": values,
                }
            )
    return {
        "tournament": tournament.slug,
        "tiebreaks": [DUPLICATE_RANKED_BY.get(method, method)],
        "ranked_by": DUPLICATE_RANKED_BY.get(method, method),
        "rounds_closed": tournament.round_set.filter(state="closed").count(),
        "provisional": None,
        "rows": rows,
    }


@dataclass(slots=True)
class Kept:
    """What a recompute computed, kept for the next one (`KEPT`): the snapshot it became
    (`version`, `inputs`), the settings and entries it was computed with, the engine's kept
    standings and the payload's rows."""

    snapshot: tuple  # the snapshot it became: `_latest`'s (version, inputs, id, when)
    inputs: int
    settings: tuple
    entries: list[hist.EntryFacts]
    standings: Standings
    rows: list[dict]


#: The last computation of each of a few tournaments in this process (a worker's, mostly), by
#: tournament id. A cache only: a recompute uses it when the latest snapshot is the one it made
#: and every change since names a match, and otherwise reads the whole event.
KEPT: OrderedDict[int, Kept] = OrderedDict()
KEPT_TOURNAMENTS = 8


def _settings(tournament: Tournament) -> tuple:
    """What the standings depend on besides the entries and results."""
    return (
        tournament.format,
        tournament.game,
        tournament.rules,
        tuple(tournament.tiebreaks),
        tournament.top_cut,
        tournament.late_entry,
        str(tournament.points_draw),
        str(tournament.points_bye),
    )


def _changed_matches(tournament_id: int, kept: Kept, inputs: int) -> set[int] | None:
    """The matches changed since `kept`'s inputs up to `inputs`, or None when something else
    changed (or a count is not noted: the event must be read whole)."""
    if inputs <= kept.inputs:
        return None
    changes = list(
        StandingsChange.objects.filter(
            tournament_id=tournament_id,
            inputs_version__gt=kept.inputs,
            inputs_version__lte=inputs,
        ).values_list("match_id", flat=True)
    )
    if len(changes) != inputs - kept.inputs or None in changes:
        return None
    return set(changes)


def _rows_json(standings: Standings, entries: list[hist.EntryFacts]) -> list[dict]:
    by_pk = {e.pk: e for e in entries}
    rows = standings.rows
    names = list(rows[0].values) if rows else []
    made: dict[int, Any] = {}
    return [
        {
            "rank": row.rank,
            "tied": row.tied,
            **_entry_json(by_pk[row.entrant]),
            "values": _row_values(names, row.values.in_order(), made),
        }
        for row in rows
    ]


def _computed(tournament: Tournament, latest: tuple | None) -> Kept:
    """The standings of the tournament's current results: from what this process kept for
    the latest snapshot (`latest`, as `_latest` reads it) and the matches changed since, when
    it can; from the whole event otherwise."""
    settings = _settings(tournament)
    inputs = tournament.results_version
    kept = KEPT.get(tournament.pk)
    changed = None
    if kept is not None and latest == kept.snapshot and kept.settings == settings:
        changed = _changed_matches(tournament.pk, kept, inputs)
    entries = hist.entry_facts(tournament)
    people: Sequence[Entrant]
    if changed is not None and kept is not None and entries == kept.entries:
        people = kept.standings.entrants  # the same entries under the same settings
    else:
        people = hist.entrants(tournament, hist.StandingsInput(entries=entries, results=[]))
    if kept is None or changed is None:
        read = hist.event_results(tournament)
        standings = Standings(people, read, tiebreaks=tournament.tiebreaks)
        return Kept((), inputs, settings, entries, standings, _rows_json(standings, entries))
    standings = kept.standings.changed(hist.match_results(tournament, changed), entrants=people)
    if standings is not kept.standings or entries != kept.entries:  # new ranks, or new names
        rows = _rows_json(standings, entries)
    else:  # the same standings in the same words: the same rows
        rows = kept.rows
    return Kept((), inputs, settings, entries, standings, rows)


def _payload(tournament: Tournament, rows: list[dict]) -> dict:
    return {
        "tournament": tournament.slug,
        "tiebreaks": list(tournament.tiebreaks),
        "ranked_by": tournament.tiebreaks[0] if tournament.tiebreaks else "match_points",
        "rounds_closed": tournament.round_set.filter(state="closed").count(),
        "provisional": provisional(tournament) if tournament.show_provisional else None,
        "rows": rows,
    }


def compute_payload(tournament: Tournament) -> dict:
    """The standings payload of the tournament's current results, read whole (no kept
    state)."""
    if tournament.format == Tournament.Format.DUPLICATE:
        return duplicate_payload(tournament)
    return _payload(tournament, _computed(tournament, None).rows)


def provisional(tournament: Tournament) -> list[dict]:
    """Matches still in play with their running score from the hands entered so far (pending
    ones included), for a tournament that shows provisional results; never ranked."""
    from tournaments.models import HandSubmission, Match

    out = []
    matches = (
        Match.objects.filter(round__tournament=tournament, state=Match.State.PLAYING)
        .select_related("round", "table")
        .prefetch_related("seats__entry__team", "seats__entry__player")
        .order_by("round__number", "table__number")
    )
    for match in matches:
        versions = list(
            HandSubmission.objects.filter(hand__match=match, is_current=True)
            .exclude(status__in=[HandSubmission.Status.REJECTED, HandSubmission.Status.VOIDED])
            .order_by("hand__number")
            .only("status", "result", "hand__number")
        )
        after = versions[-1].result["after"] if versions else None
        scores = gameplay.hand_scores(tournament.format, [v.result for v in versions])
        result = gameplay.outcome(tournament.game, tournament.rules, after, hands=scores)
        sides: dict[str, dict] = {}
        for seat in match.seats.all():
            side = sides.setdefault(
                seat.side, {"entries": [], "points": _value(result.points[seat.side])}
            )
            side["entries"].append(seat.entry_id)
        out.append(
            {
                "match": match.pk,
                "round": match.round.number,
                "table": match.played_table.number,
                "hands": len(versions),
                "confirmed": all(v.status == HandSubmission.Status.CONFIRMED for v in versions),
                "sides": sides,
            }
        )
    return out


def _latest(tournament_id: int) -> tuple | None:
    """(version, inputs_version, id, computed_at) of the latest snapshot, without its payload:
    reading the payload (half a megabyte of JSON at 1,000 entries, turned into text by
    PostgreSQL and parsed again here) only to read two numbers was a sixth of a recompute. The
    id and the time tell the snapshot apart from one of the same numbers in a database restored
    meanwhile (what `KEPT` was computed for)."""
    return (
        StandingsSnapshot.objects.filter(tournament_id=tournament_id)
        .values_list("version", "inputs_version", "pk", "computed_at")
        .first()
    )


def recompute(*, tournament_id: int) -> StandingsSnapshot | None:
    """Write a snapshot for the current results, unless one exists already (then None)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    inputs = tournament.results_version
    latest = _latest(tournament_id)
    if latest is not None and latest[1] >= inputs:
        return None
    computed: Kept | None = None
    if tournament.format == Tournament.Format.DUPLICATE:
        payload = duplicate_payload(tournament)
    else:
        computed = _computed(tournament, latest)
        payload = _payload(tournament, computed.rows)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        latest = _latest(tournament_id)
        if latest is not None and latest[1] >= inputs:
            return None  # another recompute won the race with the same (or newer) inputs
        version = (latest[0] if latest else 0) + 1
        snapshot = StandingsSnapshot.objects.create(
            tournament_id=tournament_id,
            version=version,
            inputs_version=inputs,
            payload=payload,
        )
        # the changes this snapshot has counted are not needed any more
        StandingsChange.objects.filter(
            tournament_id=tournament_id, inputs_version__lte=inputs
        ).delete()
        if computed is not None:
            computed.snapshot = (version, inputs, snapshot.pk, snapshot.computed_at)
            transaction.on_commit(lambda: _keep(tournament_id, computed))
        from tournaments.seasons import (
            services as seasons,  # a season counting this tournament is behind now
        )

        seasons.member_changed(tournament_id)
        transaction.on_commit(
            lambda: events.publish(tournament_id, {"event": "standings", "version": version})
        )
    return snapshot


def _keep(tournament_id: int, computed: Kept) -> None:
    KEPT[tournament_id] = computed
    KEPT.move_to_end(tournament_id)
    while len(KEPT) > KEPT_TOURNAMENTS:
        KEPT.popitem(last=False)


@dataclass(frozen=True, slots=True)
class Latest:
    snapshot: StandingsSnapshot | None
    stale: bool  # results changed since it was computed
    age: float | None  # seconds since it was computed


def latest(*, tournament: Tournament) -> Latest:
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    if snapshot is None:
        return Latest(None, tournament.results_version > 0, None)
    age = (timezone.now() - snapshot.computed_at).total_seconds()
    return Latest(snapshot, snapshot.inputs_version < tournament.results_version, age)


def schedule(tournament_id: int) -> None:
    """Have the standings recomputed soon (after commit). Never raises when sending: with the
    worker or Redis down the results are stored, the snapshot is marked stale, and the sweep
    catches up."""
    scheduling.run_or_send(
        "tournaments.recompute_standings",
        tournament_id,
        pending=PENDING_KEY.format(tournament_id),
        seconds=PENDING_SECONDS,
    )


def round_closed(tournament_id: int) -> None:
    """A round closed or the event finished (inside that transaction): the standings say how many
    rounds are closed, so the snapshot is computed again at once, here, after commit (not left
    to the worker's queue or to the next confirmed hand: the pages, the projector and the API
    count the closed round within a second, with the worker or without). If computing here
    fails, the worker (or the sweep) catches up as after any change."""
    bump(tournament_id)

    def now() -> None:
        try:
            recompute(tournament_id=tournament_id)
        except Exception:  # the results are stored; the scheduled recompute will redo it
            log.exception("standings of tournament %s not recomputed at once", tournament_id)
            schedule(tournament_id)

    transaction.on_commit(now)


def claim(tournament_id: int) -> None:
    """A recompute task starts: later changes must schedule a fresh task."""
    scheduling.release(PENDING_KEY.format(tournament_id))


def stale_tournaments() -> list[int]:
    """Tournaments whose latest snapshot is behind their results."""
    out = []
    for tid, version in Tournament.objects.filter(results_version__gt=0).values_list(
        "pk", "results_version"
    ):
        latest = (
            StandingsSnapshot.objects.filter(tournament_id=tid)
            .values_list("inputs_version", flat=True)
            .first()
        )
        if latest is None or latest < version:
            out.append(tid)
    return out


def sweep() -> list[int]:
    """Recompute every stale tournament now; returns their ids."""
    done = stale_tournaments()
    for tid in done:
        recompute(tournament_id=tid)
    return done

"""A duplicate event's stored data read as the engine's: its movement, its IMP scale, its
confirmed results compared; and the engine's refusals as the services'. What the services (the
standings, the ratings), the selectors and the views of duplicate share, below all of them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import QuerySet

from tournaments.duplicate import engine
from tournaments.models import BoardResult, DuplicateEvent, Tournament
from tournaments.services.errors import Invalid, ServiceError


def engine_error(error: engine.DuplicateError) -> ServiceError:
    """The duplicate engine's refusal as the services' (its code unchanged): `bad-record` keeps
    the rules engine's error as `details`; any other code says where it came from
    (`{"engine": "duplicate"}`), which the pages and the API put in words
    (`tournaments.words.engine.DUPLICATE_MESSAGES`)."""
    if error.detail is not None:
        return Invalid(error.code, str(error), details=error.detail)
    return Invalid(error.code, str(error), details={"engine": "duplicate"})


# -- the movement ----------------------------------------------------------------------------


def build_movement(
    *,
    movement: str,
    tables: int,
    rounds: int | None = None,
    even: str = "skip",
    pairs: int | None = None,
) -> engine.Movement:
    """The engine's movement for these settings (`pairs` = 2T - 1: the last pair is missing)."""
    try:
        if movement == "mitchell":
            return engine.mitchell(tables, rounds=rounds, even=even, pairs=pairs)
        if movement == "howell":
            return engine.howell(tables, rounds=rounds, pairs=pairs)
        if movement == "barometer":
            return engine.barometer(tables, rounds=rounds, pairs=pairs)
    except engine.DuplicateError as error:
        raise engine_error(error) from error
    raise Invalid("bad-movement", "the movement is mitchell, howell or barometer")


def movement_of(event: DuplicateEvent) -> engine.Movement:
    """The stored movement (as generated when the event started, sit-outs included)."""
    data = event.movement_data
    if not data.get("rounds"):
        return build_movement(
            movement=event.movement,
            tables=event.tables,
            rounds=event.tournament.rounds,
            even=event.even,
        )
    return engine.Movement(
        kind=data["kind"],
        tables=data["tables"],
        pairs=tuple(data["pairs"]),
        sets=data["sets"],
        copies=data["copies"],
        rounds=tuple(tuple(engine.Seating(**s) for s in seats) for seats in data["rounds"]),
        fields={k: tuple(v) for k, v in event.fields.items()},
        notes=tuple(data["notes"]),
    )


def scale_of(event: DuplicateEvent) -> engine.ImpScale:
    data = event.imp_scale or {}
    if not data:
        return engine.default_scale(event.tournament.game)
    return engine.ImpScale(
        str(data.get("name", "custom")),
        Fraction(str(data.get("factor", 1))),
        tuple(int(s) for s in data.get("steps", ())),
    )


def expected_plays(settings: DuplicateEvent) -> int:
    """The results expected on a board: the most times the movement plays one (Neuberg
    factors the boards played fewer times, e.g. at a sit-out's table)."""
    plan = movement_of(settings)
    counts = Counter(p.board for p in engine.plays(plan, settings.boards_per_round))
    return max(counts.values(), default=1)


def results_qs(tournament: Tournament, through_round: int | None = None) -> QuerySet[BoardResult]:
    qs = BoardResult.objects.filter(
        tournament=tournament, is_current=True, status=BoardResult.Status.CONFIRMED
    ).select_related("board")
    if through_round is not None:
        qs = qs.filter(round_number__lte=through_round)
    return qs


def engine_result(r: BoardResult, compare: str) -> engine.Result:
    if r.kind == BoardResult.Kind.ADJUSTED:
        return engine.Result(
            board=r.board.number,
            ns=r.ns_pair,
            ew=r.ew_pair,
            ns_adjusted=r.ns_adjusted,
            ew_adjusted=r.ew_adjusted,
            table=r.table_number,
            round=r.round_number,
        )
    ns, ew = r.ns_score, r.ew_score
    assert ns is not None and ew is not None  # a scored (not adjusted) result has both
    if compare == "net":
        ns, ew = ns - ew, ew - ns
    return engine.Result(
        board=r.board.number,
        ns=r.ns_pair,
        ew=r.ew_pair,
        ns_score=ns,
        ew_score=ew,
        table=r.table_number,
        round=r.round_number,
        assigned=r.kind == BoardResult.Kind.ASSIGNED,
    )


@dataclass(frozen=True, slots=True)
class Compared:
    """The confirmed results (those of the released rounds unless a director asks) compared by
    the engine."""

    settings: DuplicateEvent
    through_round: int | None  # None: every round (a director's view)
    rows: list[BoardResult]
    event: engine.Event


def compared(tournament: Tournament, *, director: bool = False) -> Compared:
    """The event compared: a director sees every confirmed result; anyone else the results of
    the released rounds (all of them once the event is finished). The standings, the ratings
    and the duplicate pages all read it from here."""
    settings = DuplicateEvent.objects.select_related("tournament").get(tournament=tournament)
    through = None
    if not director and tournament.state != Tournament.State.FINISHED:
        through = settings.released_round
    rows = list(results_qs(tournament, through))
    results = [engine_result(r, settings.board_compare) for r in rows]
    try:
        event = engine.score_event(
            results=results,
            method=settings.comparison,
            fields=settings.fields or None,
            expected=expected_plays(settings),
            scale=scale_of(settings),
        )
    except engine.DuplicateError as error:  # stored results no evening can produce
        raise engine_error(error) from error
    return Compared(settings=settings, through_round=through, rows=rows, event=event)

"""The room: the round clock and calls for the director (issue 15 points 4 and 5).

The clock is kept on the server (`RoundClock`): the time left is computed from the server's
clock by `clock_state`, so a reload, a new phone or the projector all count the same time. Each
change is one transaction, checked against the clock's state (no pausing a clock that is not
running: 409 `clock-not-running`), recorded in the audit trail and announced live ("clock").

A call for the director comes from the table's own scoring token only (nobody calls for another
table); calling again while a call is open returns the open call (one open call per table is a
database constraint). A director acknowledges it; both are announced live ("call").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.models import DirectorCall, Round, RoundClock, Table, Tournament, max_length
from tournaments.services import notify
from tournaments.services.actors import Actor, audit, require_director, scores_table
from tournaments.services.errors import Conflict, Invalid, NotAllowed
from tournaments.words.formatting import timestamp

MAX_MINUTES = 600
MAX_EXTEND = 120
NOTE_LENGTH = max_length(DirectorCall, "note")

# -- the clock ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockState:
    """What every page shows: `state` is "unset" (no clock), "ready" (set, not started),
    "running", "paused" or "over" (time is up); `remaining` may be negative (over time)."""

    state: str
    duration: timedelta
    remaining: timedelta
    last_hand: timedelta
    now: datetime
    started_at: datetime | None = None

    @property
    def ends_at(self) -> datetime | None:
        return self.now + self.remaining if self.state in ("running", "over") else None

    @property
    def last_hand_called(self) -> bool:
        """The "last hand" warning is up (running or paused with that little time left)."""
        return self.state in ("running", "paused") and self.remaining <= self.last_hand

    def as_dict(self) -> dict:
        return {
            "state": self.state,
            "duration_seconds": int(self.duration.total_seconds()),
            "remaining_seconds": int(self.remaining.total_seconds()),
            "last_hand_seconds": int(self.last_hand.total_seconds()),
            "last_hand": self.last_hand_called,
            "started_at": timestamp(self.started_at),
            "ends_at": timestamp(self.ends_at),
            "server_time": timestamp(self.now),
        }


def clock_state(
    clock: RoundClock | None, *, now: datetime | None = None, tournament: Tournament | None = None
) -> ClockState:
    """The clock as of `now` (the server's time): the one place that computes the time left."""
    now = now or timezone.now()
    if clock is None:
        minutes = tournament.round_minutes if tournament else 0
        warn = tournament.last_hand_minutes if tournament else 0
        return ClockState(
            "unset",
            timedelta(minutes=minutes),
            timedelta(minutes=minutes),
            timedelta(minutes=warn),
            now,
        )
    if clock.started_at is None:
        return ClockState("ready", clock.duration, clock.duration, clock.last_hand, now)
    until = clock.paused_at or now
    ran = until - clock.started_at - clock.paused_for
    remaining = clock.duration - ran
    if clock.paused_at is not None:
        state = "paused"
    else:
        state = "running" if remaining > timedelta(0) else "over"
    return ClockState(state, clock.duration, remaining, clock.last_hand, now, clock.started_at)


def _minutes(value: int, *, field: str, low: int, high: int) -> timedelta:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Invalid(
            "clock-minutes-invalid",
            f"{field} must be whole minutes from {low} to {high}",
            details={"field": field, "min": low, "max": high},
        )
    return timedelta(minutes=value)


def _locked_clock(round_: Round, actor: Actor) -> tuple[Round, RoundClock | None]:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    require_director(actor, round_.tournament)
    clock = RoundClock.objects.select_for_update().filter(round=round_).first()
    return round_, clock


def _open(round_: Round) -> None:
    if round_.state in (Round.State.DRAFT, Round.State.CLOSED):
        raise Conflict(
            "round-not-in-play",
            f"round {round_.number} is not being played",
            details={"state": round_.state},
        )


def _record(round_: Round, actor: Actor, action: str, clock: RoundClock, **data: Any) -> None:
    audit(
        tournament=round_.tournament,
        actor=actor,
        action=action,
        subject=f"round {round_.number}",
        data={"round": round_.number, **data},
    )
    notify.clock_changed(round_, clock_state(clock).as_dict())


@transaction.atomic
def set_clock(
    *,
    round: Round,
    actor: Actor,
    minutes: int,
    last_hand_minutes: int | None = None,
    as_default: bool = False,
) -> RoundClock:
    """Set a round's length (before or while it runs: the time left follows) and its "last
    hand" warning; `as_default` also makes them the tournament's length for later rounds."""
    round_, clock = _locked_clock(round, actor)
    if round_.state == Round.State.CLOSED:
        raise Conflict(
            "round-not-in-play", f"round {round_.number} is closed", details={"state": round_.state}
        )
    duration = _minutes(minutes, field="minutes", low=1, high=MAX_MINUTES)
    tournament = round_.tournament
    warn_minutes = tournament.last_hand_minutes if last_hand_minutes is None else last_hand_minutes
    warn = _minutes(warn_minutes, field="last_hand_minutes", low=0, high=minutes)
    if clock is None:
        clock = RoundClock(round=round_, duration=duration, last_hand=warn)
    clock.duration, clock.last_hand = duration, warn
    clock.save()
    if as_default:
        tournament.round_minutes, tournament.last_hand_minutes = minutes, warn_minutes
        Tournament.objects.filter(pk=tournament.pk).update(
            round_minutes=minutes, last_hand_minutes=warn_minutes
        )
    _record(
        round_,
        actor,
        "clock-set",
        clock,
        minutes=minutes,
        last_hand=warn_minutes,
        default=as_default,
    )
    return clock


def _ensure(round_: Round, clock: RoundClock | None) -> RoundClock:
    if clock is not None:
        return clock
    tournament = round_.tournament
    return RoundClock(
        round=round_,
        duration=timedelta(minutes=max(tournament.round_minutes, 1)),
        last_hand=timedelta(minutes=tournament.last_hand_minutes),
    )


@transaction.atomic
def start_clock(*, round: Round, actor: Actor) -> RoundClock:
    """Start a round's clock (the tournament's length unless one was set)."""
    round_, clock = _locked_clock(round, actor)
    _open(round_)
    if clock is not None and clock.started_at is not None:
        raise Conflict(
            "clock-already-started",
            f"round {round_.number}'s clock has started",
            details={"state": clock_state(clock).state},
        )
    clock = _ensure(round_, clock)
    clock.started_at = timezone.now()
    clock.save()
    _record(
        round_, actor, "clock-started", clock, minutes=int(clock.duration.total_seconds() // 60)
    )
    return clock


@transaction.atomic
def pause_clock(*, round: Round, actor: Actor) -> RoundClock:
    round_, clock = _locked_clock(round, actor)
    state = clock_state(clock)
    if clock is None or state.state not in ("running", "over"):
        raise Conflict(
            "clock-not-running",
            f"round {round_.number}'s clock is not running",
            details={"state": state.state},
        )
    clock.paused_at = state.now
    clock.save()
    _record(
        round_,
        actor,
        "clock-paused",
        clock,
        remaining=int(clock_state(clock, now=state.now).remaining.total_seconds()),
    )
    return clock


@transaction.atomic
def resume_clock(*, round: Round, actor: Actor) -> RoundClock:
    round_, clock = _locked_clock(round, actor)
    _open(round_)
    if clock is None or clock.paused_at is None:
        raise Conflict(
            "clock-not-paused",
            f"round {round_.number}'s clock is not paused",
            details={"state": clock_state(clock).state},
        )
    now = timezone.now()
    clock.paused_for += now - clock.paused_at
    clock.paused_at = None
    clock.save()
    _record(
        round_,
        actor,
        "clock-resumed",
        clock,
        remaining=int(clock_state(clock, now=now).remaining.total_seconds()),
    )
    return clock


@transaction.atomic
def extend_clock(*, round: Round, actor: Actor, minutes: int) -> RoundClock:
    """Give the round more time (a ruling took long, the room started late)."""
    round_, clock = _locked_clock(round, actor)
    _open(round_)
    added = _minutes(minutes, field="minutes", low=1, high=MAX_EXTEND)
    if clock is None or clock.started_at is None:
        raise Conflict(
            "clock-not-started",
            f"round {round_.number}'s clock has not started",
            details={"state": clock_state(clock).state},
        )
    clock.duration += added
    clock.save()
    _record(round_, actor, "clock-extended", clock, minutes=minutes)
    return clock


# -- calls for the director -----------------------------------------------------------------------


@transaction.atomic
def call_director(*, table: Table, actor: Actor, reason: str = "", note: str = "") -> DirectorCall:
    """The table calls the director. Only the table's own scorer calls for it; a call while one
    is open returns the open call (its reason and note are not changed)."""
    if not scores_table(actor, table.pk):
        raise NotAllowed("wrong-table", "only this table's scoring code can call for it")
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    round_ = table.round
    if round_.state in (Round.State.DRAFT, Round.State.CLOSED):
        raise Conflict(
            "round-not-in-play",
            f"round {round_.number} is not being played",
            details={"state": round_.state},
        )
    if reason not in DirectorCall.Reason.values and reason != "":
        raise Invalid(
            "call-reason-unknown",
            f"unknown reason {reason!r}",
            details={"reasons": list(DirectorCall.Reason.values)},
        )
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise Invalid(
            "call-note-too-long",
            f"the note is longer than {NOTE_LENGTH} characters",
            details={"max": NOTE_LENGTH},
        )
    open_call = DirectorCall.objects.filter(table=table, acknowledged_at__isnull=True).first()
    if open_call is not None:
        return open_call
    try:
        with transaction.atomic():
            call = DirectorCall.objects.create(
                table=table, reason=reason, note=note, called_by=actor.name[:100]
            )
    except IntegrityError:  # another phone of the table called at the same moment
        return DirectorCall.objects.get(table=table, acknowledged_at__isnull=True)
    audit(
        tournament=round_.tournament,
        actor=actor,
        action="director-called",
        subject=f"round {round_.number} table {table.number}",
        reason=note,
        data={
            "round": round_.number,
            "table": table.number,
            "table_id": table.pk,
            "call": call.pk,
            "reason": reason,
        },
    )
    notify.call_changed(call, round_)
    return call


@transaction.atomic
def acknowledge_call(*, call: DirectorCall, actor: Actor) -> DirectorCall:
    """A director has seen the call and is on the way (acknowledging twice changes nothing)."""
    call = (
        DirectorCall.objects.select_for_update()
        .select_related("table__round__tournament")
        .get(pk=call.pk)
    )
    round_ = call.table.round
    require_director(actor, round_.tournament)
    if call.acknowledged_at is not None:
        return call
    call.acknowledged_at = timezone.now()
    call.acknowledged_by = actor.user_or_none()
    call.acknowledged_label = actor.name[:100]
    call.save(update_fields=["acknowledged_at", "acknowledged_by", "acknowledged_label"])
    audit(
        tournament=round_.tournament,
        actor=actor,
        action="call-acknowledged",
        subject=f"round {round_.number} table {call.table.number}",
        data={
            "round": round_.number,
            "table": call.table.number,
            "table_id": call.table_id,
            "call": call.pk,
            "waited": int((call.acknowledged_at - call.called_at).total_seconds()),
        },
    )
    notify.call_changed(call, round_)
    return call


def table_call(table: Table) -> DirectorCall | None:
    """The table's latest call: the open one if any (only one is open at a time, and it is the
    newest), else the last acknowledged one (the phone shows "director on the way")."""
    return DirectorCall.objects.filter(table=table).order_by("-called_at", "-id").first()

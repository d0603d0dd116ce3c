"""The room at a glance (issue 15 points 4–7): a round's clock, open calls for the director and
each table's progress, slowest first, as the director's dashboard, the round page and the
projector show them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, Max, Q
from django.utils import timezone

from tournaments.models import DirectorCall, HandSubmission, Match, Round, RoundClock, Seat
from tournaments.room.services import ClockState, clock_state
from tournaments.services import side_pins
from tournaments.services.hands import last_hand_awaits

S = HandSubmission.Status


def round_clock(round_: Round | None, *, now: datetime | None = None) -> ClockState | None:
    """The round's clock as of now (None without a round in play)."""
    if round_ is None or round_.state in (Round.State.DRAFT,):
        return None
    clock = RoundClock.objects.filter(round=round_).first()
    return clock_state(clock, now=now, tournament=round_.tournament)


@dataclass
class TableProgress:
    """One table of the round: how far its match has come and whether it needs the director."""

    number: int
    match_id: int
    table_id: int
    names: list[str] = field(default_factory=list)
    hands: int = 0  # hands entered (every current version)
    confirmed: int = 0
    pending: int = 0  # awaiting the other side's confirmation
    disputed: int = 0
    finished: bool = False
    #: every hand of the match has been entered and the last awaits confirmation: no hand is
    #: being played (a match of 3 hands never announces hand 4)
    last_pending: bool = False
    last_at: datetime | None = None  # the latest hand entered (else the round's start)
    call: DirectorCall | None = None  # an open call
    waited: timedelta | None = None  # since the last hand, as of the page's time
    pins: side_pins.PinTrouble | None = None  # wrong PINs at this table in the last hour

    @property
    def current_hand(self) -> int | None:
        """The hand being played now (None once the match is over or its last hand awaits
        confirmation)."""
        return None if self.finished or self.last_pending else self.hands + 1

    def since(self, now: datetime) -> timedelta | None:
        return None if self.last_at is None or self.finished else now - self.last_at

    @property
    def needs_director(self) -> bool:
        return (
            self.call is not None
            or self.disputed > 0
            or (self.pins is not None and (self.pins.locked or self.pins.struggling))
        )


#: Seats clockwise from North (every game's seat letters follow it: NESW, NES, NS).
CLOCKWISE = "NESW"


def seat_order_names(seats: Iterable[Seat]) -> list[str]:
    """A table's sides in seat order, clockwise from North (N v E v S v W at a table of four;
    a team holding NS before the one holding EW), each side's entries joined with " & "
    (progressive partners: "N & S v E & W")."""

    def where(seat: Seat) -> int:
        first = seat.seats[:1]
        return CLOCKWISE.index(first) if first and first in CLOCKWISE else len(CLOCKWISE)

    sides: dict[str, list] = {}
    for seat in sorted(seats, key=lambda seat: (where(seat), seat.pk)):
        sides.setdefault(seat.side, []).append(seat.entry.name)
    return [" & ".join(names) for names in sides.values()]


def open_calls(round_: Round) -> list[DirectorCall]:
    return list(
        DirectorCall.objects.filter(table__round=round_, acknowledged_at__isnull=True)
        .select_related("table")
        .order_by("called_at", "id")
    )


def table_progress(round_: Round, *, now: datetime | None = None) -> list[TableProgress]:
    """Each table of the round, slowest first: open calls and disputes, then the unfinished
    tables with fewest hands entered, longest since their last hand first; finished last."""
    now = now or timezone.now()
    matches = (
        Match.objects.filter(round=round_, is_bye=False, table__isnull=False)
        .select_related("table")
        .prefetch_related("seats__entry__team", "seats__entry__player")
        .annotate(
            n_hands=Count("hands__versions", filter=Q(hands__versions__is_current=True)),
            n_confirmed=Count(
                "hands__versions",
                filter=Q(hands__versions__is_current=True, hands__versions__status=S.CONFIRMED),
            ),
            n_pending=Count(
                "hands__versions",
                filter=Q(hands__versions__is_current=True, hands__versions__status=S.PENDING),
            ),
            n_disputed=Count(
                "hands__versions",
                filter=Q(hands__versions__is_current=True, hands__versions__status=S.REJECTED),
            ),
            last_hand_at=Max("hands__versions__submitted_at"),
        )
        .order_by("table__number")
    )
    calls = {call.table_id: call for call in open_calls(round_)}
    start = round_.published_at
    clock = RoundClock.objects.filter(round=round_).values_list("started_at", flat=True).first()
    if clock:
        start = clock
    troubles = side_pins.pin_troubles([match.pk for match in matches])
    rows = []
    for match in matches:
        rows.append(
            TableProgress(
                number=match.played_table.number,
                match_id=match.pk,
                table_id=match.played_table.pk,
                names=seat_order_names(match.seats.all()),
                hands=match.n_hands,
                confirmed=match.n_confirmed,
                pending=match.n_pending,
                disputed=match.n_disputed,
                finished=match.state == Match.State.FINISHED,
                last_at=match.last_hand_at or start,
                call=calls.get(match.played_table.pk),
                pins=troubles.get(match.pk),
            )
        )

    tournament = round_.tournament
    for match, row in zip(matches, rows, strict=True):
        if not row.finished:
            row.last_pending = last_hand_awaits(
                tournament=tournament, match=match, hands=row.hands, pending=row.pending
            )

    for row in rows:
        row.waited = row.since(now)

    def slowest(row: TableProgress) -> tuple:
        waited = row.since(now) or timedelta(0)
        return (
            not row.needs_director,
            row.finished,
            row.hands,
            -waited.total_seconds(),
            row.number,
        )

    return sorted(rows, key=slowest)

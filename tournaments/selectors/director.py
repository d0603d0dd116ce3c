"""The director's read queries: the tournaments a user directs, entries, a round's tables and
their progress, the result queue, a hand's versions and the audit trail.

Plain reads (no writes). The result queue is the one the REST API serves (api.views.ResultQueue):
the same filter and order, so the page and the API never disagree about what is waiting.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments.models import (
    AuditEvent,
    Club,
    Entry,
    HandSubmission,
    KeepApart,
    Match,
    Round,
    Seat,
    Tournament,
    home_club,
)
from tournaments.services import history as hist
from tournaments.services import side_pins

S = HandSubmission.Status


def directed_tournaments(user: Any, club: Club | None = None) -> QuerySet[Tournament]:
    """The club's tournaments this user directs (a superuser: all of the club's), newest
    first."""
    found = Tournament.objects.all() if user.is_superuser else user.directed_tournaments.all()
    return (
        found.filter(club=club or home_club())
        .annotate(entry_count=Count("entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN)))
        .order_by("-created_at", "-id")
    )


def entries(tournament: Tournament) -> list[Entry]:
    """Every entry with its players, seeded ones first, then in registration order."""
    found = Entry.objects.filter(tournament=tournament).select_related(
        "team__first", "team__second", "player"
    )
    return sorted(found, key=lambda e: (e.seed is None, e.seed or 0, e.pk))


def entry_counts(tournament: Tournament) -> dict[str, int]:
    """Entries by status, keyed for templates: registered, checked_in, withdrawn."""
    counts = Counter(Entry.objects.filter(tournament=tournament).values_list("status", flat=True))
    return {status.replace("-", "_"): counts.get(status, 0) for status in Entry.Status.values}


def kept_apart(tournament: Tournament) -> list[KeepApart]:
    """The pairs the director asked to keep apart, with their entries' names."""
    return list(
        KeepApart.objects.filter(tournament=tournament)
        .select_related("first__team", "first__player", "second__team", "second__player")
        .order_by("id")
    )


def rounds(tournament: Tournament) -> list[Round]:
    return list(
        Round.objects.filter(tournament=tournament)
        .annotate(table_count=Count("tables"))
        .order_by("number")
    )


def current_round(tournament: Tournament) -> Round | None:
    """The latest round (a draft, in play or closed)."""
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def result_queue(tournament: Tournament) -> QuerySet[HandSubmission]:
    """The current version of every hand awaiting confirmation or disputed (rejected), the
    oldest first — what the director chases or settles with a correction."""
    return (
        HandSubmission.objects.filter(
            hand__match__round__tournament=tournament,
            is_current=True,
            status__in=[S.PENDING, S.REJECTED],
        )
        .select_related("hand__match__round", "hand__match__table")
        .defer("raw", "record")
        .order_by("submitted_at", "id")
    )


@dataclass
class Side:
    """One side at a table: its label ("NS", "N", ...) and the entries playing it."""

    side: str
    seats: list[Seat] = field(default_factory=list)

    @property
    def names(self) -> str:
        return " / ".join(seat.entry.name for seat in self.seats)


@dataclass
class TableRow:
    """One table of a round, with who sits where and how far its match has come."""

    match: Match
    sides: list[Side]
    submitted: int = 0
    confirmed: int = 0
    pending: int = 0
    disputed: int = 0
    rematch: bool = False
    pins: Any = None  # wrong PINs at the table in the last hour (side_pins.PinTrouble), if any

    @property
    def number(self) -> int | None:
        return self.match.table.number if self.match.table is not None else None

    @property
    def finished(self) -> bool:
        return self.match.state == Match.State.FINISHED


def _seats_prefetch() -> Prefetch:
    return Prefetch(
        "seats",
        queryset=Seat.objects.select_related(
            "entry__team__first", "entry__team__second", "entry__player"
        ).order_by("seats"),
    )


SEAT_ORDER = "NESW"


def _side_order(side: Side) -> tuple[int, str]:
    """Clockwise from North: NS before EW, seats N, E, S, W."""
    first = side.side[:1]
    return (SEAT_ORDER.index(first) if first in SEAT_ORDER else len(SEAT_ORDER), side.side)


def _sides(match: Match) -> list[Side]:
    sides: dict[str, Side] = {}
    for seat in match.seats.all():
        sides.setdefault(seat.side, Side(seat.side)).seats.append(seat)
    return sorted(sides.values(), key=_side_order)


def tables(round_: Round) -> tuple[list[TableRow], list[TableRow]]:
    """(tables in number order, byes) of a round, each table with its hand counts by status
    and whether it repeats a meeting from an earlier round (a rematch)."""
    matches = list(
        Match.objects.filter(round=round_)
        .select_related("table")
        .prefetch_related(_seats_prefetch())
        .order_by("is_bye", "table__number", "id")
    )
    counts: dict[int, Counter] = {}
    statuses = HandSubmission.objects.filter(hand__match__round=round_, is_current=True)
    for match_id, status in statuses.values_list("hand__match_id", "status"):
        counts.setdefault(match_id, Counter())[status] += 1
    met = _earlier_meetings(round_) if round_.state == Round.State.DRAFT else {}
    troubles = side_pins.pin_troubles([m.pk for m in matches if not m.is_bye])
    rows, byes = [], []
    for match in matches:
        tally = counts.get(match.pk, Counter())
        row = TableRow(
            match=match,
            sides=_sides(match),
            submitted=sum(tally.values()),
            confirmed=tally[S.CONFIRMED],
            pending=tally[S.PENDING],
            disputed=tally[S.REJECTED],
            pins=troubles.get(match.pk),
        )
        if match.is_bye:
            byes.append(row)
            continue
        # A bracket's match is drawn by the seeds: meeting again there is the knockout's
        # nature (a top-2 final between two who met in the Swiss), not a pairing to review.
        row.rematch = match.bracket_round is None and _is_rematch(row, met)
        rows.append(row)
    return rows, byes


def _earlier_meetings(round_: Round) -> dict[int, set[int]]:
    """Each entry's opponents in published rounds (drafts never count)."""
    history = hist.load(round_.tournament)
    return {entry_id: past.opponents for entry_id, past in history.past.items()}


def _is_rematch(row: TableRow, met: dict[int, set[int]]) -> bool:
    for side in row.sides:
        others = {s.entry_id for o in row.sides if o.side != side.side for s in o.seats}
        for seat in side.seats:
            if others & met.get(seat.entry_id, set()):
                return True
    return False


def rematches(round_: Round) -> list[tuple[str, str]]:
    """Pairs of entries meeting again in a draft round, by name: the warnings a swap may
    cause (swap_entries records the same pairs in its audit event)."""
    met = _earlier_meetings(round_)
    pairs: set[tuple[str, str]] = set()
    rows, _ = tables(round_)
    for row in rows:
        if row.match.bracket_round is not None:
            continue  # a knockout match: see `tables`
        for side in row.sides:
            for seat in side.seats:
                for other in row.sides:
                    if other.side == side.side:
                        continue
                    for opponent in other.seats:
                        if opponent.entry_id in met.get(seat.entry_id, set()):
                            first, second = sorted((seat.entry.name, opponent.entry.name))
                            pairs.add((first, second))
    return sorted(pairs)


def progress(rows: list[TableRow]) -> dict[str, int]:
    """Totals over a round's tables, for the dashboard's summary line."""
    return {
        "tables": len(rows),
        "finished": sum(1 for r in rows if r.finished),
        "submitted": sum(r.submitted for r in rows),
        "confirmed": sum(r.confirmed for r in rows),
        "pending": sum(r.pending for r in rows),
        "disputed": sum(r.disputed for r in rows),
    }


def match_detail(tournament: Tournament, match_id: int) -> Match | None:
    return (
        Match.objects.filter(round__tournament=tournament, pk=match_id)
        .select_related("round", "table")
        .prefetch_related(_seats_prefetch())
        .first()
    )


def match_sides(match: Match) -> list[Side]:
    return _sides(match)


def hand_rows(match: Match) -> list[HandSubmission]:
    """The current version of every hand of a match, in hand order, with how many versions
    each has had."""
    return list(
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .annotate(version_count=Count("hand__versions"))
        .defer("raw")
        .order_by("hand__number")
    )


def hand_versions(match: Match, number: int) -> list[HandSubmission]:
    """Every version of one hand, the newest first (earlier versions are kept, never edited)."""
    return list(
        HandSubmission.objects.filter(hand__match=match, hand__number=number)
        .select_related("hand", "submitted_by", "decided_by")
        .order_by("-version")
    )


def corrections(tournament: Tournament, hand_id: int) -> dict[int, AuditEvent]:
    """The audit events of a hand's corrections, by the version each made (they carry the
    flag "corrected after the next round was paired")."""
    events = AuditEvent.objects.filter(
        tournament=tournament, action="hand-corrected", data__hand=hand_id
    )
    return {event.data.get("version"): event for event in events}


def audit_trail(
    tournament: Tournament, *, round_number: int | None = None, actions: tuple[str, ...] = ()
) -> QuerySet[AuditEvent]:
    """The tournament's recorded actions, the newest first; only one round's (as recorded in the
    event, or named by its subject for events recorded before the round was), or only some
    actions."""
    found = AuditEvent.objects.filter(tournament=tournament).select_related("actor")
    if round_number is not None:
        found = found.filter(
            Q(data__round=round_number)
            | Q(subject=f"round {round_number}")
            | Q(subject__startswith=f"round {round_number} ")
        )
    if actions:
        found = found.filter(action__in=actions)
    return found


def audit_rounds(tournament: Tournament) -> list[int]:
    """The rounds the trail can be narrowed to: every round the tournament has."""
    return list(tournament.round_set.order_by("number").values_list("number", flat=True))

"""A round's page: every table with who sits where, the match's state and its score so far."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from tournaments import gameplay
from tournaments.models import (
    Entry,
    HandSubmission,
    Match,
    Round,
    Seat,
    Tournament,
)
from tournaments.services.hands import last_hand_awaits
from tournaments.words.formatting import number

S = HandSubmission.Status


@dataclass
class SideView:
    side: str
    members: list[tuple[Entry, str]]  # each entry at this side with the seats it holds
    points: str = ""
    place: int | None = None
    outcome: str = ""

    @property
    def entries(self) -> list[Entry]:
        return [entry for entry, _seats in self.members]

    @property
    def shared(self) -> bool:
        """Several entries make up the side (progressive partnerships)."""
        return len(self.members) > 1


@dataclass
class TableView:
    match: Match
    number: int | None
    sides: list[SideView]
    hands: int = 0
    pending: int = 0
    disputed: int = 0
    #: every hand entered, the last awaiting confirmation: no hand is being played now
    last_pending: bool = False

    @property
    def scores(self) -> dict[str, str]:
        return {s.side: s.points for s in self.sides if s.points}


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    byes: list[Entry]


def seat_prefetch() -> Prefetch:
    return Prefetch(
        "seats",
        queryset=Seat.objects.select_related(
            "entry__team__first", "entry__team__second", "entry__player"
        ).order_by("seats"),
    )


def round_view(round_: Round) -> RoundView:
    """Every table of a round with who sits where, the match's state and its score so far."""
    tournament = round_.tournament
    matches = list(
        Match.objects.filter(round=round_)
        .select_related("table")
        .prefetch_related(seat_prefetch())
        .order_by("is_bye", "table__number", "id")
    )
    running = _running_scores(tournament, [m for m in matches if m.state == Match.State.PLAYING])
    counts = _hand_counts([m.pk for m in matches if not m.is_bye])
    order = gameplay.layout(tournament.game, tournament.rules).sides
    tables: list[TableView] = []
    byes: list[Entry] = []
    for match in matches:
        if match.is_bye:
            byes.extend(seat.entry for seat in match.seats.all())
            continue
        view = table_view(match, order, running.get(match.pk), counts.get(match.pk))
        if match.state == Match.State.PLAYING:
            view.last_pending = last_hand_awaits(
                tournament=tournament, match=match, hands=view.hands, pending=view.pending
            )
        tables.append(view)
    return RoundView(round=round_, tables=tables, byes=byes)


def table_view(
    match: Match, order: tuple[str, ...], running: dict[str, str] | None, counts: dict | None
) -> TableView:
    by_side: dict[str, SideView] = {}
    for seat in match.seats.all():
        view = by_side.setdefault(seat.side, SideView(side=seat.side, members=[]))
        view.members.append((seat.entry, seat.seats))
        if match.state == Match.State.FINISHED:
            view.points = number(seat.points_for)
            view.place = seat.place
            view.outcome = seat.outcome
    if running:
        for side, points in running.items():
            if side in by_side:
                by_side[side].points = points
    sides = sorted(by_side.values(), key=lambda v: order.index(v.side) if v.side in order else 9)
    counts = counts or {}
    return TableView(
        match=match,
        number=match.table.number if match.table else None,
        sides=sides,
        hands=counts.get("hands", 0),
        pending=counts.get(S.PENDING, 0),
        disputed=counts.get(S.REJECTED, 0),
    )


def _running_scores(tournament: Tournament, matches: list[Match]) -> dict[int, dict[str, str]]:
    """The game's points per side after the hands entered so far (pending ones included, as
    the standings' provisional scores count them), for matches still in play."""
    if not matches:
        return {}
    afters: dict[int, Any] = {}
    scores: dict[int, list[dict]] = defaultdict(list)
    rows = (
        HandSubmission.objects.filter(hand__match__in=matches, is_current=True)
        .exclude(status__in=[S.REJECTED, S.VOIDED])
        .order_by("hand__match_id", "hand__number")
        .values_list("hand__match_id", "result")
    )
    for match_id, result in rows:
        afters[match_id] = result.get("after")
        scores[match_id].append(result.get("score") or {})
    totals = tournament.format in gameplay.HAND_TOTALS  # a whist drive: the hands' points
    out = {}
    for match in matches:
        result = gameplay.outcome(
            tournament.game,
            tournament.rules,
            afters.get(match.pk),
            hands=scores[match.pk] if totals else None,
        )
        out[match.pk] = {side: number(points) for side, points in result.points.items()}
    return out


def _hand_counts(match_ids: list[int]) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    rows = HandSubmission.objects.filter(hand__match_id__in=match_ids, is_current=True).values_list(
        "hand__match_id", "status"
    )
    for match_id, status in rows:
        out[match_id]["hands"] += 1
        out[match_id][status] += 1
    return out

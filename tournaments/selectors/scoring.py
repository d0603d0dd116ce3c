"""Read queries for the table scoring page: who sits where, the hands so far with the engine's
running totals, and what the next hand is (its number, dealer and the state it starts from).

Everything here is read from the stored versions and asked of the rules engine (seats, dealer
rotation, the end of a match); nothing is scored here. The page never computes a score: the
totals are the engine's `after` state of each stored hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from games.records import get_game
from tournaments import gameplay
from tournaments.models import (
    Club,
    HandSubmission,
    Match,
    Round,
    Seat,
    Table,
    Tournament,
    home_club,
)

S = HandSubmission.Status
OPEN_ROUNDS = (Round.State.PUBLISHED, Round.State.IN_PLAY)


@dataclass(frozen=True, slots=True)
class SideView:
    """A scoring side at the table ("NS", "EW", or one seat) and who plays it."""

    side: str
    seats: str  # the seat letters the side holds
    entries: tuple[str, ...]  # team or player names
    players: tuple[str, ...]  # every player's name

    @property
    def label(self) -> str:
        """How the club writes a side: N/S, E/W, or the seat itself."""
        return "/".join(self.side)


@dataclass(frozen=True, slots=True)
class HandRow:
    """The current version of one hand, as the page lists it."""

    number: int
    version: int
    status: str
    source: str
    dealer: str
    record: dict
    result: dict
    scores: tuple[Any, ...]  # this hand's score per side, in the match's side order
    totals: tuple[Any, ...]  # the engine's running total per side after this hand
    submitted_side: str
    decided_side: str
    reason: str
    answerers: tuple[str, ...] = ()  # sides that may confirm or reject (pending hands)

    @property
    def pending(self) -> bool:
        return self.status == S.PENDING


@dataclass(frozen=True, slots=True)
class NextHand:
    """What the scorer enters next: `number` is None when no hand can be entered (`blocked`
    says why: finished, complete, round-closed, no-match)."""

    number: int | None
    dealer: str | None
    dealer_fixed: bool
    before: dict
    blocked: str = ""
    reentry: bool = False  # the hand was rejected and is entered again

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "dealerFixed": self.dealer_fixed,
            "before": self.before,
            "blocked": self.blocked,
            "reentry": self.reentry,
        }


@dataclass(slots=True)
class ScoringView:
    """Everything the scoring page shows for one table."""

    table: Table
    tournament: Tournament
    match: Match | None
    seats: str = ""  # seat letters, clockwise
    sides: tuple[SideView, ...] = ()
    seat_names: dict[str, str] = field(default_factory=dict)  # seat letter -> who sits there
    #: seat letter -> (the player in that seat, the entry they play for): the seat diagram
    seat_players: dict[str, tuple[str, str]] = field(default_factory=dict)
    hands: list[HandRow] = field(default_factory=list)
    next: NextHand | None = None

    @property
    def pending(self) -> list[HandRow]:
        return [row for row in self.hands if row.pending]

    @property
    def side_labels(self) -> list[str]:
        return [side.label for side in self.sides]


def table_for_scoring(table_id: int, *, club: Club | None = None) -> Table:
    """The club's table with its round and tournament (404 when unknown or another club's)."""
    found = Table.objects.select_related("round__tournament").filter(
        round__tournament__club=club or home_club()
    )
    return get_object_or_404(found, pk=table_id)


def match_at(table: Table) -> Match | None:
    seats = Seat.objects.select_related(
        "entry__team__first", "entry__team__second", "entry__player"
    ).order_by("seats")
    return (
        Match.objects.filter(table=table)
        .select_related("round__tournament", "table")
        .prefetch_related(Prefetch("seats", seats))
        .first()
    )


def _sides(match: Match, layout: gameplay.Layout) -> tuple[tuple[SideView, ...], dict[str, str]]:
    """The match's sides in the engine's order, and a name for every seat letter."""
    by_side: dict[str, list[Seat]] = {}
    for seat in match.seats.all():
        by_side.setdefault(seat.side, []).append(seat)
    sides, names = [], {}
    for side in layout.sides:
        seated = by_side.get(side, [])
        entries = tuple(seat.entry.name for seat in seated)
        players: list[str] = []
        for seat in seated:
            entry = seat.entry
            people = [p.name for p in entry.players]
            players.extend(people)
            if len(seat.seats) == 1:
                names[seat.seats] = entry.name
        held = "".join(sorted({c for seat in seated for c in seat.seats}, key=layout.seats.find))
        sides.append(
            SideView(side=side, seats=held or side, entries=entries, players=tuple(players))
        )
        for letter in side:  # a partnership's seats carry the team's name
            names.setdefault(letter, " & ".join(entries))
    for letter in layout.seats:
        names.setdefault(letter, "")
    return tuple(sides), names


def _versions(match: Match) -> list[HandSubmission]:
    return list(
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .only(
            "id",
            "hand__number",
            "hand__match_id",
            "version",
            "status",
            "source",
            "record",
            "result",
            "submitted_side",
            "decided_side",
            "reason",
        )
        .order_by("hand__number")
    )


def _row(version: HandSubmission, sides: tuple[str, ...], seat_sides: dict[str, str]) -> HandRow:
    result = version.result or {}
    score = result.get("score") or {}
    totals = (result.get("after") or {}).get("score") or {}
    answerers: tuple[str, ...] = ()
    if version.status == S.PENDING:
        barred = gameplay.answer_barred(version.submitted_side, result, seat_sides)
        answerers = tuple(s for s in sides if s not in barred)
    return HandRow(
        number=version.hand.number,
        version=version.version,
        status=version.status,
        source=version.source,
        dealer=(version.record or {}).get("dealer", ""),
        record=version.record or {},
        result=result,
        scores=tuple(score.get(side, "") for side in sides),
        totals=tuple(totals.get(side, "") for side in sides),
        submitted_side=version.submitted_side,
        decided_side=version.decided_side,
        reason=version.reason,
        answerers=answerers,
    )


def _next_hand(
    match: Match, tournament: Tournament, versions: list[HandSubmission], seats: str
) -> NextHand:
    """The hand to enter next: the first rejected hand again, else the one after the last.
    Its dealer follows the engine's rotation; only a first hand's dealer is the table's choice."""
    g = get_game(tournament.game)
    compiled = g.book.resolve(tournament.rules)[0]
    initial = g.initial_state(compiled)
    rejected = next((v for v in versions if v.status in (S.REJECTED, S.VOIDED)), None)
    number = rejected.hand.number if rejected is not None else len(versions) + 1
    before = versions[number - 2].result["after"] if number > 1 else initial
    if number > 1:
        dealer, fixed = g.next_dealer(compiled, versions[number - 2].record["dealer"]), True
    elif rejected is not None:
        # A first hand entered again keeps its dealer while later hands rotate from it.
        dealer, fixed = rejected.record.get("dealer", seats[0]), len(versions) > 1
    else:  # the first dealer the table card prints (the players may still choose another)
        dealer, fixed = gameplay.first_dealer(seats, match.round.number), False
    blocked = ""
    if match.state == Match.State.FINISHED:
        blocked = "finished"
    elif match.round.state not in OPEN_ROUNDS:
        blocked = "round-closed"
    elif rejected is None and _ended(tournament, g, compiled, versions, match):
        blocked = "complete"
    return NextHand(
        number=None if blocked else number,
        dealer=None if blocked else dealer,
        dealer_fixed=fixed,
        before=before,
        blocked=blocked,
        reentry=rejected is not None,
    )


def _ended(
    tournament: Tournament, g: Any, compiled: Any, versions: list, match: Match | None = None
) -> bool:
    """Whether the match is over by its rules or its number of hands (no more hands). A
    knockout match asks the hand workflow's own rule: its length, and a tie plays on."""
    if not versions:
        return False
    if match is not None and match.bracket_round is not None:
        from tournaments.services.hands import match_ended

        return match_ended(tournament=tournament, versions=versions, match=match) is not None
    if g.match_end(compiled, versions[-1].result["after"])[0]:
        return True
    return tournament.match_length == Tournament.MatchLength.HANDS and len(versions) >= (
        tournament.match_hands or 0
    )


def scoring_view(table: Table) -> ScoringView:
    """The page's data for `table` (a table with no match shows only its heading)."""
    tournament = table.round.tournament
    match = match_at(table)
    view = ScoringView(table=table, tournament=tournament, match=match)
    if match is None:
        return view
    layout = gameplay.layout(tournament.game, tournament.rules)
    view.seats = layout.seats
    view.sides, view.seat_names = _sides(match, layout)
    view.seat_players = gameplay.seat_players(
        [
            (
                seat.seats,
                [p.name for p in seat.entry.players],
                seat.entry.name,
            )
            for seat in match.seats.all()
        ],
        layout.seats,
    )
    versions = _versions(match)
    side_names = tuple(side.side for side in view.sides)
    seat_sides = {letter: seat.side for seat in match.seats.all() for letter in seat.seats}
    view.hands = [_row(v, side_names, seat_sides) for v in versions]
    view.next = _next_hand(match, tournament, versions, layout.seats)
    return view

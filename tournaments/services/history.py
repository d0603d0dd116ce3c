"""What the engines need to know of the past, read from the database as plain data: each
entry's results (for the standings engine) and meetings (for the pairing engines)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from tournaments import gameplay
from tournaments.models import Entry, Round, Seat, Tournament


def fraction(value: Decimal | str | int | None) -> Fraction:
    if value in (None, ""):
        return Fraction(0)
    return Fraction(str(value))


@dataclass(slots=True)
class Past:
    """One entry's history before the round being paired."""

    opponents: set[int] = field(default_factory=set)
    partners: set[int] = field(default_factory=set)
    byes: int = 0
    first: int = 0


@dataclass(slots=True)
class History:
    entries: list[Entry]
    results: list  # tournaments.standings.Result
    past: dict[int, Past]


def late_points(tournament: Tournament, entry: Entry) -> Fraction:
    policy = entry.late_entry or tournament.late_entry
    if policy == Tournament.LateEntry.DRAW:
        return fraction(tournament.points_draw)
    if policy == Tournament.LateEntry.BYE:
        return fraction(tournament.points_bye)
    return Fraction(0)


def load(tournament: Tournament, *, provisional: bool = False) -> History:
    """Every entry with its finished results in published rounds (drafts never count)."""
    from tournaments.standings import Result

    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("team__first", "team__second", "player")
        .order_by("id")
    )
    seats = list(
        Seat.objects.filter(match__round__tournament=tournament)
        .exclude(match__round__state=Round.State.DRAFT)
        .select_related("match", "match__round")
        .order_by("match__round__number", "match_id", "seats")
    )
    by_match: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        by_match[seat.match_id].append(seat)
    past: dict[int, Past] = {e.pk: Past() for e in entries}
    first_side = gameplay.layout(tournament.game, tournament.rules).sides[0]
    results = []
    for match_seats in by_match.values():
        match = match_seats[0].match
        for seat in match_seats:
            mine = past[seat.entry_id]
            if match.is_bye:
                mine.byes += 1
            others = [s.entry_id for s in match_seats if s.side != seat.side]
            mates = [s.entry_id for s in match_seats if s.side == seat.side and s is not seat]
            mine.opponents.update(others)
            mine.partners.update(mates)
            if not match.is_bye and len({s.side for s in match_seats}) == 2:
                # The layout's first side is the draw's first (NS before EW): not the
                # alphabetical order the seats are read in.
                mine.first += 1 if seat.side == first_side else -1
            if seat.outcome:
                results.append(
                    Result(
                        round=match.round.number,
                        match=match.pk,
                        entrant=seat.entry_id,
                        opponents=tuple(sorted(others)),
                        outcome=seat.outcome,
                        match_points=fraction(seat.match_points),
                        points_for=fraction(seat.points_for),
                        points_against=fraction(seat.points_against),
                        place=seat.place,
                        partners=tuple(sorted(mates)),
                    )
                )
    return History(entries=entries, results=results, past=past)


def entrants(tournament: Tournament, history: History) -> list:
    from tournaments.standings import Entrant

    out = []
    for order, entry in enumerate(history.entries, 1):
        missed = tuple(range(1, entry.joined_round))
        out.append(
            Entrant(
                id=entry.pk,
                order=order,
                seed=entry.seed,
                withdrawn=entry.status == Entry.Status.WITHDRAWN,
                missed=missed,
                missed_points=late_points(tournament, entry) if missed else Fraction(0),
            )
        )
    return out


def standings_rows(tournament: Tournament, history: History | None = None) -> list:
    from tournaments.standings import compute

    history = history or load(tournament)
    return compute(entrants(tournament, history), history.results, tiebreaks=tournament.tiebreaks)

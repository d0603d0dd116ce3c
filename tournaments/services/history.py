"""What the engines need to know of the past, read from the database as plain data: each
entry's results (for the standings engine) and meetings (for the pairing engines)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from tournaments import gameplay
from tournaments.models import Entry, Round, Seat, Tournament


@lru_cache(maxsize=4096)
def fraction(value: Decimal | str | int | None) -> Fraction:
    """An exact Fraction from a stored number ("9/2", Decimal("1.5"), 2); blank is 0. Cached:
    results repeat the same few values."""
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


def late_points(tournament: Tournament, entry: Entry | EntryFacts) -> Fraction:
    policy = entry.late_entry or tournament.late_entry
    if policy == Tournament.LateEntry.DRAW:
        return fraction(tournament.points_draw)
    if policy == Tournament.LateEntry.BYE:
        return fraction(tournament.points_bye)
    return Fraction(0)


SEAT_FIELDS = (
    "match_id",
    "entry_id",
    "side",
    "outcome",
    "match_points",
    "points_for",
    "points_against",
    "place",
    "match__is_bye",
    "match__round__number",
    "hands_won",
)


def _seat_rows(
    tournament: Tournament, matches: Collection[int] | None = None
) -> dict[int, list[tuple]]:
    """The seats of every match that counts (`SEAT_FIELDS` rows), by match, in round order;
    of these `matches` only when given. A Swiss ending in a top cut counts its Swiss (and
    consolation) matches only: the knockout's are the bracket's (tournaments.knockout.services)."""
    rows = (
        Seat.objects.filter(match__round__tournament=tournament)
        .filter(Round.public_q("match__round__"))
        .order_by("match__round__number", "match_id", "seats")
        .values_list(*SEAT_FIELDS)
    )
    if matches is not None:
        rows = rows.filter(match_id__in=list(matches))
    if tournament.format == Tournament.Format.SWISS and tournament.top_cut:
        rows = rows.filter(match__bracket_round__isnull=True)
    by_match: dict[int, list[tuple]] = defaultdict(list)
    for row in rows:
        by_match[row[0]].append(row)
    return by_match


def load(tournament: Tournament) -> History:
    """Every entry with its finished results in published rounds (drafts never count); see
    `_seat_rows` for what counts."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("team__first", "team__second", "player")
        .order_by("id")
    )
    by_match = _seat_rows(tournament)
    past: dict[int, Past] = {e.pk: Past() for e in entries}
    first_side = gameplay.layout(tournament.game, tournament.rules).sides[0]
    results = results_and_meetings(by_match, past, first_side)
    return History(entries=entries, results=results, past=past)


def results_and_meetings(
    by_match: dict[int, list[tuple]], past: dict[int, Past], first_side: str
) -> list:
    """The results of `_seat_rows`' matches, and each entry's meetings added to `past`."""
    results: list = []
    add = results.append
    for match_id, seats in by_match.items():
        if not seats[0][8] and len(seats) == 2 and seats[0][2] != seats[1][2]:
            _one_a_side(match_id, seats, past, first_side, add)
        else:
            _any_seats(match_id, seats, past, first_side, add)
    return results


def _one_a_side(
    match_id: int,
    seats: list[tuple],
    past: dict[int, Past],
    first_side: str,
    add: Callable[[Any], None],
) -> None:
    """A match of two seats on two sides, the usual table: each entry the other's only
    opponent, no partners. What `_any_seats` gives for it (tests/tournaments/
    test_standings_service.py compares them), without its per-seat sorts and keyword
    arguments: a third of loading a 1,000 x 9 event's history."""
    from tournaments.standings import Result

    a, b = seats
    for seat, other in ((a, b[1]), (b, a[1])):
        mine = past[seat[1]]
        mine.opponents.add(other)
        mine.first += 1 if seat[2] == first_side else -1
        if seat[3]:
            add(
                Result(
                    seat[9],
                    match_id,
                    seat[1],
                    (other,),
                    seat[3],
                    fraction(seat[4]),
                    fraction(seat[5]),
                    fraction(seat[6]),
                    seat[7],
                    (),
                    seat[10],
                )
            )


def _any_seats(
    match_id: int,
    seats: list[tuple],
    past: dict[int, Past],
    first_side: str,
    add: Callable[[Any], None],
) -> None:
    """One match's results and meetings, from its seats (`SEAT_FIELDS` rows): a bye, a table
    of two sides, of three or four, progressive pairs."""
    from tournaments.standings import Result

    is_bye, number = seats[0][8], seats[0][9]
    two_sided = not is_bye and len({seat[2] for seat in seats}) == 2
    for entry_id, side, outcome, points, points_for, against, place, won in (
        (*seat[1:8], seat[10]) for seat in seats
    ):
        mine = past[entry_id]
        if is_bye:
            mine.byes += 1
        others = sorted(s[1] for s in seats if s[2] != side)
        mates = sorted(s[1] for s in seats if s[2] == side and s[1] != entry_id)
        mine.opponents.update(others)
        mine.partners.update(mates)
        if two_sided:
            # The layout's first side is the draw's first (NS before EW): not the
            # alphabetical order the seats are read in.
            mine.first += 1 if side == first_side else -1
        if outcome:
            add(
                Result(
                    round=number,
                    match=match_id,
                    entrant=entry_id,
                    opponents=tuple(others),
                    outcome=outcome,
                    match_points=fraction(points),
                    points_for=fraction(points_for),
                    points_against=fraction(against),
                    place=place,
                    partners=tuple(mates),
                    hands_won=won,
                )
            )


@dataclass(frozen=True, slots=True)
class EntryFacts:
    """What the standings need of an entry, read as values: no model instances (making the
    four instances of each entry with its team and players was a third of `load`'s CPU)."""

    pk: int
    seed: int | None
    joined_round: int
    status: str
    late_entry: str
    name: str
    players: tuple[str, ...]


ENTRY_FIELDS = (
    "pk",
    "seed",
    "joined_round",
    "status",
    "late_entry",
    "team_id",
    "team__name",
    "team__first__name",
    "team__second__name",
    "player__name",
)


@dataclass(slots=True)
class StandingsInput:
    """What a standings recompute reads: the entries as values and their results."""

    entries: list[EntryFacts]
    results: list  # tournaments.standings.Result


def entry_facts(tournament: Tournament) -> list[EntryFacts]:
    """Every entry of the tournament as `EntryFacts`, in registration order."""
    rows = Entry.objects.filter(tournament=tournament).order_by("id").values_list(*ENTRY_FIELDS)
    return [
        EntryFacts(
            pk,
            seed,
            joined,
            status,
            late,
            team_name if team_id else player_name,
            (first, second) if team_id else (player_name,),
        )
        for pk, seed, joined, status, late, team_id, team_name, first, second, player_name in rows
    ]


def load_for_standings(tournament: Tournament) -> StandingsInput:
    """`load` for the standings alone: the same results in the same order, the entries as
    `EntryFacts`, and no meetings (`Past`, which only the pairing engines read);
    tests/tournaments/test_standings_load.py compares the two."""
    entries = entry_facts(tournament)
    layout = gameplay.layout(tournament.game, tournament.rules)
    results = standings_results(_seat_rows(tournament), layout.sides[0])
    return StandingsInput(entries=entries, results=results)


def event_results(tournament: Tournament) -> list:
    """The results of every match that counts, as `load_for_standings` reads them."""
    layout = gameplay.layout(tournament.game, tournament.rules)
    return standings_results(_seat_rows(tournament), layout.sides[0])


def match_results(tournament: Tournament, matches: Collection[int]) -> dict[int, list]:
    """The results of these matches as `load_for_standings` reads them, by match; a match
    that does not count (not finished, in a draft round, a top cut's, gone) has none."""
    layout = gameplay.layout(tournament.game, tournament.rules)
    out: dict[int, list] = {match: [] for match in matches}
    for r in standings_results(_seat_rows(tournament, matches), layout.sides[0]):
        out[r.match].append(r)
    return out


def standings_results(by_match: dict[int, list[tuple]], first_side: str) -> list:
    """The results of `_seat_rows`' matches, as `results_and_meetings` makes them (the same
    Results in the same order; tests/tournaments/test_standings_load.py holds the two equal on
    generated seats), without the meetings: a table of one entry a side is read inline,
    anything else (a bye, a table of three or four, progressive pairs) by `_any_seats`, its
    meetings thrown away."""
    from tournaments.standings import Result

    results: list = []
    add = results.append
    for match_id, seats in by_match.items():
        if not seats[0][8] and len(seats) == 2 and seats[0][2] != seats[1][2]:
            a, b = seats  # the usual table: what _one_a_side adds
            if a[3]:
                add(
                    Result(
                        a[9],
                        match_id,
                        a[1],
                        (b[1],),
                        a[3],
                        fraction(a[4]),
                        fraction(a[5]),
                        fraction(a[6]),
                        a[7],
                        (),
                        a[10],
                    )
                )
            if b[3]:
                add(
                    Result(
                        b[9],
                        match_id,
                        b[1],
                        (a[1],),
                        b[3],
                        fraction(b[4]),
                        fraction(b[5]),
                        fraction(b[6]),
                        b[7],
                        (),
                        b[10],
                    )
                )
        else:
            _any_seats(match_id, seats, defaultdict(Past), first_side, add)
    return results


def entrants(tournament: Tournament, history: History | StandingsInput) -> list:
    from tournaments.standings import Entrant

    out = []
    facts: Sequence[Entry | EntryFacts] = history.entries
    for order, entry in enumerate(facts, 1):
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

"""Rounds: generate the pairings as a draft, let the director swap and fix, publish, close."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments import gameplay
from tournaments.knockout import services as knockout
from tournaments.models import Entry, EventTable, Match, Round, Seat, Table, Tournament

from . import backups
from . import history as hist
from .actors import Actor, audit, require_director
from .entries import apart_sets
from .errors import Conflict, Invalid, ServiceError


def _active_for(tournament: Tournament, number: int, entries: list[Entry]) -> list[Entry]:
    active = [e for e in entries if e.status != Entry.Status.WITHDRAWN and e.joined_round <= number]
    if number == 1 and any(e.status == Entry.Status.CHECKED_IN for e in active):
        # Once check-in has begun, the first round seats those who are here.
        active = [e for e in active if e.status == Entry.Status.CHECKED_IN]
    return active


def _contenders(tournament: Tournament, number: int, history: hist.History) -> list:
    from tournaments.pairing import Contender

    rows = hist.standings_rows(tournament, history)
    rank = {row.entrant: i for i, row in enumerate(rows, 1)}
    points = {row.entrant: row.values["match_points"] for row in rows}
    active = _active_for(tournament, number, history.entries)
    avoid = apart_sets(tournament, active)
    out = []
    for entry in active:
        past = history.past[entry.pk]
        out.append(
            Contender(
                id=entry.pk,
                points=points.get(entry.pk, 0),
                rank=rank[entry.pk],
                opponents=frozenset(past.opponents),
                byes=past.byes,
                first=past.first,
                partners=frozenset(past.partners),
                sat_out=past.byes,
                avoid=avoid[entry.pk],
            )
        )
    return out


def _draw(tournament: Tournament, number: int, history: hist.History) -> tuple:
    """(tables, byes, notes, table slots, bye slots): a slot is a knockout match's place in the
    bracket (None for any other match)."""
    if knockout.in_knockout(tournament, number):
        return knockout.draw(tournament, number, lambda n: _contenders(tournament, n, history))
    tables, byes, notes = _pairings(tournament, number, history)
    return tables, byes, notes, [None] * len(tables), [None] * len(byes)


def _pairings(tournament: Tournament, number: int, history: hist.History) -> tuple:
    from tournaments import pairing

    seed = tournament.seed * 1000 + number
    fmt = tournament.format
    if fmt == Tournament.Format.ROUND_ROBIN:
        listed = sorted(
            (
                e
                for e in history.entries
                if e.joined_round == 1
                and not (e.status == Entry.Status.WITHDRAWN and e.withdrawn_after_round == 0)
            ),
            key=lambda e: (e.seed is None, e.seed or 0, e.pk),
        )
        ids = [e.pk for e in listed]
        needed = pairing.round_robin_rounds(len(ids), double=tournament.double_round_robin)
        if number > needed:
            raise Invalid(
                "round-robin-complete", f"the round robin of {len(ids)} has {needed} rounds"
            )
        draw = pairing.round_robin(ids, number, double=tournament.double_round_robin)
        gone = {e.pk for e in listed if e.status == Entry.Status.WITHDRAWN}
        tables, byes = [], [i for i in draw.byes if i not in gone]
        for table in draw.tables:
            here = [i for i in table if i not in gone]
            if len(here) == 2:
                tables.append(tuple(here))
            else:
                byes.extend(here)
        return tuple(tables), tuple(byes), draw.notes
    contenders = _contenders(tournament, number, history)
    if fmt == Tournament.Format.SWISS:
        draw = pairing.swiss(contenders, seed=seed)
    elif fmt == Tournament.Format.INDIVIDUAL:
        draw = pairing.tables(contenders, size=tournament.table_size, seed=seed)
    else:
        draw = pairing.progressive(contenders, seed=seed)
    return draw.tables, draw.byes, draw.notes


def _numbers(tables: tuple, entries: dict[int, Entry]) -> list[int]:
    """Table numbers in draw order, with any entry's fixed table honoured."""
    wanted: dict[int, int] = {}
    for index, table in enumerate(tables):
        for entry_id in table:
            fixed = entries[entry_id].fixed_table
            if fixed is not None and fixed not in wanted.values() and index not in wanted:
                wanted[index] = fixed
    free = (n for n in range(1, len(tables) + len(wanted) + 1) if n not in wanted.values())
    return [wanted[i] if i in wanted else next(free) for i in range(len(tables))]


def _places(tournament: Tournament) -> list[tuple[str, str]]:
    """(side, seats) of each place at a table, in the order the draw lists its entries."""
    shape = gameplay.layout(tournament.game, tournament.rules)
    fmt = tournament.format
    if fmt in gameplay.TWO_SIDED:
        return [(side, side) for side in shape.sides]
    if fmt == Tournament.Format.PROGRESSIVE:
        return [(next(side for side in shape.sides if seat in side), seat) for seat in shape.seats]
    return [(seat, seat) for seat in shape.seats]


def _write_draw(
    tournament: Tournament,
    round_: Round,
    tables: tuple,
    byes: tuple,
    entries: dict[int, Entry],
    slots: list | None = None,
    bye_slots: list | None = None,
) -> None:
    """Tables, matches and seats in a few bulk inserts (a thousand tables one row at a time
    cost most of a round's pairing time). `slots`/`bye_slots`: each knockout match's place in
    the bracket, (round, index), or None."""
    slots = slots or [None] * len(tables)
    bye_slots = bye_slots or [None] * len(byes)
    numbered = list(zip(_numbers(tables, entries), tables, strict=True))
    event_tables = EventTable.objects.numbered(tournament.pk, [n for n, _ in numbered])
    table_rows = Table.objects.bulk_create(
        Table(round=round_, number=n, event_table=event_tables[n]) for n, _ in numbered
    )
    matches = Match.objects.bulk_create(
        Match(
            round=round_,
            table=table,
            bracket_round=slot and slot[0],
            bracket_index=slot and slot[1],
        )
        for table, slot in zip(table_rows, slots, strict=True)
    )
    places = _places(tournament)
    seats = [
        Seat(match=match, entry_id=entry_id, side=side, seats=where)
        for match, (_, ids) in zip(matches, numbered, strict=True)
        for entry_id, (side, where) in zip(ids, places, strict=True)
    ]
    now = timezone.now()
    bye_matches = Match.objects.bulk_create(
        Match(
            round=round_,
            is_bye=True,
            state=Match.State.FINISHED,
            finished_at=now,
            bracket_round=slot and slot[0],
            bracket_index=slot and slot[1],
        )
        for slot in bye_slots
    )
    seats += [
        Seat(
            match=match,
            entry_id=entry_id,
            side="-",
            seats="-",
            match_points=tournament.points_bye,
            outcome="bye",
            points_for="0",
            points_against="0",
        )
        for match, entry_id in zip(bye_matches, byes, strict=True)
    ]
    Seat.objects.bulk_create(seats)


def _next_round(
    tournament: Tournament, latest: Round | None, *, regenerate: bool
) -> tuple[int, ServiceError | None]:
    """The number the next draft would have, and why it cannot be drawn now (or None): the
    guards of `generate_round`, in one place for the workflow and the pages that offer it."""
    if tournament.state == Tournament.State.FINISHED:
        return 0, Conflict("tournament-finished", "the tournament is over")
    if tournament.format == Tournament.Format.DUPLICATE:  # the movement seats it
        return 0, Conflict(
            "duplicate-movement", "a duplicate event's rounds come from its movement"
        )
    if latest is not None and latest.state == Round.State.DRAFT:
        if not regenerate:
            return latest.number, Conflict(
                "draft-exists", f"round {latest.number} is already a draft"
            )
        number = latest.number
    elif latest is not None and latest.state != Round.State.CLOSED:
        return latest.number, Conflict(
            "round-open", f"close round {latest.number} before pairing the next"
        )
    else:
        number = (latest.number if latest else 0) + 1
    if knockout.has_knockout(tournament):
        refusal = knockout.next_refusal(tournament, number)
        if refusal is not None or knockout.in_knockout(tournament, number):
            return number, refusal
    if number > tournament.rounds:
        return number, Invalid("no-more-rounds", f"the tournament has {tournament.rounds} rounds")
    return number, None


def can_generate_round(
    *, tournament: Tournament, latest: Round | None, regenerate: bool = False
) -> str | None:
    """Why `generate_round` would refuse to draw the next round now (its error code), or None
    when it may. `latest` is the tournament's latest round (None before the first)."""
    refusal = _next_round(tournament, latest, regenerate=regenerate)[1]
    return refusal.code if refusal is not None else None


@transaction.atomic
def generate_round(*, tournament: Tournament, actor: Actor, regenerate: bool = False) -> Round:
    """The next round's pairings as a draft (or a fresh draft in place of the current one)."""
    require_director(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    latest = tournament.round_set.order_by("-number").first()
    number, refusal = _next_round(tournament, latest, regenerate=regenerate)
    if refusal is not None:
        raise refusal
    if latest is not None and latest.state == Round.State.DRAFT:  # regenerating: drawn afresh
        latest.delete()
    history = hist.load(tournament)
    from tournaments.pairing import PairingError

    try:
        tables, byes, notes, slots, bye_slots = _draw(tournament, number, history)
    except PairingError as error:
        raise Invalid(f"pairing-{error.code}", str(error)) from error
    entries = {e.pk: e for e in history.entries}
    round_ = Round.objects.create(tournament=tournament, number=number, notes=list(notes))
    _write_draw(tournament, round_, tables, byes, entries, slots, bye_slots)
    audit(
        tournament=tournament,
        actor=actor,
        action="round-generated",
        subject=f"round {number}",
        data={
            "round": number,
            "tables": len(tables),
            "byes": list(byes),
            "notes": list(notes),
            "regenerated": regenerate,
        },
    )
    return round_


def _seat_of(round_: Round, entry: Entry) -> Seat:
    seat = Seat.objects.select_related("match").filter(match__round=round_, entry=entry).first()
    if seat is None:
        raise ServiceError("not-in-round", f"{entry.name} is not in round {round_.number}")
    return seat


def _table_number(seat: Seat) -> int | None:
    """The number of the seat's table (None for a bye)."""
    return seat.match.table.number if seat.match.table is not None else None


@transaction.atomic
def swap_entries(
    *, round: Round, actor: Actor, first: Entry, second: Entry, reason: str = ""
) -> Round:
    """Swap two entries' places in a draft round (tables, sides or byes); recorded."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    require_director(actor, round_.tournament)
    if round_.state != Round.State.DRAFT:
        raise Conflict("round-not-draft", "only a draft round can be changed")
    if first.pk == second.pk:
        raise ServiceError("bad-swap", "swap two different entries")
    a, b = _seat_of(round_, first), _seat_of(round_, second)
    if a.match.bracket_round is not None or b.match.bracket_round is not None:
        raise Conflict(
            "bracket-fixed", "the bracket's seeding places knockout matches: they cannot be swapped"
        )
    tables = [_table_number(seat) for seat in (a, b)]
    if a.match_id == b.match_id:  # change sides: through a free value, seats are unique
        (a_side, a_seats), (b_side, b_seats) = (a.side, a.seats), (b.side, b.seats)
        a.seats = "~"
        a.save(update_fields=["seats"])
        b.side, b.seats = a_side, a_seats
        b.save(update_fields=["side", "seats"])
        a.side, a.seats = b_side, b_seats
        a.save(update_fields=["side", "seats"])
    else:
        a.entry_id, b.entry_id = second.pk, first.pk
        a.save(update_fields=["entry"])
        b.save(update_fields=["entry"])
    history = hist.load(round_.tournament)
    rematches = []
    for seat in Seat.objects.filter(match__round=round_, match__is_bye=False):
        others = Seat.objects.filter(match=seat.match).exclude(side=seat.side)
        met = history.past[seat.entry_id].opponents
        rematches += [(seat.entry_id, o.entry_id) for o in others if o.entry_id in met]
    audit(
        tournament=round_.tournament,
        actor=actor,
        action="entries-swapped",
        subject=f"round {round_.number}",
        reason=reason,
        data={
            "round": round_.number,
            "tables": tables,
            "entries": [first.pk, second.pk],
            "rematches": sorted({tuple(sorted(p)) for p in rematches}),
        },
    )
    return round_


@transaction.atomic
def publish_round(*, round: Round, actor: Actor) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    tournament = round_.tournament
    require_director(actor, tournament)
    if round_.state != Round.State.DRAFT:
        raise Conflict("round-not-draft", f"round {round_.number} is already published")
    round_.state = Round.State.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["state", "published_at"])
    if tournament.state != Tournament.State.RUNNING:
        Tournament.objects.filter(pk=tournament.pk).update(state=Tournament.State.RUNNING)
    audit(
        tournament=tournament,
        actor=actor,
        action="round-published",
        subject=f"round {round_.number}",
        data={"round": round_.number},
    )
    from . import notify

    notify.round_published(round_)
    notify.results_changed(tournament)
    return round_


@transaction.atomic
def close_round(*, round: Round, actor: Actor) -> Round:
    """Close a round once every match at it is finished."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    require_director(actor, round_.tournament)
    if round_.state == Round.State.CLOSED:
        return round_
    if round_.state == Round.State.DRAFT:
        raise Conflict("round-not-published", "publish the round first")
    unfinished = round_.matches.exclude(state=Match.State.FINISHED).select_related("table")
    if unfinished.exists():
        tables = ", ".join(str(m.played_table.number) for m in unfinished)
        raise Invalid(
            "matches-unfinished",
            f"table(s) {tables} have not finished",
            details={"tables": [m.played_table.number for m in unfinished]},
        )
    round_.state = Round.State.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["state", "closed_at"])
    audit(
        tournament=round_.tournament,
        actor=actor,
        action="round-closed",
        subject=f"round {round_.number}",
        data={"round": round_.number},
    )
    backups.round_closed(tournament_id=round_.tournament_id, number=round_.number)
    from . import standings

    standings.round_closed(round_.tournament_id)  # "N rounds closed" at once
    return round_

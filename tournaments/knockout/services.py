"""The knockout: a knockout tournament, or a Swiss that ends in a top cut.

Settings (`set_knockout`): the cut (0, 2, 4 or 8 after the Swiss), the knockout's own match
length (to the rules' target, a number of hands, or best of N matches), the tie-break hands, a
third-place match and a consolation Swiss for those outside the cut.

The cut list (`cut_list`) is read from the standings after the last Swiss round (a knockout
tournament: every entry still in, by seed then registration). The director confirms the list
they saw (`confirm_cut`); only then is the bracket made (`Tournament.bracket`, the entries in
seed order). Each knockout round is then drawn like any round (`rounds.generate_round`): the
bracket's matches that can be played now, each a match with its place in the bracket
(`Match.bracket_round`/`bracket_index`), plus the consolation Swiss if chosen. The bracket is
never stored beyond its seeds: `board` reads it again from the finished knockout matches, so a
correction flows through.

A knockout match never ends tied (`gameplay.knockout_ended`): to a target the rules' own tie rule
plays on; after a fixed number of hands a tie adds the tie-break hands; best of N: each match to
the target, the first to win more than half goes through.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import Entry, Match, Round, Seat, Tournament
from tournaments.services import history as hist
from tournaments.services.actors import Actor, audit, require_director
from tournaments.services.errors import Conflict, Invalid, ServiceError

if TYPE_CHECKING:
    from tournaments.pairing import Contender

CUT_SIZES = (0, 2, 4, 8)
MAX_COUNT = 99
#: The codes `set_knockout` refuses a setting with (a form shows them against the knockout's
#: own fields; tests/knockout/test_services.py checks the list against the code).
SETTING_REFUSALS = frozenset(
    {
        "bad-top-cut",
        "bad-knockout-length",
        "bad-tiebreak-hands",
        "bad-third-place",
        "bad-consolation",
    }
)


def has_knockout(tournament: Tournament) -> bool:
    """Whether the tournament ends in (or is) a knockout."""
    return tournament.format == Tournament.Format.KNOCKOUT or (
        tournament.format == Tournament.Format.SWISS and tournament.top_cut > 0
    )


def is_cut(tournament: Tournament) -> bool:
    """A Swiss ending in a top cut (its standings are the Swiss's: knockout matches stay out)."""
    return tournament.format == Tournament.Format.SWISS and tournament.top_cut > 0


def seeds(tournament: Tournament) -> list[int]:
    """The confirmed bracket's entries in seed order ([] before the director confirms)."""
    value = tournament.bracket.get("seeds") if isinstance(tournament.bracket, dict) else None
    return list(value or [])


def after_round(tournament: Tournament) -> int:
    """The last round before the knockout (0 for a knockout tournament)."""
    return int(tournament.bracket.get("after_round", 0)) if seeds(tournament) else 0


def in_knockout(tournament: Tournament, number: int) -> bool:
    """Whether round `number` is a knockout round (its bracket confirmed)."""
    return bool(seeds(tournament)) and number > after_round(tournament)


# -- settings ---------------------------------------------------------------------------------


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@transaction.atomic
def set_knockout(
    *,
    tournament: Tournament,
    actor: Actor,
    top_cut: int | None = None,
    length: str | None = None,
    count: int | None = None,
    tiebreak_hands: int | None = None,
    third_place: bool | None = None,
    consolation: bool | None = None,
) -> Tournament:
    """Set the knockout's settings (those given; the others stay). Fixed once the bracket is
    made. Setting what is already set changes nothing and records nothing."""
    require_director(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    values: dict[str, Any] = {
        "top_cut": tournament.top_cut,
        "knockout_length": tournament.knockout_length,
        "knockout_count": tournament.knockout_count,
        "tiebreak_hands": tournament.tiebreak_hands,
        "third_place": tournament.third_place,
        "consolation": tournament.consolation,
    }
    if top_cut is not None:
        if not _whole(top_cut, 0, 8) or top_cut not in CUT_SIZES:
            raise Invalid("bad-top-cut", "the top cut is 0 (none), 2, 4 or 8")
        if top_cut and tournament.format != Tournament.Format.SWISS:
            raise Invalid("bad-top-cut", "a top cut ends a Swiss")
        values["top_cut"] = top_cut
    if length is not None:
        if length not in Tournament.KnockoutLength.values:
            raise Invalid(
                "bad-knockout-length",
                f"the knockout's match length is one of {Tournament.KnockoutLength.values}",
            )
        values["knockout_length"] = length
    if count is not None:
        if not _whole(count, 1, MAX_COUNT):
            raise Invalid("bad-knockout-length", f"a count from 1 to {MAX_COUNT}")
        values["knockout_count"] = count
    if values["knockout_length"] == Tournament.KnockoutLength.TARGET:
        values["knockout_count"] = None
    elif values["knockout_count"] is None:
        raise Invalid("bad-knockout-length", "say how many hands, or N of best of N matches")
    elif (
        values["knockout_length"] == Tournament.KnockoutLength.BEST_OF
        and values["knockout_count"] % 2 == 0
    ):
        raise Invalid("bad-knockout-length", "best of N: N is odd (1, 3, 5...)")
    if tiebreak_hands is not None:
        if not _whole(tiebreak_hands, 1, MAX_COUNT):
            raise Invalid("bad-tiebreak-hands", f"tie-break hands from 1 to {MAX_COUNT}")
        values["tiebreak_hands"] = tiebreak_hands
    for name, flag in (("third_place", third_place), ("consolation", consolation)):
        if flag is not None:
            if not isinstance(flag, bool):
                raise ServiceError(f"bad-{name.replace('_', '-')}", f"{name} is true or false")
            values[name] = flag
    if values["third_place"] and values["top_cut"] == 2:
        raise Invalid(
            "bad-third-place",
            "a top cut of 2 goes straight to the final: with no semi-finals there is no "
            "third-place match (untick it, or cut to 4 or 8)",
        )
    changed = {k: v for k, v in values.items() if getattr(tournament, k) != v}
    if not changed:
        return tournament
    if seeds(tournament):
        raise Conflict(
            "bracket-made",
            "the bracket is made: its settings can no longer change",
            details={"fields": sorted(changed)},
        )
    if tournament.state == Tournament.State.FINISHED:
        raise Conflict("tournament-finished", "the tournament is over")
    for name, value in changed.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=sorted(changed))
    audit(
        tournament=tournament,
        actor=actor,
        action="knockout-set",
        subject=tournament.slug,
        data={"changes": changed},
    )
    return tournament


# -- the cut list -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CutEntry:
    entry: Entry
    seed: int  # 1 = the top seed
    rank: int | None  # the Swiss place (None in a knockout tournament)
    values: dict[str, Any] = field(default_factory=dict)
    at_line: bool = False


@dataclass(frozen=True, slots=True)
class CutList:
    """Who goes into the bracket, in seed order, and the entries at the line when a tie there
    was decided by the chain (`decided_by`: a metric name, "final-key", or None)."""

    size: int
    entries: list[CutEntry]
    line: list[CutEntry]
    decided_by: str | None
    chain: list[str]
    confirmed: bool
    refusal: ServiceError | None  # why it cannot be confirmed now (None: it can)

    @property
    def ids(self) -> list[int]:
        return [c.entry.pk for c in self.entries]


def _refusal(tournament: Tournament, latest: Round | None) -> ServiceError | None:
    if not has_knockout(tournament):
        return Invalid("no-knockout", "this tournament has no knockout")
    if seeds(tournament):
        return Conflict("cut-confirmed", "the bracket is already made")
    if tournament.state == Tournament.State.FINISHED:
        return Conflict("tournament-finished", "the tournament is over")
    if is_cut(tournament):
        if (
            latest is None
            or latest.number < tournament.rounds
            or latest.state != Round.State.CLOSED
        ):
            return Conflict(
                "swiss-not-over", f"close Swiss round {tournament.rounds} before the cut"
            )
    elif latest is not None:
        return Conflict("rounds-begun", "the bracket is made before the first round")
    return None


def _still_in(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    active = [e for e in entries if e.status != Entry.Status.WITHDRAWN]
    if any(e.status == Entry.Status.CHECKED_IN for e in active):
        active = [e for e in active if e.status == Entry.Status.CHECKED_IN]
    return active


def cut_list(*, tournament: Tournament) -> CutList:
    """The cut as it stands (or as confirmed, once the bracket is made)."""
    from tournaments.knockout.engine import Standing, cut
    from tournaments.pairing import PairingError

    latest = tournament.round_set.order_by("-number").first()
    refusal = _refusal(tournament, latest)
    chain = list(tournament.tiebreaks)
    history = hist.load(tournament)
    by_id = {e.pk: e for e in history.entries}
    made = seeds(tournament)
    if made:
        data = tournament.bracket
        line_ids = list(data.get("line") or [])
        entries = [
            CutEntry(by_id[i], n, None, at_line=i in line_ids)
            for n, i in enumerate(made, 1)
            if i in by_id
        ]
        line = [CutEntry(by_id[i], 0, None) for i in line_ids if i in by_id]
        return CutList(len(made), entries, line, data.get("decided_by"), chain, True, refusal)
    if not has_knockout(tournament):
        return CutList(0, [], [], None, chain, False, refusal)
    if is_cut(tournament):
        gone = {e.pk for e in history.entries if e.status == Entry.Status.WITHDRAWN}
        rows = [r for r in hist.standings_rows(tournament, history) if r.entrant not in gone]
        size = tournament.top_cut
        values = {r.entrant: dict(r.values) for r in rows}
        ranks = {r.entrant: r.rank for r in rows}
        try:
            drawn = cut([Standing(r.entrant, r.rank, r.values) for r in rows], size, chain)
        except PairingError as error:
            return CutList(
                size,
                [],
                [],
                None,
                chain,
                False,
                refusal or Invalid(f"pairing-{error.code}", str(error)),
            )
        line_set = set(drawn.line)
        entries = [
            CutEntry(by_id[i], n, ranks[i], values[i], i in line_set)
            for n, i in enumerate(drawn.seeded, 1)
        ]
        line = [CutEntry(by_id[i], 0, ranks[i], values[i], True) for i in drawn.line]
        return CutList(size, entries, line, drawn.decided_by, chain, False, refusal)
    still = sorted(
        _still_in(tournament, history.entries), key=lambda e: (e.seed is None, e.seed or 0, e.pk)
    )
    if len(still) < 2 and refusal is None:
        refusal = Invalid("too-few-entrants", "a knockout needs at least 2 entries")
    entries = [CutEntry(e, n, None) for n, e in enumerate(still, 1)]
    return CutList(len(still), entries, [], None, chain, False, refusal)


@transaction.atomic
def confirm_cut(*, tournament: Tournament, actor: Actor, entries: list[int]) -> Tournament:
    """The director confirms the cut list they saw (`entries`: ids in seed order) and the
    bracket is made. Confirming the same list again returns the bracket as made; a list that is
    no longer the cut (a result changed since) is refused and nothing is made."""
    require_director(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not isinstance(entries, list | tuple) or not all(_whole(i, 1, 2**63 - 1) for i in entries):
        raise ServiceError("bad-entries", "the cut list is a list of entry ids in seed order")
    made = seeds(tournament)
    if made:
        if list(entries) == made:
            return tournament
        raise Conflict(
            "cut-confirmed",
            "the bracket is already made with another list",
            details={"entries": made},
        )
    listed = cut_list(tournament=tournament)
    if listed.refusal is not None:
        raise listed.refusal
    if list(entries) != listed.ids:
        raise Conflict(
            "cut-changed",
            "the cut is not the list confirmed: look again",
            details={"entries": listed.ids},
        )
    latest = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    tournament.bracket = {
        "seeds": listed.ids,
        "after_round": latest or 0,
        "line": [c.entry.pk for c in listed.line],
        "decided_by": listed.decided_by,
        "confirmed_at": timezone.now().isoformat(),
    }
    tournament.save(update_fields=["bracket"])
    audit(
        tournament=tournament,
        actor=actor,
        action="cut-confirmed",
        subject=tournament.slug,
        data={
            "entries": listed.ids,
            "size": listed.size,
            "line": tournament.bracket["line"],
            "decided_by": listed.decided_by,
            "round": latest or 0,
        },
    )
    from tournaments.services import notify

    notify.bracket_changed(tournament)
    return tournament


# -- the bracket as played --------------------------------------------------------------------


@dataclass(slots=True)
class Leg:
    match_id: int
    round: int  # the tournament's round number
    table: int | None
    state: str
    winner: int | None
    points: dict[int, str]  # entry -> the game's points in this match


@dataclass(slots=True)
class Series:
    """One match of the bracket as played: its legs (one, or up to N for best of N)."""

    round: int
    index: int
    legs: list[Leg] = field(default_factory=list)
    wins: Counter = field(default_factory=Counter)


@dataclass(slots=True)
class Board:
    """The bracket (tournaments.pairing.Bracket) from the results so far, the legs played at
    each of its places, each entrant's place as decided, and the notes of anything that does
    not fit (a corrected result after the next round was drawn)."""

    bracket: Any
    series: dict[tuple[int, int], Series]
    placings: dict[int, int]
    notes: list[str]

    @property
    def complete(self) -> bool:
        return not self.ready and all(m.winner is not None for r in self.bracket.rounds for m in r)

    @property
    def ready(self) -> list:
        return [m for r in self.bracket.rounds for m in r if m.ready]


def _needed(tournament: Tournament) -> int:
    if tournament.knockout_length == Tournament.KnockoutLength.BEST_OF:
        return (tournament.knockout_count or 1) // 2 + 1
    return 1


def board(tournament: Tournament, *, public: bool = True) -> Board | None:
    """The bracket as the finished knockout matches have filled it (None before it is made).
    `public`: read only published rounds (what visitors may see)."""
    from tournaments.knockout.engine import advance, bracket, placings

    made = seeds(tournament)
    if not made:
        return None
    empty = bracket(made, third_place=tournament.third_place)
    matches = Match.objects.filter(round__tournament=tournament, bracket_round__isnull=False)
    if public:
        matches = matches.filter(Round.public_q("round__"))
    rows = list(
        matches.values_list(
            "id",
            "bracket_round",
            "bracket_index",
            "state",
            "round__number",
            "table__number",
            "is_bye",
        )
    )
    seats: dict[int, list[tuple]] = defaultdict(list)
    for match_id, entry_id, outcome, points in Seat.objects.filter(
        match_id__in=[r[0] for r in rows]
    ).values_list("match_id", "entry_id", "outcome", "points_for"):
        seats[match_id].append((entry_id, outcome, points))
    series: dict[tuple[int, int], Series] = {}
    needed = _needed(tournament)
    for match_id, b_round, b_index, state, number, table, bye in sorted(rows, key=lambda r: r[4]):
        at = seats[match_id]
        # A bye at a bracket place is a walkover (the other side withdrew): it goes through.
        winner = next((e for e, outcome, _ in at if outcome in ("win", "bye")), None)
        if state != Match.State.FINISHED:
            winner = None
        assert b_round is not None and b_index is not None  # bracket_round__isnull=False
        leg = Leg(match_id, number, table, state, winner, {e: p for e, _, p in at})
        one = series.setdefault((b_round, b_index), Series(b_round, b_index))
        one.legs.append(leg)
        if winner is not None:
            one.wins[winner] += needed if bye else 1
    notes: list[str] = []
    current = empty
    accepted: dict[tuple[int, int], int] = {}
    for matches_ in empty.rounds:
        for slot in matches_:
            key = (slot.round, slot.index)
            played = series.get(key)
            if played is None or slot.bye:
                continue
            here = current.match(*key)
            leader = next((e for e, n in played.wins.most_common() if n >= needed), None)
            if leader is None:
                continue
            if leader not in (here.top, here.bottom):
                notes.append(
                    f"match {key[1]} of bracket round {key[0]}: its winner is no longer "
                    "in it (a result was corrected)"
                )
                continue
            accepted[key] = leader
        current = advance(empty, accepted)
    return Board(current, series, placings(current), notes)


def draw(
    tournament: Tournament, number: int, contenders_for: Callable[[int], Sequence[Contender]]
) -> tuple:
    """The knockout round `number`: the bracket's matches of its earliest round still to play
    (another match of a best of N still undecided, or a match whose two entrants are known), the
    top seed on
    the first side; in the first knockout round the bracket's byes; and the consolation Swiss
    of the others if chosen. Returns (tables, byes, notes, table slots, bye slots)."""
    from tournaments import pairing

    current = board(tournament, public=False)
    assert current is not None
    ready = current.ready
    if not ready:
        raise Invalid("knockout-complete", "every match of the bracket is decided")
    # Round by round, as the bracket is printed: the earliest round with a match to play (an
    # entrant with a bye waits for the second round, even when its opponent is known early).
    earliest = min(m.round for m in ready)
    ready = [m for m in ready if m.round == earliest]
    gone = set(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.WITHDRAWN).values_list(
            "pk", flat=True
        )
    )
    tables: list[tuple[int, ...]] = []
    slots: list[tuple[int, int] | None] = []
    byes: list[int] = []
    bye_slots: list[tuple[int, int] | None] = []
    walkovers = []
    for m in ready:
        if m.top in gone or m.bottom in gone:  # a walkover: the one still in goes through
            through = m.bottom if m.top in gone and m.bottom not in gone else m.top
            byes.append(through)
            bye_slots.append((m.round, m.index))
            walkovers.append(f"knockout: walkover for {through} (the other side withdrew)")
        else:
            tables.append((m.top, m.bottom))
            slots.append((m.round, m.index))
    if number == after_round(tournament) + 1:
        for m in current.bracket.rounds[0]:
            if m.bye:
                byes.append(m.winner)
                bye_slots.append((m.round, m.index))
    notes = [f"knockout: {len(tables)} match(es)", *walkovers]
    if tournament.consolation and is_cut(tournament):
        inside = set(seeds(tournament))
        others = [c for c in contenders_for(number) if c.id not in inside]
        if len(others) >= 2:
            swiss = pairing.swiss(others, seed=tournament.seed * 1000 + number)
            tables += list(swiss.tables)
            byes += list(swiss.byes)
            slots += [None] * len(swiss.tables)
            bye_slots += [None] * len(swiss.byes)
            notes += [f"consolation: {n}" for n in swiss.notes]
    return tuple(tables), tuple(byes), tuple(notes), slots, bye_slots


def next_refusal(tournament: Tournament, number: int) -> ServiceError | None:
    """Why round `number` cannot be drawn for a tournament with a knockout (None: it can)."""
    if not has_knockout(tournament):
        return None
    before = tournament.rounds if is_cut(tournament) else 0
    if number <= before:
        return None
    if not seeds(tournament):
        return Conflict("cut-not-confirmed", "confirm the cut list before the knockout")
    current = board(tournament, public=False)
    if current is not None and not current.ready:
        return Invalid("knockout-complete", "every match of the bracket is decided")
    return None

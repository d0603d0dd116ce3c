"""The standings' own read of the history (issue 18: confirm -> snapshot) against the general
one it stands in for: `history.standings_results` makes the same Results, in the same order, as
`history.results_and_meetings` (what `history.load` uses, which also records the meetings), on
generated seats of every kind of match; `load_for_standings` reads the same results and the
entries' facts as `load` does from the database; and the snapshot payload built from them is the
payload built the general way (model instances, a lookup per value)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import sizes
from tournaments.models import Entry, Match, Player, Round, Seat
from tournaments.services import history as hist
from tournaments.services import standings
from tournaments.standings import DEFAULT_TIEBREAKS, Entrant, Result, compute

from .builders import HAND_1, HAND_2, make_director, make_match
from .test_standings_service import play

OUTCOMES = st.sampled_from(["win", "loss", "draw", ""])  # "" = not finished
POINTS = st.one_of(
    st.integers(-500, 500).map(str),
    st.fractions(min_value=-50, max_value=50, max_denominator=4).map(str),
    st.just(""),
)
MATCH_POINTS = st.one_of(st.none(), st.sampled_from(["0.0", "1.0", "1.5", "2.0", "3"]).map(Decimal))


@st.composite
def seats_of_a_match(draw, match_id: int, number: int, entries: list[int]) -> list[tuple]:
    """One match's `SEAT_FIELDS` rows: a bye, a table of one entry a side, a table of three
    or four single sides, or progressive pairs (two entries a side)."""
    kind = draw(st.sampled_from(["bye", "two", "two", "two", "three", "four", "pairs"]))
    size = {"bye": 1, "two": 2, "three": 3, "four": 4, "pairs": 4}[kind]
    who = draw(st.lists(st.sampled_from(entries), min_size=size, max_size=size, unique=True))
    sides = {
        "bye": ["-"],
        "two": draw(st.permutations(["NS", "EW"])),
        "three": ["1", "2", "3"],
        "four": ["1", "2", "3", "4"],
        "pairs": ["NS", "EW", "NS", "EW"],
    }[kind]
    rows = []
    for entry, side in zip(who, sides, strict=True):
        outcome = "bye" if kind == "bye" and draw(st.booleans()) else draw(OUTCOMES)
        place = draw(st.one_of(st.none(), st.integers(1, 4))) if size > 2 else None
        rows.append(
            (
                match_id,
                entry,
                side,
                outcome,
                draw(MATCH_POINTS),
                draw(POINTS),
                draw(POINTS),
                place,
                kind == "bye",
                number,
                draw(st.integers(0, 6)),  # hands won
            )
        )
    return rows


@st.composite
def seat_rows(draw) -> dict[int, list[tuple]]:
    entries = list(range(101, 101 + draw(st.integers(4, 12))))
    by_match: dict[int, list[tuple]] = {}
    for match_id in range(1, draw(st.integers(0, 12)) + 1):
        by_match[match_id] = draw(seats_of_a_match(match_id, draw(st.integers(1, 5)), entries))
    return by_match


@settings(max_examples=sizes.examples(200), deadline=None)
@given(seat_rows(), st.sampled_from(["NS", "EW", "1"]))
def test_the_standings_read_makes_the_results_the_general_read_makes(by_match, first_side):
    entries = {seat[1] for seats in by_match.values() for seat in seats}
    general = hist.results_and_meetings(by_match, {e: hist.Past() for e in entries}, first_side)
    assert hist.standings_results(by_match, first_side) == general


def reference_rows(tournament) -> list[dict]:
    """The payload's rows the way compute_payload built them before issue 18's second round:
    `load` (model instances of every entry, team and player), a `_value` call per value."""
    history = hist.load(tournament)
    rows = hist.standings_rows(tournament, history)
    entries = {e.pk: e for e in history.entries}

    def entry_json(entry: Entry) -> dict:
        players = (
            [entry.team.first.name, entry.team.second.name]
            if entry.team_id
            else [entry.player.name]
        )
        return {
            "entry": entry.pk,
            "name": entry.name,
            "players": players,
            "withdrawn": entry.status == Entry.Status.WITHDRAWN,
        }

    return [
        {
            "rank": row.rank,
            "tied": row.tied,
            **entry_json(entries[row.entrant]),
            "values": {name: standings._value(v) for name, v in row.values.items()},
        }
        for row in rows
    ]


@pytest.mark.django_db
def test_the_standings_read_and_payload_equal_the_general_ones_on_a_real_event():
    match = make_match(make_director(), rules={"preset": "standard", "options": {"target": 100}})
    play(match, (HAND_1, HAND_2))
    tournament = match.round.tournament
    seated = list(Entry.objects.filter(tournament=tournament).order_by("id"))
    assert seated and all(e.team_id for e in seated)
    solo = Player.objects.create(name="Eri")  # an entry of one player, late and withdrawn
    late = Entry.objects.create(
        tournament=tournament,
        player=solo,
        joined_round=2,
        status=Entry.Status.WITHDRAWN,
        seed=3,
        late_entry="draw",
    )
    bye_round = Round.objects.create(tournament=tournament, number=2, state=Round.State.CLOSED)
    bye = Match.objects.create(round=bye_round, is_bye=True, state=Match.State.FINISHED)
    Seat.objects.create(
        match=bye,
        entry=late,
        side="-",
        seats="-",
        outcome="bye",
        match_points=Decimal("1.5"),
        points_for="0",
        points_against="0",
    )
    general, read = hist.load(tournament), hist.load_for_standings(tournament)
    assert len(read.results) == 3
    assert read.results == general.results
    assert [
        (e.pk, e.seed, e.joined_round, e.status, e.late_entry, e.name) for e in read.entries
    ] == [(e.pk, e.seed, e.joined_round, e.status, e.late_entry, e.name) for e in general.entries]
    assert hist.entrants(tournament, read) == hist.entrants(tournament, general)
    assert standings.compute_payload(tournament)["rows"] == reference_rows(tournament)


@settings(max_examples=sizes.examples(100), deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-30, 30), st.sampled_from([1, 1, 1, 2, 3, 4])),
        min_size=2,
        max_size=12,
    )
)
def test_a_rows_values_are_what_a_lookup_per_value_gives(points):
    """`_row_values` (each distinct value converted once) against `_value` per name."""
    people = [Entrant(id=k + 1, order=k + 1) for k in range(len(points))]
    results = []
    for k in range(0, len(points) - 1, 2):  # 1 v 2, 3 v 4, ...: fractional points
        (p, den), (q, den2) = points[k], points[k + 1]
        a, b = people[k].id, people[k + 1].id
        results += [
            Result(1, k, a, (b,), "draw", Fraction(p, den), Fraction(p, den), Fraction(q, den2)),
            Result(1, k, b, (a,), "draw", Fraction(q, den2), Fraction(q, den2), Fraction(p, den)),
        ]
    made: dict = {}
    rows = compute(people, results, tiebreaks=DEFAULT_TIEBREAKS)
    names = list(rows[0].values)
    for row in rows:
        assert standings._row_values(names, row.values.in_order(), made) == {
            name: standings._value(v) for name, v in row.values.items()
        }

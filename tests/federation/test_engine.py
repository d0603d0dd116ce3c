"""The federation engine on plain data: the club ratings' engine over the events in (end, id)
order, a subject once, one history point per event, a match with one person twice left out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tournaments.federation.engine import (
    FederationEvent,
    FederationMatch,
    digest,
    federation_ratings,
)
from tournaments.ratings import RatedGame, rate

T0 = datetime(2026, 3, 1, 20, tzinfo=UTC)
AIKO, BEN, CHIKA, DAN = ("person", 1), ("player", 2), ("player", 3), ("player", 4)


def match(first, second, places=(1, 2)) -> FederationMatch:
    return FederationMatch(sides=(first, second), places=places)


def event(pk: int, club: int, hours: int, *matches: FederationMatch) -> FederationEvent:
    return FederationEvent(id=pk, club=club, ended_at=T0 + timedelta(hours=hours), matches=matches)


EVENTS = [
    event(7, 1, 5, match((AIKO,), (BEN,)), match((CHIKA,), (DAN,), (2, 1))),
    event(3, 2, 1, match((AIKO,), (CHIKA,), (2, 1))),
    event(5, 2, 5, match((BEN, CHIKA), (AIKO, DAN))),  # ends with event 7: id 5 first
]


def test_the_ratings_are_the_engines_over_the_events_by_end_then_id():
    numbers = {AIKO: 1, BEN: 2, CHIKA: 3, DAN: 4}
    order = [(3, EVENTS[1]), (5, EVENTS[2]), (7, EVENTS[0])]
    games = []
    for _pk, e in order:
        for m in e.matches:
            games.append(
                RatedGame(
                    len(games) + 1,
                    e.ended_at,
                    tuple(tuple(numbers[s] for s in side) for side in m.sides),
                    m.places,
                )
            )
    want = rate(games)
    got = federation_ratings(EVENTS).standings
    assert {s: (r.mu, r.sigma, r.games) for s, r in got.items()} == {
        s: (want[n].mu, want[n].sigma, want[n].games) for s, n in numbers.items()
    }
    assert federation_ratings(reversed(EVENTS)).standings == got  # any order given


def test_the_history_has_one_point_per_event_the_last_its_rating():
    aiko = federation_ratings(EVENTS).standings[AIKO]
    assert [p.event for p in aiko.history] == [3, 5, 7]
    assert (aiko.events, aiko.clubs) == (3, (1, 2))
    assert (aiko.history[-1].mu, aiko.history[-1].sigma) == (aiko.mu, aiko.sigma)
    dan = federation_ratings(EVENTS).standings[DAN]
    assert [p.event for p in dan.history] == [5, 7] and dan.games == 2


def test_a_match_with_one_person_on_both_sides_is_left_out_and_counted():
    result = federation_ratings([event(1, 1, 0, match((AIKO,), (AIKO,)), match((BEN,), (DAN,)))])
    assert result.skipped == 1
    assert set(result.standings) == {BEN, DAN}


def test_the_digest_changes_with_the_inputs_and_not_with_their_order():
    assert digest(EVENTS) == digest(list(reversed(EVENTS)))
    moved = [event(3, 2, 6, *EVENTS[1].matches), EVENTS[0], EVENTS[2]]
    assert digest(moved) != digest(EVENTS)

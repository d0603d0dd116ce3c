"""The kept standings (tournaments.standings.Standings) give exactly what a full recompute
gives, after any sequence of hands: a hand that leaves its match's results as they were, one
that changes them (a correction, the match finishing), a match that stops counting, a new
match, an entrant withdrawn or a late entry."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import sizes
from tournaments.standings import DEFAULT_TIEBREAKS, METRICS, Standings, StandingsError, compute

from .events import KINDS, pairs, random_event, table, two_sided

CHAINS = st.one_of(
    st.just(DEFAULT_TIEBREAKS),
    st.lists(st.sampled_from(list(METRICS)), min_size=1, max_size=6, unique=True),
)
EVENTS = st.tuples(
    st.randoms(use_true_random=False), st.sampled_from(KINDS), st.integers(2, 13), st.integers(1, 4)
)


def played_again(rng: random.Random, kind: str, rnd: int, match: int, seats: list[int]) -> list:
    """A match's results as another hand could leave them: new points, so maybe another
    outcome."""
    points = [rng.randint(-5, 20) * 10 for _ in range(2)]
    if kind == "progressive" and len(seats) == 4:
        return pairs(rnd, match, (seats[0], seats[1]), (seats[2], seats[3]), *points)
    if kind == "tables" and len(seats) in (3, 4):
        scores = sorted((rng.randint(0, 3) for _ in seats), reverse=True)
        return table(
            rnd,
            match,
            [
                (e, 1 + scores.index(s), Fraction(len(seats) - 1 - scores.index(s)), Fraction(p))
                for e, s, p in zip(seats, scores, [rng.randint(-9, 9) for _ in seats], strict=True)
            ],
        )
    return two_sided(rnd, match, seats[0], seats[1], *points)


def a_hand(rng: random.Random, kind: str, by_match: dict[int, list], people: list) -> dict:
    """The change one hand makes: {match: its results now}."""
    if not by_match:
        return {}
    match = rng.choice(sorted(by_match))
    results = by_match[match]
    rnd = results[0].round
    seats = [r.entrant for r in results]
    what = rng.random()
    if what < 0.35 or results[0].outcome == "bye":  # the hand left the match as it was
        return {match: list(results)}
    if what < 0.8:  # rescored: a correction, or the last hand of the match
        return {match: played_again(rng, kind, rnd, match, seats)}
    if what < 0.9:  # the match no longer counts (its round back to a draft, a hand voided)
        return {match: []}
    new = max(by_match) + 1  # a new match of the same entrants, finished by this hand
    return {new: played_again(rng, kind, rnd + 1, new, seats)}


@settings(max_examples=sizes.examples(100), deadline=None)
@given(EVENTS, CHAINS, st.integers(1, 12), st.integers(0, 2**32))
def test_kept_standings_equal_a_full_recompute_after_every_hand(spec, chain, hands, seed):
    rng_event, kind, size, rounds = spec
    people, results = random_event(rng_event, kind, size, rounds)
    kept = Standings(people, results, tiebreaks=chain)
    by_match: dict[int, list] = {}
    for r in results:
        by_match.setdefault(r.match, []).append(r)
    rng = random.Random(seed)
    for _ in range(hands):
        change = a_hand(rng, kind, by_match, people)
        entrants = None
        if rng.random() < 0.15 and people:  # an entrant withdraws (or comes back)
            k = rng.randrange(len(people))
            people = [
                *people[:k],
                replace(people[k], withdrawn=not people[k].withdrawn),
                *people[k + 1 :],
            ]
            entrants = people
        kept = kept.changed(change, entrants=entrants)
        for match, now in change.items():
            if now:
                by_match[match] = list(now)
            else:
                by_match.pop(match, None)
        everything = [r for mine in by_match.values() for r in mine]
        assert kept.rows == compute(people, everything, tiebreaks=chain)
        assert sorted(map(repr, kept.results())) == sorted(map(repr, everything))


def test_a_hand_that_leaves_its_match_as_it_was_changes_nothing():
    people, results = random_event(random.Random(7), "two-sided", 10, 3)
    kept = Standings(people, results, tiebreaks=DEFAULT_TIEBREAKS)
    match = results[0].match
    same = [r for r in results if r.match == match]
    assert kept.changed({match: list(reversed(same))}) is kept
    assert kept.changed({}, entrants=list(people)) is kept


def test_a_result_of_another_match_is_refused_and_nothing_kept_changes():
    people, results = random_event(random.Random(8), "two-sided", 10, 3)
    kept = Standings(people, results, tiebreaks=DEFAULT_TIEBREAKS)
    before = kept.rows
    first, other = results[0], next(r for r in results if r.match != results[0].match)
    with pytest.raises(StandingsError) as error:
        kept.changed({first.match: [other]})
    assert error.value.code == "bad-input"
    assert kept.rows == before


def test_an_invalid_change_is_refused_and_nothing_kept_changes():
    people, results = random_event(random.Random(9), "two-sided", 10, 3)
    kept = Standings(people, results, tiebreaks=DEFAULT_TIEBREAKS)
    before = kept.rows
    stranger = replace(results[0], entrant=10**9)  # an entrant the event does not have
    with pytest.raises(StandingsError) as error:
        kept.changed({results[0].match: [stranger]})
    assert error.value.code == "bad-input"
    assert kept.rows == before
    assert sorted(map(repr, kept.results())) == sorted(map(repr, results))

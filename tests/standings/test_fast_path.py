"""The aggregates' fast path (two-sided matches and byes, integral points; issue 18) against the
general path it stands in for: on valid events both give the same Aggregates, and on broken
events (a result dropped, duplicated, moved to another round, an opponent changed...) the fast
path gives up and the general path raises the same error as before."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import sizes
from tournaments.standings import DEFAULT_CHAINS, DEFAULT_TIEBREAKS, StandingsError, compute
from tournaments.standings.aggregates import Aggregates

from .events import random_event

# every aggregate a metric reads: `results` (made on first use after the fast path) stands for
# its slot; `whole` only says which path ran
FIELDS = [
    "results" if name == "_results" else name
    for name in Aggregates.__slots__
    if name not in ("cache", "whole")
]


class General(Aggregates):
    """The general path alone (what every event took before the fast path)."""

    __slots__ = ()

    def _accumulate_fast(self, *args: object) -> bool:
        return False


def integral(results):
    """The same results with every point rounded down to an integer (the fast path's case)."""
    return [
        dataclasses.replace(
            r,
            match_points=Fraction(int(r.match_points)),
            points_for=Fraction(int(r.points_for)),
            points_against=Fraction(int(r.points_against)),
        )
        for r in results
    ]


def outcome(cls, entrants, results):
    try:
        agg = cls(entrants, results)
    except StandingsError as error:
        return ("error", error.code, error.message)
    return ("ok", {name: getattr(agg, name) for name in FIELDS})


EVENTS = st.tuples(st.randoms(use_true_random=False), st.integers(0, 13), st.integers(1, 5))


def two_sided_event(spec):
    rng, entrants, rounds = spec
    people, results = random_event(rng, "two-sided", entrants, rounds)
    return people, integral(results)


def test_the_fast_path_takes_a_usual_swiss_event():
    people, results = random_event(random.Random(7), "two-sided", 40, 5)
    results = integral(results)
    agg = Aggregates.__new__(Aggregates)
    agg.entrants, agg.cache = tuple(people), {}
    agg._index_entrants()
    assert agg._accumulate_fast(results, 1, 1, 1) is True


@settings(max_examples=sizes.examples(150), deadline=None)
@given(EVENTS)
def test_fast_and_general_paths_give_the_same_aggregates(spec):
    people, results = two_sided_event(spec)
    assert outcome(Aggregates, people, results) == outcome(General, people, results)


def _mutations(results, rng):
    """One way of breaking (or merely reshaping) the results."""
    k = rng.randrange(len(results))
    r = results[k]
    other = results[rng.randrange(len(results))]
    out = list(results)
    choice = rng.randrange(13)
    if choice == 0:
        del out[k]  # a match with one side only
    elif choice == 1:
        out.append(r)  # a result twice
    elif choice == 2:
        out[k] = dataclasses.replace(r, round=r.round + 1)
    elif choice == 3:
        out[k] = dataclasses.replace(r, opponents=(other.entrant,))
    elif choice == 4:
        out[k] = dataclasses.replace(r, opponents=(r.entrant,))
    elif choice == 5:
        out[k] = dataclasses.replace(r, outcome=rng.choice(["bye", "won", "draw"]))
    elif choice == 6:
        out[k] = dataclasses.replace(r, match=other.match)
    elif choice == 7:
        out[k] = dataclasses.replace(r, match_points=rng.choice([2, True, 1.0, Fraction(1, 2)]))
    elif choice == 8:
        out[k] = dataclasses.replace(r, entrant=rng.choice([other.entrant, 10**9]))
    elif choice == 9:
        out[k] = dataclasses.replace(r, place=rng.choice([1, 0, None]))
    elif choice == 10:
        out[k] = dataclasses.replace(r, round=rng.choice([0, "1", r.round]))
    elif choice == 11:  # hands won: a count, never negative, a bool or a float
        out[k] = dataclasses.replace(r, hands_won=rng.choice([-1, True, 1.0, "2", 3]))
    else:  # not a Result: a tuple of its fields
        out[k] = dataclasses.astuple(r)
    return out


@settings(max_examples=sizes.examples(300), deadline=None)
@given(EVENTS, st.randoms(use_true_random=False))
def test_broken_events_get_the_general_paths_error(spec, rng):
    people, results = two_sided_event(spec)
    if not results:
        return
    broken = _mutations(results, rng)
    assert outcome(Aggregates, people, broken) == outcome(General, people, broken)


COLUMN = st.lists(
    st.one_of(st.integers(-40, 40), st.fractions(min_value=-20, max_value=20, max_denominator=6)),
    min_size=1,
    max_size=30,
)


@settings(max_examples=sizes.examples(200), deadline=None)
@given(st.lists(st.tuples(COLUMN, st.integers(1, 6)), min_size=1, max_size=6))
def test_exposed_values_made_once_per_value_are_each_value_over_its_denominator(columns):
    """engine._public's shortcut (ints not seen yet made into Fractions once, shared through
    the memo between the columns of one recompute, ints and Fractions of equal value alike)
    against the definition: value / denominator, exactly, for every entry of every column."""
    from tournaments.standings.engine import _public
    from tournaments.standings.metrics import METRICS
    from tournaments.standings.types import Column

    memo: dict = {}
    for values, den in columns:
        exposed = _public(METRICS["buchholz"], Column(values, den), memo)
        assert exposed == [Fraction(v) / den for v in values]
        assert {type(v) for v in exposed} == {Fraction}


@pytest.mark.parametrize("shape", [tuple, iter])
def test_results_given_as_a_tuple_or_an_iterator_rank_the_same(shape):
    people, results = random_event(random.Random(3), "two-sided", 20, 4)
    results = integral(results)
    expected = compute(people, results, tiebreaks=DEFAULT_TIEBREAKS)
    assert compute(people, shape(results), tiebreaks=DEFAULT_TIEBREAKS) == expected


def _small_event():
    from tournaments.standings import Entrant, Result

    people = [Entrant(id=i, order=i) for i in (1, 2, 3)]
    results = [
        Result(1, 10, 1, (2,), "win", Fraction(2), Fraction(50), Fraction(20)),
        Result(1, 10, 2, (1,), "loss", Fraction(0), Fraction(20), Fraction(50)),
        Result(1, 11, 3, (), "bye", Fraction(2), Fraction(0), Fraction(0)),
    ]
    return people, results, Result


@pytest.mark.parametrize(
    "broken",
    [
        "bye in a played match",
        "bye twice",
        "self twice",
        "bye with an opponent",
        "played match after a bye in it",
    ],
)
def test_unusual_shapes_come_out_as_the_general_path_says(broken):
    people, results, Result = _small_event()
    if broken == "bye in a played match":
        results[2] = dataclasses.replace(results[2], match=10)
    elif broken == "bye twice":
        results.append(results[2])
    elif broken == "self twice":
        selfish = Result(1, 12, 3, (3,), "win", Fraction(2), Fraction(0), Fraction(0))
        results[2:] = [selfish, selfish]
    elif broken == "bye with an opponent":
        results[0] = dataclasses.replace(results[0], outcome="bye")
    else:
        results.insert(0, dataclasses.replace(results.pop(2), match=10))
    assert outcome(Aggregates, people, results) == outcome(General, people, results)


@settings(max_examples=sizes.examples(100), deadline=None)
@given(EVENTS, st.sampled_from(sorted(DEFAULT_CHAINS)))
def test_metrics_read_the_fast_paths_records_as_the_general_paths_tuples(spec, chain):
    """progressive_score, head_to_head and the opponents' strength read each entrant's own
    Results after the fast path and the scaled tuples after the general one: the same rows,
    with every metric's value, either way (late entrants' fractional credits included)."""
    people, results = two_sided_event(spec)
    fast = compute(people, results, tiebreaks=DEFAULT_CHAINS[chain])
    with mock.patch.object(Aggregates, "_accumulate_fast", General._accumulate_fast):
        general = compute(people, results, tiebreaks=DEFAULT_CHAINS[chain])
    assert [(r.rank, r.entrant, dict(r.values), r.tied) for r in fast] == [
        (r.rank, r.entrant, dict(r.values), r.tied) for r in general
    ]


def test_the_scaled_tuples_are_made_from_the_records_on_first_use():
    people, results = two_sided_event((random.Random(5), 12, 4))
    fast, general = Aggregates(people, results), General(people, results)
    assert fast.whole and not general.whole
    assert fast.results == general.results

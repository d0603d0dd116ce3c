"""Properties of the standings over random events of every kind (two-sided, tables of 3-4,
progressive) and random tiebreak chains: a total order, 1-1-3 ranks shared exactly on a tie of
the whole chain, the final key inside ties, permutation invariance, exact values equal to a
reference implementation of the definitions."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests import sizes
from tournaments.standings import DEFAULT_TIEBREAKS, METRICS, compute

from .events import KINDS, random_event, reference

BUILT_IN = [name for name in METRICS]
CHAINS = st.one_of(
    st.just(DEFAULT_TIEBREAKS),
    st.lists(st.sampled_from(BUILT_IN), min_size=1, max_size=6, unique=True),
)
EVENTS = st.tuples(
    st.randoms(use_true_random=False), st.sampled_from(KINDS), st.integers(0, 13), st.integers(1, 5)
)
COUNTS = {"played", "won", "drawn", "lost", "byes", "wins", "hands_won"}


def event(spec):
    rng, kind, entrants, rounds = spec
    return random_event(rng, kind, entrants, rounds)


def directional(row, chain):
    """The row's chain values, each oriented so that smaller is better."""
    return tuple(-row.values[n] if METRICS[n].higher_is_better else row.values[n] for n in chain)


def final_key(entrant):
    return (entrant.seed is None, entrant.seed or 0, entrant.order, entrant.id)


@settings(max_examples=sizes.examples(100), deadline=None)
@given(EVENTS, CHAINS)
def test_every_entrant_once_in_chain_order_with_1_1_3_ranks(spec, chain):
    entrants, results = event(spec)
    rows = compute(entrants, results, tiebreaks=chain)
    assert sorted(r.entrant for r in rows) == sorted(e.id for e in entrants)
    by_id = {e.id: e for e in entrants}
    for k, row in enumerate(rows):
        if k == 0:
            assert row.rank == 1
            continue
        before = rows[k - 1]
        tie = directional(before, chain) == directional(row, chain)
        assert directional(before, chain) <= directional(row, chain)
        if tie:  # shared rank, listed by the final key
            assert row.rank == before.rank
            assert final_key(by_id[before.entrant]) < final_key(by_id[row.entrant])
        else:
            assert row.rank == k + 1
    sharing = Counter(row.rank for row in rows)
    assert all(row.tied == (sharing[row.rank] > 1) for row in rows)


@settings(max_examples=sizes.examples(100), deadline=None)
@given(EVENTS, CHAINS, st.randoms(use_true_random=False))
def test_input_order_does_not_change_the_standings(spec, chain, rng):
    entrants, results = event(spec)
    expected = compute(entrants, results, tiebreaks=chain)
    rng.shuffle(entrants)
    rng.shuffle(results)
    assert compute(entrants, results, tiebreaks=chain) == expected


@settings(max_examples=sizes.examples(120), deadline=None)
@given(EVENTS)
def test_every_value_equals_the_reference_definition(spec):
    entrants, results = event(spec)
    rows = compute(entrants, results, tiebreaks=DEFAULT_TIEBREAKS)
    expected = reference(entrants, results)
    for row in rows:
        assert set(row.values) == set(METRICS)
        for name, want in expected[row.entrant].items():
            got = row.values[name]
            assert got == want, (row.entrant, name)
            assert type(got) is (int if name in COUNTS else Fraction), name


@settings(max_examples=sizes.examples(100), deadline=None)
@given(EVENTS, CHAINS)
def test_match_points_add_up_to_the_input(spec, chain):
    entrants, results = event(spec)
    rows = compute(entrants, results, tiebreaks=chain)
    given_points = sum(r.match_points for r in results) + sum(
        len(e.missed) * e.missed_points for e in entrants
    )
    assert sum(row.values["match_points"] for row in rows) == given_points
    assert sum(row.values["played"] + row.values["byes"] for row in rows) == len(results)


@settings(max_examples=sizes.examples(100), deadline=None)
@given(EVENTS, CHAINS)
def test_head_to_head_outside_the_chain_counts_points_against_rank_sharers(spec, chain):
    chain = [n for n in chain if n != "head_to_head"] or ["match_points"]
    entrants, results = event(spec)
    rows = compute(entrants, results, tiebreaks=chain)
    rank = {row.entrant: row.rank for row in rows}
    for row in rows:
        group = {e for e, r in rank.items() if r == row.rank}
        want = (
            sum(
                (
                    r.match_points
                    for r in results
                    if r.entrant == row.entrant and group & set(r.opponents)
                ),
                Fraction(0),
            )
            if len(group) > 1
            else Fraction(0)
        )
        assert row.values["head_to_head"] == want

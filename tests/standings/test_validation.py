"""Bad chains and bad input get a StandingsError with a stable code; nothing else escapes."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from tournaments.standings import (
    DEFAULT_CHAINS,
    DEFAULT_TIEBREAKS,
    Entrant,
    Result,
    StandingsError,
    compute,
    validate_tiebreaks,
)

from .events import bye, pairs, table, two_sided

F = Fraction
PEOPLE = [Entrant(id=i, order=i) for i in (1, 2, 3, 4)]
GOOD = [*two_sided(1, 1, 1, 2, 300, 200), *two_sided(1, 2, 3, 4, 250, 250)]


def code_of(fn, *args, **kwargs) -> str:
    with pytest.raises(StandingsError) as caught:
        fn(*args, **kwargs)
    assert caught.value.message
    return caught.value.code


def test_validate_tiebreaks_returns_the_chain_as_a_tuple():
    assert validate_tiebreaks(["match_points", "buchholz"]) == ("match_points", "buchholz")
    assert validate_tiebreaks(DEFAULT_TIEBREAKS) == DEFAULT_TIEBREAKS
    for chain in DEFAULT_CHAINS.values():
        assert validate_tiebreaks(chain) == chain


@pytest.mark.parametrize(
    ("chain", "code"),
    [
        (["match_points", "elo"], "unknown-metric"),
        (["Match_Points"], "unknown-metric"),
        (["match_points", "buchholz", "match_points"], "duplicate-metric"),
        ([], "empty-chain"),
        ((), "empty-chain"),
        ("match_points", "bad-chain"),
        (None, "bad-chain"),
        ({"match_points"}, "bad-chain"),
        (["match_points", 3], "bad-chain"),
    ],
)
def test_validate_tiebreaks_rejects_bad_chains_with_a_code(chain, code):
    assert code_of(validate_tiebreaks, chain) == code


def test_compute_checks_the_chain_first():
    assert code_of(compute, PEOPLE, GOOD, tiebreaks=["nope"]) == "unknown-metric"


def test_a_standings_error_is_a_value_error_that_names_its_code():
    error = StandingsError("bad-input", "why")
    assert isinstance(error, ValueError) and str(error) == "bad-input: why"


BAD_RESULTS = {
    "unknown entrant": [*GOOD, *two_sided(2, 3, 1, 99, 1, 0)],
    "entrant id of the wrong type": [replace(GOOD[0], entrant="1")],
    "two results in one match": [*GOOD, GOOD[0]],
    "float match points": [replace(GOOD[0], match_points=2.0), GOOD[1]],
    "float game points": [replace(GOOD[0], points_for=300.0), GOOD[1]],
    "bool points": [replace(GOOD[0], points_against=True), GOOD[1]],
    "unknown outcome": [replace(GOOD[0], outcome="won"), GOOD[1]],
    "a bye with an opponent": [replace(bye(2, 9, 1), opponents=(2,))],
    "a win without opponents": [replace(GOOD[0], opponents=())],
    "opponents as a list": [replace(GOOD[0], opponents=[2]), GOOD[1]],
    "playing oneself": [replace(GOOD[0], opponents=(1,))],
    "opponent without a result in the match": [GOOD[0]],
    "unknown partner": pairs(1, 7, (1, 2), (3, 4), 10, 5)[:3]
    + [replace(pairs(1, 7, (1, 2), (3, 4), 10, 5)[3], partners=(77,))],
    "partner also an opponent": [
        replace(r, partners=r.opponents[:1]) for r in pairs(1, 7, (1, 2), (3, 4), 10, 5)
    ],
    "match in two rounds": [GOOD[0], replace(GOOD[1], round=2)],
    "round 0": [replace(r, round=0) for r in GOOD],
    "place 0": [
        replace(r, place=0) for r in table(1, 5, [(1, 1, 3, 1), (2, 2, 1, 0), (3, 3, 0, -1)])
    ],
    "not a Result": [*GOOD, ("not", "a", "result")],
    "unhashable match id": [replace(GOOD[0], match=[1]), GOOD[1]],
    "unhashable opponent": [replace(GOOD[0], opponents=([2],)), GOOD[1]],
    "unhashable entrant": [replace(GOOD[0], entrant=[1])],
    "round as a string": [replace(r, round="1") for r in GOOD],
    "round None": [replace(r, round=None) for r in GOOD],
}


@pytest.mark.parametrize("results", BAD_RESULTS.values(), ids=BAD_RESULTS.keys())
def test_bad_results_are_rejected_with_bad_input(results):
    assert code_of(compute, PEOPLE, results, tiebreaks=DEFAULT_TIEBREAKS) == "bad-input"


BAD_ENTRANTS = {
    "duplicate id": [*PEOPLE, Entrant(id=1, order=9)],
    "float seed": [replace(PEOPLE[0], seed=1.0), *PEOPLE[1:]],
    "missed round listed twice": [replace(PEOPLE[0], missed=(1, 1)), *PEOPLE[1:]],
    "missed round 0": [replace(PEOPLE[0], missed=(0,)), *PEOPLE[1:]],
    "missed as a list": [replace(PEOPLE[0], missed=[1]), *PEOPLE[1:]],
    "a result in a missed round": [replace(PEOPLE[0], missed=(1,)), *PEOPLE[1:]],
    "float missed points": [replace(PEOPLE[0], missed=(2,), missed_points=0.5), *PEOPLE[1:]],
    "not an Entrant": [*PEOPLE, {"id": 5}],
}


@pytest.mark.parametrize("people", BAD_ENTRANTS.values(), ids=BAD_ENTRANTS.keys())
def test_bad_entrants_are_rejected_with_bad_input(people):
    assert code_of(compute, people, GOOD, tiebreaks=DEFAULT_TIEBREAKS) == "bad-input"


def test_empty_event_and_entrants_without_results():
    assert compute([], [], tiebreaks=DEFAULT_TIEBREAKS) == []
    rows = compute(PEOPLE, [], tiebreaks=DEFAULT_TIEBREAKS)
    assert [r.rank for r in rows] == [1, 1, 1, 1]
    assert all(r.values["buchholz"] == 0 and r.values["average_points"] == 0 for r in rows)


def test_ints_are_accepted_for_points_and_values_come_back_exact():
    results = [
        Result(1, 1, 1, (2,), "win", 2, 310, 290),
        Result(1, 1, 2, (1,), "loss", 0, 290, 310),
    ]
    rows = compute(PEOPLE[:2], results, tiebreaks=DEFAULT_TIEBREAKS)
    assert rows[0].values["match_points"] == 2
    assert type(rows[0].values["match_points"]) is Fraction
    assert type(rows[0].values["won"]) is int


def test_row_values_are_read_only():
    row = compute(PEOPLE, GOOD, tiebreaks=DEFAULT_TIEBREAKS)[0]
    with pytest.raises(TypeError):
        row.values["match_points"] = F(99)  # type: ignore[index]


@pytest.mark.parametrize("bad", [-1, True, 1.5, "2", None])
def test_hands_won_is_a_count(bad):
    """Issue 29: hands won (a whist drive's tiebreak) is a whole number >= 0, on either path."""
    from tournaments.standings import Entrant, Result, StandingsError, compute

    people = [Entrant(id=1, order=1), Entrant(id=2, order=2)]
    results = [
        Result(1, 10, 1, (2,), "win", F(2), F(5), F(3), hands_won=bad),
        Result(1, 10, 2, (1,), "loss", F(0), F(3), F(5), hands_won=1),
    ]
    with pytest.raises(StandingsError) as raised:
        compute(people, results, tiebreaks=("hands_won",))
    assert raised.value.code == "bad-input" and "hands_won" in raised.value.message

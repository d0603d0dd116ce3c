"""The season championship table (tournaments.seasons.engine): placing points with shared
places, match points, best K of the evenings, the tiebreak chain, exact arithmetic."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.seasons.engine import (
    MATCH_POINTS,
    Evening,
    SeasonError,
    season_table,
)

POINTS = (10, 8, 6, 5, 4, 3, 2, 1)


def table(rows) -> list[tuple]:
    return [(r.rank, r.entrant, r.score) for r in rows]


def test_placing_points_add_up_over_the_evenings_and_shared_places_share_points():
    evenings = [
        Evening("Jan", {"Ann": (1, 6), "Bo": (2, 4), "Cy": (2, 4), "Di": (4, 0)}),
        Evening("Feb", {"Bo": (1, 6), "Ann": (2, 4), "Di": (3, 2)}),
    ]
    rows = season_table(evenings, points=POINTS)
    # Bo and Cy share 2nd in January: (8 + 6) / 2 = 7 each.
    assert table(rows) == [(1, "Ann", 18), (2, "Bo", 17), (3, "Di", 11), (4, "Cy", 7)]
    assert rows[1].evenings == [(7, True), (10, True)]
    assert rows[3].evenings == [(7, True), (None, False)]


def test_only_the_best_k_evenings_count_with_more_evenings_than_k():
    evenings = [
        Evening(f"E{n}", {"Ann": (place, 0), "Bo": (3 - place, 0)})
        for n, place in enumerate([1, 2, 2, 2], 1)
    ]
    rows = season_table(evenings, points=POINTS, best=2)
    # Bo: 10 + 10 counted (third 10 dropped); Ann: 10 + 8.
    assert table(rows) == [(1, "Bo", 20), (2, "Ann", 18)]
    assert [counted for _score, counted in rows[0].evenings] == [False, True, True, False]
    assert (rows[0].total, rows[1].total) == (38, 34)


def test_match_points_rule_keeps_fractions_exact():
    evenings = [
        Evening("Jan", {"Ann": (1, Fraction(11, 2)), "Bo": (2, Fraction(9, 2))}),
        Evening("Feb", {"Ann": (2, Fraction(1, 3)), "Bo": (1, Fraction(2, 3))}),
    ]
    rows = season_table(evenings, rule=MATCH_POINTS)
    assert table(rows) == [(1, "Ann", Fraction(35, 6)), (2, "Bo", Fraction(31, 6))]


def test_ties_go_to_evenings_won_then_best_evening_then_total_then_fewer_played():
    evenings = [
        Evening("Jan", {"Ann": (1, 0), "Bo": (2, 0), "Cy": (3, 0)}),
        Evening("Feb", {"Bo": (1, 0), "Ann": (3, 0), "Cy": (2, 0)}),
        Evening("Mar", {"Cy": (1, 0), "Ann": (5, 0), "Bo": (6, 0)}),
    ]
    rows = season_table(evenings, points=(10, 4, 2), best=2)
    # Best two: Ann 10 + 2, Bo 10 + 4, Cy 10 + 4. Bo and Cy tie on score, evenings won (1) and
    # best evening (10); over every evening Bo has 14 and Cy 16, so Cy is first.
    assert table(rows) == [(1, "Cy", 14), (2, "Bo", 14), (3, "Ann", 12)]


def test_entrants_equal_on_every_criterion_share_a_rank():
    rows = season_table(
        [Evening("Jan", {"Ann": (1, 2), "Bo": (1, 2), "Cy": (3, 0)})], points=POINTS
    )
    assert [(r.rank, r.tied) for r in rows] == [(1, True), (1, True), (3, False)]
    assert rows[0].score == 9  # (10 + 8) / 2


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"rule": "coins"}, "bad-rule"),
        ({}, "no-points"),
        ({"points": (10, -1)}, "bad-points"),
        ({"points": POINTS, "best": 0}, "bad-best"),
    ],
)
def test_bad_settings_are_refused_with_a_code(kwargs, code):
    with pytest.raises(SeasonError) as refused:
        season_table([Evening("Jan", {"Ann": (1, 2)})], **kwargs)
    assert refused.value.code == code


@given(
    st.lists(st.permutations(["Ann", "Bo", "Cy", "Di", "Ed"]), min_size=1, max_size=6),
    st.integers(1, 6),
)
def test_the_season_score_is_the_sum_of_the_best_k_evenings(orders, best):
    evenings = [
        Evening(f"E{n}", {e: (place, 0) for place, e in enumerate(order, 1)})
        for n, order in enumerate(orders)
    ]
    rows = season_table(evenings, points=POINTS, best=best)
    for row in rows:
        scores = sorted((s for s, _c in row.evenings if s is not None), reverse=True)
        assert row.score == sum(scores[:best])
        assert sum(1 for _s, counted in row.evenings if counted) == min(best, len(scores))
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=9),
    st.lists(st.integers(0, 12), min_size=1, max_size=8),
)
def test_shared_places_share_exactly_the_points_of_the_places_they_cover(places, points):
    """However an evening's places are shared, the points handed out are the points of the
    places taken, neither more nor less, and equal places get equal points."""
    ranked = sorted(places)
    # Standard competition ranking: a place shared by n entrants covers n places.
    results, seen = {}, 0
    for group in sorted(set(ranked)):
        count = ranked.count(group)
        for k in range(count):
            results[f"e{seen + k}"] = (seen + 1, 0)
        seen += count
    rows = season_table([Evening("E", results)], points=points)
    given_out = sum(r.score for r in rows)
    assert given_out == sum(Fraction(p) for p in points[: len(results)])
    by_place: dict[int, set] = {}
    for row in rows:
        by_place.setdefault(results[row.entrant][0], set()).add(row.score)
    assert all(len(scores) == 1 for scores in by_place.values())

"""The metric registry: the built-in metrics and their directions, adding a metric (field-wide
or chain-aware) and the errors for bad or clashing metrics."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.standings import (
    DEFAULT_CHAINS,
    DEFAULT_TIEBREAKS,
    METRICS,
    Column,
    Entrant,
    Metric,
    StandingsError,
    compute,
    register_metric,
    unregister_metric,
    validate_tiebreaks,
)

from .events import two_sided

BUILT_IN = {
    "played": True,
    "won": True,
    "drawn": True,
    "lost": False,
    "byes": True,
    "match_points": True,
    "points_for": True,
    "points_against": False,
    "point_difference": True,
    "average_points": True,
    "buchholz": True,
    "median_buchholz": True,
    "buchholz_cut1": True,
    "sonneborn_berger": True,
    "head_to_head": True,
    "wins": True,
    "placings": False,
    "progressive_score": True,
}


def test_every_built_in_metric_is_registered_with_its_direction():
    assert {name: METRICS[name].higher_is_better for name in BUILT_IN} == BUILT_IN
    assert [name for name, m in METRICS.items() if m.chain_aware] == ["head_to_head"]
    assert all(METRICS[name].description for name in BUILT_IN)


def test_the_registry_is_read_only():
    with pytest.raises(TypeError):
        METRICS["x"] = METRICS["wins"]  # type: ignore[index]


def test_default_chains_start_with_what_each_format_plays_for():
    """Partnerships by match points; tables of 3-4 and a whist drive by each player's own total
    (issue 29); place points per table as the tables' alternative."""
    assert DEFAULT_TIEBREAKS == (
        "match_points",
        "point_difference",
        "buchholz",
        "head_to_head",
        "wins",
    )
    assert set(DEFAULT_CHAINS) == {
        "swiss",
        "round_robin",
        "tables",
        "tables_places",
        "progressive",
    }
    first = {name: chain[0] for name, chain in DEFAULT_CHAINS.items()}
    assert first == {
        "swiss": "match_points",
        "round_robin": "match_points",
        "tables": "points_for",
        "tables_places": "match_points",
        "progressive": "points_for",
    }


@pytest.fixture
def registered():
    names: list[str] = []

    def add(metric: Metric) -> Metric:
        register_metric(metric)
        names.append(metric.name)
        return metric

    yield add
    for name in names:
        unregister_metric(name)


PEOPLE = [Entrant(id=i, order=i) for i in (1, 2, 3)]
# a cycle: 1 beats 2, 2 beats 3, 3 beats 1 -> 2 match points each; points for 590, 450, 460
RESULTS = [
    *two_sided(1, 1, 1, 2, 300, 200),
    *two_sided(2, 2, 2, 3, 250, 150),
    *two_sided(3, 3, 3, 1, 310, 290),
]


def test_a_registered_metric_is_computed_shown_and_usable_in_a_chain(registered):
    def worst_match(agg):  # the fewest match points scored in one match
        return Column(
            [min((rec[3] for rec in mine), default=0) for mine in agg.results], agg.mp_den
        )

    registered(Metric("worst_match", True, compute=worst_match))
    assert validate_tiebreaks(["worst_match"]) == ("worst_match",)
    rows = compute(PEOPLE, RESULTS, tiebreaks=["worst_match", "match_points"])
    assert [r.values["worst_match"] for r in rows] == [0, 0, 0]
    assert [(r.rank, r.entrant) for r in rows] == [(1, 1), (1, 2), (1, 3)]
    rows = compute(PEOPLE, RESULTS, tiebreaks=["points_for", "worst_match"])
    assert [(r.rank, r.entrant) for r in rows] == [(1, 1), (2, 3), (3, 2)]


def test_a_chain_aware_metric_sees_only_its_tied_group(registered):
    seen: list[tuple[int, ...]] = []

    def group_size(agg, group):
        seen.append(tuple(sorted(agg.ids[i] for i in group)))
        return Column([Fraction(len(group))] * len(group))

    registered(Metric("group_size", True, compute_group=group_size))
    rows = compute(PEOPLE, RESULTS, tiebreaks=["match_points", "group_size", "points_for"])
    assert seen == [(1, 2, 3)]
    assert [r.values["group_size"] for r in rows] == [3, 3, 3]
    seen.clear()
    rows = compute(PEOPLE, RESULTS, tiebreaks=["points_for", "group_size"])
    assert seen == []  # every entrant alone: the metric's `alone` value, no call
    assert [r.values["group_size"] for r in rows] == [0, 0, 0]


def test_registering_a_taken_name_fails(registered):
    with pytest.raises(StandingsError) as caught:
        register_metric(Metric("buchholz", True, compute=lambda agg: []))
    assert caught.value.code == "metric-exists"
    registered(Metric("extra", True, compute=lambda agg: [0] * agg.n))
    with pytest.raises(StandingsError) as caught:
        register_metric(Metric("extra", True, compute=lambda agg: [0] * agg.n))
    assert caught.value.code == "metric-exists"


@pytest.mark.parametrize(
    "make",
    [
        lambda: Metric("Bad Name", True, compute=len),
        lambda: Metric("trailing_", True, compute=len),
        lambda: Metric("ok", "yes", compute=len),
        lambda: Metric("ok", True),
        lambda: Metric("ok", True, compute=len, compute_group=len),
        lambda: Metric("ok", True, compute=len, integer=True, alone=Fraction(1, 2)),
    ],
)
def test_malformed_metrics_are_refused(make):
    with pytest.raises(StandingsError) as caught:
        make()
    assert caught.value.code == "bad-metric"


def test_built_in_metrics_cannot_be_removed_and_unknown_ones_are_reported():
    with pytest.raises(StandingsError) as caught:
        unregister_metric("buchholz")
    assert caught.value.code == "bad-metric"
    with pytest.raises(StandingsError) as caught:
        unregister_metric("nothing_here")
    assert caught.value.code == "unknown-metric"


def test_a_metric_returning_the_wrong_number_of_values_is_reported(registered):
    registered(Metric("short", True, compute=lambda agg: [0]))
    with pytest.raises(StandingsError) as caught:
        compute(PEOPLE, RESULTS, tiebreaks=["match_points"])
    assert caught.value.code == "bad-metric"


def test_a_metric_returning_floats_is_refused(registered):
    registered(Metric("floaty", True, compute=lambda agg: [2.0] * agg.n))  # == 2, still a float
    with pytest.raises(StandingsError) as caught:
        compute(PEOPLE, RESULTS, tiebreaks=["match_points"])
    assert caught.value.code == "bad-metric"

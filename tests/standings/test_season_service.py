"""Season championships through the services (tournaments.seasons.services): a series of a
club's tournaments of one game, its rule, best K, the table recomputed when a member changes."""

from __future__ import annotations

from datetime import UTC

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Entry, Player, Series, SeriesSnapshot, StandingsSnapshot
from tournaments.seasons import services as seasons
from tournaments.services import Actor, ServiceError
from tournaments.services import standings as standings_service

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return Actor(user=get_user_model().objects.create_user("td", password="x"))


def evening(director, name, game="german-whist", day=1):
    from datetime import datetime

    return services.create_tournament(
        actor=director,
        name=name,
        game=game,
        rules="standard" if game != "german-whist" else "standard",
        format="swiss",
        rounds=1,
        starts_at=datetime(2026, 1, day, 19, tzinfo=UTC),
    )


def played(tournament, ranks: dict[str, tuple[int, int]]) -> None:
    """Final standings for an evening, as the standings snapshot records them: player name ->
    (rank, match points)."""
    rows = []
    for name, (rank, mp) in ranks.items():
        player = Player.objects.filter(name=name).first() or Player.objects.create(name=name)
        entry = Entry.objects.create(tournament=tournament, player=player)
        rows.append(
            {
                "rank": rank,
                "tied": False,
                "entry": entry.pk,
                "name": name,
                "players": [name],
                "withdrawn": False,
                "values": {"match_points": mp},
            }
        )
    tournament.results_version += 1
    tournament.save(update_fields=["results_version"])
    StandingsSnapshot.objects.create(
        tournament=tournament,
        version=1,
        inputs_version=tournament.results_version,
        payload={"tournament": tournament.slug, "rows": rows},
    )


def season(director, evenings, **kwargs) -> Series:
    series = seasons.create_series(
        actor=director, name="Winter season", game="german-whist", **kwargs
    )
    for t in evenings:
        seasons.add_tournament(actor=director, series=series, tournament=t)
    return series


def table(series):
    payload = seasons.compute_payload(series)
    return [(r["rank"], r["name"], r["score"]) for r in payload["rows"]], payload


def test_only_the_best_k_of_more_evenings_count_and_dropped_ones_are_marked(director):
    nights = [evening(director, f"Night {n}", day=n) for n in range(1, 5)]
    for night, order in zip(
        nights, [("Ann", "Bo"), ("Bo", "Ann"), ("Bo", "Ann"), ("Bo", "Ann")], strict=True
    ):
        played(night, {order[0]: (1, 2), order[1]: (2, 0)})
    series = season(director, nights, points=[10, 8], best=2)
    rows, payload = table(series)
    assert rows == [(1, "Bo", 20), (2, "Ann", 18)]
    assert [e["tournament"] for e in payload["evenings"]] == [n.slug for n in nights]
    bo = payload["rows"][0]
    assert [e["counted"] for e in bo["evenings"]] == [False, True, True, False]
    assert [e["place"] for e in bo["evenings"]] == [2, 1, 1, 1]
    assert bo["total"] == 38


def test_match_points_rule_adds_each_evenings_match_points(director):
    nights = [evening(director, f"Night {n}", day=n) for n in (1, 2)]
    played(nights[0], {"Ann": (1, 4), "Bo": (2, 3)})
    played(nights[1], {"Bo": (1, 4), "Ann": (2, 1)})
    series = season(director, nights, rule="match-points")
    assert table(series)[0] == [(1, "Bo", 7), (2, "Ann", 5)]


def test_entrants_equal_on_the_whole_chain_share_a_place(director):
    nights = [evening(director, f"Night {n}", day=n) for n in (1, 2)]
    played(nights[0], {"Ann": (1, 2), "Bo": (2, 0), "Cy": (3, 0)})
    played(nights[1], {"Bo": (1, 2), "Ann": (2, 0), "Cy": (3, 0)})
    rows = seasons.compute_payload(season(director, nights))["rows"]
    assert [(r["rank"], r["tied"], r["name"]) for r in rows] == [
        (1, True, "Ann"),
        (1, True, "Bo"),
        (3, False, "Cy"),
    ]


def test_a_tournament_of_another_game_is_refused_and_nothing_changes(director):
    series = season(director, [])
    spades = evening(director, "Spades night", game="spades")
    with pytest.raises(ServiceError) as refused:
        seasons.add_tournament(actor=director, series=series, tournament=spades)
    assert refused.value.code == "game-mismatch"
    series.refresh_from_db()
    assert (series.members.count(), series.inputs_version) == (0, 0)


def test_someone_else_cannot_change_a_season(director):
    series = season(director, [])
    stranger = Actor(user=get_user_model().objects.create_user("x", password="x"))
    with pytest.raises(ServiceError) as refused:
        seasons.update_series(actor=stranger, series=series, best=3)
    assert refused.value.code == "not-series-director"
    with pytest.raises(ServiceError) as refused:
        seasons.create_series(actor=Actor(label="public"), name="Mine", game="spades")
    assert refused.value.code == "sign-in-required"


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"rule": "coins"}, "bad-rule"),
        ({"points": [10, -1]}, "bad-points"),
        ({"points": []}, "bad-points"),
        ({"best": 0}, "bad-best"),
        ({"name": " "}, "bad-name"),
    ],
)
def test_bad_settings_are_refused_with_a_code(director, kwargs, code):
    series = season(director, [])
    with pytest.raises(ServiceError) as refused:
        seasons.update_series(actor=director, series=series, **kwargs)
    assert refused.value.code == code


def test_a_member_tournaments_new_standings_recompute_the_season_in_process(
    director, in_process_tasks, django_capture_on_commit_callbacks
):
    night = evening(director, "Night 1")
    series = season(director, [night])
    ann = Entry.objects.create(tournament=night, player=Player.objects.create(name="Ann"))
    with django_capture_on_commit_callbacks(execute=True):
        standings_service.bump(night.pk)
        standings_service.recompute(tournament_id=night.pk)
    snapshot = SeriesSnapshot.objects.filter(series=series).first()
    assert snapshot is not None and not seasons.latest(series=series).stale
    assert [r["name"] for r in snapshot.payload["rows"]] == [ann.name]
    # The rule changes: a new version, recomputed at once.
    with django_capture_on_commit_callbacks(execute=True):
        seasons.update_series(actor=director, series=series, rule="match-points")
    newest = SeriesSnapshot.objects.filter(series=series).first()
    assert (newest.version, newest.payload["rule"]) == (snapshot.version + 1, "match-points")


def test_a_recompute_with_nothing_new_writes_nothing(
    director, in_process_tasks, django_capture_on_commit_callbacks
):
    night = evening(director, "Night 1")
    played(night, {"Ann": (1, 2)})
    with django_capture_on_commit_callbacks(execute=True):
        series = season(director, [night])
    assert SeriesSnapshot.objects.filter(series=series).count() == 1
    assert seasons.recompute(series_id=series.pk) is None


def test_the_sweep_catches_up_a_season_whose_recompute_was_missed(director):
    night = evening(director, "Night 1")
    played(night, {"Ann": (1, 2), "Bo": (2, 0)})
    series = season(director, [night])  # on_commit never ran here: no task, no snapshot
    series.refresh_from_db()
    assert seasons.latest(series=series).stale
    assert seasons.sweep() == [series.pk]
    assert not seasons.latest(series=series).stale
    assert seasons.sweep() == []

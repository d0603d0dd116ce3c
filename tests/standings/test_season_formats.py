"""Issue 29: a season adds up what each of its evenings ranks by. A duplicate night's standings
are its pairs' percentages, field by field (it used to give every pair rank 1, played 0); a
season by placing points counts its places, one by match points refuses it with a clear
message; a season mixing formats says how each evening counts."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.duplicate.builders import make_event, play_round
from tournaments import services
from tournaments.duplicate.selectors import scored
from tournaments.duplicate.services import finish_duplicate
from tournaments.models import Series, StandingsSnapshot, Tournament
from tournaments.seasons import services as seasons
from tournaments.services import Actor, ServiceError

from .test_season_service import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return Actor(user=get_user_model().objects.create_user("td", password="x"))


@pytest.fixture
def duplicate_night(director, settings, django_capture_on_commit_callbacks) -> Tournament:
    settings.REDIS_URL = None
    with django_capture_on_commit_callbacks(execute=True):
        night = make_event(director, tables=3, boards_per_round=1)
        for n in range(1, night.rounds + 1):
            play_round(night, director, seed=n)
        finish_duplicate(tournament=night, actor=director)
    night.refresh_from_db()
    return night


def _payload(tournament) -> dict:
    return StandingsSnapshot.objects.filter(tournament=tournament).first().payload


def test_a_duplicate_night_s_standings_are_its_percentages_field_by_field(duplicate_night):
    payload = _payload(duplicate_night)
    assert payload["ranked_by"] == "percentage" and payload["tiebreaks"] == ["percentage"]
    assert payload["rounds_closed"] == duplicate_night.rounds
    event = scored(duplicate_night).event
    fields = sorted(event.rankings)
    assert fields == ["EW", "NS"], "a Mitchell: two fields, two winners"
    for field in fields:
        rows = [r for r in payload["rows"] if r["field"] == field]
        expected = [(s.place, s.pair, s.percentage) for s in event.rankings[field]]
        assert [(r["rank"], r["pair"], Fraction(str(r["values"]["percentage"]))) for r in rows] == (
            expected
        )
        percentages = [Fraction(str(r["values"]["percentage"])) for r in rows]
        assert percentages == sorted(percentages, reverse=True)
        assert rows[0]["rank"] == 1 and any(r["rank"] > 1 for r in rows), "not everyone first"
        assert all(r["values"]["boards"] > 0 for r in rows)


def _swiss_evening(director, day: int) -> Tournament:
    return services.create_tournament(
        actor=director,
        name=f"Spades night {day}",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=1,
        starts_at=datetime(2026, 1, day, 19, tzinfo=UTC),
    )


def test_a_placing_season_counts_each_field_s_places(director, duplicate_night):
    series = seasons.create_series(
        actor=director, name="Winter", game="spades", points=[10, 8, 6, 5, 4, 3]
    )
    seasons.add_tournament(actor=director, series=series, tournament=duplicate_night)
    payload = seasons.compute_payload(series)
    night = _payload(duplicate_night)
    by_name = {r["name"]: r for r in payload["rows"]}
    for row in night["rows"]:  # each pair's place in its field gives it its placing points
        sharing = sum(
            1 for r in night["rows"] if r["field"] == row["field"] and r["rank"] == row["rank"]
        )
        span = [10, 8, 6, 5, 4, 3][row["rank"] - 1 : row["rank"] - 1 + sharing]
        assert Fraction(str(by_name[row["name"]]["score"])) == Fraction(sum(span), len(span))
    assert len({r["score"] for r in payload["rows"]}) > 1, "not every pair first"
    assert payload["evenings"][0]["ranked_by"] == "percentage"


def test_a_match_points_season_refuses_a_duplicate_night_and_changes_nothing(
    director, duplicate_night
):
    series = seasons.create_series(
        actor=director, name="Winter", game="spades", rule=Series.Rule.MATCH_POINTS
    )
    with pytest.raises(ServiceError) as refused:
        seasons.add_tournament(actor=director, series=series, tournament=duplicate_night)
    assert refused.value.code == "season-rule-duplicate"
    assert "percentages" in refused.value.message and "placing points" in refused.value.message
    assert not series.members.exists()
    placing = seasons.create_series(actor=director, name="Spring", game="spades")
    seasons.add_tournament(actor=director, series=placing, tournament=duplicate_night)
    with pytest.raises(ServiceError) as refused:
        seasons.update_series(actor=director, series=placing, rule=Series.Rule.MATCH_POINTS)
    assert refused.value.code == "season-rule-duplicate"
    placing.refresh_from_db()
    assert placing.rule == Series.Rule.PLACING


def test_a_mixed_season_says_how_each_evening_counts(director, duplicate_night, client):
    swiss = _swiss_evening(director, 2)
    played(swiss, {"Ann": (1, 4), "Bo": (2, 2)})
    series = seasons.create_series(actor=director, name="Winter", game="spades")
    for member in (swiss, duplicate_night):
        seasons.add_tournament(actor=director, series=series, tournament=member)
    seasons.recompute(series_id=series.pk)
    payload = seasons.compute_payload(series)
    counted = {e["tournament"]: (e["format"], e["ranked_by"]) for e in payload["evenings"]}
    assert counted == {
        swiss.slug: ("swiss", "match_points"),
        duplicate_night.slug: ("duplicate", "percentage"),
    }
    page = client.get(reverse("tournaments:season", args=[series.slug])).content.decode()
    assert "Each evening counts" in page
    assert f"{duplicate_night.name}: its places, ranked by percentage" in page
    assert f"{swiss.name}: its places, ranked by Match points" in page
    japanese = client.get(
        reverse("tournaments:season", args=[series.slug]), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "パーセンテージ" in japanese

"""The demo's season: German Whist evenings for the same club players, more evenings than the
best K counted, so a dropped evening shows."""

from __future__ import annotations

import pytest

from tournaments.demo import club as demo
from tournaments.models import Series, SeriesSnapshot

pytestmark = pytest.mark.django_db


def test_the_demo_season_has_more_evenings_than_count_and_its_table_drops_one(
    settings, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = None
    with django_capture_on_commit_callbacks(execute=True):
        evenings = demo.build_season(2026)
    series = Series.objects.get()
    assert len(evenings) == demo.SEASON_EVENINGS > series.best == demo.SEASON_BEST
    assert all(t.state == "finished" and t.game == "german-whist" for t in evenings)
    table = SeriesSnapshot.objects.filter(series=series).first().payload
    assert len(table["evenings"]) == demo.SEASON_EVENINGS
    dropped = [
        e
        for row in table["rows"]
        for e in row["evenings"]
        if e["score"] is not None and not e["counted"]
    ]
    assert dropped

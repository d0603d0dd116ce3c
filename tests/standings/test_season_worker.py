"""The season table through the real path: a confirmed hand in a member tournament is
recomputed into standings by a Celery worker over Redis, which then sends the season's
recompute (coalesced by its pending key) to the worker too."""

from __future__ import annotations

import time

import pytest

from tests import waiting
from tests.tournaments.builders import HAND_1, make_director, make_match, scorer
from tournaments import services
from tournaments.models import SeriesSnapshot
from tournaments.seasons import services as seasons


def wait_for_season(series_id: int, rows: int, timeout: float) -> SeriesSnapshot | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snapshot = SeriesSnapshot.objects.filter(series_id=series_id).first()
        if (
            snapshot is not None
            and len(snapshot.payload["rows"]) >= rows
            and any(r["score"] for r in snapshot.payload["rows"])
        ):
            return snapshot
        time.sleep(0.05)
    return None


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_confirmed_hand_reaches_the_season_table_through_the_worker(postgres_db, worker):
    director = make_director()
    match = make_match(director, match_length="hands", match_hands=1)
    tournament = match.round.tournament
    series = seasons.create_series(actor=director, name="Spades season", game="spades")
    seasons.add_tournament(actor=director, series=series, tournament=tournament)
    seasons.claim(series.pk)  # no pending mark left in Redis by an earlier run with this id
    worker.start()
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    services.confirm_hand(
        submission=version, actor=scorer(match, "EW"), expected_version=version.version
    )
    snapshot = wait_for_season(series.pk, rows=2, timeout=waiting.SECONDS)
    assert snapshot is not None, "no season table from the worker"
    assert [r["score"] for r in snapshot.payload["rows"]] == [10, 8]
    assert not seasons.latest(series=series).stale

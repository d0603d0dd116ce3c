"""Redis down (broker, cache, coalescing marks and live announcements all on one REDIS_URL):
results are still accepted and stored, the standings say they are stale, and when Redis
returns the standings catch up — by a worker's start-up sweep, or by the next change.

The outage is made in this process by pointing every Redis client at a port where nothing
listens; the real worker (a separate process) is started or used once Redis "is back"."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.test import override_settings

from config.cache import redis_cache
from tests.tournaments.builders import HAND_1, HAND_2, make_director, make_match, scorer
from tournaments import services
from tournaments.models import HandSubmission, StandingsSnapshot, Tournament
from tournaments.services import standings

from .conftest import decide, scorer_client, submit, wait_until

DEAD = "redis://127.0.0.1:1/0"  # nothing listens on port 1: every connection is refused
TARGET_100 = {"preset": "standard", "options": {"target": 100}}


@contextmanager
def redis_down() -> Iterator[None]:
    """Every Redis client of this process — the cache, the live/coalescing client and the
    Celery producer — points at a dead port until the block ends (`tournaments.redis_client`
    makes its clients per REDIS_URL, so overriding the setting is enough for it)."""
    from config.celery import app

    dead_cache = {"default": redis_cache(DEAD)}  # the deployment's cache, its Redis gone
    with override_settings(REDIS_URL=DEAD, CACHES=dead_cache), pytest.MonkeyPatch.context() as mp:
        mp.setattr(app.conf, "broker_url", DEAD)
        mp.setattr(app, "_pool", None)
        mp.setattr(app.amqp, "_producer_pool", None)
        yield


def play(match, records) -> None:
    for record in records:
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=record
        ).submission
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )


def tournament_of(match) -> Tournament:
    return Tournament.objects.get(pk=match.round.tournament_id)


def caught_up(tid: int) -> StandingsSnapshot | None:
    version = Tournament.objects.get(pk=tid).results_version
    return StandingsSnapshot.objects.filter(tournament_id=tid, inputs_version=version).first()


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_redis_down_results_are_stored_and_stale_then_a_returning_worker_catches_up(
    postgres_db, worker
):
    match = make_match(make_director(), rules=TARGET_100)
    tid = match.round.tournament_id
    with redis_down():
        play(match, (HAND_1, HAND_2))  # no exception: the workflows never need Redis
        assert HandSubmission.objects.filter(status="confirmed").count() == 2
        waiting = standings.latest(tournament=tournament_of(match))
        assert waiting.snapshot is None and waiting.stale
        assert standings.stale_tournaments() == [tid]
    worker.start()  # Redis is back: nothing else happens but the worker's start-up sweep
    snapshot = wait_until(lambda: caught_up(tid), "the catch-up snapshot")
    assert StandingsSnapshot.objects.filter(tournament_id=tid).count() == 1
    assert not standings.latest(tournament=tournament_of(match)).stale
    assert snapshot.payload["rows"][0]["values"]["points_for"] == 130


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_redis_down_a_change_is_marked_stale_and_the_next_change_after_it_catches_up(
    postgres_db, worker
):
    worker.start()
    match = make_match(make_director(), rules=TARGET_100)
    tid = match.round.tournament_id
    standings.claim(tid)  # no pending mark left in Redis by an earlier run with this id
    with redis_down():
        play(match, (HAND_1,))
    assert standings.latest(tournament=tournament_of(match)).stale
    assert not StandingsSnapshot.objects.filter(tournament_id=tid).exists()
    play(match, (HAND_2,))  # Redis is back: this change's recompute covers the missed one
    snapshot = wait_until(lambda: caught_up(tid), "the snapshot after the next change")
    # One snapshot covers the missed change and this one, computed from the results as they are
    # now (HAND_2 also finishes the match: two results changes, each counted).
    assert snapshot.version == 1
    assert snapshot.inputs_version == tournament_of(match).results_version
    assert snapshot.payload["rows"][0]["values"]["points_for"] == 130
    assert not standings.latest(tournament=tournament_of(match)).stale


@pytest.mark.django_db
def test_with_redis_down_the_api_still_accepts_and_confirms_hands():
    match = make_match(make_director())
    client = scorer_client(match)
    client.raise_request_exception = False
    with redis_down():
        first = submit(client, match, HAND_1, key="redis-down-0001")
        assert first.status_code == 201, first.content[:200]
        confirmed = decide(client, match, 1, "confirm", "EW")
        assert confirmed.status_code == 200, confirmed.content[:200]
    assert HandSubmission.objects.get().status == "confirmed"


@pytest.mark.django_db
def test_with_redis_down_the_standings_endpoint_serves_the_stored_snapshot_marked_stale():
    match = make_match(make_director(), rules=TARGET_100)
    tid = match.round.tournament_id
    play(match, (HAND_1,))
    standings.recompute(tournament_id=tid)  # snapshot 1, then one more change behind it
    play(match, (HAND_2,))
    client = scorer_client(match)
    client.raise_request_exception = False
    with redis_down():
        response = client.get(f"/api/v1/tournaments/{match.round.tournament.slug}/standings")
    assert response.status_code == 200, response.content[:200]
    body = response.json()
    assert body["version"] == 1 and body["stale"] is True and body["rows"]


@pytest.mark.django_db
def test_with_redis_down_the_live_events_endpoint_tells_the_page_to_retry():
    match = make_match(make_director())
    client = scorer_client(match)
    client.raise_request_exception = False
    with redis_down():
        response = client.get(
            f"/api/v1/tournaments/{match.round.tournament.slug}/events", HTTP_LAST_EVENT_ID="1-0"
        )
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"].startswith("text/event-stream")
    assert response.content.startswith(b"retry: ")

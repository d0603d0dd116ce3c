"""Issue 29: closing a round moves the standings at once. The snapshot is computed when the round
closes (and when the event finishes), so the pages, the projector and the API say how many rounds
are closed right after the director's click, with a worker or without, and without waiting for
a later hand."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, StandingsSnapshot, Tournament
from tournaments.services import standings

from .conftest import finish_round

pytestmark = pytest.mark.django_db


def _latest(tournament: Tournament) -> dict:
    return StandingsSnapshot.objects.filter(tournament=tournament).first().payload


def _play_round(tournament, director, seed):
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    return round_


@pytest.mark.parametrize("worker", [False, True], ids=["in-process", "worker-configured"])
def test_each_close_and_the_finish_count_at_once(
    swiss, director, settings, django_capture_on_commit_callbacks, monkeypatch, client, worker
):
    if worker:  # a worker is configured, but its queue is never consumed here
        from tournaments.services import scheduling

        settings.REDIS_URL = "redis://127.0.0.1:1/0"
        sent = []
        monkeypatch.setattr(scheduling, "run_or_send", lambda *a, **k: sent.append(a) or True)
    else:
        settings.REDIS_URL = None
    tournament = swiss(4, rounds=2)
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            round_ = _play_round(tournament, director, number)
            for match in Match.objects.filter(round=round_, is_bye=False):
                import random

                from tournaments.demo.simulate import play_match

                play_match(match, random.Random(number), director=director, hands=1)
        before = StandingsSnapshot.objects.filter(tournament=tournament).first()
        assert before is None or before.payload["rounds_closed"] == number - 1
        with django_capture_on_commit_callbacks(execute=True):
            services.close_round(round=round_, actor=director)
        assert _latest(tournament)["rounds_closed"] == number
        tournament.refresh_from_db()
        assert not standings.latest(tournament=tournament).stale
        page = client.get(reverse("tournaments:public-standings", args=[tournament.slug]))
        closed = "1 round closed." if number == 1 else "2 rounds closed."
        assert closed in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        services.finish_tournament(tournament=tournament, actor=director)
    assert _latest(tournament)["rounds_closed"] == 2
    tournament.refresh_from_db()
    assert not standings.latest(tournament=tournament).stale


def test_a_failed_recompute_at_close_leaves_it_to_the_worker(
    swiss, director, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.REDIS_URL = None
    tournament = swiss(4, rounds=1)
    round_ = _play_round(tournament, director, 1)
    with django_capture_on_commit_callbacks(execute=True):
        finish_round(round_, director)  # closes it too: the snapshot counts it
    assert _latest(tournament)["rounds_closed"] == 1
    scheduled = []
    monkeypatch.setattr(standings, "schedule", scheduled.append)

    def broken(**kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(standings, "recompute", broken)
    with django_capture_on_commit_callbacks(execute=True):
        services.finish_tournament(tournament=tournament, actor=director)
    assert scheduled and set(scheduled) == {tournament.pk}, "the worker (or the sweep) catches up"


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_a_real_worker_the_closed_round_counts_in_the_standings(
    postgres_db, worker, swiss, director
):
    """How soon is the benchmarks' measure (bench/standings_db.py); here, that it comes."""
    import random

    from tests import waiting
    from tournaments.demo.simulate import play_match

    worker.start()
    tournament = swiss(4, rounds=2)
    round_ = _play_round(tournament, director, 1)
    for match in Match.objects.filter(round=round_, is_bye=False):
        play_match(match, random.Random(1), director=director, hands=1)
    services.close_round(round=round_, actor=director)

    def counted() -> bool:
        snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
        return snapshot is not None and snapshot.payload["rounds_closed"] == 1

    waiting.until(counted, "the worker's snapshot counting the closed round")

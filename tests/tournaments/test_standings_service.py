"""Standings snapshots: written after results change, immutable and versioned, marked stale
while behind, computed by a real Celery worker, and caught up when a stopped worker returns."""

from __future__ import annotations

import pytest

from tests import waiting
from tournaments import services
from tournaments.live import events
from tournaments.models import HandSubmission, StandingsSnapshot, Tournament
from tournaments.services import standings

from .builders import HAND_1, HAND_2, make_director, make_match, scorer


def play(match, records=(HAND_1,)) -> None:
    for record in records:
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=record
        ).submission
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )


@pytest.mark.django_db
def test_a_confirmed_hand_counts_as_a_change_to_results(django_capture_on_commit_callbacks):
    match = make_match(make_director())
    tournament = match.round.tournament
    start = Tournament.objects.get(pk=tournament.pk).results_version
    with django_capture_on_commit_callbacks(execute=False):
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=HAND_1
        ).submission
    assert Tournament.objects.get(pk=tournament.pk).results_version == start
    with django_capture_on_commit_callbacks(execute=False):
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )
    assert Tournament.objects.get(pk=tournament.pk).results_version == start + 1


@pytest.mark.django_db
def test_in_process_the_snapshot_follows_each_commit(settings, django_capture_on_commit_callbacks):
    settings.REDIS_URL = None
    match = make_match(make_director(), rules={"preset": "standard", "options": {"target": 100}})
    heard = []
    stop = events.listen(lambda tid, event: heard.append(event))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            play(match, (HAND_1, HAND_2))
    finally:
        stop()
    snapshot = StandingsSnapshot.objects.get()
    rows = {row["name"]: row for row in snapshot.payload["rows"]}
    assert rows["Chika & Dan"]["rank"] == 1 and rows["Chika & Dan"]["values"]["match_points"] == 2
    assert rows["Aiko & Ben"]["values"]["points_for"] == 121
    assert {"event": "standings", "version": 1} in heard
    assert not standings.latest(tournament=match.round.tournament).stale


@pytest.mark.django_db
def test_a_recompute_with_nothing_new_writes_nothing():
    match = make_match(make_director())
    standings.bump(match.round.tournament_id)
    first = standings.recompute(tournament_id=match.round.tournament_id)
    assert first.version == 1
    assert standings.recompute(tournament_id=match.round.tournament_id) is None
    standings.bump(match.round.tournament_id)
    assert standings.recompute(tournament_id=match.round.tournament_id).version == 2
    assert StandingsSnapshot.objects.count() == 2


@pytest.mark.django_db
def test_the_latest_snapshot_says_how_old_and_whether_stale():
    match = make_match(make_director())
    tournament = match.round.tournament
    standings.bump(tournament.pk)
    standings.recompute(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    fresh = standings.latest(tournament=tournament)
    assert fresh.snapshot.version == 1 and not fresh.stale and fresh.age >= 0
    standings.bump(tournament.pk)
    tournament.refresh_from_db()
    behind = standings.latest(tournament=tournament)
    assert behind.snapshot.version == 1 and behind.stale


@pytest.mark.django_db
def test_the_sweep_catches_up_every_stale_tournament():
    first, second = make_match(make_director("a")), make_match(make_director("b"))
    for match in (first, second):
        standings.bump(match.round.tournament_id)
    assert sorted(standings.stale_tournaments()) == sorted(
        [first.round.tournament_id, second.round.tournament_id]
    )
    standings.sweep()
    assert standings.stale_tournaments() == []


def wait_for_snapshot(tournament_id: int, version: int) -> bool:
    """Wait for the worker's snapshot `version` (tests/waiting.py's deadline); how soon it comes
    is the benchmarks' measure (bench/standings_db.py)."""
    return waiting.until(
        StandingsSnapshot.objects.filter(tournament_id=tournament_id, version__gte=version).exists,
        f"standings snapshot {version} from the worker",
    )


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_writes_the_snapshot_after_each_confirmation(postgres_db, worker):
    worker.start()
    match = make_match(make_director())
    tid = match.round.tournament_id
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    services.confirm_hand(
        submission=version, expected_version=version.version, actor=scorer(match, "EW")
    )
    assert wait_for_snapshot(tid, 1)
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_2).submission
    services.confirm_hand(
        submission=version, expected_version=version.version, actor=scorer(match, "EW")
    )
    assert wait_for_snapshot(tid, 2)


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_the_worker_stopped_results_are_kept_and_standings_catch_up_on_its_return(
    postgres_db, worker
):
    match = make_match(make_director(), rules={"preset": "standard", "options": {"target": 100}})
    tournament = match.round.tournament
    play(match, (HAND_1, HAND_2))  # no worker is consuming the queue
    assert HandSubmission.objects.filter(status="confirmed").count() == 2
    tournament.refresh_from_db()
    waiting = standings.latest(tournament=tournament)
    assert waiting.snapshot is None and waiting.stale
    worker.start()  # nothing else is done: the queued recompute (or the start-up sweep) runs
    assert wait_for_snapshot(tournament.pk, 1)
    tournament.refresh_from_db()
    caught_up = standings.latest(tournament=tournament)
    assert not caught_up.stale
    assert caught_up.snapshot.payload["rows"][0]["values"]["points_for"] == 130


@pytest.mark.django_db
def test_provisional_scores_show_unconfirmed_hands_marked_and_unranked(
    settings, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = None
    match = make_match(make_director())
    tournament = match.round.tournament
    tournament.show_provisional = True
    tournament.save(update_fields=["show_provisional"])
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    payload = StandingsSnapshot.objects.get().payload
    [live_match] = payload["provisional"]
    assert live_match["hands"] == 1 and live_match["confirmed"] is False
    assert {side: v["points"] for side, v in live_match["sides"].items()} == {"NS": 60, "EW": 70}
    assert all(row["values"]["played"] == 0 for row in payload["rows"])


@pytest.mark.django_db
def test_without_the_option_the_standings_carry_no_provisional_scores(
    settings, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = None
    match = make_match(make_director())
    with django_capture_on_commit_callbacks(execute=True):
        play(match, (HAND_1,))
    assert StandingsSnapshot.objects.get().payload["provisional"] is None


@pytest.mark.django_db
def test_a_burst_of_changes_sends_one_recompute_task_until_it_starts(settings, monkeypatch):
    from tests.conftest import require
    from tournaments.tasks import recompute_standings

    require(bool(settings.REDIS_URL), "needs Redis: REDIS_URL is not set")
    match = make_match(make_director())
    tid = match.round.tournament_id
    standings.claim(tid)  # no mark left over from another run
    sent = []
    monkeypatch.setattr(
        recompute_standings, "apply_async", lambda *args, **kwargs: sent.append(kwargs["args"])
    )
    for _ in range(20):
        standings.schedule(tid)
    assert sent == [(tid,)]
    standings.claim(tid)  # the task starts: the next change needs a new task
    standings.schedule(tid)
    assert sent == [(tid,), (tid,)]
    standings.claim(tid)


def test_a_starting_worker_sends_its_catch_up_sweep_to_the_standings_queue(settings, monkeypatch):
    from celery.signals import worker_ready

    from config.routing import queue_of
    from tournaments import tasks

    settings.STANDINGS_QUEUE = "standings-elsewhere"
    sent = []
    monkeypatch.setattr(tasks.sweep_standings, "apply_async", lambda *args, **kw: sent.append(kw))
    worker_ready.send(sender=None)  # connected in TournamentsConfig.ready()
    assert len(sent) == 1  # the queue is the task's route (CELERY_TASK_ROUTES)
    assert queue_of(tasks.sweep_standings.name) == "standings-elsewhere"


@pytest.mark.django_db
def test_a_two_sided_match_loads_as_the_general_path_loads_it():
    """history.load's shortcut for a table of one entry a side (_one_a_side) gives the same
    results and meetings as the general per-seat path (_any_seats) on the same seats."""
    from tournaments.services import history as hist

    match = make_match(make_director(), rules={"preset": "standard", "options": {"target": 100}})
    play(match, (HAND_1, HAND_2))
    tournament = match.round.tournament
    loaded = hist.load(tournament)
    assert len(loaded.results) == 2  # the match finished: one result per side
    seats = sorted(match.seats.values_list(*hist.SEAT_FIELDS), key=lambda seat: seat[1])
    side = hist.gameplay.layout(tournament.game, tournament.rules).sides[0]
    for go in (hist._one_a_side, hist._any_seats):
        past = {e.pk: hist.Past() for e in loaded.entries}
        results: list = []
        go(match.pk, seats, past, side, results.append)
        assert sorted(results, key=lambda r: r.entrant) == sorted(
            loaded.results, key=lambda r: r.entrant
        )
        assert {k: (p.opponents, p.partners, p.byes, p.first) for k, p in past.items()} == {
            k: (p.opponents, p.partners, p.byes, p.first) for k, p in loaded.past.items()
        }

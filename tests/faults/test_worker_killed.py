"""A Celery worker killed (SIGKILL) in the middle of a standings recompute: the results stay
stored, the standings say they are stale, and the next worker finishes the job — the message
comes back because the task is acknowledged late, and the recompute is a compare-and-set, so
however many times it runs there is one snapshot per results version."""

from __future__ import annotations

import pytest

from tests import waiting
from tests.tournaments.builders import HAND_1, HAND_2, make_director, make_match, scorer
from tournaments import services
from tournaments.models import HandSubmission, StandingsSnapshot, Tournament
from tournaments.services import standings
from tournaments.tasks import recompute_standings

from .conftest import TOURNAMENT_TABLE, wait_until

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def play(match, records) -> None:
    for record in records:
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=record
        ).submission
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )


def test_a_worker_killed_mid_recompute_is_replaced_and_the_standings_catch_up_with_one_snapshot(
    postgres_db, pg, killable_worker, monkeypatch
):
    worker = killable_worker
    match = make_match(make_director(), rules={"preset": "standard", "options": {"target": 100}})
    tid = match.round.tournament_id
    standings.claim(tid)  # no pending mark left in Redis by an earlier run with this id
    sent = []
    send = recompute_standings.apply_async

    def send_and_keep(*args, **kwargs):  # the real send; the test keeps the task's handle
        sent.append(send(*args, **kwargs))
        return sent[-1]

    monkeypatch.setattr(recompute_standings, "apply_async", send_and_keep)
    play(match, (HAND_1, HAND_2))  # the match is won: two results changes, one task queued
    [task] = sent
    results_version = Tournament.objects.get(pk=tid).results_version

    # The recompute starts on a real worker and is held inside its transaction: it waits for
    # the tournament's row lock, which another connection holds.
    with pg.row_lock(TOURNAMENT_TABLE, tid):
        worker.launch()
        [stuck] = wait_until(pg.waiting_on_locks, "the worker's recompute to block")
        worker.kill()  # SIGKILL: no warm shutdown, nothing acknowledged or handed back
        pg.terminate(stuck)  # the dead worker's backend goes too (as TCP keepalive would)

    assert HandSubmission.objects.filter(status="confirmed").count() == 2  # results are kept
    assert not StandingsSnapshot.objects.filter(tournament_id=tid).exists()
    assert standings.latest(tournament=Tournament.objects.get(pk=tid)).stale

    # A new worker (whose broker hands back a dead consumer's messages after 2 s).
    worker.launch(DJANGO_SETTINGS_MODULE="tests.faults.worker_settings")
    wait_until(
        lambda: StandingsSnapshot.objects.filter(tournament_id=tid).exists(),
        "the replacement worker's snapshot",
    )
    # The killed worker's own message comes back (acks_late) and runs to the end...
    assert task.get(timeout=waiting.SECONDS) in (1, None)
    assert task.state == "SUCCESS"
    # ...and however often the recompute ran, one snapshot stands for this results version.
    [snapshot] = StandingsSnapshot.objects.filter(tournament_id=tid)
    assert (snapshot.version, snapshot.inputs_version) == (1, results_version)
    tournament = Tournament.objects.get(pk=tid)
    assert not standings.latest(tournament=tournament).stale
    assert snapshot.payload["rows"] == standings.compute_payload(tournament)["rows"]
    winner = snapshot.payload["rows"][0]
    assert winner["values"]["points_for"] == 130 and winner["values"]["match_points"] == 2
    # The database itself refuses a second snapshot of the same inputs or the same version.
    assert {"snapshot_inputs_once", "snapshot_version_once"} <= {
        name
        for (name,) in pg.rows(
            "SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass",
            (StandingsSnapshot._meta.db_table,),
        )
    }

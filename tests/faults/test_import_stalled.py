"""A hand import whose worker dies mid-way (issue 14 point 6): the job stays "running" without
moving, and the broker would hand its message back only after its visibility timeout (an hour).
The periodic sweep that catches up the standings finds it once it has not moved for a minute
and resumes it from its last written line; every line is stored exactly once and the counts
come out exact.

The worker's death is simulated in-process: the run is stopped by an exception nothing in the
service catches (as SIGKILL stops it: no `finally` of ours writes anything), between lines
whose hands are committed and a progress write. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.builders import make_director, make_match, spades_hand
from tournaments import tasks
from tournaments.models import HandSubmission, ImportJob
from tournaments.services import Actor, hand_imports

pytestmark = pytest.mark.django_db

LINES = 12
BAD_LINE = 4  # a line refused (no such table): counted failed once, never stored


class WorkerKilled(BaseException):
    """The process died: nothing in the service catches a BaseException."""


def import_file() -> bytes:
    lines = []
    hand = 0
    for number in range(1, LINES + 1):
        table = 99 if number == BAD_LINE else 1  # the bad line names a table there is not
        hand += table == 1
        dealer = "NESW"[(hand - 1) % 4]  # the deal passes to the left each hand
        record = spades_hand(dealer, ["3", "3", "3", "3"], {"N": 3, "E": 4, "S": 3, "W": 3})
        lines.append(json.dumps({"round": 1, "table": table, "hand": hand, "record": record}))
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def job(settings, django_capture_on_commit_callbacks):
    """A job of 12 lines for a 20-hand match, queued (the embedded default: no Redis, so a
    job sent again runs in-process)."""
    settings.REDIS_URL = None
    director = make_director()
    match = make_match(director, match_length="hands", match_hands=20)
    with django_capture_on_commit_callbacks(execute=False):  # queued, not yet run
        made = hand_imports.start_hand_import(
            tournament=match.round.tournament,
            actor=Actor(user=director.user),
            data=import_file(),
            filename="hands.jsonl",
        )
    return made


def run_until_killed(job: ImportJob, monkeypatch, *, dies_before_line: int) -> list[int]:
    """Run the job as a worker would, the process dying just before `dies_before_line`;
    returns the lines the run started."""
    started: list[int] = []
    real = hand_imports._import_line

    def line(job, actor, number, text, matches):
        if number == dies_before_line:
            raise WorkerKilled
        started.append(number)
        return real(job, actor, number, text, matches)

    monkeypatch.setattr(hand_imports, "_import_line", line)
    with pytest.raises(WorkerKilled):
        hand_imports.run_hand_import(job.pk)
    monkeypatch.setattr(hand_imports, "_import_line", real)
    return started


def submissions(job: ImportJob) -> dict[str, int]:
    """How many versions each of the job's idempotency keys stored."""
    prefix = hand_imports.idempotency_key(job, 0)[:-1]
    keys = HandSubmission.objects.filter(idempotency_key__startswith=prefix).values_list(
        "idempotency_key", flat=True
    )
    counts: dict[str, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return counts


def test_a_job_stalled_mid_way_is_resumed_by_the_sweep_from_its_last_line_storing_each_once(
    job, monkeypatch
):
    killed_run = run_until_killed(job, monkeypatch, dies_before_line=8)
    assert killed_run == [1, 2, 3, 4, 5, 6, 7]
    job.refresh_from_db()
    # The progress was written after line 5; lines 6 and 7 are stored but not yet counted.
    assert (job.state, job.processed, job.stored, job.failed) == ("running", 5, 4, 1)
    assert len(submissions(job)) == 6

    # Within the minute the job is not stalled: the sweep leaves it alone.
    assert hand_imports.resume_stalled() == []
    assert ImportJob.objects.get(pk=job.pk).state == "running"

    # A minute without progress later, the standings sweep resumes it.
    ImportJob.objects.filter(pk=job.pk).update(progressed_at=timezone.now() - timedelta(seconds=61))
    resumed_lines: list[int] = []
    real = hand_imports._import_line

    def line(job, actor, number, text, matches):
        resumed_lines.append(number)
        return real(job, actor, number, text, matches)

    monkeypatch.setattr(hand_imports, "_import_line", line)
    tasks.sweep_standings()

    job.refresh_from_db()
    assert resumed_lines == [6, 7, 8, 9, 10, 11, 12]  # from the last written line, not line 1
    assert [error["line"] for error in job.errors] == [BAD_LINE], job.errors
    assert (job.state, job.processed, job.stored, job.duplicates, job.failed) == (
        "done",
        LINES,
        LINES - 1,
        0,
        1,
    )
    assert [error["line"] for error in job.errors] == [BAD_LINE], job.errors
    stored = submissions(job)
    assert len(stored) == LINES - 1 and set(stored.values()) == {1}  # every line stored once
    assert hand_imports.idempotency_key(job, BAD_LINE) not in stored
    assert HandSubmission.objects.filter(is_current=True).count() == LINES - 1

    # The finished job is never resumed again, by the sweep or by the old message coming back.
    ImportJob.objects.filter(pk=job.pk).update(progressed_at=timezone.now() - timedelta(hours=1))
    assert hand_imports.resume_stalled() == []
    assert hand_imports.run_hand_import(job.pk).stored == LINES - 1
    assert len(submissions(job)) == LINES - 1


def test_a_run_taken_over_by_the_sweep_writes_nothing_more(job, monkeypatch):
    """The worker was only slow, not dead: while it works on line 3, the sweep resumes the job
    (run in-process here, to the end). The slow run then stops at its next progress write and
    writes nothing: the counts are the new run's, every line stored once."""
    real = hand_imports._import_line
    runs: list[list[int]] = [[], []]  # the lines started by the slow run, by the new one
    current = [0]

    def line(job, actor, number, text, matches):
        runs[current[0]].append(number)
        if current[0] == 0 and number == 3:
            later = timezone.now() + hand_imports.STALLED_AFTER + timedelta(seconds=1)
            current[0] = 1
            assert hand_imports.resume_stalled(now=later) == [job.pk]
            current[0] = 0
        return real(job, actor, number, text, matches)

    monkeypatch.setattr(hand_imports, "PROGRESS_EVERY", 4)
    monkeypatch.setattr(hand_imports, "_import_line", line)
    slow = hand_imports.run_hand_import(job.pk)

    assert runs == [[1, 2, 3, 4], list(range(1, LINES + 1))]  # the slow run stopped at line 4
    job.refresh_from_db()
    assert slow.runner == job.runner
    assert (job.state, job.processed, job.stored, job.duplicates, job.failed) == (
        "done",
        LINES,
        LINES - 1,
        0,
        1,
    )
    assert set(submissions(job).values()) == {1} and len(submissions(job)) == LINES - 1


# -- the same with a real worker, SIGKILLed -------------------------------------------------------


def second_table(match):
    """Table 2 of the same round, with its own two teams."""
    from tournaments.models import Entry, Match, Player, Seat, Table, Team

    table = Table.objects.create(round=match.round, number=2)
    other = Match.objects.create(round=match.round, table=table)
    for side, names in (("NS", ("Eri", "Fumi")), ("EW", ("Goro", "Hana"))):
        team = Team.objects.create(
            name=f"{names[0]} & {names[1]}",
            first=Player.objects.create(name=names[0]),
            second=Player.objects.create(name=names[1]),
        )
        entry = Entry.objects.create(tournament=match.round.tournament, team=team)
        Seat.objects.create(match=other, entry=entry, side=side, seats=side)
    return other


def two_tables_file() -> bytes:
    """Lines 1–6: hands 1–6 at table 1; lines 7–12: hands 1–6 at table 2."""
    lines = []
    for table in (1, 2):
        for hand in range(1, 7):
            dealer = "NESW"[(hand - 1) % 4]
            record = spades_hand(dealer, ["3", "3", "3", "3"], {"N": 3, "E": 4, "S": 3, "W": 3})
            lines.append(json.dumps({"round": 1, "table": table, "hand": hand, "record": record}))
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_import_is_resumed_by_the_next_workers_sweep(
    postgres_db, pg, killable_worker, settings
):
    from .conftest import table_of, wait_until

    worker = killable_worker
    settings.IMPORTS_QUEUE = worker.queue
    director = make_director()
    match = make_match(director, match_length="hands", match_hands=20)
    other = second_table(match)

    # Table 2's match is locked by another connection: the worker imports table 1's six lines
    # (progress written after line 5), then waits on line 7, inside its transaction.
    with pg.row_lock(table_of(type(other)), other.pk):
        job = hand_imports.start_hand_import(
            tournament=match.round.tournament,
            actor=Actor(user=director.user),
            data=two_tables_file(),
            filename="two-tables.jsonl",
        )
        worker.launch(IMPORTS_QUEUE=worker.queue)
        [stuck] = wait_until(pg.waiting_on_locks, "the worker's import to block on line 7")
        worker.kill()  # SIGKILL: the message stays unacknowledged for the broker's hour
        pg.terminate(stuck)

    job.refresh_from_db()
    assert (job.state, job.processed, job.stored) == ("running", 5, 5)
    assert len(submissions(job)) == 6  # line 6 stored, not yet counted

    # A minute without progress (set back rather than waited for), then a new worker starts:
    # its start-up sweep resumes the job, which its own queue runs to the end.
    ImportJob.objects.filter(pk=job.pk).update(progressed_at=timezone.now() - timedelta(seconds=61))
    worker.launch(IMPORTS_QUEUE=worker.queue)
    wait_until(
        lambda: ImportJob.objects.get(pk=job.pk).state == "done", "the resumed import to finish"
    )

    job.refresh_from_db()
    assert (job.processed, job.stored, job.duplicates, job.failed) == (12, 12, 0, 0), job.errors
    stored = submissions(job)
    assert len(stored) == 12 and set(stored.values()) == {1}
    assert HandSubmission.objects.filter(is_current=True).count() == 12

"""Hand records in bulk (services.hand_imports): a JSON Lines file becomes a background job that
stores and confirms every good line, reports every bad one by line number and code, never
stores a line twice, and can be watched while it runs."""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model

from tests import waiting
from tournaments.models import AuditEvent, HandSubmission, ImportJob, Round, Table
from tournaments.services import Actor, NotAllowed, hand_imports
from tournaments.services.errors import Invalid
from tournaments.services.hand_imports import run_hand_import, start_hand_import

from .builders import HAND_1, HAND_2, make_director, make_match, spades_hand

HAND_3 = spades_hand("S", ["3", "3", "3", "3"], {"N": 3, "E": 3, "S": 4, "W": 3})
#: A spades hand whose tricks add up to 12, not 13: the rules engine refuses it.
SHORT_HAND = spades_hand("E", ["4", "3", "6", "6"], {"N": 3, "E": 4, "S": 4, "W": 1})


def line(round_: int, table: int, record: dict, hand: int | None = None) -> str:
    body = {"round": round_, "table": table, "record": record}
    if hand is not None:
        body["hand"] = hand
    return json.dumps(body)


def jsonl(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def in_process(settings, django_capture_on_commit_callbacks):
    """Jobs run in-process, as in the embedded default (no Redis), once the upload commits."""
    settings.REDIS_URL = None

    def start(**kwargs) -> ImportJob:
        with django_capture_on_commit_callbacks(execute=True):
            job = start_hand_import(**kwargs)
        job.refresh_from_db()
        return job

    return start


@pytest.fixture
def match(db):
    return make_match(make_director())


def director_of(match) -> Actor:
    return Actor(user=match.round.tournament.directors.get())


def current(match) -> list[HandSubmission]:
    return list(
        HandSubmission.objects.filter(hand__match=match, is_current=True).order_by("hand__number")
    )


@pytest.mark.django_db
def test_good_lines_are_stored_confirmed_and_marked_as_imported(match, in_process):
    tournament = match.round.tournament
    data = jsonl(line(1, 1, HAND_1, hand=1), line(1, 1, HAND_2))

    job = in_process(
        tournament=tournament, actor=director_of(match), data=data, filename="club/night.jsonl"
    )

    assert job.state == ImportJob.State.DONE
    assert (job.total, job.processed, job.stored, job.duplicates, job.failed) == (2, 2, 2, 0, 0)
    assert job.errors == [] and job.filename == "night.jsonl" and job.percent == 100
    hands = current(match)
    assert [h.status for h in hands] == ["confirmed", "confirmed"]
    assert {h.source for h in hands} == {"import"}
    assert hands[0].submitted_label == f"import {job.pk} by td"
    assert hands[1].result["after"]["score"] == {"NS": 121, "EW": 130}
    actions = set(AuditEvent.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert {"hands-import-queued", "hands-imported"} <= actions


@pytest.mark.django_db
def test_bad_lines_are_reported_by_line_number_and_code_and_never_block_the_good_ones(
    match, in_process
):
    tournament = match.round.tournament
    data = jsonl(
        line(1, 1, HAND_1),  # 1: stored
        "",  # 2: blank, skipped (but counted as a line of the file)
        "{not json",  # 3
        json.dumps(HAND_2),  # 4: a bare record without its match
        line(1, 9, HAND_2),  # 5: no table 9
        line(2, 1, HAND_2),  # 6: no round 2
        line(1, 1, SHORT_HAND),  # 7: the rules engine refuses it
        line(1, 1, HAND_2, hand=5),  # 8: the match's next hand is 2
        json.dumps({"round": "1", "table": 1, "record": HAND_2}),  # 9: round is text
        line(1, 1, HAND_2),  # 10: stored, after all those
    )

    job = in_process(tournament=tournament, actor=director_of(match), data=data, filename="x")

    assert (job.total, job.processed, job.stored, job.failed) == (9, 9, 2, 7)
    assert [(e["line"], e["code"]) for e in job.errors] == [
        (3, "bad-json"),
        (4, "bad-envelope"),
        (5, "no-such-table"),
        (6, "no-such-table"),
        (7, "invalid-hand"),
        (8, "bad-hand-number"),
        (9, "bad-envelope"),
    ]
    engine = next(e for e in job.errors if e["code"] == "invalid-hand")
    assert engine["details"][0]["code"] == "tricks-do-not-sum"
    assert "tricks-do-not-sum" in engine["message"]
    assert [h.result["after"]["score"] for h in current(match)][-1] == {"NS": 121, "EW": 130}


@pytest.mark.django_db
def test_importing_the_same_file_again_stores_nothing_new_and_reports_duplicates(match, in_process):
    tournament = match.round.tournament
    data = jsonl(line(1, 1, HAND_1), line(1, 1, SHORT_HAND), line(1, 1, HAND_2))
    first = in_process(tournament=tournament, actor=director_of(match), data=data, filename="a")
    stored = HandSubmission.objects.count()

    again = in_process(tournament=tournament, actor=director_of(match), data=data, filename="b")

    assert (first.stored, first.failed) == (2, 1)
    assert again.state == ImportJob.State.DONE
    assert (again.stored, again.duplicates, again.failed) == (0, 2, 1)
    assert HandSubmission.objects.count() == stored
    assert again.file_hash == first.file_hash


@pytest.mark.django_db
def test_an_interrupted_job_run_again_counts_its_own_lines_as_stored(match, in_process):
    tournament = match.round.tournament
    data = jsonl(line(1, 1, HAND_1), line(1, 1, HAND_2))
    job = in_process(tournament=tournament, actor=director_of(match), data=data, filename="a")
    # A worker died after storing the lines but before finishing: the task is delivered again.
    ImportJob.objects.filter(pk=job.pk).update(state=ImportJob.State.RUNNING)

    again = run_hand_import(job.pk)

    assert (again.state, again.stored, again.duplicates) == ("done", 2, 0)
    assert HandSubmission.objects.count() == 2


@pytest.mark.django_db
def test_a_finished_job_is_not_run_again(match, in_process):
    job = in_process(
        tournament=match.round.tournament,
        actor=director_of(match),
        data=jsonl(line(1, 1, HAND_1)),
        filename="a",
    )
    finished_at = job.finished_at

    assert run_hand_import(job.pk).finished_at == finished_at
    assert run_hand_import(10**9) is None


@pytest.mark.django_db
def test_the_progress_is_written_every_few_lines_while_the_job_runs(match, in_process, monkeypatch):
    tournament = match.round.tournament
    seen: list[int] = []
    real = hand_imports._import_line

    def watched(job, *args):
        seen.append(ImportJob.objects.get(pk=job.pk).processed)
        return real(job, *args)

    monkeypatch.setattr(hand_imports, "PROGRESS_EVERY", 2)
    monkeypatch.setattr(hand_imports, "_import_line", watched)
    data = jsonl(*["{bad"] * 5, line(1, 1, HAND_1))

    job = in_process(tournament=tournament, actor=director_of(match), data=data, filename="a")

    assert seen == [0, 0, 2, 2, 4, 4]
    assert (job.processed, job.failed, job.stored) == (6, 5, 1)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "empty-file"),
        (b"\n  \r\n\n", "empty-file"),
        (b"\xff\xfe{}", "bad-encoding"),
        (b'{"a": "\x00"}', "bad-encoding"),
    ],
)
def test_a_file_refused_as_a_whole_stores_nothing(match, data, code):
    with pytest.raises(Invalid) as refused:
        start_hand_import(
            tournament=match.round.tournament,
            actor=director_of(match),
            data=data,
            filename="x.jsonl",
        )
    assert refused.value.code == code
    assert ImportJob.objects.count() == 0


@pytest.mark.django_db
def test_too_large_and_too_long_files_are_refused_up_front(match, monkeypatch):
    tournament, actor = match.round.tournament, director_of(match)
    monkeypatch.setattr(hand_imports, "MAX_BYTES", 100)
    with pytest.raises(Invalid) as large:
        start_hand_import(tournament=tournament, actor=actor, data=b"x" * 101, filename="x")
    monkeypatch.setattr(hand_imports, "MAX_BYTES", 10_000)
    monkeypatch.setattr(hand_imports, "MAX_LINES", 2)
    with pytest.raises(Invalid) as long:
        start_hand_import(tournament=tournament, actor=actor, data=b"1\n2\n3\n", filename="x")
    assert (large.value.code, long.value.code) == ("too-large", "too-many-lines")
    assert ImportJob.objects.count() == 0


@pytest.mark.django_db
def test_only_a_director_may_start_an_import(match):
    stranger = Actor(user=get_user_model().objects.create_user("stranger"))
    with pytest.raises(NotAllowed):
        start_hand_import(
            tournament=match.round.tournament,
            actor=stranger,
            data=jsonl(line(1, 1, HAND_1)),
            filename="x",
        )
    assert ImportJob.objects.count() == 0


@pytest.mark.django_db
def test_a_job_whose_director_has_left_fails_and_stores_nothing(
    match, settings, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = None
    tournament = match.round.tournament
    user = tournament.directors.get()
    with django_capture_on_commit_callbacks(execute=False):
        job = start_hand_import(
            tournament=tournament,
            actor=Actor(user=user),
            data=jsonl(line(1, 1, HAND_1)),
            filename="x",
        )
    tournament.directors.remove(user)

    job = run_hand_import(job.pk)

    assert job.state == ImportJob.State.FAILED and "no longer" in job.message
    assert HandSubmission.objects.count() == 0


@pytest.mark.django_db
def test_lines_for_a_closed_round_are_refused_with_the_services_code(match, in_process):
    Round.objects.filter(pk=match.round_id).update(state=Round.State.CLOSED)
    job = in_process(
        tournament=match.round.tournament,
        actor=director_of(match),
        data=jsonl(line(1, 1, HAND_1)),
        filename="x",
    )
    assert [(e["line"], e["code"]) for e in job.errors] == [(1, "round-not-in-play")]


@pytest.mark.django_db
def test_the_same_file_in_another_tournament_has_its_own_keys(in_process):
    first = make_match(make_director("one"))
    second = make_match(make_director("two"))
    data = jsonl(line(1, 1, HAND_1))
    a = in_process(
        tournament=first.round.tournament, actor=director_of(first), data=data, filename="x"
    )
    b = in_process(
        tournament=second.round.tournament, actor=director_of(second), data=data, filename="x"
    )
    assert (a.stored, b.stored, b.duplicates) == (1, 1, 0)
    assert hand_imports.idempotency_key(a, 1) != hand_imports.idempotency_key(b, 1)


@pytest.mark.django_db
def test_with_redis_the_job_is_sent_to_the_imports_queue_after_commit(
    match, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from config.routing import queue_of
    from tournaments.tasks import import_hands

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    settings.IMPORTS_QUEUE = "imports-elsewhere"
    sent = []
    monkeypatch.setattr(import_hands, "apply_async", lambda **kwargs: sent.append(kwargs))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = start_hand_import(
            tournament=match.round.tournament,
            actor=director_of(match),
            data=jsonl(line(1, 1, HAND_1)),
            filename="x",
        )
    assert sent == []  # not before the job's row is committed
    for callback in callbacks:
        callback()
    assert sent == [{"args": (job.pk,)}]  # the queue is the task's route (CELERY_TASK_ROUTES)
    assert queue_of(import_hands.name) == "imports-elsewhere"
    job.refresh_from_db()
    assert job.state == ImportJob.State.QUEUED


@pytest.mark.django_db
def test_when_the_broker_is_down_the_job_is_marked_failed_not_lost_silently(
    match, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from tournaments.tasks import import_hands

    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    def down(**kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(import_hands, "apply_async", down)
    with django_capture_on_commit_callbacks(execute=True):
        job = start_hand_import(
            tournament=match.round.tournament,
            actor=director_of(match),
            data=jsonl(line(1, 1, HAND_1)),
            filename="x",
        )
    job.refresh_from_db()
    assert job.state == ImportJob.State.FAILED and "broker unreachable" in job.message


@pytest.mark.django_db
def test_the_task_runs_the_job_and_returns_its_counts(
    match, settings, django_capture_on_commit_callbacks
):
    from tournaments.tasks import import_hands

    settings.REDIS_URL = None
    with django_capture_on_commit_callbacks(execute=False):
        job = start_hand_import(
            tournament=match.round.tournament,
            actor=director_of(match),
            data=jsonl(line(1, 1, HAND_1), "{"),
            filename="x",
        )
    assert import_hands.apply(args=[job.pk]).get() == {
        "state": "done",
        "processed": 2,
        "stored": 1,
        "duplicates": 0,
        "failed": 1,
    }


# -- through a real Celery worker --------------------------------------------------------------


def wait_until_finished(job_id: int, timeout: float) -> ImportJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = ImportJob.objects.get(pk=job_id)
        if job.finished:
            return job
        time.sleep(0.1)
    return ImportJob.objects.get(pk=job_id)


@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_imports_the_file_and_a_second_import_finds_only_duplicates(
    postgres_db, worker, settings
):
    settings.IMPORTS_QUEUE = worker.queue  # the test's own worker consumes only its queue
    worker.start()
    match = make_match(make_director())
    table = Table.objects.get(pk=match.table_id)
    tournament = match.round.tournament
    data = jsonl(line(1, table.number, HAND_1), "{oops", line(1, table.number, HAND_2))

    job = start_hand_import(
        tournament=tournament, actor=director_of(match), data=data, filename="night.jsonl"
    )
    done = wait_until_finished(job.pk, timeout=waiting.SECONDS)

    assert done.state == ImportJob.State.DONE, done.message
    assert (done.stored, done.failed, done.errors[0]["line"]) == (2, 1, 2)
    assert [h.status for h in current(match)] == ["confirmed", "confirmed"]
    again = start_hand_import(
        tournament=tournament, actor=director_of(match), data=data, filename="night.jsonl"
    )
    repeat = wait_until_finished(again.pk, timeout=waiting.SECONDS)
    assert (repeat.state, repeat.stored, repeat.duplicates) == ("done", 0, 2)
    assert HandSubmission.objects.filter(hand__match=match).count() == 2


@pytest.mark.django_db
def test_the_hands_export_goes_back_in_through_the_import_as_it_is(in_process):
    from tournaments import services
    from tournaments.demo import club as demo
    from tournaments.exports import records

    played = demo.build_solo_whist(7, players=4, rounds=1)
    director = demo.director_actor()
    fresh = services.create_tournament(
        actor=director,
        name="Replayed",
        game="solo-whist",
        rules="phillips",
        format="individual",
        rounds=1,
        match_length="hands",
        match_hands=8,
        place_points=[3, 2, 1, 0],
        seed=7,
    )
    services.open_registration(tournament=fresh, actor=director)
    for entry in played.entries.order_by("pk"):
        services.register_entry(tournament=fresh, actor=director, players=[entry.player.name])
    services.publish_round(
        round=services.generate_round(tournament=fresh, actor=director), actor=director
    )
    exported = list(records.hand_lines(played))
    assert [json.loads(text)["hand"] for text in exported] == list(range(1, 9))
    assert all(json.loads(text)["round"] == json.loads(text)["table"] == 1 for text in exported)

    job = in_process(
        tournament=fresh, actor=director, data="".join(exported).encode(), filename="hands.jsonl"
    )

    assert (job.state, job.stored, job.failed) == (ImportJob.State.DONE, 8, 0), job.errors
    assert list(records.hand_lines(fresh)) == exported

"""Hand records in bulk: a JSON Lines file of the tournament's hands, imported in the background
as an `ImportJob` with its progress, one transaction per line.

Each line names its match and carries one `hand/1` record (see docs/imports.md):

    {"round": 2, "table": 3, "hand": 1, "record": {"dealer": "N", "calls": [...], ...}}

`hand` is optional (the match's next hand). A line of the tournament's `hands.jsonl` export (a
`hand/1` record that starts with its `round`, `table` and `hand`) is read the same way, so an
export goes back in as it is. Every line is submitted through `submit_hand` as the
director who uploaded the file, so it is checked exactly like a hand entered at the table and is
confirmed at once; the submission is marked as imported, with a label naming the job.

`start_hand_import` checks the file as a whole (size, encoding, line count), stores it in a job
and hands the job to a Celery worker (or runs it in-process when there is no Redis);
`run_hand_import` is what the worker runs. A bad line is reported with its line number and a
stable code and never blocks the good ones. A run writes its progress (counters, errors and
`progressed_at`) every few lines; a job whose worker died mid-way stays "running" without
moving, and `resume_stalled` (called by the periodic standings sweep) sends it again after
`STALLED_AFTER`: the new run takes the job over (`runner`: the dead run, were it only slow,
writes nothing more) and continues after the last line whose progress was written. The
idempotency key of a line is derived from the tournament, the file's SHA-256 and the line
number: importing the same file again stores nothing twice and reports those lines as
duplicates, and a line run again after a crash is stored once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import DatabaseError, DataError, IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.models import HandSubmission, ImportJob, Match, Tournament

from . import scheduling
from .actors import Actor, audit, is_director, require_director
from .errors import Invalid, ServiceError
from .hands import MAX_HAND_BYTES, submit_hand

log = logging.getLogger(__name__)

MAX_BYTES = 8 * 1024 * 1024
MAX_LINES = 20_000
#: The job's error list keeps this many lines (the `failed` count is always exact).
MAX_LISTED_ERRORS = 1000
#: The job's counters are written after this many lines (and at the end).
PROGRESS_EVERY = 5
#: A running job that has written no progress for this long is resumed by the sweep.
STALLED_AFTER = timedelta(minutes=1)
MAX_DETAILS = 5
#: Where a hand was played, in a line of either form.
PLACE_FIELDS = ("round", "table", "hand")

#: Every error code, for the whole file or for one line, with what it means. Stable.
ERROR_CODES: dict[str, str] = {
    # the whole file (start_hand_import raises Invalid with one of these)
    "too-large": f"the file is larger than {MAX_BYTES} bytes",
    "empty-file": "the file holds no line",
    "bad-encoding": "the file is not UTF-8 text",
    "too-many-lines": f"the file has more than {MAX_LINES} lines",
    "no-director": "the import must be started by a signed-in director",
    # one line
    "hand-too-large": f"the line is over {MAX_HAND_BYTES} bytes, the most one hand may take "
    "(the API refuses such a submission with 413 too-large)",
    "bad-json": "the line is not valid JSON",
    "bad-envelope": 'the line is not {"round", "table", "hand"?, "record"}',
    "no-such-table": "the tournament has no such round, or the round no such table",
    "server-error": "the line could not be imported because of a fault on the server",
    # … and every code `submit_hand` raises, e.g. invalid-hand (with the rules engine's errors
    # in `details`), bad-hand-number, hand-confirmed, match-over, round-not-in-play, bye
}


# -- starting ------------------------------------------------------------------------------------


def _text(data: bytes) -> str:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise Invalid("bad-encoding", "the file's content must be bytes")
    if len(data) > MAX_BYTES:
        raise Invalid(
            "too-large",
            f"the file is over {MAX_BYTES // (1024 * 1024)} MiB: split it",
            details={"bytes": len(data), "limit": MAX_BYTES},
        )
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise Invalid(
            "bad-encoding",
            f"the file is not UTF-8 text (byte {error.start})",
            details={"byte": error.start},
        ) from error
    if "\x00" in text:
        raise Invalid("bad-encoding", "the file holds NUL characters: is it a text file?")
    return text


def lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of every non-blank line; line 1 is the file's first line. Only
    line feeds end a line (JSON text may hold U+2028 and other separators unescaped)."""
    return [
        (number, line.rstrip("\r"))
        for number, line in enumerate(text.split("\n"), 1)
        if line.strip()
    ]


def start_hand_import(
    *, tournament: Tournament, actor: Actor, data: bytes, filename: str
) -> ImportJob:
    """Check the file as a whole and queue its import; raises `Invalid` (a stable code, nothing
    stored) for a file that is too large, not UTF-8, empty or too long. The job starts once
    this transaction commits: on a worker when REDIS_URL is set, in-process otherwise."""
    require_director(actor, tournament)
    user = actor.user_or_none()
    if user is None:
        raise Invalid("no-director", "a hand import is started by a signed-in director")
    text = _text(data)
    found = lines(text)
    if not found:
        raise Invalid("empty-file", "the file holds no hand record")
    if len(found) > MAX_LINES:
        raise Invalid(
            "too-many-lines",
            f"the file has {len(found)} lines; at most {MAX_LINES}: split it",
            details={"lines": len(found), "limit": MAX_LINES},
        )
    digest = hashlib.sha256(bytes(data)).hexdigest()
    name = (filename or "").rsplit("/", 1)[-1][:255]
    with transaction.atomic():
        job = ImportJob.objects.create(
            tournament=tournament,
            created_by=user,
            kind=ImportJob.Kind.HANDS,
            filename=name,
            file_hash=digest,
            content=text,
            total=len(found),
        )
        audit(
            tournament=tournament,
            actor=actor,
            action="hands-import-queued",
            subject=name[:100],
            data={"job": job.pk, "lines": len(found), "sha256": digest},
        )
        transaction.on_commit(lambda: enqueue(job.pk))
    return job


def enqueue(job_id: int) -> None:
    """Run the job: on a worker when REDIS_URL is set (the imports queue, IMPORTS_QUEUE), else
    here and now. Never raises: a job that cannot be sent or run is marked failed with the
    reason, and the file can be imported again (the idempotency keys make that safe)."""
    scheduling.run_or_send(
        "tournaments.import_hands", job_id, failed=lambda error: give_up(job_id, error)
    )


def give_up(job_id: int, error: BaseException) -> None:
    """Mark a job failed for a reason outside its lines (the database or the broker)."""
    ImportJob.objects.filter(pk=job_id).exclude(state=ImportJob.State.DONE).update(
        state=ImportJob.State.FAILED,
        finished_at=timezone.now(),
        message=f"the import stopped: {type(error).__name__}: {error}"[:2000],
    )


# -- running -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    processed: int = 0
    stored: int = 0
    duplicates: int = 0
    failed: int = 0

    def fields(self) -> dict[str, int]:
        return {
            "processed": self.processed,
            "stored": self.stored,
            "duplicates": self.duplicates,
            "failed": self.failed,
        }


class _LineError(Exception):
    def __init__(self, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def job_actor(job: ImportJob) -> Actor | None:
    """The director the job acts as, labelled with the job (the label is what the submissions
    record as submitted and confirmed by)."""
    if job.created_by is None:
        return None
    label = f"import {job.pk} by {job.created_by.get_username()}"
    return Actor(user=job.created_by, label=label[:100])


def idempotency_key(job: ImportJob, line: int) -> str:
    """The same line of the same file in the same tournament always has the same key."""
    return f"import-{job.tournament_id}-{job.file_hash[:40]}-{line}"


def _claim(job_id: int) -> str | None:
    """Take a queued or running job for this run: its new runner token, or None when the job
    is finished or gone. The counters and errors stay: a job taken over after a crash goes on
    after its last written line (a run still going on the job loses it, and stops at its next
    write)."""
    now = timezone.now()
    runner = uuid.uuid4().hex
    claimed = ImportJob.objects.filter(
        pk=job_id, state__in=[ImportJob.State.QUEUED, ImportJob.State.RUNNING]
    ).update(state=ImportJob.State.RUNNING, runner=runner, progressed_at=now, message="")
    if not claimed:
        return None
    ImportJob.objects.filter(pk=job_id, started_at__isnull=True).update(started_at=now)
    return runner


def run_hand_import(job_id: int) -> ImportJob | None:
    """Import every line of the job not yet done, one transaction each, writing the progress
    every few lines; returns the job (None: no such job). A finished job is left as it is.
    A job that was interrupted goes on after the last line whose progress was written: the
    lines after it are run again, which their idempotency keys make harmless (each is stored
    once and counted once). Database outages propagate (the task retries, and the job goes on
    from its last written line)."""
    runner = _claim(job_id)
    if runner is None:
        return ImportJob.objects.filter(pk=job_id).first()
    job = ImportJob.objects.select_related("tournament", "created_by").get(pk=job_id)
    tournament = job.tournament
    actor = job_actor(job)
    tally = _Tally(
        processed=job.processed, stored=job.stored, duplicates=job.duplicates, failed=job.failed
    )
    errors = list(job.errors or [])
    if actor is None or not is_director(actor, tournament):
        return _finish(
            job,
            runner,
            tally,
            errors,
            failed="the director who started the import "
            "is no longer one of this tournament's directors",
        )
    matches: dict[tuple[int, int], Match | None] = {}
    for number, text in lines(job.content)[job.processed :]:
        try:
            outcome = _import_line(job, actor, number, text, matches)
        except _LineError as error:
            tally.failed += 1
            if len(errors) < MAX_LISTED_ERRORS:
                entry = {"line": number, "code": error.code, "message": error.message}
                if error.details:
                    entry["details"] = error.details
                errors.append(entry)
        else:
            setattr(tally, outcome, getattr(tally, outcome) + 1)
        tally.processed += 1
        if tally.processed % PROGRESS_EVERY == 0:
            written = ImportJob.objects.filter(pk=job.pk, runner=runner).update(
                errors=errors, progressed_at=timezone.now(), **tally.fields()
            )
            if not written:  # another run took the job over: it counts from here
                log.warning("hand import %s: taken over by another run; this one stops", job.pk)
                return ImportJob.objects.filter(pk=job.pk).first()
    return _finish(job, runner, tally, errors)


def resume_stalled(*, now: datetime | None = None) -> list[int]:
    """Send again every running job that has not moved for `STALLED_AFTER` (its worker died:
    the broker would hand its message back only after its visibility timeout, an hour); returns
    their ids. Each is marked as moved now, so one stalled job is sent at most once a minute."""
    now = now or timezone.now()
    # No progress for a minute (or none ever written: a job left running before it was kept).
    quiet = Q(progressed_at__lt=now - STALLED_AFTER) | Q(progressed_at__isnull=True)
    stalled = list(
        ImportJob.objects.filter(quiet, state=ImportJob.State.RUNNING).values_list("pk", flat=True)
    )
    resumed = []
    for job_id in stalled:
        taken = ImportJob.objects.filter(quiet, pk=job_id, state=ImportJob.State.RUNNING).update(
            progressed_at=now
        )
        if taken:  # not moved meanwhile, nor resumed by another sweep
            log.warning("hand import %s stalled; resuming it", job_id)
            resumed.append(job_id)
            enqueue(job_id)
    return resumed


def _finish(
    job: ImportJob, runner: str, tally: _Tally, errors: list[dict], failed: str = ""
) -> ImportJob:
    now = timezone.now()
    state = ImportJob.State.FAILED if failed else ImportJob.State.DONE
    written = ImportJob.objects.filter(pk=job.pk, runner=runner).update(
        state=state,
        message=failed,
        errors=errors,
        finished_at=now,
        progressed_at=now,
        **tally.fields(),
    )
    if not written:  # another run took the job over: it finishes it
        return ImportJob.objects.get(pk=job.pk)
    job.refresh_from_db()
    audit(
        tournament=job.tournament,
        actor=job_actor(job) or Actor(system=True, label=f"import {job.pk}"),
        action="hands-imported" if not failed else "hands-import-failed",
        subject=job.filename[:100],
        reason=failed,
        data={"job": job.pk, **tally.fields()},
    )
    return job


def _envelope(text: str) -> tuple[int, int, int | None, dict]:
    size = len(text.encode("utf-8"))
    if size > MAX_HAND_BYTES:  # refused before it is parsed, as the API refuses such a body
        raise _LineError(
            "hand-too-large",
            f"the line is {size} bytes; one hand may take at most {MAX_HAND_BYTES}",
            {"bytes": size, "limit": MAX_HAND_BYTES},
        )
    try:
        line = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        detail = getattr(error, "msg", "too deeply nested")
        column = getattr(error, "colno", None)
        where = f" (column {column})" if column else ""
        raise _LineError("bad-json", f"not valid JSON: {detail}{where}") from error
    if isinstance(line, dict) and "record" not in line and line.get("format") == "hand/1":
        # A line of the hands.jsonl export: the record itself, with where it was played.
        record = {k: v for k, v in line.items() if k not in PLACE_FIELDS}
        line = {k: line[k] for k in PLACE_FIELDS if k in line} | {"record": record}
    if not isinstance(line, dict) or not isinstance(line.get("record"), dict):
        raise _LineError(
            "bad-envelope",
            'a line is {"round": R, "table": T, "hand": H, "record": {…}} '
            '(hand is optional), or a hand/1 record with "round", "table" and "hand"',
        )

    def number(name: str, required: bool = True) -> int | None:
        value = line.get(name)
        if value is None and not required:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 32_767:
            raise _LineError("bad-envelope", f"{name} must be a positive whole number")
        return value

    round_number, table = number("round"), number("table")
    assert round_number is not None and table is not None  # required: refused when missing
    return round_number, table, number("hand", required=False), line["record"]


def _match(tournament: Tournament, round_number: int, table: int, cache: dict) -> Match:
    key = (round_number, table)
    if key not in cache:
        cache[key] = (
            Match.objects.filter(
                round__tournament=tournament, round__number=round_number, table__number=table
            )
            .select_related("round", "table")
            .first()
        )
    match = cache[key]
    if match is None:
        raise _LineError("no-such-table", f"round {round_number} has no table {table}")
    return match


def _service_error(error: ServiceError) -> _LineError:
    details = error.details
    message = error.message
    if error.code == "invalid-hand" and isinstance(details, list) and details:
        first = details[0] if isinstance(details[0], dict) else {}
        if first.get("message"):
            message = f"{message}: {first.get('code', '')} — {first['message']}"
        details = details[:MAX_DETAILS]
    return _LineError(error.code, message, details)


def _import_line(job: ImportJob, actor: Actor, number: int, text: str, matches: dict) -> str:
    """Import one line: which counter it adds to ("stored" or "duplicates"), or raise
    `_LineError`."""
    round_number, table, hand, record = _envelope(text)
    match = _match(job.tournament, round_number, table, matches)
    key = idempotency_key(job, number)
    try:
        with transaction.atomic():
            submitted = submit_hand(
                match=match,
                actor=actor,
                record=record,
                number=hand,
                idempotency_key=key,
                source=HandSubmission.Source.IMPORT,
            )
    except ServiceError as error:
        raise _service_error(error) from error
    except (IntegrityError, DataError) as error:
        raise _LineError("server-error", f"the database refused the hand: {error}") from error
    except DatabaseError:
        raise  # the database is away: the whole job is retried
    except Exception as error:  # a fault on one line must not stop the others
        log.exception("hand import %s: line %s", job.pk, number)
        raise _LineError("server-error", f"{type(error).__name__}: {error}") from error
    if submitted.created:
        return "stored"
    # Already stored under this key: by an earlier import of the same file (a duplicate), or by
    # an earlier, interrupted run of this very job (stored now).
    return "stored" if submitted.submission.submitted_label == actor.name else "duplicates"

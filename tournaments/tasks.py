"""Celery tasks: thin wrappers around services and the rules engine.

Standings and ratings tasks are idempotent (a recompute writes nothing new when nothing changed),
acknowledged late (a worker killed mid-task leaves the message for the next one) and retried
with backoff when the database is unreachable. Which queue each task goes to is set by
`CELERY_TASK_ROUTES` in settings; services send these tasks by name
(`services.scheduling.run_or_send`), so this module imports the services and not the reverse.
"""

from typing import Any

from celery import Task, shared_task
from django.db import DatabaseError

from games.records import check_record
from tournaments.seasons import services as seasons
from tournaments.services import hand_imports, ratings, standings

RETRY: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (DatabaseError, ConnectionError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


@shared_task(name="tournaments.check_records")
def check_records(records: list[dict]) -> list[dict]:
    """Check hand/match records with the rules engine; one result object per record, in order.

    Used by bulk imports. Runs in-process when REDIS_URL is unset, on a worker otherwise.
    """
    return [check_record(record) for record in records]


@shared_task(name="tournaments.recompute_standings", **RETRY)
def recompute_standings(tournament_id: int) -> int | None:
    """Write a standings snapshot if results changed; returns its version (None: up to date)."""
    standings.claim(tournament_id)
    snapshot = standings.recompute(tournament_id=tournament_id)
    return snapshot.version if snapshot else None


@shared_task(name="tournaments.sweep_standings", **RETRY)
def sweep_standings() -> list[int]:
    """Catch up every tournament whose snapshot is behind its results (periodic, and when a
    worker starts): what was missed while the worker or Redis was down. Also resumes hand
    imports stalled by a dead worker (hand_imports.resume_stalled)."""
    done = standings.sweep()
    seasons.sweep()
    hand_imports.resume_stalled()
    return done


@shared_task(name="tournaments.recompute_season", **RETRY)
def recompute_season(series_id: int) -> int | None:
    """Write a season table snapshot if its inputs changed; returns its version (None: up to
    date)."""
    seasons.claim(series_id)
    snapshot = seasons.recompute(series_id=series_id)
    return snapshot.version if snapshot else None


@shared_task(name="tournaments.recompute_ratings", **RETRY)
def recompute_ratings(game: str) -> int:
    """Rate every finished match of a game from scratch; returns the players rated."""
    ratings.claim(game)
    return ratings.recompute(game=game)


def catch_up(sender: Any = None, **kwargs: Any) -> None:
    """A worker is ready (Celery's `worker_ready`, connected in `TournamentsConfig.ready()`):
    sweep what was missed while no worker ran."""
    sweep_standings.delay()


@shared_task(name="tournaments.import_hands", bind=True, **RETRY)
def import_hands(self: Task[[int], dict | None], job_id: int) -> dict | None:
    """Run a hand import job (services.hand_imports); returns its counts. A retry after a
    database outage goes on after the job's last written line (the lines since are run again,
    which the per-line idempotency keys make safe); when the retries run out the job is marked
    failed."""
    try:
        job = hand_imports.run_hand_import(job_id)
    except Exception as error:
        out_of_retries = self.max_retries is not None and self.request.retries >= self.max_retries
        if out_of_retries or not isinstance(error, RETRY["autoretry_for"]):
            hand_imports.give_up(job_id, error)
        raise
    if job is None:
        return None
    return {
        "state": job.state,
        "processed": job.processed,
        "stored": job.stored,
        "duplicates": job.duplicates,
        "failed": job.failed,
    }

"""The federation recompute as a Celery task (with REDIS_URL: a worker runs it, on
FEDERATION_QUEUE; without, it runs in the process that scheduled it, after the commit)."""

from __future__ import annotations

from celery import shared_task

from tournaments.tasks import RETRY

from . import services


@shared_task(name="tournaments.recompute_federation", **RETRY)
def recompute_federation(game: str) -> dict:
    """Re-rate a game's federation ranking from scratch (nothing written when its inputs did
    not change); returns what it did."""
    services.claim(game)
    outcome = services.recompute(game=game)
    return {
        "game": outcome.game,
        "written": outcome.written,
        "version": outcome.version,
        "events": outcome.events,
        "people": outcome.people,
    }

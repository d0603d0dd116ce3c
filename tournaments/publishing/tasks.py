"""The Celery task that sends an event to the club's site (with REDIS_URL: a worker runs it).

Idempotent (the site answers "unchanged" to the same document) and acknowledged late (a worker
killed mid-send leaves the message for the next one). A failure that may pass is retried by the
task itself, after the backoff `services.send` recorded (doubling up to PUBLISH_RETRY_MAX):
no retry limit, since a laptop may be offline all evening. A refusal is not retried.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import DatabaseError
from django.utils import timezone

from tournaments.models import Publication

from . import services


@shared_task(
    name="tournaments.publish_event",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
)
def publish_event(self: Any, tournament_id: int) -> str:
    """Send the event if something is owed; returns the publication's state."""
    publication = services.send(tournament_id=tournament_id)
    if publication is None:
        return "gone"
    if publication.state == Publication.State.PENDING:  # asked again meanwhile: at once
        raise self.retry(countdown=0)
    if publication.state == Publication.State.RETRYING and publication.next_attempt_at:
        wait = (publication.next_attempt_at - timezone.now()).total_seconds()
        raise self.retry(countdown=max(1.0, wait))
    return str(publication.state)


@shared_task(name="tournaments.publish_due")
def publish_due() -> int:
    """Send every event whose try is due (a worker that starts: what the laptop owes)."""
    ids = services.due()
    for tournament_id in ids:
        publish_event.delay(tournament_id)
    return len(ids)

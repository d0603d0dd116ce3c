"""When the room publishes by itself: the audit trail's "round closed" and "tournament
finished" (written by `close_round` and `finish_tournament` inside their transactions) set off a
publish after commit. Listening to the audit rows keeps publishing out of the services' code."""

from __future__ import annotations

import logging
from typing import Any

from django.db.models.signals import post_save

from tournaments.models import AuditEvent

from . import sender as sending

#: Audit actions that publish the event, and the reason recorded for the director.
log = logging.getLogger(__name__)

MILESTONES = {"round-closed": "round-closed", "tournament-finished": "event-finished"}


def _milestone(sender: Any, instance: AuditEvent, created: bool, **kwargs: Any) -> None:
    if not created or kwargs.get("raw"):
        return
    reason = MILESTONES.get(instance.action)
    if reason is None:
        return
    reason = f"{reason}:{instance.subject}" if instance.action == "round-closed" else reason
    try:  # its own savepoint: a failure here never undoes the round's closing
        sending.trigger(tournament_id=instance.tournament_id, reason=reason)
    except Exception:
        log.exception("publishing: could not queue tournament %s", instance.tournament_id)


def connect() -> None:
    """Called once from `TournamentsConfig.ready()`. A Celery worker that starts sends what
    the laptop still owes (the task module is imported here so workers know the task)."""
    from celery.signals import worker_ready

    from . import tasks

    worker_ready.connect(
        lambda **kwargs: tasks.publish_due.delay(),
        weak=False,
        dispatch_uid="tricktable-publish-due",
    )
    post_save.connect(
        _milestone, sender=AuditEvent, weak=False, dispatch_uid="tricktable-publish-milestone"
    )

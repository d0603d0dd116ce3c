"""Work a committed change sets off, scheduled in one place: `run_or_send`.

Without Redis (`REDIS_URL` unset, the embedded default) the Celery task runs here and now, in
this process. With Redis it is sent to a worker; the queue is not chosen here but by the task's
route (`CELERY_TASK_ROUTES` in settings). A `pending` key coalesces a burst of changes into one
task: a short-lived Redis mark (`SET key NX EX`) says a task is queued, and the task clears it
when it starts (`release`), so a change made while it runs queues the next one.

Tasks are named, not imported: `tournaments.tasks` (thin wrappers around the services) imports
the services, never the other way round.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.conf import settings

from tournaments import redis_client

log = logging.getLogger(__name__)


def run_or_send(
    task: str,
    *args: Any,
    pending: str | None = None,
    seconds: int = 30,
    failed: Callable[[BaseException], None] | None = None,
    countdown: float | None = None,
) -> bool:
    """Run the task named `task` with `args` here (no Redis) or send it to a worker (Redis),
    unless a task for the `pending` key is queued already; True if it ran or was sent.

    Sending never raises: a failure is logged (the sweep catches up) and, with `failed`, handed
    to it. Running here raises what the task raises, unless `failed` is given (then it is
    logged and handed to `failed`). With `countdown`, a worker starts the task that many seconds
    after it is sent (with `pending`: a burst of changes within it makes one task)."""
    if not settings.REDIS_URL:
        try:
            current_app.tasks[task](*args)
        except Exception as error:
            if failed is None:
                raise
            log.exception("task %s%s failed", task, tuple(args))
            failed(error)
            return False
        return True
    try:
        if pending is not None and not redis_client.client().set(pending, "1", nx=True, ex=seconds):
            return False
        if countdown is None:
            current_app.tasks[task].apply_async(args=tuple(args))
        else:
            current_app.tasks[task].apply_async(args=tuple(args), countdown=countdown)
        return True
    except Exception as error:
        if failed is None:
            log.warning(
                "task %s%s not sent (%s): the sweep will catch up", task, tuple(args), error
            )
        else:
            log.exception("task %s%s could not be sent", task, tuple(args))
            failed(error)
    return False


def release(pending: str) -> None:
    """The task for `pending` has started: later changes must send a new one. Never raises."""
    if not settings.REDIS_URL:
        return
    try:
        redis_client.client().delete(pending)
    except Exception as error:
        log.warning("could not clear the pending mark %s (%s)", pending, error)

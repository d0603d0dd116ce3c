"""One pending task per key: a burst of changes sends one Celery task, not one per change.

A short-lived Redis mark (`SET key NX EX`) says a task is queued; the task clears it when it
starts, so a change made while it runs queues the next one. Nothing here ever raises: with
Redis or the broker down the change is still stored, and the catch-up sweep finds it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from tournaments import live

log = logging.getLogger(__name__)


def send_once(key: str, send: Callable[[], object], *, seconds: int = 30) -> bool:
    """Call `send()` unless a task for `key` is already pending; True if it was sent."""
    try:
        if live.redis_client().set(key, "1", nx=True, ex=seconds):
            send()
            return True
    except Exception as error:
        log.warning("task for %s not sent (%s): the sweep will catch up", key, error)
    return False


def release(key: str) -> None:
    """The task for `key` has started: later changes must send a new one."""
    try:
        live.redis_client().delete(key)
    except Exception as error:
        log.warning("could not clear the pending mark %s (%s)", key, error)

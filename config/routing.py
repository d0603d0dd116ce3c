"""Celery's task router (`CELERY_TASK_ROUTES` in settings): the queue of each task.

A task named in `settings.TASK_QUEUE_SETTINGS` goes to the queue held by the setting named
there (STANDINGS_QUEUE, IMPORTS_QUEUE), read when the task is sent; any other task goes to the
default queue. Imports nothing of ours but the settings.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def route(
    name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any
) -> dict[str, str] | None:
    setting = getattr(settings, "TASK_QUEUE_SETTINGS", {}).get(name)
    queue = getattr(settings, setting, None) if setting else None
    return {"queue": queue} if queue else None


def queue_of(name: str) -> str:
    """The queue a task named `name` is sent to (tests, the scale benchmark)."""
    from config.celery import app

    return str(app.amqp.router.route({}, name)["queue"].name)

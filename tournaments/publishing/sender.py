"""Where the room's attempts run, never on a request's path.

With a Celery worker (REDIS_URL set, tasks not eager) each trigger sends `publish_event` to the
worker after commit, and the task retries itself with backoff. The evening server runs tasks
in-process (CELERY_TASK_ALWAYS_EAGER) and has no worker: there one daemon thread per process
sends what is due, then sleeps until the next try falls due or a new trigger wakes it. A
trigger only sets an event and returns; the thread is started by the first trigger (and by
the director's publishing page, so a laptop restarted with events owed sends them). If the
broker cannot be reached, the thread takes over.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from . import services

log = logging.getLogger(__name__)

IDLE = 300.0  # seconds the thread sleeps with nothing owed (a new trigger wakes it sooner)

_wake = threading.Event()
_stop = threading.Event()
_lock = threading.Lock()
_thread: threading.Thread | None = None


def _worker_runs_tasks() -> bool:
    return bool(getattr(settings, "REDIS_URL", None)) and not getattr(
        settings, "CELERY_TASK_ALWAYS_EAGER", False
    )


def trigger(*, tournament_id: int, reason: str) -> bool:
    """The event is owed to the site (a round closed, the event ended, "Publish now"): mark it,
    and after commit start sending. False when publishing is not set up."""
    if services.request_publish(tournament_id=tournament_id, reason=reason) is None:
        return False
    transaction.on_commit(lambda: dispatch(tournament_id))
    return True


def dispatch(tournament_id: int) -> None:
    """Hand the attempt to a worker, or wake this process's sending thread."""
    if _worker_runs_tasks():
        from .tasks import publish_event

        try:
            publish_event.delay(tournament_id)
            return
        except Exception:  # the broker is down: this process sends instead
            log.warning("publishing: the task broker is unreachable, sending in-process")
    wake()


def resume() -> None:
    """Send whatever is owed (the setup saved, the publishing page opened on a laptop restarted
    with events owed): a worker's sweep, or this process's thread."""
    if _worker_runs_tasks():
        from .tasks import publish_due

        try:
            publish_due.delay()
            return
        except Exception:
            log.warning("publishing: the task broker is unreachable, sending in-process")
    wake()


def wake() -> None:
    """Start the sending thread if it is not running, and have it look at what is due now."""
    global _thread
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_loop, name="tricktable-publish", daemon=True)
            _thread.start()
    _wake.set()


def stop(*, seconds: float = 30.0) -> None:
    """Stop the sending thread and wait up to `seconds` for its round to end (a test that
    started it; on the evening server it ends with the process)."""
    global _thread
    with _lock:
        thread, _thread = _thread, None
    if thread is None:
        return
    _stop.set()
    _wake.set()
    thread.join(seconds)
    _stop.clear()


def send_due() -> float:
    """Send every event that is due, one after the other; returns the seconds until the next
    try falls due (IDLE when nothing is owed)."""
    for tournament_id in services.due():
        try:
            services.send(tournament_id=tournament_id)
        except Exception:  # a database hiccup: the event stays due, the next round retries it
            log.exception("publishing tournament %s failed", tournament_id)
    upcoming = services.next_due()
    if upcoming is None:
        return IDLE
    return max(0.05, min(IDLE, (upcoming - timezone.now()).total_seconds()))


def _loop() -> None:
    while not _stop.is_set():
        _wake.clear()
        try:
            wait = send_due()
        except Exception:
            log.exception("publishing: the sending thread's round failed")
            wait = 5.0
        finally:
            connections.close_all()  # this thread's own: none held while it sleeps
        _wake.wait(timeout=wait)

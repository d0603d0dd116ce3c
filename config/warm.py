"""A server process's first requests, paid for before it accepts one (ASGI lifespan startup).

Why. A uvicorn worker imports the URL conf and the API's views, compiles a game's rule set,
loads a language's catalogue, and opens its database and Redis connections on the first
requests that need them. At the start of an evening (or after a restart) every table's phone
sends at once, and those first requests were the slowest of a run (`bench/api.py --only
submissions-http`, docs/benchmarks.md).

What. `warm_up()` does that work once, in order, before the process accepts a request:

1. the URL conf and the API's views (`get_resolver`);
2. every game's named presets compiled (the rule sets the tables will play);
3. each of `LANGUAGES`' catalogues, and the language and headers of an answer in it;
4. as many database connections taken at once as the process may use at once (the pool's
   size: `config/concurrency.py`), each running a query on each table a submission reads or
   writes (nothing found: PostgreSQL's session loads the tables' and indexes' descriptions),
   the cache read once and the live events' Redis client pinged, then the connections handed
   back: the pool keeps them open, so every table's first hand at the start of an evening
   finds one instead of waiting for the pool to open more.

A step that fails (the database down at start, say) is logged and skipped: the process still
starts, and the request that needs it does the work as before. Nothing is written anywhere.
`WARM_UP` (settings, environment) turns it off.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings

log = logging.getLogger(__name__)


def enabled() -> bool:
    return bool(getattr(settings, "WARM_UP", True))


def _views() -> None:
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports the URL conf and every view


def _rules() -> None:
    from games.registry import GAMES, get_game

    for name in GAMES:
        book = get_game(name).book
        for preset in book.presets:
            book.resolve(preset)


def _languages() -> None:
    """Each language's catalogue, and its name matched against the supported languages."""
    from django.utils import translation

    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Hand")
        translation.check_for_language(code)
        translation.get_supported_language_variant(code)


def _connections() -> None:
    """As many database connections at once as the process may use at once (the pool's size,
    config/concurrency.py), each with a query on each table a submission reads or writes; the
    cache read once and the live events' Redis client pinged; then the connections handed
    back, so the pool holds them open for the first requests."""
    from django.core.cache import cache
    from django.db import OperationalError, connection

    from config.concurrency import places
    from tournaments import redis_client
    from tournaments.models import Hand, HandSubmission, Match, Round, Seat, TableToken, Tournament

    count = places()
    lock = threading.Lock()
    held = [0]
    everyone = threading.Event()

    def hold() -> None:
        try:
            # the pool opens its connections one after another: a thread waits a little
            # longer than a request would for its turn while the pool grows
            deadline = time.monotonic() + 2
            while True:
                try:
                    connection.ensure_connection()
                    break
                except OperationalError:
                    if time.monotonic() > deadline:
                        raise
            for model in (TableToken, Match, Round, Tournament, Seat, Hand, HandSubmission):
                model.objects.filter(pk=0).exists()
            cache.get("tricktable:warm-up")
            if settings.REDIS_URL:
                redis_client.client().ping()
            with lock:
                held[0] += 1
                if held[0] == (count or 1):
                    everyone.set()
            everyone.wait(timeout=2)  # every connection held at the same moment
        finally:
            connection.close()  # back to the pool, as request_finished does

    if count is None:  # no pool (SQLite): this thread's connection
        hold()
        return
    with ThreadPoolExecutor(max_workers=count, thread_name_prefix="warm-up") as threads:
        failed = [f.exception(timeout=10) for f in [threads.submit(hold) for _ in range(count)]]
    if held[0] == 0:  # not one connection: the database is down (else the pool was full)
        raise next(e for e in failed if e is not None)


STEPS: list[tuple[str, Callable[[], None]]] = [
    ("views", _views),
    ("rules", _rules),
    ("languages", _languages),
    ("connections", _connections),
]


def warm_up() -> dict[str, float | str]:
    """Run every step; {step: seconds taken, or why it failed}."""
    done: dict[str, float | str] = {}
    if not enabled():
        return done
    for name, step in STEPS:
        start = time.perf_counter()
        try:
            step()
        except Exception as error:  # noqa: BLE001 - a failed step must not stop the server
            done[name] = f"{type(error).__name__}: {error}"
            log.warning(
                "warm-up step %s failed (the first request will do it): %s", name, done[name]
            )
        else:
            done[name] = time.perf_counter() - start
    return done

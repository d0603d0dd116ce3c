"""A server process's first requests, paid for before it accepts one (ASGI lifespan startup).

Why. A uvicorn worker imports the URL conf and the API's views, reads the submission path's
rules, compiles a game's rule set, loads a language's catalogue, and opens its database and
Redis connections on the first requests that need them. At the start of an evening (or after a
restart) every table's phone sends at once: with 64 tables the first hand of each waited
370–530 ms (median 373 ms), against 120–220 ms for the rest (`bench/api.py --only
submissions-http`, a trace of every request), and those first 64 were the slowest 7 % of the
run. `fastsubmit.rules()` alone took 209 ms (the views' imports), a connection 6–8 ms.

What. `warm_up()` does that work once, in order, before the process accepts a request:

1. the URL conf and the API's views (`get_resolver`), the submission path's rules
   (`fastsubmit.rules`), handler (`threaded._parts`) and statements (`match_rows.prepare`);
2. every game's named presets compiled (the rule sets the tables will play);
3. each of `LANGUAGES`' catalogues, and the language and headers of an answer in it;
4. with submission threads (PostgreSQL), each of them takes a connection from the pool at the
   same time and reads each table a submission reads or writes (nothing found: PostgreSQL's
   session loads the tables' and indexes' descriptions), so the pool holds one warm connection
   per thread, with a submission's reads prepared and planned (`match_rows.warm_connection`:
   the token, the match and the hands, six times each, finding nothing); reads the cache once
   (Redis: each thread's client connects, as the throttle's would) and pings the live events'
   Redis client (its pool then holds a connection a thread); and builds its serializers
   (`fastsubmit.warm_thread`).

A step that fails (the database down at start, say) is logged and skipped: the process still
starts, and the request that needs it does the work as before. Nothing is written anywhere.
With the database or Redis down, the start waits for them at most a few seconds (the pool's
2 s, then each thread's own timeouts).
`WARM_UP` (settings, environment) turns it off.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings

log = logging.getLogger(__name__)


def enabled() -> bool:
    return bool(getattr(settings, "WARM_UP", True))


def _views() -> None:
    from django.urls import get_resolver

    from tournaments.models import TableToken
    from tournaments.services import match_rows

    from . import fastsubmit, threaded

    get_resolver().url_patterns  # noqa: B018 - imports the URL conf and every view
    if threaded.threads() > 0:
        threaded._parts()
        fastsubmit.rules()
        match_rows.prepare(TableToken)


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
    """Each submission thread holds a pooled connection at the same moment and runs a query,
    and reads the cache."""
    from django.core.cache import cache
    from django.db import connection

    from tournaments import redis_client
    from tournaments.models import Hand, HandSubmission, Match, Round, Seat, TableToken, Tournament
    from tournaments.services import match_rows

    from . import fastsubmit, threaded

    count = threaded.threads()
    if count <= 0:
        return
    pool = getattr(connection, "pool", None)
    if pool is not None:  # a database that does not answer fails the step in 2 s, not 10
        pool.open()  # as Django opens it on a first connection (idempotent)
        try:
            pool.wait(timeout=2)
        except Exception:
            # psycopg_pool closes a pool whose wait() timed out, for good: drop it, so that
            # the first request makes a new one (the database may be up by then).
            connection.close_pool()
            raise
    _handler, _asgi, executor = threaded._parts()
    together = threading.Barrier(count, timeout=5)

    def hold() -> None:
        try:
            for model in (TableToken, Match, Round, Tournament, Seat, Hand, HandSubmission):
                model.objects.filter(pk=0).exists()
            match_rows.warm_connection(TableToken)
            cache.get("tricktable:warm-up")
            if settings.REDIS_URL:  # the live events' client: one pooled connection a thread
                redis_client.client().ping()
            fastsubmit.warm_thread()
            together.wait()
        finally:
            connection.close()  # back to the pool, as request_finished does

    for done in [executor.submit(hold) for _ in range(count)]:
        done.result(timeout=10)


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

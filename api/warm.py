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
4. a database connection taken and a query run on each table a submission reads or writes
   (nothing found: PostgreSQL's session loads the tables' and indexes' descriptions), the
   cache read once and the live events' Redis client pinged, then the connection handed back
   (to the pool, on PostgreSQL).

A step that fails (the database down at start, say) is logged and skipped: the process still
starts, and the request that needs it does the work as before. Nothing is written anywhere.
`WARM_UP` (settings, environment) turns it off.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

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
    """Each language's catalogue, and the answer's language and headers worked out for a
    request in it, as the fast paths do for every request (`fastpath.django_headers`)."""
    from django.utils import translation

    from . import fastpath

    hosts = [h.lstrip(".") for h in settings.ALLOWED_HOSTS if h.lstrip(".") not in ("", "*")]
    host = (hosts[0] if hosts else "localhost").encode()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Hand")
        translation.check_for_language(code)
        translation.get_supported_language_variant(code)
        fastpath.django_headers(
            {
                "type": "http",
                "scheme": "http",
                "headers": [(b"host", host), (b"accept-language", code.encode())],
            }
        )


def _connections() -> None:
    """A database connection with a query on each table a submission reads or writes, the cache
    read once and the live events' Redis client pinged; the connection then handed back."""
    from django.core.cache import cache
    from django.db import connection

    from tournaments import redis_client
    from tournaments.models import Hand, HandSubmission, Match, Round, Seat, TableToken, Tournament

    try:
        for model in (TableToken, Match, Round, Tournament, Seat, Hand, HandSubmission):
            model.objects.filter(pk=0).exists()
        cache.get("tricktable:warm-up")
        if settings.REDIS_URL:
            redis_client.client().ping()
    finally:
        connection.close()  # back to the pool, as request_finished does


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

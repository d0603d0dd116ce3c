"""Per-client counters in the cache for what the pages and the API both offer, so one client
has one count whichever door it uses: the public PDF and XLSX downloads (`export`) and public
registration (`register`: the tournament page's form and `POST /api/v1/tournaments/<slug>/entries`,
whose DRF throttle, `api.throttles.RegistrationThrottle`, reads this same counter).

The rate of each scope is REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope] ("30/hour"), read
when a request comes. A fixed window in the cache (one `add` and one `incr`), keyed by the scope,
the client (`tournaments.web.clients.client_address`) and the window; with the cache down there is
no limit (serving beats refusing everyone).

The static-site export (`manage.py export_site`, tournaments/staticsite/site.py) asks for every
PDF and XLSX of an event, a season or the whole club in one go, through Django's test `Client` in
the command's own process (the director's zip runs that command as a child process: no server
process ever crawls). Its crawl runs inside `not_counted()`, which sets a context variable for
the code it wraps and nothing else: no header, no setting, nothing a request can carry, so no
HTTP request can claim it; it is not a process-wide switch either (a context variable belongs to
the thread or task that set it, and is reset when the block ends). `counted` counts nothing
there.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
#: Set by `not_counted()` for the code it wraps (the static-site export's crawl) only.
_NOT_COUNTED: ContextVar[bool] = ContextVar("tricktable_throttles_not_counted", default=False)


@contextlib.contextmanager
def not_counted() -> Iterator[None]:
    """Requests the wrapped code makes in-process (the static-site export's test `Client`, in
    the export command's own process) are not counted by any scope."""
    token = _NOT_COUNTED.set(True)
    try:
        yield
    finally:
        _NOT_COUNTED.reset(token)


def rate(scope: str) -> tuple[int, int] | None:
    """(requests allowed, window in seconds) for `scope`, None when it has no rate."""
    configured = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get(scope)
    if not configured:
        return None
    count, _slash, period = configured.partition("/")
    return int(count), PERIODS[period[:1]]


def counted(scope: str, client: str) -> int | None:
    """Count one request of `client` in `scope`: None to go ahead, else the seconds to wait
    (always None inside `not_counted()`)."""
    limits = rate(scope)
    if limits is None or _NOT_COUNTED.get():
        return None
    allowed, seconds = limits
    now = time.time()
    key = f"throttle:{scope}:{client}:{int(now // seconds)}"
    try:
        cache.add(key, 0, seconds + 1)
        used = cache.incr(key)
    except Exception:  # the cache is away: serve rather than refuse everyone
        log.warning("%s throttle: the cache is unavailable", scope, exc_info=True)
        return None
    if used <= allowed:
        return None
    return max(1, int(seconds - now % seconds))

"""Per-client counters in the cache for what the pages and the API both offer, so one client
has one count whichever door it uses: the public PDF and XLSX downloads (`export`) and public
registration (`register`: the tournament page's form and `POST /api/v1/tournaments/<slug>/entries`,
whose DRF throttle, `api.throttles.RegistrationThrottle`, reads this same counter).

The rate of each scope is REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope] ("30/hour"), read
when a request comes. A fixed window in the cache (one `add` and one `incr`), keyed by the scope,
the client (`tournaments.web.clients.client_address`) and the window; with the cache down there is
no limit (serving beats refusing everyone).

The static-site export (tournaments/staticsite) asks for the public downloads in-process, every
PDF and XLSX of an event or a whole club in one go: its requests carry `INTERNAL_HEADER` with this
process's own random key (`internal_headers()`), never sent anywhere, and are not counted.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

log = logging.getLogger(__name__)

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
INTERNAL_HEADER = "X-TrickTable-Internal"
_INTERNAL_KEY = secrets.token_urlsafe(32)


def internal_headers() -> dict[str, str]:
    """The headers of a request this process makes to itself (not counted by any throttle)."""
    return {INTERNAL_HEADER: _INTERNAL_KEY}


def is_internal(request: HttpRequest) -> bool:
    """Whether the request comes from this process itself (`internal_headers`)."""
    sent = request.headers.get(INTERNAL_HEADER, "")
    return bool(sent) and hmac.compare_digest(sent, _INTERNAL_KEY)


def rate(scope: str) -> tuple[int, int] | None:
    """(requests allowed, window in seconds) for `scope`, None when it has no rate."""
    configured = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get(scope)
    if not configured:
        return None
    count, _slash, period = configured.partition("/")
    return int(count), PERIODS[period[:1]]


def counted(scope: str, client: str) -> int | None:
    """Count one request of `client` in `scope`: None to go ahead, else the seconds to wait."""
    limits = rate(scope)
    if limits is None:
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

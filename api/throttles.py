"""Scoped throttles: hand submission (`hand-submit`), token creation and login (`tokens`) and
the stateless check (`check`). Rates come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], read
when a request comes (so a test may change them); a table scorer is counted by its token, a
signed-in user by their id, anyone else by `client_address`.

`client_address` (tournaments/web/clients.py) is the one home of "who is this client" for every
throttle and for the sign-in lockout.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

from tournaments import redis_client
from tournaments.models import TableToken
from tournaments.web import throttles
from tournaments.web.clients import client_address

if TYPE_CHECKING:  # DRF's views read the throttle classes from the settings when imported
    from rest_framework.request import Request
    from rest_framework.views import APIView

#: DRF's sliding window in one Redis round trip. DRF keeps the times of the requests in the
#: window as a pickled list (a GET, then a SET when the request is let through); this keeps
#: them as the scores of a sorted set and does the same steps in one script, atomically: drop
#: the times at or before now - duration, refuse when `limit` remain (answering how many and
#: the oldest, for DRF's `wait()`), else add now and let the key expire after the window.
SLIDING_WINDOW = """
local key = KEYS[1]
local now = tonumber(ARGV[1])
local duration = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - duration)
local count = redis.call('ZCARD', key)
if count >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, count, oldest[2] or ARGV[1]}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, math.ceil(duration * 1000))
return {1, count + 1, ARGV[1]}
"""

__all__ = ["RegistrationThrottle", "ScopedThrottle", "client_address"]


class ScopedThrottle(ScopedRateThrottle):
    def get_ident(self, request: Request) -> str:
        return client_address(request)

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope) if self.scope else None
        return cast(str | None, rate)  # "3/minute": the stubs type the rates as numbers

    def allow_request(self, request: Request, view: APIView) -> bool:
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if settings.REDIS_URL:
            return self._allow_on_redis(request, view)
        return super(ScopedRateThrottle, self).allow_request(request, view)

    def _allow_on_redis(self, request: Request, view: APIView) -> bool:
        """DRF's `SimpleRateThrottle.allow_request` (same window, same refusal and `wait()`)
        in one Redis command instead of a GET and a SET, on the Redis of REDIS_URL (redis-py's
        registered script: it runs by its SHA, loaded again if Redis forgot it)."""
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        try:
            allowed, count, oldest = redis_client.script(SLIDING_WINDOW)(
                keys=[cache.make_key(f"{self.key}:window")],  # not DRF's list,
                args=[
                    repr(self.now),
                    self.duration,
                    self.num_requests,
                    f"{self.now!r}:{os.urandom(6).hex()}",
                ],
            )
        except redis_client.DOWN as error:  # as with DRF on the tolerant cache: pauses
            redis_client.unavailable("throttle", error)
            return True
        # DRF's wait() reads the window's length and its oldest time (history[-1]).
        self.history = [float(oldest)] * int(count)
        return bool(allowed)

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if isinstance(request.auth, TableToken):
            ident = f"table-token-{request.auth.pk}"
        elif request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class RegistrationThrottle(BaseThrottle):
    """Public registration (`POST /api/v1/tournaments/<slug>/entries` by anyone not signed in),
    counted per client address on the same counter as the tournament page's form
    (`tournaments.web.throttles.counted`, scope `register`): one client has one count whichever
    it uses. Reading the list, and a signed-in director's registrations, are not counted."""

    scope = "register"

    def allow_request(self, request: Request, view: APIView) -> bool:
        self.waiting: int | None = None
        if request.method != "POST" or request.auth is not None or request.user.is_authenticated:
            return True
        self.waiting = throttles.counted(self.scope, client_address(request))
        return self.waiting is None

    def wait(self) -> float | None:
        return self.waiting


class DownloadThrottle(BaseThrottle):
    """The rendered downloads (PDF, XLSX) through the API, counted per client address on the
    same counter as the pages' links (`tournaments.web.throttles.counted`, scope `export`): one
    client has one count whichever door it uses."""

    scope = "export"

    def allow_request(self, request: Request, view: APIView) -> bool:
        self.waiting: int | None = throttles.counted(self.scope, client_address(request))
        return self.waiting is None

    def wait(self) -> float | None:
        return self.waiting

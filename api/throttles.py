"""Scoped throttles: hand submission (`hand-submit`), token creation and login (`tokens`) and
the stateless check (`check`). Rates come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], read
when a request comes (so a test may change them); a table scorer is counted by its token, a
signed-in user by their id, anyone else by `client_address`.

`client_address` is the one home of "who is this client" for the throttles and for the
sign-in lockout (django-axes, `AXES_CLIENT_IP_CALLABLE`): the connection's address, unless
`NUM_PROXIES` trusted proxies are configured (settings.NUM_PROXIES, REST_FRAMEWORK["NUM_PROXIES"]).
"""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from tournaments.models import TableToken


def client_address(request: HttpRequest) -> str:
    """The client's address as DRF's throttles see it: REMOTE_ADDR, or with NUM_PROXIES = n > 0
    the n-th address from the right of X-Forwarded-For (the one the first trusted proxy saw).
    A header the client wrote is never believed when no proxy is configured (NUM_PROXIES 0 or
    unset: DRF's own default, None, would take X-Forwarded-For whole)."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = api_settings.NUM_PROXIES or 0
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    addresses = forwarded.split(",")
    return addresses[-min(proxies, len(addresses))].strip() or remote


class ScopedThrottle(ScopedRateThrottle):
    def get_ident(self, request) -> str:
        return client_address(request)

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view):
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super(ScopedRateThrottle, self).allow_request(request, view)

    def get_cache_key(self, request, view):
        if isinstance(request.auth, TableToken):
            ident = f"table-token-{request.auth.pk}"
        elif request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

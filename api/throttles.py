"""Scoped throttles: hand submission (`hand-submit`), token creation and login (`tokens`) and
the stateless check (`check`). Rates come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], read
when a request comes (so a test may change them); a table scorer is counted by its token, a
signed-in user by their id, anyone else by `client_address`.

`client_address` (tournaments/clients.py) is the one home of "who is this client" for every
throttle and for the sign-in lockout.
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from tournaments.clients import client_address
from tournaments.models import TableToken

__all__ = ["ScopedThrottle", "client_address"]


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

"""Who a client is: its address, the one home of it for every throttle (the API's, the public
downloads') and for the sign-in lockout (django-axes, `AXES_CLIENT_IP_CALLABLE`).

The connection's address, unless `NUM_PROXIES` trusted proxies stand in front of the server
(REST_FRAMEWORK["NUM_PROXIES"], which settings.NUM_PROXIES fills): a header the client wrote is
never believed when no proxy is configured.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def trusted_proxies() -> int:
    configured = (getattr(settings, "REST_FRAMEWORK", None) or {}).get("NUM_PROXIES")
    if configured is None:
        configured = getattr(settings, "NUM_PROXIES", 0)
    return int(configured or 0)


def client_address(request: HttpRequest) -> str:
    """REMOTE_ADDR, or with n > 0 trusted proxies the n-th address from the right of
    X-Forwarded-For (the one the first trusted proxy saw). DRF's own default (None) would take
    X-Forwarded-For whole; here no proxy means the header is ignored."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = trusted_proxies()
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    addresses = forwarded.split(",")
    return addresses[-min(proxies, len(addresses))].strip() or remote

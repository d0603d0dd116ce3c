"""Who a client is: its address, the one home of it for every throttle (the API's, the public
downloads', public registration), the sign-in lockout (django-axes,
`AXES_CLIENT_IP_CALLABLE`) and the cap on a client's event streams.

The connection's address, unless that connection comes from a proxy the operator named in
`TRUSTED_PROXIES` (addresses or networks, settings.TRUSTED_PROXIES; default: none). Only then
is `X-Forwarded-For` read, from the right: each trusted proxy appends the address it saw, and
the right-most address that is not itself a trusted proxy is the client. What a client wrote
to the left of that is never believed, and a header from any other connection — loopback
included — is ignored whole.

The production recipe hands uvicorn the same list (`--forwarded-allow-ips "$TRUSTED_PROXIES"`,
README): uvicorn's own default would trust any proxy header from 127.0.0.1. Applied twice it
agrees with itself: the address uvicorn took from the header is no trusted proxy, so it is kept.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(configured: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in configured if item)


def trusted_proxies() -> tuple[Network, ...]:
    """The networks of TRUSTED_PROXIES (settings.py checks each at start)."""
    configured: Iterable[str] = getattr(settings, "TRUSTED_PROXIES", ()) or ()
    return _networks(tuple(str(item).strip() for item in configured))


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in proxies)


def forwarded_client(peer: str, forwarded: str | None) -> str:
    """The client behind a connection from `peer` that sent `X-Forwarded-For: forwarded`:
    `peer` itself unless it is a trusted proxy; then the right-most address of the header that
    is not a trusted proxy (the left-most when every one is)."""
    proxies = trusted_proxies()
    if not forwarded or not proxies or not _trusted(peer, proxies):
        return peer
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            return hop
    return hops[0] if hops else peer


def client_address(request: HttpRequest) -> str:
    """The address every throttle and the sign-in lockout count (see the module's note)."""
    return forwarded_client(
        request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR")
    )

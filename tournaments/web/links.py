"""Addresses that phones open: table cards, score sheets and any "open this on your phone" QR
code carry these. One rule: the site's PUBLIC_URL when it is set (the evening server sets it to
the laptop's LAN address), else the address the browser used."""

from __future__ import annotations

from ipaddress import ip_address
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest


def phone_url(request: HttpRequest, path: str) -> str:
    """The absolute address of `path` (starting with /) for a phone at a table."""
    base = settings.PUBLIC_URL
    if base:
        return base + path
    return request.build_absolute_uri(path)


def unreachable_from_phones(request: HttpRequest) -> bool:
    """True when the links printed now would point at this machine's loopback (PUBLIC_URL set to
    a loopback address, or no PUBLIC_URL and the browser came through localhost): no phone
    could open them."""
    if settings.PUBLIC_URL:
        return _loopback(urlsplit(settings.PUBLIC_URL).hostname or "")
    return _loopback(request.get_host().rsplit(":", 1)[0].strip("[]"))


def _loopback(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified

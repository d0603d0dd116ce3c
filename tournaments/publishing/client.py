"""The room's side of the wire: one PUT of an event to the club's site (urllib, stdlib: no
HTTP library is among the requirements), and what its answer means for the next try."""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.conf import settings

USER_AGENT = "TrickTable-room/1"


@dataclass(frozen=True, slots=True)
class Reply:
    """What the site answered. `retry` says whether trying again later may go through (the site
    could not be reached, was busy or failed); a refusal (a wrong key, a taken slug) waits for
    the director. `code` is the site's stable code, or ours when the site said nothing."""

    ok: bool
    retry: bool
    status: int = 0  # 0: no answer at all
    code: str = ""
    detail: str = ""
    outcome: str = ""  # created, updated, unchanged
    url: str = ""  # the event's page on the site
    retry_after: float | None = None


def endpoint(site: str, slug: str) -> str:
    return f"{site.rstrip('/')}/api/v1/publish/{quote(slug, safe='')}"


def _timeout() -> float:
    return float(getattr(settings, "PUBLISH_TIMEOUT", 10))


def _tls() -> ssl.SSLContext | None:
    """Certificates checked as the standard library checks them, against PUBLISH_CA_FILE's
    authorities where it is set (a club's own CA) instead of the system's; never unchecked."""
    ca_file = getattr(settings, "PUBLISH_CA_FILE", "")
    return ssl.create_default_context(cafile=ca_file) if ca_file else None


def _json(raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None


def put_event(*, site: str, key: str, slug: str, body: bytes) -> Reply:
    """Send one event; never raises for the network or the site's answer (a `Reply` says)."""
    request = urllib.request.Request(
        endpoint(site, slug),
        data=body,
        method="PUT",
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=_timeout(), context=_tls()) as response:
            data = _json(response.read())
            return Reply(
                ok=True,
                retry=False,
                status=response.status,
                outcome=str(data.get("outcome", "")),
                url=str(data.get("url", "")),
            )
    except urllib.error.HTTPError as error:
        with error:
            data = _json(error.read())
        status = error.code
        code = str(data.get("code") or "")
        detail = str(data.get("message") or error.reason or "")[:300]
        if status == 429 or status >= 500:
            return Reply(
                ok=False,
                retry=True,
                status=status,
                code=code or ("site-busy" if status == 429 else "site-error"),
                detail=detail,
                retry_after=_seconds(error.headers.get("Retry-After")),
            )
        if 300 <= status < 400:
            return Reply(ok=False, retry=False, status=status, code="site-redirects", detail=detail)
        if status == 404:  # an address that is not a TrickTable site (or an older one)
            return Reply(ok=False, retry=False, status=status, code="site-not-tricktable")
        return Reply(
            ok=False, retry=False, status=status, code=code or "site-refused", detail=detail
        )
    except (urllib.error.URLError, OSError, ValueError) as error:  # no route, refused, timeout
        reason = getattr(error, "reason", error)
        return Reply(ok=False, retry=True, code="site-unreachable", detail=str(reason)[:300])

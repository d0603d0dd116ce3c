"""The hot paths of a big event, answered before Django: `GET /api/v1/tournaments/{slug}/standings`
when its cached state is current, and the server-sent-events stream
`GET /api/v1/tournaments/{slug}/events` of a tournament this process has seen.

Under ASGI every Django middleware hook is a hop to a thread (about 12 ms a request here), so
a poll that needs no SQL still paid for the whole stack. This handler reads the same cache the
view fills (`api/live.py`: state and generation in one MGET, the body from the process's LRU or
the cache) and answers a 304 or the cached 200 itself. Anything else — a cache miss, a stale
generation, other methods or paths — goes to Django unchanged, which builds and caches the
state as before. The answer is the view's: same body, ETag, Last-Modified and Cache-Control.

An events stream is the view's own generator (`api.live.stream`), sent straight to the
server: a thousand listeners arriving at once no longer queue for Django's middleware thread.
The slug's tournament comes from the current standings state (else the database); an unknown
slug goes to Django, which answers the 404 in the API's shape. The stream ends when the client
goes away.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import pickle
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.core.cache import cache
from django.core.signals import setting_changed
from django.db import InterfaceError, OperationalError
from django.http.cookie import parse_cookie
from django.http.request import split_domain_port, validate_host
from django.utils import translation
from django.utils.http import http_date

from tournaments import redis_client
from tournaments.live import event_log
from tournaments.live import standings_cache as keys
from tournaments.web.clients import forwarded_client

from . import live as views

PATH = re.compile(r"^/api/v1/tournaments/([-a-zA-Z0-9_]+)/standings$")
EVENTS = re.compile(r"^/api/v1/tournaments/([-a-zA-Z0-9_]+)/events$")


def _load(data: bytes | None) -> Any:
    """A value as Django's Redis cache stores it: integers plain, anything else pickled."""
    if data is None:
        return None
    try:
        return int(data)
    except ValueError:
        return pickle.loads(data)


async def _get_many(keys: list[str]) -> list[Any]:
    if not settings.REDIS_URL:  # the in-process cache: no I/O to wait for
        found = cache.get_many(keys)
        return [found.get(key) for key in keys]
    raw = await redis_client.async_client().mget([cache.make_key(key) for key in keys])
    return [_load(value) for value in raw]


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


# --- what Django's middleware would do ------------------------------------------------------

#: The middleware whose part in an answer this module reproduces (config/settings.py's list).
#: Any other in MIDDLEWARE: the fast path stands aside and Django answers everything.
KNOWN_MIDDLEWARE = frozenset(
    {
        "config.streaming.AsyncStreamingMiddleware",  # streamed answers only: none here
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",  # static files only
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.locale.LocaleMiddleware",
        "django.middleware.common.CommonMiddleware",
        "api.middleware.ApiErrorsMiddleware",  # exceptions only
        "django.middleware.csrf.CsrfViewMiddleware",  # unsafe methods only
        "django.contrib.auth.middleware.AuthenticationMiddleware",  # lazy: nothing for a GET here
        "django.contrib.messages.middleware.MessageMiddleware",  # nothing unless messages are used
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
        "axes.middleware.AxesMiddleware",  # a locked-out sign-in only: no sign-in here
    }
)


class _Rules:
    """The settings the middleware reads, read once (again after a setting changes)."""

    def __init__(self) -> None:
        middleware = set(settings.MIDDLEWARE)
        i18n_patterns, _ = is_language_prefix_patterns_used(settings.ROOT_URLCONF)
        # Anything the fast path cannot reproduce: Django answers every request.
        # (CommonMiddleware refuses DISALLOWED_USER_AGENTS: a check this module does not make.)
        self.enabled = (
            middleware <= KNOWN_MIDDLEWARE
            and not i18n_patterns
            and not settings.DISALLOWED_USER_AGENTS
        )
        self.allowed_hosts = list(settings.ALLOWED_HOSTS)
        if settings.DEBUG and not self.allowed_hosts:
            self.allowed_hosts = [".localhost", "127.0.0.1", "[::1]"]
        self.forwarded_host = settings.USE_X_FORWARDED_HOST
        proxy = settings.SECURE_PROXY_SSL_HEADER
        self.proxy_header = (
            (proxy[0].removeprefix("HTTP_").lower().replace("_", "-").encode(), proxy[1])
            if proxy
            else None
        )
        security = "django.middleware.security.SecurityMiddleware" in middleware
        self.redirect = security and settings.SECURE_SSL_REDIRECT
        sts = ""
        if security and settings.SECURE_HSTS_SECONDS:
            sts = f"max-age={settings.SECURE_HSTS_SECONDS}"
            if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
                sts += "; includeSubDomains"
            if settings.SECURE_HSTS_PRELOAD:
                sts += "; preload"
        self.hsts = sts.encode()
        fixed: list[tuple[bytes, bytes]] = []
        if security and settings.SECURE_CONTENT_TYPE_NOSNIFF:
            fixed.append((b"x-content-type-options", b"nosniff"))
        policy = settings.SECURE_REFERRER_POLICY
        if security and policy:
            policy = ",".join(
                [v.strip() for v in policy.split(",")] if isinstance(policy, str) else policy
            )
            fixed.append((b"referrer-policy", policy.encode()))
        if security and settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
            fixed.append(
                (b"cross-origin-opener-policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY.encode())
            )
        if "django.middleware.clickjacking.XFrameOptionsMiddleware" in middleware:
            fixed.append(
                (b"x-frame-options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper().encode())
            )
        self.fixed = fixed
        self.locale = "django.middleware.locale.LocaleMiddleware" in middleware
        self.session_cookie = (
            settings.SESSION_COOKIE_NAME
            if "django.contrib.sessions.middleware.SessionMiddleware" in middleware
            else None
        )
        self.language_cookie = settings.LANGUAGE_COOKIE_NAME
        self.read = {b"host", b"x-forwarded-host", b"cookie", b"accept-language"}
        if self.proxy_header is not None:
            self.read.add(self.proxy_header[0])


_rules: _Rules | None = None
_languages: dict[tuple[str | None, str], str] = {}
_hosts: dict[str, bool] = {}


def _reset(**kwargs: Any) -> None:
    global _rules
    _rules = None
    _languages.clear()
    _hosts.clear()


setting_changed.connect(_reset)


def rules() -> _Rules:
    global _rules
    if _rules is None:
        _rules = _Rules()
    return _rules


def _headers_of(rule: _Rules, scope: dict) -> dict[bytes, str]:
    """The request headers the middleware reads, as Django's ASGIRequest reads them: repeats
    joined (cookies with "; "); names with an underscore never match (Django ignores them)."""
    found: dict[bytes, str] = {}
    for key, value in scope.get("headers", ()):
        if key not in rule.read:
            continue
        text = value.decode("latin-1")
        if key == b"cookie":
            text = text.rstrip("; ")
            found[key] = f"{found[key]}; {text}" if key in found else text
        else:
            found[key] = f"{found[key]},{text}" if key in found else text
    return found


def _language(rule: _Rules, headers: dict[bytes, str], cookies: dict[str, str]) -> str:
    """The language LocaleMiddleware activates for this request (no i18n_patterns here)."""
    key = (cookies.get(rule.language_cookie), headers.get(b"accept-language", ""))
    language = _languages.get(key)
    if language is None:
        probe = _Probe(
            {rule.language_cookie: key[0]} if key[0] is not None else {},
            {"HTTP_ACCEPT_LANGUAGE": key[1]},
        )
        with translation.override(translation.get_language_from_request(probe)):
            language = translation.get_language()
        if len(_languages) < 1024:
            _languages[key] = language
    return language


class _Probe:
    """What `get_language_from_request` reads of a request."""

    def __init__(self, cookies: dict[str, str], meta: dict[str, str]) -> None:
        self.COOKIES = cookies
        self.META = meta


def _host_allowed(rule: _Rules, host: str) -> bool:
    """Host header against ALLOWED_HOSTS as `HttpRequest.get_host` checks it (remembered: the
    check costs more than the rest of a 304)."""
    allowed = _hosts.get(host)
    if allowed is None:
        domain, _ = split_domain_port(host)
        allowed = bool(domain) and validate_host(domain, rule.allowed_hosts)
        if len(_hosts) < 256:  # a flood of made-up hosts is checked, never remembered
            _hosts[host] = allowed
    return allowed


def django_headers(scope: dict) -> list[tuple[bytes, bytes]] | None:
    """The headers Django's middleware would add to a fast answer to this request, or None:
    Django must answer it (it would refuse, redirect or change something)."""
    rule = rules()
    if not rule.enabled:
        return None
    headers = _headers_of(rule, scope)
    host = headers.get(b"x-forwarded-host") if rule.forwarded_host else None
    host = host or headers.get(b"host")
    if not host:
        return None  # Django would build the host from the server's name: let it
    if not _host_allowed(rule, host):
        return None  # Django: 400 (DisallowedHost)
    secure = scope.get("scheme") == "https"
    if rule.proxy_header is not None:
        value = headers.get(rule.proxy_header[0])
        if value is not None:
            secure = value.split(",", 1)[0].strip() == rule.proxy_header[1]
    if rule.redirect and not secure:
        return None  # Django: 301 to https:// (or the exempt path's answer)
    cookies = parse_cookie(headers[b"cookie"]) if b"cookie" in headers else {}
    if rule.session_cookie is not None and rule.session_cookie in cookies:
        value = cookies[rule.session_cookie]
        if not value or len(value) < 8:
            return None  # SessionMiddleware deletes an invalid session cookie
    added = []
    if secure and rule.hsts:
        added.append((b"strict-transport-security", rule.hsts))
    added += rule.fixed
    if rule.locale:
        added.append((b"vary", b"Accept-Language"))
        added.append((b"content-language", _language(rule, headers, cookies).encode()))
    return added


def _fresh(scope: dict, state: dict[str, Any]) -> bool:
    return views.fresh(
        state, _header(scope, b"if-none-match"), _header(scope, b"if-modified-since")
    )


async def _tournament_id(slug: str) -> int | None:
    """The slug's tournament: from the standings state when it is current (one MGET), else
    from the database (a thread hop). A renamed or deleted tournament bumps the generation, so
    a slug never leads to the wrong tournament."""
    try:
        state, gen = await _get_many([keys.state_key(slug), keys.gen_key(slug)])
    except Exception:  # the cache is down: ask the database
        state = gen = None
    if isinstance(state, dict) and state.get("gen") == (gen or 0):
        return state["tid"]
    return await sync_to_async(views._tournament_id)(slug, cached=False)


async def _events(
    scope: dict, receive: Any, send: Any, slug: str, added: list[tuple[bytes, bytes]]
) -> bool:
    try:
        tid = await _tournament_id(slug)
    except (OperationalError, InterfaceError):  # the database out of reach: Django's 503
        return False
    if tid is None:
        return False
    client = forwarded_client(
        (scope.get("client") or ("", 0))[0], _header(scope, b"x-forwarded-for")
    )
    if not views.slots.claim(client):
        await _too_many_streams(send, added)
        return True
    try:
        return await _stream(scope, receive, send, tid, added)
    finally:
        views.slots.release(client)


async def _too_many_streams(send: Any, added: list[tuple[bytes, bytes]]) -> None:
    """429 in the API's error shape, with Retry-After: the client holds its share of streams."""
    content = json.dumps(views.too_many_streams()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
                (b"retry-after", str(views.STREAM_RETRY_AFTER).encode()),
                *added,
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})


async def _stream(
    scope: dict, receive: Any, send: Any, tid: int, added: list[tuple[bytes, bytes]]
) -> bool:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    after = event_log.valid_id(
        _header(scope, b"last-event-id") or (query.get("lastEventId") or [None])[0]
    )
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"text/event-stream"),
                (b"cache-control", b"no-cache"),
                (b"x-accel-buffering", b"no"),
                *added,
            ],
        }
    )

    async def relay() -> None:
        messages = views.stream(tid, after)
        try:
            async for chunk in messages:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        finally:
            await messages.aclose()

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.ensure_future(relay()), asyncio.ensure_future(gone())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        with contextlib.suppress(Exception):  # the client may be gone already
            await send({"type": "http.response.body", "body": b"", "more_body": False})
    return True


async def serve(scope: dict, send: Any, receive: Any = None) -> bool:
    """Answer the request if it is a current, cached standings GET or HEAD, or an events stream
    (when `receive` is given), as Django would; False: let Django answer."""
    if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
        return False
    path = scope["path"]
    if receive is not None and scope["method"] == "GET" and (found := EVENTS.match(path)):
        added = django_headers(scope)
        if added is None:
            return False
        return await _events(scope, receive, send, found.group(1), added)
    if scope.get("query_string"):
        return False
    matched = PATH.match(path)
    if matched is None:
        return False
    added = django_headers(scope)
    if added is None:
        return False
    slug = matched.group(1)
    try:
        state, gen = await _get_many([keys.state_key(slug), keys.gen_key(slug)])
    except Exception:  # the cache is down: Django answers (and falls back to the database)
        return False
    if not isinstance(state, dict) or state.get("gen") != (gen or 0):
        return False
    headers = [(b"etag", state["etag"].encode()), (b"cache-control", views.CACHE_CONTROL.encode())]
    if state["computed_at"] is not None:
        headers.append((b"last-modified", http_date(state["computed_at"]).encode()))
    if _fresh(scope, state):
        headers += [(b"content-length", b"0"), *added]
        await send({"type": "http.response.start", "status": 304, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
        return True
    body = views._bodies.get(state["token"])
    if body is None:
        try:
            [body] = await _get_many([keys.body_key(state["token"])])
        except Exception:
            return False
        if body is None:
            return False
        views._remember(state["token"], body)
    if state["computed_at"] is None:
        age = b"null"
    else:
        age = b"%.3f" % max(0.0, datetime.now(UTC).timestamp() - state["computed_at"])
    content = body + age + b"}"
    headers += [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(content)).encode()),
        *added,
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    # HEAD: the GET's headers, no body (as the server makes of Django's answer).
    await send(
        {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else content}
    )
    return True

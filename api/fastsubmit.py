"""A scorer's hand submission (`POST /api/v1/matches/<id>/hands` with `Authorization: Table
<secret>`), answered before Django when nothing about it is unusual; anything else is answered
by Django's own handler, on the same thread, exactly as before (`api/threaded.py`).

Why. On the submission threads a submission cost uvicorn's processes about 6.5 ms of CPU, and
the profile (py-spy on both workers during `bench/api.py --only submissions-http`) put a
quarter of it outside the view and its workflow: the ASGI request, eleven middleware,
URL resolution (7.8 % alone: the hands route is deep in the list), DRF's request wrapping,
negotiation and dispatch. This module does the view's work without that machinery and adds
the headers the middleware would add.

How it stays the same answer. It works in two stages.

1. *Checks with no side effect*: the middleware's part (`api.fastpath.django_headers`: the
   host against ALLOWED_HOSTS, the HTTPS redirect, the security headers, the language), then a
   plain request — no query string, no cookie of a session or of CSRF, one Content-Type
   `application/json` (charset utf-8 at most), an Accept DRF would answer with its one JSON
   renderer, a Content-Length equal to the body, no repeated header; the table token (DRF's
   `TableTokenAuthentication`: the same lookup and `_check`, so its "last used" is kept the
   same way), the body through the view's own parser (`HandJSONParser`) and serializer
   (`SubmitSerializer`), the idempotency key by the view's own `idempotency_key`. If any of
   these would refuse or is not plain, this module steps aside and Django answers the request
   from the start — its refusal, its error body, its codes and headers are then Django's own,
   and nothing was changed in the meantime (the one write, a token's "last used" once a
   minute, is the write Django would make).
2. *The view's work*, once every check passed, in the order DRF does it: the throttle (the
   view's own `ScopedThrottle`; a refusal changes nothing, so Django is asked to answer it and
   refuses alike), then `services.submit_hand` — the same call as the view, in its one
   transaction with its row lock and idempotency — and the answer: the view's serializer
   rendered by DRF's `JSONRenderer`, or a refusal through the API's `exception_handler` (the
   refusal words in the request's language), or a server error through `ApiErrorsMiddleware`.
   Headers: DRF's (`Content-Type`, `Allow`, a refusal's `Retry-After`), then the middleware's.

The body's serializer and the answer's are built once per thread (DRF deep-copies a
serializer's fields for every instance; these fields keep nothing of a call), and tested equal
to the view's: the same verdict and data, the same bytes.

CSRF does not apply: DRF checks it only for a request authenticated by Django's session, and a
request carrying a table token is authenticated by the token before the session is looked at
(`DEFAULT_AUTHENTICATION_CLASSES`); a request with a session or CSRF cookie is left to Django
anyway. `tests/api/test_fastsubmit.py` sends the same requests through Django and through this
path and compares status, headers, body and the rows stored, case by case.

`SUBMIT_FAST_PATH` (settings, environment; on by default) switches it off: every submission
then goes through Django's handler on the submission threads. It needs those threads
(`SUBMIT_THREADS` > 0), and it stands aside everywhere if the view's authentication,
permission, parser, renderer or throttle classes, or the middleware, are not the ones it
reproduces.
"""

from __future__ import annotations

import io
import threading
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core import signals
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.signals import setting_changed
from django.http import Http404
from django.urls import set_script_prefix
from django.utils import translation
from rest_framework.renderers import JSONRenderer

from tournaments import services
from tournaments.models import Match, TableToken
from tournaments.services import match_rows

from . import authentication, fastpath, parsers, permissions, throttles
from . import serializers as s
from .errors import exception_handler
from .middleware import ApiErrorsMiddleware
from .models import hash_secret

#: The headers this path reads; any other header is one Django would not act on for this view.
READ = frozenset(
    {
        b"authorization",
        b"content-type",
        b"content-length",
        b"accept",
        b"idempotency-key",
        b"cookie",
        b"x-forwarded-for",  # the client's address behind trusted proxies (a PIN's client)
    }
)
ACCEPTED = frozenset({"*/*", "application/json", "application/*"})


def enabled() -> bool:
    """Switched on (api/threaded.py asks it only when the submission threads are on)."""
    return bool(getattr(settings, "SUBMIT_FAST_PATH", False))


class _Rules:
    """What the view and the settings must be for this path to answer (read once)."""

    def __init__(self) -> None:
        from .views import MatchHands

        view = MatchHands
        self.view = view
        self.enabled = (
            fastpath.rules().enabled
            and list(view.authentication_classes)
            == [
                authentication.ApiTokenAuthentication,
                authentication.TableTokenAuthentication,
                authentication.SessionAuthentication,
            ]
            and list(view.permission_classes) == [permissions.ScorerOrSignedIn]
            and list(view.parser_classes) == [parsers.HandJSONParser]
            and list(view.renderer_classes) == [JSONRenderer]
            and list(view.throttle_classes) == [throttles.ScopedThrottle]
            and view.throttle_scope == "hand-submit"
            and not any(db.get("ATOMIC_REQUESTS") for db in settings.DATABASES.values())
            and settings.DEFAULT_CHARSET.lower() in ("utf-8", "utf8")
        )
        # DRF's `Allow` (APIView.default_response_headers): the view's methods, HEAD with GET.
        names = [
            m
            for m in view.http_method_names
            if hasattr(view, m) or (m == "head" and hasattr(view, "get"))
        ]
        self.allow = ", ".join(m.upper() for m in names).encode()
        self.cookies = {settings.SESSION_COOKIE_NAME.lower(), settings.CSRF_COOKIE_NAME.lower()}


_rules: _Rules | None = None


def _reset(**kwargs: Any) -> None:
    global _rules
    _rules = None


setting_changed.connect(_reset)


def rules() -> _Rules:
    global _rules
    if _rules is None:
        _rules = _Rules()
    return _rules


class _Request:
    """What the view's helpers read of a request (DRF's request, after authentication)."""

    method = "POST"

    def __init__(
        self, path: str, token: TableToken | None, meta: dict[str, str], headers: dict[str, str]
    ) -> None:
        self.path = path
        self.auth = token
        self.user = AnonymousUser()
        self.META = meta
        self.headers = headers


def _plain(rule: _Rules, scope: dict, body: bytes) -> dict[bytes, str] | None:
    """The headers this path reads, or None when the request is not a plain one."""
    if scope.get("query_string"):
        return None
    found: dict[bytes, str] = {}
    for name, value in scope.get("headers", ()):
        if name in READ:
            if name in found:
                return None  # repeated: Django would join them
            found[name] = value.decode("latin-1")
    cookie = found.get(b"cookie")
    if cookie is not None:
        names = {part.split("=", 1)[0].strip().lower() for part in cookie.split(";")}
        if names & rule.cookies:
            return None  # a browser's session: Django (sessions, CSRF) answers it
    media, _, params = found.get(b"content-type", "").partition(";")
    if media.strip().lower() != "application/json":
        return None
    params = params.strip().lower().replace(" ", "")
    if params not in ("", "charset=utf-8"):
        return None
    accept = found.get(b"accept")
    if accept is not None and accept.strip().lower() not in ACCEPTED:
        return None  # DRF's negotiation decides (406, or an indent asked for)
    if found.get(b"content-length") != str(len(body)) or not body:
        return None
    if len(body) > parsers.HAND_LIMIT:
        return None  # Django: 413
    return found


def _token(found: dict[bytes, str]) -> TableToken | None:
    """The table token as DRF's authentication finds it, or None (Django must answer)."""
    header = found.get(b"authorization", "").encode("latin-1").split()
    if len(header) != 2 or header[0].lower() != b"table":
        return None
    try:
        secret = header[1].decode("ascii")
    except UnicodeError:
        return None
    token = match_rows.token_by_hash(TableToken, hash_secret(secret))
    if token is None:
        return None
    try:
        authentication._check(token)  # revoked, expired: Django refuses; "last used" kept
    except Exception:
        return None
    return token


def _checked(
    rule: _Rules, scope: dict, body: bytes
) -> tuple[_Request, dict, str, list[tuple[bytes, bytes]]] | None:
    """Stage 1: (request, valid data, idempotency key, middleware headers), or None."""
    added = fastpath.django_headers(scope)
    if added is None:
        return None
    found = _plain(rule, scope, body)
    if found is None:
        return None
    token = _token(found)
    if token is None:
        return None
    meta = {"CONTENT_LENGTH": found[b"content-length"]}
    # the client's address as Django's ASGI request has it (tournaments.web.clients reads it)
    client = scope.get("client")
    if client:
        meta["REMOTE_ADDR"] = str(client[0])
    if b"x-forwarded-for" in found:
        meta["HTTP_X_FORWARDED_FOR"] = found[b"x-forwarded-for"]
    headers = {"Idempotency-Key": found[b"idempotency-key"]} if b"idempotency-key" in found else {}
    request = _Request(scope["path"], token, meta, headers)
    if not permissions.ScorerOrSignedIn().has_permission(request, None):
        return None
    try:
        data = parsers.HandJSONParser().parse(
            io.BytesIO(body), "application/json", {"request": request, "encoding": "utf-8"}
        )
    except Exception:
        return None
    valid = _validated(data)
    if valid is None:
        return None
    from .views import idempotency_key

    try:
        key = idempotency_key(request, valid)
    except Exception:
        return None
    return request, valid, key, added


Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


def _rendered(rule: _Rules, response: Any) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """A DRF Response as DRF finalises it: the JSON, its type, `Allow`, its own headers."""
    content = JSONRenderer().render(response.data, "application/json", {})
    headers = [(b"content-type", b"application/json"), (b"allow", rule.allow)]
    headers += [
        (name.lower().encode("latin-1"), value.encode("latin-1"))
        for name, value in response.items()
        if name.lower() != "content-type"
    ]
    return response.status_code, headers, content


_serializers = threading.local()


def _validated(data: Any) -> dict | None:
    """`SubmitSerializer(data=data)`'s `validated_data` when `is_valid()`, else None — from one
    serializer per thread whose fields are built once (`is_valid` is `run_validation` on
    freshly deep-copied fields; they keep nothing of a call)."""
    serializer = getattr(_serializers, "submit", None)
    if serializer is None:
        serializer = _serializers.submit = s.SubmitSerializer()
    try:
        return serializer.run_validation(data)
    except Exception:
        return None


def _representation(submission: Any) -> dict:
    """The view's `HandVersionSerializer(submission).data`, from one serializer per thread
    whose fields are built and bound once: DRF deep-copies and binds them for every instance,
    and they hold nothing of an instance (read-only fields; no context)."""
    serializer = getattr(_serializers, "answer", None)
    if serializer is None:
        serializer = _serializers.answer = s.HandVersionSerializer()
    return serializer.to_representation(submission)


def warm_thread() -> None:
    """Build this thread's two serializers and bind their fields now (api/warm.py), not on its
    first submission."""
    _validated(None)
    if getattr(_serializers, "answer", None) is None:
        _serializers.answer = s.HandVersionSerializer()
    for serializer in (_serializers.submit, _serializers.answer):
        serializer.fields  # noqa: B018 - DRF builds and binds them on first use


def _work(rule: _Rules, request: _Request, data: dict, key: str, pk: int) -> Answer | None:
    """Stage 2: the throttle, then the view's workflow and answer."""
    for throttle in rule.view.throttle_classes:
        if not throttle().allow_request(request, rule.view):
            return None  # refused, nothing recorded: Django refuses it alike (429)
    from rest_framework.response import Response

    from .views import actor_for

    try:
        try:
            submitted = services.submit_hand(
                match=Match(pk=pk),
                actor=actor_for(request, data.get("side", ""), data["pin"]),
                record=data["record"],
                number=data["number"],
                idempotency_key=key,
            )
        except Match.DoesNotExist as error:
            raise Http404 from error
        code = 201 if submitted.created else 200
        return _rendered(rule, Response(_representation(submitted.submission), status=code))
    except Exception as exc:
        handled = exception_handler(exc, {"view": None, "request": request})
        if handled is not None:
            return _rendered(rule, handled)
        middleware = ApiErrorsMiddleware(lambda r: None)
        failed = middleware.process_exception(request, exc)  # type: ignore[arg-type]
        assert failed is not None  # under /api/ it always answers
        headers = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in failed.items()
        ]
        return failed.status_code, headers, failed.content


def answer(scope: dict, body: bytes) -> Answer | None:
    """The answer to a plain hand submission, or None: Django must answer the request (then
    nothing has been changed). Runs on a submission thread: one request from start to end."""
    if not enabled():
        return None
    rule = rules()
    if not rule.enabled:
        return None
    set_script_prefix(get_script_prefix(scope))
    signals.request_started.send(sender=ASGIHandler, scope=scope)
    try:
        try:
            checked = _checked(rule, scope, body)
        except Exception:  # the database or the cache failed before any change: Django answers
            checked = None
        if checked is None:
            return None
        request, data, key, added = checked
        language = next(
            (v.decode() for n, v in added if n == b"content-language"), settings.LANGUAGE_CODE
        )
        pk = int(scope["path"].split("/")[4])
        with translation.override(language):
            done = _work(rule, request, data, key, pk)
        if done is None:
            return None
        status, headers, content = done
        headers += added
        headers.append((b"content-length", str(len(content)).encode()))
        return status, headers, content
    finally:
        # as response.close() does: this thread's connection goes back to the pool
        signals.request_finished.send(sender=ASGIHandler)

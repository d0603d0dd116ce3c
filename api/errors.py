"""One error shape for the whole API: `{"code": ..., "message": ..., "details": ...}` (built by
`tournaments.web.error_shape`, shared with the middleware and the error views).

`exception_handler` (REST_FRAMEWORK["EXCEPTION_HANDLER"]) maps the services' `ServiceError`
(its own status; a rules engine refusal's message and errors in the request's language, see
`tournaments.words.engine.refusal_words`), DRF's exceptions (validation 400, authentication 401,
permission 403, 404, 405, 406, 415, throttling 429, parse errors 400) and oversized bodies (413)
to that shape.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import Http404, HttpRequest, HttpResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

from tournaments.services import ServiceError
from tournaments.web.error_shape import body, error_response
from tournaments.words.engine import refusal_words


def set_rollback() -> None:
    """DRF's: roll back the request's atomic block. Imported when used: rest_framework.views
    reads the API settings as it loads, which import api.parsers, which imports this module,
    so importing it here first (django-axes' lockout callable does) would be a cycle."""
    from rest_framework.views import set_rollback as rollback

    rollback()


class ApiError(exceptions.APIException):
    """An API-level refusal with a stable code (not from a service)."""

    def __init__(self, code: str, message: str, *, status_code: int = 400, details: Any = None):
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.message = message
        self.details = details


class TooLarge(ApiError):
    def __init__(self, limit: int):
        super().__init__(
            "too-large",
            f"the request body is larger than {limit} bytes",
            status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
            details={"limit": limit},
        )


DEFAULT_CODES = {
    exceptions.ParseError: "parse-error",
    exceptions.NotAuthenticated: "not-authenticated",
    exceptions.AuthenticationFailed: "authentication-failed",
    exceptions.PermissionDenied: "permission-denied",
    exceptions.NotFound: "not-found",
    exceptions.MethodNotAllowed: "method-not-allowed",
    exceptions.NotAcceptable: "not-acceptable",
    exceptions.UnsupportedMediaType: "unsupported-media-type",
    exceptions.Throttled: "throttled",
}


def _code(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str) and codes not in {
        "error",
        "invalid",
        "not_authenticated",
        "authentication_failed",
        "permission_denied",
        "not_found",
        "method_not_allowed",
        "not_acceptable",
        "unsupported_media_type",
        "throttled",
        "parse_error",
    }:
        return codes
    for cls in type(exc).__mro__:
        if cls in DEFAULT_CODES:
            return DEFAULT_CODES[cls]
    return "error"


def exception_handler(exc: Exception, context: dict) -> Response | None:
    headers: dict[str, str] = {}
    if isinstance(exc, ServiceError):
        set_rollback()
        # A refusal by the rules engine speaks the request's language (LocaleMiddleware: the
        # language cookie, then Accept-Language); its `code` and the codes in `details` never
        # change, and each engine error keeps its English as `detail`.
        message, details = refusal_words(exc.code, exc.message, exc.details)
        if exc.retry_after:
            headers["Retry-After"] = str(int(exc.retry_after))
        return Response(body(exc.code, message, details), exc.status, headers=headers or None)
    if isinstance(exc, RequestDataTooBig):
        # Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE (its exception carries no size).
        exc = TooLarge(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)
    elif isinstance(exc, TooManyFieldsSent):
        exc = ApiError("too-many-fields", str(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None  # a real server error: let Django report it
    set_rollback()
    auth_header = getattr(exc, "auth_header", None)  # NotAuthenticated, AuthenticationFailed
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)  # Throttled
    if wait:
        headers["Retry-After"] = str(int(wait))
    if isinstance(exc, ApiError):
        return Response(
            body(exc.error_code, exc.message, exc.details), exc.status_code, headers=headers
        )
    if isinstance(exc, exceptions.ValidationError):
        details = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        return Response(
            body("invalid", "the request is not valid", details), exc.status_code, headers=headers
        )
    details = None
    if isinstance(exc, exceptions.Throttled):
        details = {"wait": wait}
    return Response(body(_code(exc), str(exc.detail), details), exc.status_code, headers=headers)


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer (AXES_LOCKOUT_CALLABLE) when a username is locked out from this
    client's address: 429 with Retry-After; under /api/ the one error shape with code
    `locked-out`, elsewhere (/accounts/login/, /admin/login/) a page in the site's design and
    the visitor's language (templates/registration/locked_out.html)."""
    from axes.helpers import get_client_username, get_cool_off, get_failure_limit

    cool_off = get_cool_off(request)
    wait = int(cool_off.total_seconds()) if cool_off else None
    limit = get_failure_limit(request, credentials)
    response: HttpResponse
    if request.path_info.startswith("/api/"):
        response = error_response(
            status.HTTP_429_TOO_MANY_REQUESTS,
            "locked-out",
            "too many wrong passwords for this username from this address; try again later",
            {"wait": wait, "failure_limit": limit},
        )
    else:
        from tournaments.views.errors import _render  # the error pages' layout and language

        response = _render(
            request,
            "registration/locked_out.html",
            status.HTTP_429_TOO_MANY_REQUESTS,
            username=get_client_username(request, credentials) or "",
            failure_limit=limit,
            minutes=(wait + 59) // 60 if wait else None,
        )
    if wait:
        response["Retry-After"] = str(wait)
    return response

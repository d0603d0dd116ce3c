"""The one JSON error shape: `{"code": ..., "message": ..., "details": ...}`.

Every JSON error answer is built here: the API's exception handler (api/errors.py), the
middleware that shapes what no view handled (api/middleware.py), the live endpoints
(api/live.py), the API's catch-all 404 (api/urls.py), the error views under /api/
(tournaments/views/errors.py) and django-axes' lockout. No DRF import (the middleware and the
error views load before or without it), no import of `api` (the layering is api → tournaments).
The services' refusals carry the same three parts (`ServiceError`).
"""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse

#: The stable code of an error status that has no code of its own.
STATUS_CODES = {
    400: "bad-request",
    401: "not-authenticated",
    403: "permission-denied",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    413: "too-large",
    415: "unsupported-media-type",
    429: "throttled",
}


def code_for_status(status: int) -> str:
    return STATUS_CODES.get(status, "server-error" if status >= 500 else "error")


def body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """The shape itself: all three keys, always (`details` is null when there are none)."""
    return {"code": code, "message": message, "details": details}


def error_response(status: int, code: str, message: str, details: Any = None) -> JsonResponse:
    """A JSON error answer in the shape (headers such as Allow or Retry-After: the caller's)."""
    return JsonResponse(body(code, message, details), status=status)

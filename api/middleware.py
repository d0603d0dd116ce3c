"""The API's error shape for what no view handled: under /api/ an uncaught exception is JSON,
never Django's HTML page.

A lost or refused database connection is 503 `database-unavailable` with `Retry-After: 1` (the
workflow rolled back, so a retry with the same idempotency key is safe); anything else is 500
`server-error`, logged with its traceback as Django would.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, JsonResponse

log = logging.getLogger("django.request")
PREFIX = "/api/"


def body(code: str, message: str) -> dict:
    """The API's error shape (api/errors.py; not imported here: the middleware loads first)."""
    return {"code": code, "message": message, "details": None}


class ApiErrorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> JsonResponse | None:
        if not request.path.startswith(PREFIX):
            return None
        if isinstance(exc, (OperationalError, InterfaceError)):
            log.warning("database unavailable: %s %s (%s)", request.method, request.path, exc)
            response = JsonResponse(body(
                "database-unavailable", "the database is unavailable; retry shortly"), status=503)
            response["Retry-After"] = "1"
            return response
        log.error("server error: %s %s", request.method, request.path, exc_info=exc)
        return JsonResponse(body("server-error", "the server failed; the error is logged"),
                            status=500)

"""The API's error shape for what no view handled: under /api/ an uncaught exception is JSON,
never Django's HTML page; so is any error answer without a JSON body (a 405 from one of Django's
method decorators, a HEAD's or OPTIONS' refusal, an error a middleware inside this one returns):
it is given the shape, with its status and headers (Allow, Retry-After...).

A lost or refused database connection is 503 `database-unavailable` with `Retry-After: 1` (the
workflow rolled back, so a retry with the same idempotency key is safe), answered by
`tournaments.views.errors.database_unavailable`, the one answer pages get too; anything else is
500 `server-error`, logged with its traceback as Django would.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus

from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse

from tournaments.views.errors import database_down, database_unavailable
from tournaments.web.error_shape import code_for_status, error_response

log = logging.getLogger("django.request")
PREFIX = "/api/"

#: Headers an error answer keeps when it is given the shape.
KEPT = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")


class ApiErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (
            request.path_info.startswith(PREFIX)
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return shaped(response)
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not request.path_info.startswith(PREFIX):
            return None
        if database_down(exc):
            log.warning("database unavailable: %s %s (%s)", request.method, request.path, exc)
            return database_unavailable(request)
        log.error("server error: %s %s", request.method, request.path, exc_info=exc)
        return error_response(500, "server-error", "the server failed; the error is logged")


def shaped(response: HttpResponseBase) -> JsonResponse:
    """An error answer without a JSON body, in the API's shape: same status, same Allow..."""
    status = response.status_code
    code = code_for_status(status)
    try:
        message = HTTPStatus(status).phrase.lower()
    except ValueError:
        message = "the request failed"
    if status == 405 and response.has_header("Allow"):
        message = f"use {response['Allow']}"
    answer = error_response(status, code, message)
    for name in KEPT:
        if response.has_header(name):
            answer[name] = response[name]
    answer.cookies = response.cookies
    return answer

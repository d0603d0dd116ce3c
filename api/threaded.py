"""Hand submissions (`POST /api/v1/matches/<id>/hands`) through Django's own synchronous handler
on a small pool of threads, instead of through Django's ASGI handler.

Why. Under ASGI, Django runs every sync middleware hook and the sync view on ONE thread per
process (`thread_sensitive=True`), with a hop to it and back for each hook: a submission cost
about 23 ms through the ASGI handler against 10-11 ms as WSGI, and while that one thread waited
for PostgreSQL or Redis (8 round trips a submission) the process served nobody else. With 2
uvicorn workers that capped 64 busy tables at 75-81 submissions/s.

What. The request's body is read on the event loop exactly as Django's ASGI handler reads it
(`ASGIHandler.read_body`); then one thread of this pool does, in order, everything Django's
handlers do for a request: `request_started` (old connections closed), the ASGI request built
by `ASGIHandler.create_request`, the response from a `BaseHandler` loaded with the SAME
MIDDLEWARE list in sync mode (as `WSGIHandler` loads it: hosts check, security headers,
sessions, locale, CSRF, authentication, axes, the API's error shape) and the same URL
resolution and view (DRF: table-token authentication, throttling, parsing, validation,
`services.submit_hand` in its one transaction, the exception handler), then `response.close()`
(`request_finished`: this thread's database connection goes back to the pool). The response,
already rendered, is sent from the event loop by `ASGIHandler.send_response`.

Why it is safe. A request never leaves its thread between its first and last query: the
workflow's transaction, its row lock and its idempotency check run on one thread with one
connection, as under a threaded WSGI server (which Django supports). Nothing in the request
path is skipped or reimplemented, so every answer — status, body, headers, cookies, refusals
— is Django's own; `tests/api/test_threaded.py` compares the two handlers answer for answer.

On these threads a scorer's plain submission is first offered to `api/fastsubmit.py`, which
answers it without the middleware and DRF's dispatch, or steps aside having changed nothing;
then this module serves it as above (`SUBMIT_FAST_PATH` off: always this module).

`SUBMIT_THREADS` (settings, environment) sizes the pool per process; 0 turns this off and
Django's ASGI handler serves submissions. It is 0 on SQLite (one writer at a time: the evening
server keeps its one request thread) and 4 on PostgreSQL (each thread holds at most one of
the pool's DATABASE_POOL_MAX connections while it works).
"""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.core.signals import setting_changed
from django.http import HttpResponse, HttpResponseBase
from django.urls import set_script_prefix

from . import fastsubmit

#: The requests served here: a hand submission to a match (POST; anything else goes on).
PATH = re.compile(r"^/api/v1/matches/[0-9]+/hands$")

_lock = threading.Lock()
_handler: BaseHandler | None = None
_executor: ThreadPoolExecutor | None = None
_asgi: ASGIHandler | None = None


def _reset(**kwargs: Any) -> None:
    """A changed setting (tests): the next request loads the middleware again, and a new
    number of threads gets a pool of that size."""
    global _handler, _asgi, _executor
    if kwargs.get("setting") in ("MIDDLEWARE", "ROOT_URLCONF", "SUBMIT_THREADS"):
        _handler = None
        _asgi = None
    if kwargs.get("setting") == "SUBMIT_THREADS" and _executor is not None:
        _executor.shutdown(wait=False)
        _executor = None


setting_changed.connect(_reset)


def threads() -> int:
    return int(getattr(settings, "SUBMIT_THREADS", 0) or 0)


def _parts() -> tuple[BaseHandler, ASGIHandler, ThreadPoolExecutor]:
    global _handler, _executor, _asgi
    with _lock:
        if _handler is None:
            handler = BaseHandler()
            handler.load_middleware(is_async=False)  # as WSGIHandler loads it
            _handler = handler
        if _asgi is None:
            _asgi = ASGIHandler()  # its request class, body reading and sending
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=max(1, threads()), thread_name_prefix="submit"
            )
        return _handler, _asgi, _executor


def wanted(scope: dict) -> bool:
    """Is this request one this module serves?"""
    return (
        scope["type"] == "http"
        and scope["method"] == "POST"
        and PATH.match(scope["path"]) is not None
        and threads() > 0
    )


def respond(
    handler: BaseHandler, asgi: ASGIHandler, scope: dict, body_file: Any
) -> HttpResponseBase:
    """One request, start to finish, on the calling thread, as Django's handlers do it."""
    set_script_prefix(get_script_prefix(scope))
    signals.request_started.send(sender=ASGIHandler, scope=scope)
    request, refused = asgi.create_request(scope, body_file)
    response = handler.get_response(request) if request is not None else refused
    assert response is not None  # create_request gives a request or its refusal
    response._handler_class = ASGIHandler  # type: ignore[attr-defined]
    if response.streaming:  # pragma: no cover - the submission view never streams
        # Its content would be read after this thread let go of the request: read it now.
        content = b"".join(response)
        answer = HttpResponse(content, status=response.status_code)
        for name, value in response.items():
            answer[name] = value
        answer.cookies = response.cookies
        response.close()
        return answer
    response.close()  # request_finished: this thread's connection goes back to the pool
    return response


async def serve(scope: dict, receive: Any, send: Any) -> bool:
    """Serve a hand submission on the pool (True), or leave the request to the caller."""
    if not wanted(scope):
        return False
    handler, asgi, executor = _parts()
    from django.core.exceptions import RequestAborted

    try:
        body_file = await asgi.read_body(receive)
    except RequestAborted:
        return True  # the client left before its request was complete: nothing to answer
    with closing(body_file):
        run = sync_to_async(_serve, thread_sensitive=False, executor=executor)
        response = await run(handler, asgi, scope, body_file)
    if isinstance(response, tuple):  # answered by api/fastsubmit.py
        status, headers, content = response
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})
        return True
    await asgi.send_response(response, send)
    return True


def _serve(
    handler: BaseHandler, asgi: ASGIHandler, scope: dict, body_file: Any
) -> HttpResponseBase | tuple[int, list[tuple[bytes, bytes]], bytes]:
    """On a submission thread: a plain scorer's submission answered by api/fastsubmit.py,
    anything else (or with SUBMIT_FAST_PATH off) by Django's handler."""
    if fastsubmit.enabled():
        answer = fastsubmit.answer(scope, body_file.read())
        if answer is not None:
            return answer
        body_file.seek(0)
    return respond(handler, asgi, scope, body_file)

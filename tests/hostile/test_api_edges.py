"""JSON everywhere under /api/: the requests no view was written for — a host not in
ALLOWED_HOSTS, a POST to the read-only live endpoints, HEAD and OPTIONS — get the API's one error
shape (`{code, message, details}`, never Django's HTML), or the endpoint's own JSON answer.

The disallowed host is sent through Django's ASGI handler, as uvicorn runs it (config/asgi.py),
to a cached standings poll and an events stream too.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver

import api.urls
from tests import waiting
from tests.live.asgi import Apps, request, transaction_kept

from .conftest import refused, the_shared_play

pytestmark = pytest.mark.django_db


#: The module's match in play, built once (conftest.SharedPlay).
play, pending = the_shared_play()


BAD_HOST = "evil.example"


@pytest.fixture
def kept():
    with transaction_kept():
        yield


def shape_of(status: int, headers: dict[str, str], body: bytes) -> dict:
    """`refused` for an answer read off ASGI."""
    assert headers["content-type"].startswith("application/json"), (status, headers, body[:200])
    answer = json.loads(body)
    assert set(answer) == {"code", "message", "details"}, answer
    return answer


@pytest.mark.parametrize(
    "address",
    [
        "/api/v1/tournaments",
        "/api/v1/tournaments/{slug}",
        "/api/v1/tournaments/{slug}/standings",
        "/api/v1/tournaments/{slug}/events",
        "/api/v1/no-such-address",
    ],
)
def test_a_host_not_allowed_gets_400_in_the_api_error_shape(kept, play, address):
    apps = Apps()
    path = address.format(slug=play.slug)
    standings = f"/api/v1/tournaments/{play.slug}/standings"
    # The standings are cached and the stream's tournament known.
    assert request(apps.django, "GET", standings, {"Host": "testserver"})[0] == 200
    status, headers, body = request(
        apps.django, "GET", path, {"Host": BAD_HOST}, timeout=waiting.SECONDS
    )
    assert status == 400, (status, headers)
    assert shape_of(status, headers, body)["code"] == "bad-request"


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize(("endpoint", "allowed"), [("standings", "GET, HEAD"), ("events", "GET")])
def test_writing_to_a_live_endpoint_is_405_in_the_api_error_shape(play, method, endpoint, allowed):
    """Not the CSRF refusal (there is nothing to protect: nothing is written) — whether the
    caller is a browser without a CSRF token or an API client."""
    path = f"/api/v1/tournaments/{play.slug}/{endpoint}"
    for caller in (
        Client(enforce_csrf_checks=True, raise_request_exception=False),
        play.anon,
        play.td,
    ):
        response = getattr(caller, method)(path, "{}", content_type="application/json")
        refused(response, 405, "method-not-allowed")
        assert response["Allow"] == allowed


def test_head_of_the_standings_is_the_gets_answer_without_a_body(play):
    path = f"/api/v1/tournaments/{play.slug}/standings"
    get, head = play.anon.get(path), play.anon.head(path)
    assert head.status_code == 200 and head.content == b""
    assert get.status_code == 200
    for name in (
        "Content-Type",
        "Content-Length",
        "ETag",
        "Last-Modified",
        "Cache-Control",
        "Content-Language",
        "Vary",
    ):
        assert head.get(name) == get.get(name), name


@pytest.mark.parametrize(
    ("endpoint", "method", "allowed"),
    [
        ("standings", "options", "GET, HEAD"),
        ("events", "options", "GET"),
        ("events", "head", "GET"),
    ],
)
def test_options_and_a_head_of_the_stream_are_405_in_the_api_error_shape(
    play, endpoint, method, allowed
):
    response = getattr(play.anon, method)(f"/api/v1/tournaments/{play.slug}/{endpoint}")
    assert response.status_code == 405 and response["Allow"] == allowed
    assert response["Content-Type"].startswith("application/json")
    if method != "head":  # a HEAD's answer has no body, by definition
        refused(response, 405, "method-not-allowed")


# -- every API address, every method ---------------------------------------------------------

# The API's own docs (HTML, YAML) and its downloads (files: CSV, JSON Lines, the archive), whose
# successful HEAD and OPTIONS answers are not JSON; their refusals are.
DOCUMENTS = re.compile(r"^/api/v1/((schema|docs|redoc)/|tournaments/[^/]+/(exports/.+|archive))$")
METHODS = ["head", "options", "post", "put", "patch", "delete"]


def routes(patterns=None, prefix: str = "/api/") -> list[str]:
    """Every route of the API (api/urls.py and what it includes), as written there."""
    found = []
    for pattern in api.urls.urlpatterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            found += routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and str(pattern.pattern) not in ("", "^"):
            found.append(prefix + str(pattern.pattern))
    return found


def address(route: str, play) -> str:
    """The route with real objects of the match in play where it names them (a 404 elsewhere is
    as good: its shape is checked too)."""
    real = {"matches": play.match.pk, "rounds": play.match.round_id, "tables": play.match.table_id}
    path = route.replace("<slug:slug>", play.slug).replace("<str:game>", "spades")
    path = path.replace("<int:number>", "1").replace("<int:token>", "999999")
    kind = path.split("/")[3] if path.count("/") > 3 else ""
    return path.replace("<int:pk>", str(real.get(kind, 999999)))


def test_the_walk_covers_the_live_endpoints():
    walked = routes()
    assert "/api/v1/tournaments/<slug:slug>/standings" in walked
    assert "/api/v1/tournaments/<slug:slug>/events" in walked and len(walked) > 30


@pytest.mark.parametrize("method", METHODS)
def test_every_api_address_answers_every_method_in_json(play, method):
    """Anonymous, as a browser without a CSRF token: each answer is JSON, and each refusal the
    API's error shape — never a server error, never HTML."""
    browser = Client(enforce_csrf_checks=True, raise_request_exception=False)
    odd = []
    for route in routes():
        path = address(route, play)
        response = getattr(browser, method)(path)
        kind = response.get("Content-Type", "")
        if response.status_code >= 400:
            if method == "head":
                ok = kind.startswith("application/json") and response.status_code < 500
            else:
                try:
                    refused(response, response.status_code)
                    ok = True
                except AssertionError:
                    ok = False
        else:
            ok = kind.startswith("application/json") or (
                DOCUMENTS.match(path) is not None and method in ("head", "options")
            )
        if not ok:
            body = b"(streamed)" if response.streaming else response.content[:80]
            odd.append(f"{method.upper()} {path}: {response.status_code} {kind} {body!r}")
    assert not odd, "\n".join(odd)


def test_an_error_answer_without_json_is_given_the_api_shape_with_its_headers(rf):
    """The net under every /api/ view: a 405 from Django's method decorators (HTML, empty)
    becomes the shape, keeping Allow; pages outside /api/ are left alone."""
    from django.http import HttpResponseNotAllowed

    from api.middleware import ApiErrorsMiddleware

    middleware = ApiErrorsMiddleware(lambda request: HttpResponseNotAllowed(["GET", "HEAD"]))
    answer = middleware(rf.options("/api/v1/anything"))
    body = shape_of(answer.status_code, {"content-type": answer["Content-Type"]}, answer.content)
    assert answer.status_code == 405 and answer["Allow"] == "GET, HEAD"
    assert body == {"code": "method-not-allowed", "message": "use GET, HEAD", "details": None}
    page = middleware(rf.options("/t/anything/"))
    assert page.status_code == 405 and not page["Content-Type"].startswith("application/json")

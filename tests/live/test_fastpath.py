"""The ASGI fast path answers a current, cached standings poll before Django — the same answer
the view gives — and hands everything else to Django."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync

from api import fastpath
from tournaments import live

pytestmark = pytest.mark.django_db


def get(path: str, **headers: str) -> tuple[bool, list[dict]]:
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "query_string": b"",
             "headers": [(k.lower().replace("_", "-").encode(), v.encode())
                         for k, v in headers.items()]}
    return async_to_sync(fastpath.serve)(scope, send), sent


def headers_of(sent: list[dict]) -> dict[str, str]:
    return {k.decode(): v.decode() for k, v in sent[0]["headers"]}


def test_an_uncached_poll_goes_to_django(tournament):
    answered, sent = get(f"/api/v1/tournaments/{tournament.slug}/standings")
    assert not answered and sent == []


def test_a_cached_poll_gets_the_views_answer_without_sql(client, tournament,
                                                         django_assert_num_queries):
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    view = client.get(path)  # Django builds and caches the state
    with django_assert_num_queries(0):
        answered, sent = get(path)
    assert answered and sent[0]["status"] == 200
    headers = headers_of(sent)
    assert headers["etag"] == view["ETag"] and headers["last-modified"] == view["Last-Modified"]
    assert headers["cache-control"] == view["Cache-Control"]
    fast, slow = json.loads(sent[1]["body"]), view.json()
    fast.pop("age_seconds"), slow.pop("age_seconds")
    assert fast == slow


def test_a_current_etag_gets_a_304_without_sql(client, tournament, django_assert_num_queries):
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    etag = client.get(path)["ETag"]
    with django_assert_num_queries(0):
        answered, sent = get(path, If_None_Match=etag)
    assert answered and sent[0]["status"] == 304 and sent[1]["body"] == b""


def test_after_a_change_the_poll_goes_back_to_django(client, tournament):
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    client.get(path)
    live.invalidate(tournament.pk)
    answered, _ = get(path)
    assert not answered


@pytest.mark.parametrize(
    "path", ["/api/v1/tournaments", "/api/v1/tournaments/x/standings/", "/admin/"]
)
def test_other_paths_go_to_django(path):
    assert get(path) == (False, [])

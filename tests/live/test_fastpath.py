"""The ASGI fast path answers a current, cached standings poll before Django — the same answer
the view gives — and hands everything else to Django."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync

from api import fastpath
from tournaments.live import event_log, events, standings_cache

pytestmark = pytest.mark.django_db


def get(path: str, **headers: str) -> tuple[bool, list[dict]]:
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    headers.setdefault("Host", "testserver")
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": b"",
        "headers": [(k.lower().replace("_", "-").encode(), v.encode()) for k, v in headers.items()],
    }
    return async_to_sync(fastpath.serve)(scope, send), sent


def headers_of(sent: list[dict]) -> dict[str, str]:
    return {k.decode(): v.decode() for k, v in sent[0]["headers"]}


def test_an_uncached_poll_goes_to_django(tournament):
    answered, sent = get(f"/api/v1/tournaments/{tournament.slug}/standings")
    assert not answered and sent == []


def test_a_cached_poll_gets_the_views_answer_without_sql(
    client, tournament, django_assert_num_queries
):
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
    standings_cache.invalidate(tournament.pk)
    answered, _ = get(path)
    assert not answered


@pytest.mark.parametrize(
    "path", ["/api/v1/tournaments", "/api/v1/tournaments/x/standings/", "/admin/"]
)
def test_other_paths_go_to_django(path):
    assert get(path) == (False, [])


def stream_events(path: str, publish, query: bytes = b"", frames: int = 3) -> list[dict]:
    """Open the events stream through the fast path, publish, read `frames` body messages, then
    disconnect; returns everything sent."""
    import asyncio

    sent: list[dict] = []
    got = asyncio.Event()
    leave = asyncio.Event()

    async def send(message: dict) -> None:
        sent.append(message)
        if sum(1 for m in sent if m["type"] == "http.response.body") >= frames:
            got.set()

    async def receive() -> dict:
        await leave.wait()
        return {"type": "http.disconnect"}

    async def run() -> bool:
        scope = {
            "type": "http",
            "method": "GET",
            "path": path,
            "query_string": query,
            "headers": [(b"host", b"testserver")],
        }
        task = asyncio.ensure_future(fastpath.serve(scope, send, receive))
        # The stream has subscribed once it sends `retry:`: publish only then (a fixed pause
        # lost the event on a busy machine).
        for _ in range(500):
            if task.done() or any(m["type"] == "http.response.body" for m in sent):
                break
            await asyncio.sleep(0.01)
        if task.done():
            return task.result()
        await asyncio.to_thread(publish)
        await asyncio.wait_for(got.wait(), 5)
        leave.set()
        return await asyncio.wait_for(task, 5)

    answered = async_to_sync(run)()
    return answered, sent


def test_the_events_stream_is_served_before_django_and_ends_when_the_client_leaves(
    in_process, tournament
):
    path = f"/api/v1/tournaments/{tournament.slug}/events"
    answered, sent = stream_events(
        path, lambda: events.publish(tournament.pk, {"event": "standings", "version": 9})
    )
    assert answered
    assert sent[0]["status"] == 200
    assert dict(sent[0]["headers"])[b"content-type"] == b"text/event-stream"
    bodies = b"".join(m.get("body", b"") for m in sent[1:])
    assert bodies.startswith(b"retry: ") and b"event: standings" in bodies
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}


def test_the_fast_events_stream_replays_from_the_last_event_id(in_process, tournament):
    events.publish(tournament.pk, {"event": "round", "round": 1})
    first = event_log.tail(tournament.pk)
    events.publish(tournament.pk, {"event": "round", "round": 2})
    path = f"/api/v1/tournaments/{tournament.slug}/events"
    answered, sent = stream_events(
        path, lambda: None, query=f"lastEventId={first}".encode(), frames=2
    )
    bodies = b"".join(m.get("body", b"") for m in sent[1:])
    assert answered and b'"round":2' in bodies and b'"round":1' not in bodies


def test_an_unknown_tournament_s_events_go_to_django_for_the_404(in_process, db):
    answered, sent = stream_events("/api/v1/tournaments/nobody/events", lambda: None)
    assert not answered and sent == []

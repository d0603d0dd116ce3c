"""`GET /api/v1/tournaments/{slug}/events` in-process (no Redis): SSE framing, heartbeats,
Last-Event-ID replay, and the short response under WSGI (the dev server)."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient

from tests import waiting
from tournaments.live import event_log, events

from ..tournaments.builders import make_director, make_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(in_process):
    return make_match(make_director()).round.tournament


def parse(chunk: bytes) -> dict:
    """One SSE message as {field: value}; a comment line as {"comment": text}."""
    out = {}
    for line in chunk.decode().strip("\n").split("\n"):
        name, _, value = line.partition(":")
        out[name or "comment"] = value.removeprefix(" ")
    return out


async def read(content, n: int, timeout: float = waiting.SECONDS) -> list[dict]:
    it = aiter(content)
    return [parse(await asyncio.wait_for(anext(it), timeout)) for _ in range(n)]


def events_url(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/events"


def test_an_announcement_arrives_as_an_sse_message(tournament):
    async def run():
        response = await AsyncClient().get(events_url(tournament))
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert response["Cache-Control"] == "no-cache"
        content = response.streaming_content
        try:
            hello, resume = await read(content, 2)
            assert hello == {"retry": "3000"}
            assert resume == {"id": "0-0"}  # an empty log: a reconnect replays from its start
            events.publish(tournament.pk, {"event": "standings", "version": 7})
            events.publish(
                tournament.pk, {"event": "round", "tournament": tournament.pk, "round": 2}
            )
            standings, round_ = await read(content, 2)
        finally:
            await content.aclose()
        return standings, round_

    standings, round_ = async_to_sync(run)()
    assert standings["event"] == "standings"
    assert json.loads(standings["data"]) == {"event": "standings", "version": 7}
    assert round_["event"] == "round" and json.loads(round_["data"])["round"] == 2
    assert event_log.id_key(round_["id"]) > event_log.id_key(standings["id"])


def test_another_tournament_is_not_heard(tournament):
    other = make_match(make_director("other")).round.tournament

    async def run():
        response = await AsyncClient().get(events_url(tournament))
        content = response.streaming_content
        try:
            await read(content, 2)
            events.publish(other.pk, {"event": "standings", "version": 1})
            events.publish(tournament.pk, {"event": "standings", "version": 2})
            return await read(content, 1)
        finally:
            await content.aclose()

    (message,) = async_to_sync(run)()
    assert json.loads(message["data"])["version"] == 2


def test_heartbeats_keep_a_quiet_stream_open(tournament, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.05

    async def run():
        response = await AsyncClient().get(events_url(tournament))
        content = response.streaming_content
        try:
            return await read(content, 4)
        finally:
            await content.aclose()

    hello, resume, first, second = async_to_sync(run)()
    assert first == second == {"comment": "heartbeat"}


def test_last_event_id_replays_the_missed_events_first(tournament):
    for version in (1, 2, 3):
        events.publish(tournament.pk, {"event": "standings", "version": version})
    ids = [event_id for event_id, _ in event_log.history(tournament.pk)]
    assert len(ids) == 3

    async def run():
        response = await AsyncClient().get(
            events_url(tournament), headers={"Last-Event-ID": ids[0]}
        )
        content = response.streaming_content
        try:
            hello, *replayed = await read(content, 3)
            events.publish(tournament.pk, {"event": "standings", "version": 4})
            (new,) = await read(content, 1)
        finally:
            await content.aclose()
        return replayed, new

    replayed, new = async_to_sync(run)()
    assert [m["id"] for m in replayed] == ids[1:]
    assert [json.loads(m["data"])["version"] for m in replayed] == [2, 3]
    assert json.loads(new["data"])["version"] == 4


def test_a_first_connection_learns_where_to_resume_from(tournament):
    events.publish(tournament.pk, {"event": "standings", "version": 1})
    newest = event_log.tail(tournament.pk)

    async def run():
        response = await AsyncClient().get(events_url(tournament))
        content = response.streaming_content
        try:
            return await read(content, 2)
        finally:
            await content.aclose()

    hello, resume = async_to_sync(run)()
    assert resume == {"id": newest}


def test_the_log_is_bounded(tournament):
    for version in range(event_log.LOG_SIZE + 10):
        events.publish(tournament.pk, {"event": "standings", "version": version})
    kept = event_log.history(tournament.pk)
    assert len(kept) == event_log.LOG_SIZE and kept[-1][1]["version"] == event_log.LOG_SIZE + 9


def test_the_stream_generator_directly(tournament):
    from api.live import stream

    async def run():
        gen = stream(tournament.pk, None, heartbeat=5, limit=1)
        chunks = [await anext(gen)]
        events.publish(tournament.pk, {"event": "hand-confirmed", "match": 1, "hand": 2})
        chunks += [chunk async for chunk in gen]
        return chunks

    chunks = async_to_sync(run)()
    assert chunks[0] == b"retry: 3000\n\n"
    assert chunks[-1].startswith(b"id: ") and b"\nevent: hand-confirmed\ndata: {" in chunks[-1]
    assert chunks[-1].endswith(b"}\n\n")


def test_under_wsgi_a_short_response_that_does_not_hang(client, tournament):
    events.publish(tournament.pk, {"event": "standings", "version": 1})
    first_id = event_log.tail(tournament.pk)
    events.publish(tournament.pk, {"event": "standings", "version": 2})
    response = client.get(events_url(tournament))
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    assert b"retry: 5000" in response.content
    assert f"id: {event_log.tail(tournament.pk)}".encode() in response.content
    resumed = client.get(events_url(tournament), HTTP_LAST_EVENT_ID=first_id)
    assert b'"version":2' in resumed.content and b'"version":1' not in resumed.content


def test_an_unknown_tournament_is_a_404(client, in_process, db):
    response = client.get("/api/v1/tournaments/no-such-event/events")
    assert response.status_code == 404 and response.json()["code"] == "not-found"


def test_a_confirmed_hand_is_announced_end_to_end(tournament, django_capture_on_commit_callbacks):
    """In-process: confirming a hand announces hand-confirmed and the new standings version."""
    from tournaments import services

    from ..tournaments.builders import HAND_1, scorer

    match = tournament.round_set.get().matches.get()

    async def run():
        response = await AsyncClient().get(events_url(tournament))
        content = response.streaming_content
        try:
            await read(content, 2)

            def confirm():
                with django_capture_on_commit_callbacks(execute=True):
                    version = services.submit_hand(
                        match=match, actor=scorer(match, "NS"), record=HAND_1
                    ).submission
                    services.confirm_hand(
                        submission=version,
                        expected_version=version.version,
                        actor=scorer(match, "EW"),
                    )

            from asgiref.sync import sync_to_async

            await sync_to_async(confirm)()
            return await read(content, 3)
        finally:
            await content.aclose()

    messages = async_to_sync(run)()
    kinds = [m["event"] for m in messages]
    assert kinds == ["hand-submitted", "hand-confirmed", "standings"]
    assert json.loads(messages[-1]["data"])["version"] == 1


def test_under_wsgi_the_reconnect_wait_is_a_setting(client, tournament, settings):
    settings.LIVE_SHORT_STREAM_RETRY_MS = 1000
    assert client.get(events_url(tournament)).content.startswith(b"retry: 1000\n\n")

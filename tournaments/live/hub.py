"""Live fan-out to async listeners: one `Hub` per event loop (per web process).

With `REDIS_URL` set a hub holds one Redis pub/sub connection (a pattern subscription to every
tournament's channel) that feeds any number of `Subscription` queues, and after a lost
connection replays from the event log what was published meanwhile; without Redis,
`events.publish` hands each announcement to this process's hubs (`feed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import defaultdict
from typing import Any

from django.conf import settings

from tournaments import redis_client

from .event_log import CHANNEL_PATTERN, ahistory, id_key

log = logging.getLogger(__name__)


class Subscription:
    """One listener's queue of (id, event) for one tournament; ids only ever increase."""

    def __init__(self, hub: Hub, tournament_id: int) -> None:
        self.hub = hub
        self.tournament_id = tournament_id
        self.queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue(maxsize=1000)
        self.last: tuple[int, int] = (0, 0)

    async def next(self, timeout: float) -> tuple[str, dict[str, Any]] | None:
        """The next new event, or None after `timeout` seconds without one."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                return None
            try:
                event_id, event = await asyncio.wait_for(self.queue.get(), remaining)
            except TimeoutError:
                return None
            if self.seen(event_id):
                continue
            return event_id, event

    def seen(self, event_id: str) -> bool:
        """True if `event_id` was delivered already; else remember it as the newest."""
        key = id_key(event_id)
        if key <= self.last:
            return True
        self.last = key
        return False

    def close(self) -> None:
        self.hub.unsubscribe(self)


class Hub:
    """Fans announcements out to the `Subscription`s of one event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.subscribers: dict[int, set[Subscription]] = defaultdict(set)
        self.ready = asyncio.Event()
        self.reader: asyncio.Task | None = None
        self.delivered = 0

    async def subscribe(self, tournament_id: int) -> Subscription:
        sub = Subscription(self, tournament_id)
        self.subscribers[tournament_id].add(sub)
        if settings.REDIS_URL:
            if self.reader is None or self.reader.done():
                self.ready.clear()
                self.reader = self.loop.create_task(self._read())
            try:
                await asyncio.wait_for(self.ready.wait(), 5)
            except TimeoutError:
                log.warning("live: Redis pub/sub not ready; %s listens without it", sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self.subscribers.get(sub.tournament_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.subscribers[sub.tournament_id]

    def deliver(self, tournament_id: int, event_id: str, event: dict[str, Any]) -> None:
        for sub in list(self.subscribers.get(tournament_id, ())):
            try:
                sub.queue.put_nowait((event_id, event))
                self.delivered += 1
            except asyncio.QueueFull:  # a stuck client: it resumes from the log on reconnect
                log.warning("live: listener queue full for tournament %s", tournament_id)

    async def _read(self) -> None:
        """Hear every tournament's channel on one connection; reconnect with backoff and
        replay from the log what was published while disconnected."""
        backoff = 0.5
        last_seen: dict[int, str] = {}
        while True:
            pubsub = redis_client.async_client(pubsub=True).pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNEL_PATTERN)
                for tid, after in list(last_seen.items()):  # missed while disconnected
                    if tid in self.subscribers:
                        for event_id, event in await ahistory(tid, after):
                            self.deliver(tid, event_id, event)
                self.ready.set()
                backoff = 0.5
                while True:
                    message = await pubsub.get_message(timeout=30.0)
                    if message is None or message.get("type") != "pmessage":
                        continue
                    name = message["channel"]
                    name = name.decode() if isinstance(name, bytes) else name
                    tid = int(name.rsplit(":", 1)[1])
                    envelope = json.loads(message["data"])
                    last_seen[tid] = envelope["id"]
                    self.deliver(tid, envelope["id"], envelope["data"])
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self.ready.clear()
                log.warning("live: Redis pub/sub lost (%s); retrying in %.1f s", error, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 10.0)
            finally:
                with contextlib.suppress(Exception):  # the connection may be gone already
                    await pubsub.aclose()


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_hubs_lock = threading.Lock()


def _hub() -> Hub:
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            for old in [other for other in _hubs if other.is_closed()]:
                del _hubs[old]
            hub = _hubs[loop] = Hub(loop)
    return hub


async def subscribe(tournament_id: int) -> Subscription:
    """Start hearing a tournament's announcements in this event loop (close() when done)."""
    return await _hub().subscribe(tournament_id)


def feed(tournament_id: int, event_id: str, event: dict[str, Any]) -> None:
    """In-process mode: hand an announcement to every event loop's hub (thread-safe)."""
    with _hubs_lock:
        hubs = list(_hubs.values())
    for hub in hubs:
        if hub.loop.is_closed() or tournament_id not in hub.subscribers:
            continue
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            hub.loop.call_soon_threadsafe(hub.deliver, tournament_id, event_id, event)

"""Live announcements ("standings version N", "round 3 published", "hand confirmed").

With `REDIS_URL` set each announcement is appended to the tournament's bounded event log (a Redis
stream, `XADD MAXLEN ~ LOG_SIZE`) and published on Redis pub/sub, one channel per tournament, in
one round trip (a Lua script), so every web process (and its server-sent-events listeners) hears
it; otherwise the log is an in-process deque and the announcement stays in this process. Local
listeners (`listen`) hear every announcement either way. Publishing never fails a workflow: a
Redis outage is logged, and pages fall back to polling the latest snapshot.

The log's ids (`<milliseconds>-<sequence>`, Redis stream ids or the same shape in-process) are the
server-sent-events ids: a client reconnecting with `Last-Event-ID` gets what it missed replayed
from `history` / `ahistory`. Live fan-out to async listeners goes through one `Hub` per event
loop (per web process): one Redis pub/sub connection (a pattern subscription to every
tournament's channel) feeds any number of `Subscription` queues.

The standings ETag cache (see `api/live.py`) is invalidated here, in whichever process makes the
change: every announcement but the hand events (which change nothing there by themselves), every
results change (`notify` "results"), and every save or delete of a tournament bump the
tournament's cache generation (`invalidate`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)
Listener = Callable[[int, dict[str, Any]], None]
_listeners: list[Listener] = []
_redis: Any = None

LOG_SIZE = 1000                 # events kept per tournament for Last-Event-ID resume
LOG_TTL = 7 * 24 * 3600         # a tournament's log expires a week after its last event
STATE_TTL = 300                 # seconds a cached standings state/body lives
CHANNEL_PATTERN = "tricktable:tournament:*"
EVENT_ID = re.compile(r"^\d{1,20}-\d{1,20}$")

# XADD to the log and PUBLISH the (id, event) envelope in one round trip.
_PUBLISH_LUA = """
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'data', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', KEYS[2], '{"id":"' .. id .. '","data":' .. ARGV[2] .. '}')
return id
"""
_publish_script: Any = None


def channel(tournament_id: int) -> str:
    return f"tricktable:tournament:{tournament_id}"


def log_key(tournament_id: int) -> str:
    return f"tricktable:events:{tournament_id}"


def listen(listener: Listener) -> Callable[[], None]:
    """Hear announcements made in this process; returns a function that stops listening."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def redis_client() -> Any:
    global _redis
    if _redis is None:
        import redis

        _redis = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2,
                                      socket_connect_timeout=2)
    return _redis


# Events that never change the standings response by themselves (a confirmation is announced
# after its "results" change, which refreshes the cache): no cache round trips for them.
_STANDINGS_NEUTRAL = frozenset({"hand-submitted", "hand-confirmed", "hand-rejected"})


def publish(tournament_id: int, event: dict[str, Any]) -> bool:
    """Announce an event; True when it reached Redis (or no Redis is configured)."""
    if event.get("event") not in _STANDINGS_NEUTRAL:
        invalidate(tournament_id)  # first: a client reacting to the event must not read old cache
    for listener in list(_listeners):
        listener(tournament_id, event)
    if not settings.REDIS_URL:
        event_id = _local_append(tournament_id, event)
        _feed_hubs(tournament_id, event_id, event)
        return True
    try:
        global _publish_script
        if _publish_script is None:
            _publish_script = redis_client().register_script(_PUBLISH_LUA)
        _publish_script(keys=[log_key(tournament_id), channel(tournament_id)],
                        args=[LOG_SIZE, json.dumps(event), LOG_TTL])
        return True
    except Exception as error:  # Redis down: pages poll the snapshot instead
        log.warning("live announcement not published (%s): %s", error, event)
        return False


# --- the event log -------------------------------------------------------------------------

_local_log: dict[int, deque[tuple[str, dict[str, Any]]]] = defaultdict(
    lambda: deque(maxlen=LOG_SIZE)
)
_local_lock = threading.Lock()
_last_local = (0, 0)


def _local_append(tournament_id: int, event: dict[str, Any]) -> str:
    global _last_local
    with _local_lock:
        now = int(time.time() * 1000)
        ms, seq = _last_local
        _last_local = (now, 0) if now > ms else (ms, seq + 1)
        event_id = f"{_last_local[0]}-{_last_local[1]}"
        _local_log[tournament_id].append((event_id, event))
    return event_id


def id_key(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq or 0)


def valid_id(event_id: str | None) -> str | None:
    """A client's Last-Event-ID if it has the log's shape, else None."""
    return event_id if event_id and EVENT_ID.match(event_id.strip()) else None


def _decode_entries(entries: list) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for raw_id, fields in entries:
        event_id = raw_id.decode() if isinstance(raw_id, bytes) else raw_id
        data = fields.get(b"data", fields.get("data"))
        out.append((event_id, json.loads(data)))
    return out


def history(tournament_id: int, after: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The logged events after `after` (all kept events when None), oldest first."""
    if not settings.REDIS_URL:
        with _local_lock:
            events = list(_local_log.get(tournament_id, ()))
        if after is None:
            return events
        mark = id_key(after)
        return [(i, e) for i, e in events if id_key(i) > mark]
    start = f"({after}" if after else "-"
    try:
        return _decode_entries(redis_client().xrange(log_key(tournament_id), min=start, max="+"))
    except Exception as error:  # Redis away: nothing to replay; pages fall back to polling
        log.warning("live: event log unavailable (%s)", error)
        return []


def tail(tournament_id: int) -> str | None:
    """The id of the newest logged event (None: nothing logged)."""
    if not settings.REDIS_URL:
        with _local_lock:
            events = _local_log.get(tournament_id)
            return events[-1][0] if events else None
    try:
        newest = redis_client().xrevrange(log_key(tournament_id), count=1)
    except Exception as error:  # Redis away: no resume point to give
        log.warning("live: event log unavailable (%s)", error)
        return None
    return _decode_entries(newest)[0][0] if newest else None


async def ahistory(tournament_id: int, after: str | None = None) -> list[tuple[str, dict]]:
    if not settings.REDIS_URL:
        return history(tournament_id, after)
    start = f"({after}" if after else "-"
    try:
        client = _hub().redis()
        return _decode_entries(await client.xrange(log_key(tournament_id), min=start, max="+"))
    except Exception as error:
        log.warning("live: event log unavailable (%s)", error)
        return []


async def atail(tournament_id: int) -> str | None:
    if not settings.REDIS_URL:
        return tail(tournament_id)
    try:
        newest = await _hub().redis().xrevrange(log_key(tournament_id), count=1)
    except Exception as error:
        log.warning("live: event log unavailable (%s)", error)
        return None
    return _decode_entries(newest)[0][0] if newest else None


# --- live fan-out to async listeners (one hub per event loop) -----------------------------

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
        self._redis: Any = None
        self.delivered = 0

    def redis(self) -> Any:
        if self._redis is None:
            import redis.asyncio

            self._redis = redis.asyncio.Redis.from_url(settings.REDIS_URL,
                                                       socket_connect_timeout=2)
        return self._redis

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
            pubsub = self.redis().pubsub(ignore_subscribe_messages=True)
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


def _feed_hubs(tournament_id: int, event_id: str, event: dict[str, Any]) -> None:
    """In-process mode: hand an announcement to every event loop's hub (thread-safe)."""
    with _hubs_lock:
        hubs = list(_hubs.values())
    for hub in hubs:
        if hub.loop.is_closed() or tournament_id not in hub.subscribers:
            continue
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            hub.loop.call_soon_threadsafe(hub.deliver, tournament_id, event_id, event)


# --- standings cache invalidation --------------------------------------------------------

def gen_key(slug: str) -> str:
    return f"live:standings:gen:{slug}"


def state_key(slug: str) -> str:
    return f"live:standings:state:{slug}"


def slug_key(tournament_id: int) -> str:
    return f"live:standings:slug:{tournament_id}"


def invalidate(tournament_id: int, slug: str | None = None) -> None:
    """The tournament's standings response may have changed: bump its cache generation.

    The API's cached state remembers the generation it was built under and is ignored once the
    generation moves on. Only slugs with cached state need bumping: the API records
    tournament -> slug (`slug_key`) before it reads the database, so no SQL is needed here.
    Never raises.
    """
    from django.core.cache import cache

    try:
        slugs = {cache.get(slug_key(tournament_id)), slug} - {None}
        for name in slugs:
            key = gen_key(name)
            try:
                cache.incr(key)
            except ValueError:  # no generation yet
                if not cache.add(key, 1, timeout=None):
                    cache.incr(key)
    except Exception as error:
        log.warning("standings cache not invalidated for %s (%s)", tournament_id, error)


def _results_changed(kind: str, payload: dict[str, Any]) -> None:
    if kind == "results":
        invalidate(payload["tournament"])


def _tournament_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    from django.db import transaction

    tid, slug = instance.pk, instance.slug
    transaction.on_commit(lambda: invalidate(tid, slug))


def _connect() -> None:
    from django.db.models.signals import post_delete, post_save

    from tournaments.services import notify

    notify.subscribe(_results_changed)
    for signal in (post_save, post_delete):
        signal.connect(_tournament_saved, sender="tournaments.Tournament", weak=False,
                       dispatch_uid=f"tricktable-live-{signal is post_save}")


_connect()

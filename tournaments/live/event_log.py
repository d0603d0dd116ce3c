"""The bounded per-tournament event log: what a reconnecting client missed.

With `REDIS_URL` set it is a Redis stream per tournament (`XADD MAXLEN ~ LOG_SIZE`, expiring a
week after its last event), appended to and published on the tournament's pub/sub channel in
one round trip (a Lua script); otherwise an in-process deque. Its ids
(`<milliseconds>-<sequence>`, Redis stream ids or the same shape in-process) are the
server-sent-events ids: a client reconnecting with `Last-Event-ID` gets what it missed from
`history` / `ahistory`.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections import defaultdict, deque
from typing import Any

from django.conf import settings

from tournaments import redis_client

log = logging.getLogger(__name__)

LOG_SIZE = 1000  # events kept per tournament for Last-Event-ID resume
LOG_TTL = 7 * 24 * 3600  # a tournament's log expires a week after its last event
CHANNEL_PATTERN = "tricktable:tournament:*"
EVENT_ID = re.compile(r"^\d{1,20}-\d{1,20}$")

# XADD to the log and PUBLISH the (id, event) envelope in one round trip.
_APPEND_LUA = """
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'data', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', KEYS[2], '{"id":"' .. id .. '","data":' .. ARGV[2] .. '}')
return id
"""


def channel(tournament_id: int) -> str:
    return f"tricktable:tournament:{tournament_id}"


def log_key(tournament_id: int) -> str:
    return f"tricktable:events:{tournament_id}"


def id_key(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq or 0)


def valid_id(event_id: str | None) -> str | None:
    """A client's Last-Event-ID if it has the log's shape, else None."""
    return event_id if event_id and EVENT_ID.match(event_id.strip()) else None


# --- in-process (no REDIS_URL) -------------------------------------------------------------

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


def clear_local() -> None:
    """Forget the in-process log (tests that share one process between tournaments)."""
    with _local_lock:
        _local_log.clear()


# --- writing --------------------------------------------------------------------------------


def append(tournament_id: int, event: dict[str, Any]) -> str | None:
    """Log an event. In-process: returns its id (the caller hands it to this process's hubs).
    With Redis: appends it and publishes it on the tournament's channel, returns None (every
    process's hub hears it there). Raises when Redis cannot be reached."""
    if not settings.REDIS_URL:
        return _local_append(tournament_id, event)
    redis_client.script(_APPEND_LUA)(
        keys=[log_key(tournament_id), channel(tournament_id)],
        args=[LOG_SIZE, json.dumps(event), LOG_TTL],
    )
    return None


# --- reading --------------------------------------------------------------------------------


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
        return _decode_entries(
            redis_client.client().xrange(log_key(tournament_id), min=start, max="+")
        )
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
        newest = redis_client.client().xrevrange(log_key(tournament_id), count=1)
    except Exception as error:  # Redis away: no resume point to give
        log.warning("live: event log unavailable (%s)", error)
        return None
    return _decode_entries(newest)[0][0] if newest else None


async def ahistory(tournament_id: int, after: str | None = None) -> list[tuple[str, dict]]:
    if not settings.REDIS_URL:
        return history(tournament_id, after)
    start = f"({after}" if after else "-"
    try:
        client = redis_client.async_client()
        return _decode_entries(await client.xrange(log_key(tournament_id), min=start, max="+"))
    except Exception as error:
        log.warning("live: event log unavailable (%s)", error)
        return []


async def atail(tournament_id: int) -> str | None:
    if not settings.REDIS_URL:
        return tail(tournament_id)
    try:
        newest = await redis_client.async_client().xrevrange(log_key(tournament_id), count=1)
    except Exception as error:
        log.warning("live: event log unavailable (%s)", error)
        return None
    return _decode_entries(newest)[0][0] if newest else None

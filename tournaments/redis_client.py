"""The one home of TrickTable's Redis clients (`settings.REDIS_URL`).

A leaf: it imports nothing of ours but the settings, so anything that needs Redis (the live
event log and hub, the throttle, task coalescing, benchmarks) imports it without pulling
anything else in. Clients are made on first use and kept per URL (per URL and event loop for
the asyncio ones: an asyncio client is bound to its loop), so a test that points REDIS_URL
elsewhere gets a client for that address without resetting anything here.

Short timeouts everywhere but on the pub/sub connection: Redis is an accelerator, and a caller
that cannot reach it falls back (pages poll, the sweep catches up) instead of hanging.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

from django.conf import settings
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

TIMEOUT = 2.0  # seconds to connect, and to wait for a command's answer

#: What an unreachable Redis raises: a caller that can do without it catches these.
DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
#: An outage is logged at most this often (seconds), not once a request.
LOG_EVERY = 30.0

log = logging.getLogger(__name__)
_last_logged = 0.0

_clients: dict[str, Any] = {}
_scripts: dict[tuple[str, str], Any] = {}
_async: dict[tuple[asyncio.AbstractEventLoop, str, bool], Any] = {}
_lock = threading.Lock()


def url() -> str:
    if not settings.REDIS_URL:
        raise RuntimeError("REDIS_URL is not set: no Redis to talk to")
    return str(settings.REDIS_URL)


def client() -> Any:
    """The synchronous client (thread-safe: redis-py pools its connections)."""
    address = url()
    found = _clients.get(address)
    if found is None:
        import redis

        with _lock:
            found = _clients.setdefault(
                address,
                redis.Redis.from_url(
                    address, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
                ),
            )
    return found


def script(source: str) -> Any:
    """A Lua script registered with `client()` (EVALSHA, loaded again if Redis forgot it)."""
    key = (url(), source)
    found = _scripts.get(key)
    if found is None:
        found = _scripts[key] = client().register_script(source)
    return found


def async_client(*, pubsub: bool = False) -> Any:
    """The asyncio client of the running event loop. `pubsub=True`: the one for a long-lived
    subscription, without the command timeout (it waits for messages as long as it likes)."""
    loop = asyncio.get_running_loop()
    key = (loop, url(), pubsub)
    found = _async.get(key)
    if found is None:
        import redis.asyncio

        with _lock:
            for old in [k for k in _async if k[0].is_closed()]:
                del _async[old]
            found = _async.setdefault(
                key,
                redis.asyncio.Redis.from_url(
                    key[1],
                    socket_connect_timeout=TIMEOUT,
                    socket_timeout=None if pubsub else TIMEOUT,
                ),
            )
    return found


def unavailable(operation: str, error: Exception) -> None:
    """Log that Redis was out of reach and `operation` went without it (at most every
    LOG_EVERY seconds)."""
    global _last_logged
    now = time.monotonic()
    if now - _last_logged >= LOG_EVERY:
        _last_logged = now
        log.warning(
            "redis unavailable, %s skipped (%s: %s)", operation, type(error).__name__, error
        )

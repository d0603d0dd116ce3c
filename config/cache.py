"""The Redis cache, tolerant of Redis being away.

The cache holds what can be rebuilt (standings ETags and bodies, throttle counters), so when
Redis is unreachable a read misses and a write is dropped instead of failing the request:
results are still accepted and stored, the standings are read from the database, throttling
pauses. The outage is logged (at most every 30 seconds). Counters (`incr`) still raise: their
callers guard them.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
LOG_EVERY = 30.0
_last_logged = 0.0


def redis_cache(url: str) -> dict[str, Any]:
    """The `CACHES["default"]` entry for a Redis at `url`: short timeouts, so an unreachable
    Redis costs a request half a second at most."""
    return {
        "BACKEND": "config.cache.TolerantRedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "tricktable",
        "OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
    }


def _down(operation: str, error: Exception) -> None:
    global _last_logged
    now = time.monotonic()
    if now - _last_logged >= LOG_EVERY:
        _last_logged = now
        log.warning(
            "cache unavailable, %s skipped (%s: %s)", operation, type(error).__name__, error
        )


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's client makes a new `redis.Redis` for every operation (its table of response
    callbacks: about 0.5 ms of CPU each); this one keeps one per connection pool. A
    `redis.Redis` takes a connection from its pool for each command, so one is safe to share
    between threads."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)
        return client


#: The Redis clients (with their connection pools) of this process, by servers and options.
_clients: dict[str, ReusedClientRedisCacheClient] = {}
_clients_lock = threading.Lock()


class TolerantRedisCache(RedisCache):
    def __init__(self, server: Any, params: dict) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

    @cached_property
    def _cache(self) -> Any:
        """One client per process for these servers and options, not one per cache object.

        Django keeps a cache object per thread *and per context* (`caches` is an asgiref Local
        that is not thread-critical): under ASGI each request runs in a context of its own, so
        each request made a new cache object, with it a new client (building it reads the
        redis package's metadata from disk: a tenth of a hand submission's CPU in uvicorn's
        profile), a new connection pool and a new TCP connection to Redis. redis-py's pools
        are thread-safe and reset themselves in a forked child."""
        key = repr((self._servers, sorted(self._options.items())))
        client = _clients.get(key)
        if client is None:
            with _clients_lock:
                client = _clients.get(key)
                if client is None:
                    client = _clients[key] = self._class(self._servers, **self._options)
        return client

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except DOWN as error:
            _down("get", error)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except DOWN as error:
            _down("get_many", error)
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().has_key(key, version)
        except DOWN as error:
            _down("has_key", error)
            return False

    def set(self, key: Any, value: Any, timeout: Any = 300, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except DOWN as error:
            _down("set", error)

    def set_many(self, data: dict, timeout: Any = 300, version: int | None = None) -> list:
        try:
            return super().set_many(data, timeout, version)
        except DOWN as error:
            _down("set_many", error)
            return list(data)

    def add(self, key: Any, value: Any, timeout: Any = 300, version: int | None = None) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except DOWN as error:
            _down("add", error)
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except DOWN as error:
            _down("delete", error)
            return False

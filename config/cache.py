"""The Redis cache, tolerant of Redis being away.

Django's `RedisCache`, with two things added through its documented configuration and public
methods:

- `OPTIONS["pool_class"]` names `SharedConnectionPool`: Django keeps a cache object per thread
  and per context (under ASGI, per request), and each new one makes a new client with a new
  connection pool, so every request opened a new TCP connection to Redis. This pool class
  hands every client of the process the one pool made for the same address and options
  (redis-py's pools are thread-safe and start afresh in a forked child).
- `TolerantRedisCache`: the cache holds what can be rebuilt (standings ETags and bodies), so
  when Redis is unreachable a read misses and a write is dropped instead of failing the
  request: results are still accepted and stored, the standings are read from the database.
  The outage is logged (`tournaments.redis_client.unavailable`). Counters (`incr`) still
  raise: their callers guard them.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar, Self

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis import ConnectionPool

from tournaments.redis_client import DOWN, unavailable


def redis_cache(url: str) -> dict[str, Any]:
    """The `CACHES["default"]` entry for a Redis at `url`: short timeouts, so an unreachable
    Redis costs a request half a second at most."""
    return {
        "BACKEND": "config.cache.TolerantRedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "tricktable",
        "OPTIONS": {
            "pool_class": "config.cache.SharedConnectionPool",
            "socket_timeout": 0.5,
            "socket_connect_timeout": 0.5,
        },
    }


class SharedConnectionPool(ConnectionPool):
    """One connection pool per process for each address and options: `from_url` (the
    constructor Django's Redis cache calls) returns the pool it made first."""

    made: ClassVar[dict[str, ConnectionPool]] = {}
    lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Self:
        key = repr((url, sorted(kwargs.items(), key=lambda item: item[0])))
        with cls.lock:
            pool = cls.made.get(key)
            if pool is None:
                pool = cls.made[key] = super().from_url(url, **kwargs)
        return pool  # type: ignore[return-value]  # made by this class's from_url


class TolerantRedisCache(RedisCache):
    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except DOWN as error:
            unavailable("cache get", error)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except DOWN as error:
            unavailable("cache get_many", error)
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().has_key(key, version)
        except DOWN as error:
            unavailable("cache has_key", error)
            return False

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        try:
            super().set(key, value, timeout, version)
        except DOWN as error:
            unavailable("cache set", error)

    def set_many(
        self, data: dict, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list:
        try:
            return super().set_many(data, timeout, version)
        except DOWN as error:
            unavailable("cache set_many", error)
            return list(data)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except DOWN as error:
            unavailable("cache add", error)
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except DOWN as error:
            unavailable("cache delete", error)
            return False

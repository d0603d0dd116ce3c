"""The Redis cache, tolerant of Redis being away.

The cache holds what can be rebuilt (standings ETags and bodies, throttle counters), so when
Redis is unreachable a read misses and a write is dropped instead of failing the request:
results are still accepted and stored, the standings are read from the database, throttling
pauses. The outage is logged (at most every 30 seconds). Counters (`incr`) still raise: their
callers guard them.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.redis import RedisCache
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
        log.warning("cache unavailable, %s skipped (%s: %s)", operation, type(error).__name__,
                    error)


class TolerantRedisCache(RedisCache):
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

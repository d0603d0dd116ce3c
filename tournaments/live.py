"""Live announcements ("standings version N", "round 3 published", "hand confirmed").

With `REDIS_URL` set they go out on Redis pub/sub, one channel per tournament, so every web
process (and its server-sent-events listeners) hears them; otherwise they stay in this process.
Local listeners hear every announcement either way. Publishing never fails a workflow: a Redis
outage is logged, and pages fall back to polling the latest snapshot.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)
Listener = Callable[[int, dict[str, Any]], None]
_listeners: list[Listener] = []
_redis: Any = None


def channel(tournament_id: int) -> str:
    return f"tricktable:tournament:{tournament_id}"


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


def publish(tournament_id: int, event: dict[str, Any]) -> bool:
    """Announce an event; True when it reached Redis (or no Redis is configured)."""
    for listener in list(_listeners):
        listener(tournament_id, event)
    if not settings.REDIS_URL:
        return True
    try:
        redis_client().publish(channel(tournament_id), json.dumps(event))
        return True
    except Exception as error:  # Redis down: pages poll the snapshot instead
        log.warning("live announcement not published (%s): %s", error, event)
        return False

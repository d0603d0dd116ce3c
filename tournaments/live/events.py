"""Live announcements ("standings version N", "round 3 published", "hand confirmed").

`publish` invalidates the standings cache (first: a client reacting to the announcement must not
read the old cache), tells this process's `listen`ers, and appends the announcement to the
tournament's event log: with `REDIS_URL` set that also publishes it on Redis pub/sub, so every
web process's hub hears it; otherwise it goes to this process's hubs. Publishing never fails a
workflow: a Redis outage is logged, and pages fall back to polling the latest snapshot.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from . import event_log, hub, standings_cache

log = logging.getLogger(__name__)
Listener = Callable[[int, dict[str, Any]], None]
_listeners: list[Listener] = []

# Events that never change the standings response by themselves (a confirmation is announced
# after its "results" change, which refreshes the cache): no cache round trips for them.
_STANDINGS_NEUTRAL = frozenset(
    {"hand-submitted", "hand-confirmed", "hand-rejected", "season", "clock", "call", "board"}
)


def listen(listener: Listener) -> Callable[[], None]:
    """Hear announcements made in this process; returns a function that stops listening."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def publish(tournament_id: int, event: dict[str, Any]) -> bool:
    """Announce an event; True when it reached Redis (or no Redis is configured)."""
    if event.get("event") not in _STANDINGS_NEUTRAL:
        standings_cache.invalidate(tournament_id)
    for listener in list(_listeners):
        listener(tournament_id, event)
    try:
        event_id = event_log.append(tournament_id, event)
    except Exception as error:  # Redis down: pages poll the snapshot instead
        log.warning("live announcement not published (%s): %s", error, event)
        return False
    if event_id is not None:  # in-process: no pub/sub to carry it to the hubs
        hub.feed(tournament_id, event_id, event)
    return True

"""The standings response cache (`api/live.py`): its keys, in one place,
and its invalidation.

The `default` cache (Redis when REDIS_URL is set, so shared by all processes) holds, per slug, a
generation (`gen_key`), the state a 304 needs (`state_key`, valid while its generation is the
current one) and, per built response, its body (`body_key`); `slug_key` maps a tournament to the
slug whose state is cached. Any change that may alter a tournament's standings response bumps
its generation (`invalidate`), in whichever process makes it: every announcement but the hand
events (`events.publish`), every results change and every save or delete of a tournament (the
receivers below, connected in `TournamentsConfig.ready()`).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db import transaction

log = logging.getLogger(__name__)

STATE_TTL = 300  # seconds a cached standings state/body lives


def gen_key(slug: str) -> str:
    return f"live:standings:gen:{slug}"


def state_key(slug: str) -> str:
    return f"live:standings:state:{slug}"


def body_key(token: str) -> str:
    return f"live:standings:body:{token}"


def slug_key(tournament_id: int) -> str:
    return f"live:standings:slug:{tournament_id}"


def invalidate(tournament_id: int, slug: str | None = None) -> None:
    """The tournament's standings response may have changed: bump its cache generation.

    The API's cached state remembers the generation it was built under and is ignored once the
    generation moves on. Only slugs with cached state need bumping: the API records
    tournament -> slug (`slug_key`) before it reads the database, so no SQL is needed here.
    Never raises.
    """
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


def results_changed(kind: str, payload: dict[str, Any]) -> None:
    """A `services.notify` listener: a results change flips `stale` without a new snapshot."""
    if kind == "results":
        invalidate(payload["tournament"])


def tournament_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """`post_save`/`post_delete` of a `Tournament`: after commit, for the old and new slug."""
    tid, slug = instance.pk, instance.slug
    transaction.on_commit(lambda: invalidate(tid, slug))

"""When the federation ranking is re-rated by itself: every committed results change
(`services.notify`, whose listeners run after commit) of a finished event of an opted-in club
schedules the recompute of its game. Finishing an event is one (`finish_tournament` announces
the final results); a director's correction after the event is another. Listening keeps the
federation out of the services' code, as publishing does."""

from __future__ import annotations

import logging
from typing import Any

from tournaments.services import notify

from . import services

log = logging.getLogger(__name__)


def _results(kind: str, payload: dict[str, Any]) -> None:
    if kind != "results":
        return
    try:  # the results stand whatever happens to the ranking
        services.event_changed(tournament_id=payload["tournament"])
    except Exception:
        log.exception("federation: could not schedule for tournament %s", payload["tournament"])


def connect() -> None:
    """Called once from `TournamentsConfig.ready()` (the task module is imported here so
    workers know the task)."""
    from . import tasks  # noqa: F401

    notify.subscribe(_results)

"""Fixtures for the live standings tests: a cache namespace of each test's own (tournament slugs
repeat between tests, the cache outlives them) and the in-process mode (no Redis)."""

from __future__ import annotations

import copy
import uuid

import pytest

from tournaments.live import event_log


@pytest.fixture(autouse=True)
def own_cache(settings):
    """Keep each test's cache keys apart (Redis in CI, local memory otherwise)."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex[:12]}"
    if "LocMemCache" in caches["default"]["BACKEND"]:
        caches["default"]["LOCATION"] = caches["default"]["KEY_PREFIX"]
    settings.CACHES = caches


@pytest.fixture
def in_process(in_process_tasks):
    """No Redis (tests/conftest.py's `in_process_tasks`), and the in-process event log, a
    deque, emptied before and after."""
    event_log.clear_local()
    yield
    event_log.clear_local()


@pytest.fixture
def tournament():
    """A tournament with one match set up and its first standings snapshot written."""
    from tournaments.services import standings

    from ..tournaments.builders import make_director, make_match

    match = make_match(make_director())
    tournament = match.round.tournament
    standings.bump(tournament.pk)
    standings.recompute(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament

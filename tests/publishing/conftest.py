"""Fixtures for publishing: an event played in the room (the demo Spades Swiss, one round
closed, one in play), and the site's director with a publishing key."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import clear_cache
from tournaments.demo import club as demo
from tournaments.models import Tournament
from tournaments.publishing import payload, services
from tournaments.services import Actor


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Each test's publishes are counted afresh (the client address is the same in all)."""
    clear_cache()


@pytest.fixture
def room_event(db, settings, built_once) -> Tournament:
    """Built once per run, loaded again for each later test (`built_once`)."""
    settings.REDIS_URL = None
    built_once("room-event", lambda: demo.build_spades(7, teams=4, played=1))
    return Tournament.objects.get()


@pytest.fixture
def site_director(db) -> Actor:
    return Actor(user=get_user_model().objects.create_user("site-director", password="pw-site"))


@pytest.fixture
def site_key(site_director) -> tuple[Any, str]:
    return services.create_key(actor=site_director, label="club laptop")


def as_published(tournament: Tournament, slug: str = "friday-at-the-club") -> dict[str, Any]:
    """The room's document, under a slug the room's own database does not hold: room and site
    share this test database, and the site must not find the room's event as its own."""
    document = payload.build(tournament)
    document["tournament"]["slug"] = slug
    return document

"""Fixtures for the members' pages: events played in the room and published to the site (room
and site share the test database: the site's players are its own, under the site's uids)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model

from tests.publishing.conftest import (  # noqa: F401  (fixtures)
    as_published,
    fresh_throttles,
    site_director,
    site_key,
)
from tournaments.demo import club as demo
from tournaments.models import Entry, Player, Team, Tournament
from tournaments.publishing import services
from tournaments.services import Actor


def publish(key: Any, tournament: Tournament, slug: str) -> Tournament:
    document = as_published(tournament, slug)
    document["seasons"] = []  # the room's seasons are another test's
    services.receive(key=key, slug=slug, document=document)
    return Tournament.objects.get(slug=slug)


def players_of(tournament: Tournament) -> list[Player]:
    entries = Entry.objects.filter(tournament=tournament)
    ids = set(entries.exclude(player=None).values_list("player_id", flat=True))
    for first, second in Team.objects.filter(entries__in=entries).values_list("first", "second"):
        ids |= {first, second}
    return list(Player.objects.filter(pk__in=ids).order_by("pk"))


def read(client, url: str, language: str = "en") -> str:
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    if getattr(answer, "streaming", False):
        return b"".join(answer.streaming_content).decode()
    return answer.content.decode()


@pytest.fixture
def staff(db) -> Actor:
    return Actor(user=get_user_model().objects.create_user("club-staff", is_staff=True))


@pytest.fixture
def evenings(db, settings, site_key) -> list[Tournament]:  # noqa: F811
    """Two Swiss evenings of the same club players, published from the room."""
    settings.REDIS_URL = None
    key, _secret = site_key
    played = demo.build_season(5, players=4, evenings=2)
    return [publish(key, t, f"members-evening-{n}") for n, t in enumerate(played, 1)]


@pytest.fixture
def duplicate_evening(db, settings, site_key) -> Tournament:  # noqa: F811
    settings.REDIS_URL = None
    key, _secret = site_key
    return publish(key, demo.build_duplicate_spades(5, tables=3), "members-duplicate")

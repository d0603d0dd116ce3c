"""Racing on one club, on PostgreSQL: an invitation's link opened by several people at once
makes exactly one director, and two directors removing each other at once leave the club one
(the invitation's and the club's row locks, tournaments/clubs/running.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tournaments.clubs import running
from tournaments.models import Club, ClubAuditEvent, home_club
from tournaments.services import Actor, ServiceError

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

STRONG = "kettle-Pharaoh-97"
RACERS = 6


def run_threads(calls: list[Callable[[], object]]) -> list[object]:
    """Each call in its own thread, released together; its result or its exception."""
    results: list[object] = [None] * len(calls)
    gate = threading.Barrier(len(calls))

    def run(index: int) -> None:
        try:
            gate.wait()
            results[index] = calls[index]()
        except BaseException as error:  # reported by the test, not lost in the thread
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.fixture
def north(postgres_db) -> Club:
    home_club()
    admin = get_user_model().objects.create_superuser("site-admin")
    return running.create_club(actor=Actor(user=admin), name="North", slug="north")


def codes(results: list[object]) -> list[str]:
    return sorted(r.code for r in results if isinstance(r, ServiceError))


def test_a_link_opened_by_several_at_once_makes_one_director(north):
    admin = get_user_model().objects.get(username="site-admin")
    _invitation, secret = running.invite_director(actor=Actor(user=admin), club=north)

    def join(n: int) -> Callable[[], object]:
        return lambda: running.accept_invitation(
            secret=secret, username=f"racer-{n}", password=STRONG
        )

    results = run_threads([join(n) for n in range(RACERS)])
    assert codes(results) == ["invitation-used"] * (RACERS - 1)
    assert north.directors.count() == 1
    assert get_user_model().objects.filter(username__startswith="racer-").count() == 1
    assert ClubAuditEvent.objects.filter(club=north, action="joined").count() == 1


def test_two_directors_removing_each_other_at_once_leave_one(north):
    first = get_user_model().objects.create_user("first")
    second = get_user_model().objects.create_user("second")
    north.directors.add(first, second)

    def remove(actor, other) -> Callable[[], object]:
        return lambda: running.remove_director(
            actor=Actor(user=actor), club=north, user_id=other.pk
        )

    results = run_threads([remove(first, second), remove(second, first)])
    # The one who lost the race is no longer a director, or the other is the last one.
    assert len(codes(results)) == 1
    assert codes(results)[0] in {"not-club-director", "last-director"}
    assert north.directors.count() == 1

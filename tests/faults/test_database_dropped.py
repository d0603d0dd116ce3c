"""The PostgreSQL connection dies in the middle of a hand submission (the server restarts, the
network drops it, an administrator terminates it): the workflow's one transaction is lost as a
whole — nothing is stored — and the scorer's retry with the same idempotency key stores the hand
exactly once; a further retry gets that same version back with 200."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.tournaments.builders import HAND_1, make_director, make_match
from tournaments.models import Hand, HandSubmission, Match, Round, Tournament
from tournaments.services import hands, notify

from .conftest import scorer_client, submit

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Where the connection is cut: just before the workflow's first INSERT (the rules engine has
# accepted the hand), or after its writes, before COMMIT (the hand row exists in the dying
# transaction: the case where a client cannot tell whether its hand was stored).
DROP_POINTS = {"before-insert": (hands, "check_hand"), "before-commit": (notify, "hand_submitted")}


@pytest.fixture(params=sorted(DROP_POINTS))
def drop_once(request, pg, monkeypatch) -> list[str]:
    """Terminate this thread's database backend once, at the drop point; returns the list of
    drops made (one item after the first submission)."""
    module, name = DROP_POINTS[request.param]
    original = getattr(module, name)
    dropped: list[str] = []

    def then_drop(*args, **kwargs):
        result = original(*args, **kwargs)
        if not dropped:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                [pid] = cursor.fetchone()
            pg.terminate(pid)
            dropped.append(request.param)
        return result

    monkeypatch.setattr(module, name, then_drop)
    return dropped


def state_of(match: Match) -> tuple:
    match.refresh_from_db()
    return (
        Hand.objects.count(),
        HandSubmission.objects.count(),
        Tournament.objects.get(pk=match.round.tournament_id).results_version,
        match.state,
        Round.objects.get(pk=match.round_id).state,
    )


def test_a_submission_cut_off_from_the_database_stores_nothing_and_its_retry_stores_it_once(
    postgres_db, drop_once
):
    match = make_match(make_director())
    before = state_of(match)
    client = scorer_client(match)
    client.raise_request_exception = False
    cut = submit(client, match, HAND_1, key="dropped-0001")
    assert drop_once, "the connection was not cut"
    assert cut.status_code >= 500
    assert state_of(match) == before  # nothing of the lost transaction remains
    stored = submit(client, match, HAND_1, key="dropped-0001")
    assert stored.status_code == 201, stored.content
    again = submit(client, match, HAND_1, key="dropped-0001")
    assert again.status_code == 200 and again.json() == stored.json()
    [version] = HandSubmission.objects.all()
    assert (version.pk, version.version, version.status) == (stored.json()["id"], 1, "pending")
    assert Hand.objects.count() == 1 and version.idempotency_key == "dropped-0001"


def test_a_submission_cut_off_from_the_database_gets_the_api_error_shape(postgres_db, drop_once):
    match = make_match(make_director())
    client = scorer_client(match)
    client.raise_request_exception = False
    cut = submit(client, match, HAND_1, key="dropped-0002")
    assert 500 <= cut.status_code < 600
    assert cut["Content-Type"].startswith("application/json"), cut.content[:120]
    body = cut.json()
    assert set(body) == {"code", "message", "details"} and body["code"]

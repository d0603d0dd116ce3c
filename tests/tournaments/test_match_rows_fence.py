"""The fence round the hand workflows' plain SQL (tournaments/checks.py): start-up fails where
the SQL would go behind Django's back, and HAND_ROWS_SQL=false takes the ORM path, which
stores and loads the same."""

from __future__ import annotations

import django
import pytest
from django.db.models import signals

from tests.tournaments.builders import HAND_1, HAND_2, make_director, make_match, scorer
from tournaments import checks, services
from tournaments.models import Hand, HandSubmission, Match
from tournaments.services import match_rows

pytestmark = pytest.mark.django_db
ROUTER = "tests.tournaments.test_match_rows_fence.Router"


class Router:
    """A database router that routes nothing anywhere: its presence alone is the point."""


@pytest.fixture(autouse=True)
def plain_sql(settings):
    """Each test starts from the shipped configuration, whatever the environment says."""
    settings.HAND_ROWS_SQL = True


def ids() -> list[str]:
    return [message.id for message in checks.hand_rows_sql()]


def test_the_default_configuration_passes_the_fence():
    assert ids() == []


@pytest.mark.parametrize("model", [Hand, HandSubmission, Match])
@pytest.mark.parametrize("signal", [signals.pre_save, signals.post_save])
def test_a_save_receiver_on_a_hand_row_stops_start_up(model, signal):
    def receiver(**kwargs):
        pass

    signal.connect(receiver, sender=model, weak=False, dispatch_uid="fence-test")
    try:
        assert ids() == ["tournaments.E001"]
    finally:
        signal.disconnect(sender=model, dispatch_uid="fence-test")
    assert ids() == []


def test_a_database_router_stops_start_up(settings):
    settings.DATABASE_ROUTERS = [ROUTER]
    assert ids() == ["tournaments.E002"]


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
def test_a_second_database_stops_start_up(settings):
    settings.DATABASES = {**settings.DATABASES, "replica": dict(settings.DATABASES["default"])}
    assert ids() == ["tournaments.E002"]


def test_another_django_major_version_stops_start_up(monkeypatch):
    monkeypatch.setattr(django, "VERSION", (checks.WRITTEN_FOR + 1, 0, 0, "final", 0))
    assert ids() == ["tournaments.E003"]


def test_with_hand_rows_sql_off_nothing_is_fenced(settings, monkeypatch):
    settings.HAND_ROWS_SQL = False
    settings.DATABASE_ROUTERS = [ROUTER]
    monkeypatch.setattr(django, "VERSION", (checks.WRITTEN_FOR + 1, 0, 0, "final", 0))
    assert ids() == []


def play(match, key: str) -> list[tuple]:
    ns, ew = scorer(match, "NS"), scorer(match, "EW")
    first = services.submit_hand(match=match, actor=ns, record=HAND_1, idempotency_key=key)
    again = services.submit_hand(match=match, actor=ns, record=HAND_1, idempotency_key=key)
    assert again.submission.pk == first.submission.pk  # the retry is the same hand
    services.confirm_hand(
        submission=first.submission, expected_version=first.submission.version, actor=ew
    )
    second = services.submit_hand(match=match, actor=ew, record=HAND_2)
    services.reject_hand(
        submission=second.submission,
        expected_version=second.submission.version,
        actor=ns,
        reason="tricks",
    )
    return [
        (v.hand.number, v.version, v.status, v.is_current, v.record, v.result, v.submitted_side)
        for v in HandSubmission.objects.filter(hand__match=match)
        .select_related("hand")
        .order_by("hand__number", "version")
    ]


def test_the_orm_path_stores_what_the_sql_path_stores_and_sends_the_save_signals(settings):
    director = make_director()
    by_sql = play(make_match(director, match_length="director"), "retry-key-sql")

    settings.HAND_ROWS_SQL = False
    saved = []

    def receiver(sender, instance, created, **kwargs):
        saved.append((sender.__name__, created))

    signals.post_save.connect(receiver, sender=HandSubmission, weak=False, dispatch_uid="orm")
    try:
        match = make_match(director, match_length="director")
        by_orm = play(match, "retry-key-orm")
        assert match_rows.match_hands(match, "retry-key-orm").stored_id is not None
        assert match_rows.locked_match(match.pk).round.tournament_id == match.round.tournament_id
    finally:
        signals.post_save.disconnect(sender=HandSubmission, dispatch_uid="orm")
    assert by_orm == by_sql
    assert ("HandSubmission", True) in saved  # stored through save(), signals and all

"""Announcements after commit: every results change moves the results version on and is heard
by the listeners once the transaction commits, never before and never after a rollback.

(A transaction reporting two results changes counts two: the version only has to move forward,
and a recompute that finds its snapshot current writes nothing.)"""

import pytest
from django.db import transaction

from tournaments.models import Tournament
from tournaments.services import notify

from .builders import make_director, make_match

pytestmark = pytest.mark.django_db(transaction=True)


def _version(tournament_id: int) -> int:
    return Tournament.objects.values_list("results_version", flat=True).get(pk=tournament_id)


def test_results_changes_in_one_transaction_move_the_version_on_and_are_heard_after_commit():
    match = make_match(make_director("td-notify"))
    tournament = match.round.tournament
    heard: list[str] = []
    stop = notify.subscribe(lambda kind, payload: heard.append(kind))
    try:
        before = _version(tournament.pk)
        with transaction.atomic():
            notify.results_changed(tournament)
            notify.match_finished(match)
            assert heard == []  # nothing is announced before the commit
        assert _version(tournament.pk) > before
        assert heard.count("results") >= 1 and heard.count("match-finished") == 1
    finally:
        stop()


def test_results_changes_in_a_rolled_back_transaction_are_neither_counted_nor_heard():
    match = make_match(make_director("td-notify4"))
    tournament = match.round.tournament
    heard: list[str] = []
    stop = notify.subscribe(lambda kind, payload: heard.append(kind))
    try:
        before = _version(tournament.pk)
        with pytest.raises(RuntimeError), transaction.atomic():
            notify.results_changed(tournament)
            notify.match_finished(match)
            raise RuntimeError("undo")
        assert _version(tournament.pk) == before and heard == []
    finally:
        stop()


def test_results_changes_in_separate_transactions_each_count():
    match = make_match(make_director("td-notify2"))
    tournament = match.round.tournament
    before = _version(tournament.pk)
    with transaction.atomic():
        notify.results_changed(tournament)
    with transaction.atomic():
        notify.results_changed(tournament)
    assert _version(tournament.pk) == before + 2


def test_a_rolled_back_savepoint_does_not_swallow_the_next_results_change():
    match = make_match(make_director("td-notify3"))
    tournament = match.round.tournament
    before = _version(tournament.pk)
    with transaction.atomic():
        try:
            with transaction.atomic():
                notify.results_changed(tournament)
                raise RuntimeError("undo")
        except RuntimeError:
            pass
        notify.results_changed(tournament)
    assert _version(tournament.pk) == before + 1

"""The federation recompute on a real Celery worker: a burst of finished events sends one task,
the worker writes the ranking, and a task sent again with nothing changed writes nothing."""

from __future__ import annotations

import pytest
from celery.signals import before_task_publish

from tests import waiting
from tournaments.federation.tasks import recompute_federation
from tournaments.models import FederationRating, FederationRun

from .builders import director_of, finished_event, make_club

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sent():
    """The names of the tasks this test sends (Celery's documented `before_task_publish`)."""
    names: list[str] = []

    def count(sender=None, **kwargs):
        names.append(sender)

    before_task_publish.connect(count, weak=False)
    yield names
    before_task_publish.disconnect(count)


def test_a_burst_of_finished_events_makes_one_recompute_that_a_worker_writes(
    postgres_db, worker, settings, sent
):
    settings.FEDERATION_QUEUE = worker.queue
    settings.FEDERATION_DEBOUNCE_SECONDS = 1
    north, south = make_club("north"), make_club("south")
    n_td, s_td = director_of(north), director_of(south)
    finished_event(n_td, "North 1", [("Aiko", "Ben"), ("Chika", "Dan")], seed=1)
    finished_event(s_td, "South 1", [("Emi", "Fumi"), ("Goro", "Hana")], seed=2)
    finished_event(n_td, "North 2", [("Aiko", "Dan"), ("Chika", "Ben")], seed=3)
    assert sent.count("tournaments.recompute_federation") == 1  # no worker yet: one queued

    worker.start()
    run = waiting.until(
        lambda: FederationRun.objects.filter(game="spades", version__gte=1).first(),
        "the worker's federation recompute",
    )
    assert (run.version, run.events) == (1, 3)
    assert FederationRating.objects.filter(game="spades").count() == 8

    again = recompute_federation.apply_async(args=["spades"]).get(timeout=waiting.SECONDS)
    assert again["written"] is False and again["version"] == 1
    assert FederationRun.objects.get(game="spades").version == 1

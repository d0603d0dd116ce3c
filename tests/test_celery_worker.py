"""A task sent through Redis runs on a real Celery worker and returns the engine's result."""

import pytest

from tests import waiting
from tournaments.tasks import check_records

pytestmark = pytest.mark.celery

SPADES_SUMMARY = {
    "format": "hand/1",
    "game": "spades",
    "rules": "standard",
    "dealer": "N",
    "calls": [
        {"seat": "E", "call": "4"},
        {"seat": "S", "call": "nil"},
        {"seat": "W", "call": "6"},
        {"seat": "N", "call": "5"},
    ],
    "tricks": {"N": 3, "E": 4, "S": 0, "W": 6},
}


def test_check_records_on_real_worker(celery_worker_available):
    result = check_records.delay([SPADES_SUMMARY])
    checked = result.get(timeout=waiting.SECONDS)
    assert len(checked) == 1
    assert checked[0]["ok"] is True, checked[0]
    assert checked[0]["score"] == {"NS": 50, "EW": 64}

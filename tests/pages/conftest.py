"""The pages are tested in-process (no Redis): a results change writes its standings snapshot
and ratings at once, as on the club laptop. The worker path has its own tests (tests/live,
tests/tournaments, tests/faults)."""

import uuid

import pytest


@pytest.fixture(autouse=True)
def in_process(settings):
    settings.REDIS_URL = None
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"pages-{uuid.uuid4().hex}"}}

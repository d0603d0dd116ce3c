"""The hand-submission throttle on Redis (one script, one round trip) answers as DRF's own
sliding window does: the same requests let through and refused at the same times, with the
same `wait()` (the 429's Retry-After and `details.wait`)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import SimpleRateThrottle

from api.throttles import ScopedThrottle
from tournaments import redis_client

pytestmark = pytest.mark.skipif(not django_settings.REDIS_URL, reason="no Redis (REDIS_URL)")

RATE = "3/minute"
START = 1_800_000_000.25
# (seconds after START): 3 allowed, refused while the first is in the window, the first leaves
# at exactly +60 (DRF drops a time <= now - duration), refusals are not counted.
TIMES = [0, 1, 2, 3, 30, 59.9, 60, 60.5, 61.0, 61.5, 62, 62.01, 130, 131, 132, 133]


def _request(user_id: int) -> SimpleNamespace:
    user = SimpleNamespace(pk=user_id, is_authenticated=True)
    return SimpleNamespace(auth=None, user=user, META={"REMOTE_ADDR": "192.0.2.1"})


class _Reference(ScopedThrottle):
    """DRF's SimpleRateThrottle.allow_request on a cache of its own (the GET + SET path)."""

    cache = LocMemCache("throttle-reference", {})

    def allow_request(self, request, view):
        self.scope = view.throttle_scope
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return SimpleRateThrottle.allow_request(self, request, view)


def test_the_redis_throttle_lets_through_refuses_and_waits_as_drf_does(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "hand-submit": RATE,
        },
    }
    view = SimpleNamespace(throttle_scope="hand-submit")
    request = _request(424242)
    _Reference.cache.clear()
    seen, expected = [], []
    for offset in TIMES:
        now = START + offset
        ours, reference = ScopedThrottle(), _Reference()
        ours.timer = reference.timer = lambda now=now: now
        allowed = ours.allow_request(request, view)
        seen.append((offset, allowed, None if allowed else ours.wait()))
        allowed = reference.allow_request(request, view)
        expected.append((offset, allowed, None if allowed else reference.wait()))
    assert seen == expected
    assert [allowed for _, allowed, _ in seen].count(False) >= 5  # the refusals were exercised


def test_the_redis_throttle_is_one_command_and_counts_each_client_apart(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "hand-submit": "1/minute",
        },
    }
    view = SimpleNamespace(throttle_scope="hand-submit")
    client = redis_client.client()
    assert ScopedThrottle().allow_request(_request(3), view)  # the script is loaded by now
    calls = []
    original = client.execute_command

    def counted(*args, **options):
        calls.append(args[0])
        return original(*args, **options)

    client.execute_command = counted
    try:
        assert ScopedThrottle().allow_request(_request(1), view)
        assert len(calls) == 1 and calls[0] in ("EVALSHA", "EVAL")
        assert not ScopedThrottle().allow_request(_request(1), view)
        assert ScopedThrottle().allow_request(_request(2), view)
    finally:
        del client.execute_command

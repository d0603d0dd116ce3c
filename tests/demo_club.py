"""The demo club as `manage.py demo` builds it, for `built_once` (tests/built_once.py).

The demo command's own test (tests/tournaments/test_demo.py) and the axe check of every page
(tests/browser/test_every_page.py) share one build per run, made by the command itself: the
command's test checks what the command made, whichever test built it first.
"""

from __future__ import annotations

import io

from django.core.management import call_command
from django.test import TestCase, override_settings

#: The name the build is kept under.
NAME = "demo-club"


def build() -> None:
    """`manage.py demo` on the embedded default: what its workflows schedule after commit
    (standings, ratings) runs in-process before the rows are saved, also where the test run has
    Redis and a worker, and in a test's transaction as in a live server's."""
    with override_settings(REDIS_URL=None), TestCase.captureOnCommitCallbacks(execute=True):
        call_command("demo", stdout=io.StringIO())

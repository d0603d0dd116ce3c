"""How long a test waits for something to happen before it fails: a deadline, never a measure.

A test waits on a condition (a row written, a page updated, a server answering), polling, and
goes on as soon as it holds; the deadline only says when to give up. It is generous on purpose:
the same condition that holds in a tenth of a second on a quiet laptop can take many seconds on a
2-core machine running the suite beside six other jobs, and a slow machine is not a wrong one.
A wrong answer still fails at once; only a missing one waits the whole deadline. How fast the
product is belongs to the benchmarks (bench/, docs/benchmarks.md), not to the tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: Seconds a test waits for a condition before it fails.
SECONDS = 120.0
#: The same deadline in milliseconds, for Playwright's `timeout=` arguments.
MS = int(SECONDS * 1000)


def until[T](probe: Callable[[], T], what: str, *, seconds: float = SECONDS, step=0.05) -> T:
    """Call `probe` until it returns something truthy and return that; fail the test, saying
    what it waited for, when nothing came within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            import pytest  # here: the benchmarks use this module's deadline without pytest

            pytest.fail(f"waited {seconds:.0f} s for {what}")
        time.sleep(step)

"""How big the property tests are: their full size in CI, a tenth of it in a local `make test`.

CI (CI=true, as `.ci/run` sets it) or HYPOTHESIS_PROFILE=ci runs every property test at the size
its test names (`max_examples=sizes.examples(120)` runs 120 examples) and the unpinned ones at
Hypothesis's default of 100; a local run takes a tenth (at least 5), so that `make test` stays
within five minutes on a 2-core laptop. The examples are the same kind, only fewer: a bug a
local run misses, CI's full run finds (and Hypothesis's database keeps a failing example
found locally for the next local run).
"""

from __future__ import annotations

import os

TRUE = {"1", "true", "yes"}


def profile() -> str:
    """The Hypothesis profile of this run: "ci" (full sizes) or "dev" (a tenth)."""
    chosen = os.environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    return "ci" if os.environ.get("CI", "").lower() in TRUE else "dev"


def full() -> bool:
    return profile() == "ci"


def examples(size: int) -> int:
    """`size` examples in CI, a tenth of them (at least 5) locally."""
    return size if full() else max(5, size // 10)


def screenshots() -> bool:
    """Whether the browser tests save their screenshots (test-artifacts/screenshots/): in CI and
    with TRICKTABLE_SCREENSHOTS=1 (`make screenshots`), not in a local `make test`. They are for
    people to look at, no test reads them back, and the 176 full-page PNGs cost Chromium 0.1 to
    0.25 s of CPU each."""
    chosen = os.environ.get("TRICKTABLE_SCREENSHOTS", "").lower()
    if chosen:
        return chosen in TRUE
    return os.environ.get("CI", "").lower() in TRUE

"""The API's OpenAPI document as schemathesis reads it, for the property tests that generate
requests from it (tests/api/test_schemathesis.py, tests/hostile/test_api_fuzz.py).

Loaded once per test process: generating the document takes seconds, and each module used to
generate its own while pytest collected it. Locally (tests/sizes.py) schemathesis's coverage
phase is left out: it makes every boundary case of every operation when the tests are
collected, in each pytest-xdist worker, whether the tests run or not; CI (full sizes) runs it.
"""

from __future__ import annotations

from functools import cache

import schemathesis

from tests import sizes


@cache
def served_schema():
    """The schema as the app serves it at /api/v1/schema/ (generating it needs no database)."""
    from config.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
    if not sizes.full():
        schema.config.phases.coverage.enabled = False
    return schema

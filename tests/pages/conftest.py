"""The pages are tested in-process (no Redis): see `in_process_tasks` in tests/conftest.py."""

import pytest


@pytest.fixture(autouse=True)
def in_process(in_process_tasks):
    return in_process_tasks

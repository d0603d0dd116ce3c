"""Settings for the uvicorn process of the live integration test: the project's settings with
the live routes mounted (tests/live/urls.py) until api/urls.py includes them."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "tests.live.urls"

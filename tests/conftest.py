"""Shared fixtures for the project's tests (the rules engine's own tests live in tests/games/).

Tests that need a service (PostgreSQL, Redis + a Celery worker, Chromium) skip with a reason when
the service is not configured, so `make test` passes on a bare machine. CI sets
TRICKTABLE_REQUIRE_SERVICES=1: there a missing service is a failure, never a silent skip.
"""

import importlib.util
import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests import sizes

CHROMIUM = Path("/usr/bin/chromium")

# Hypothesis sizes (tests/sizes.py): full in CI (CI=true, .ci/run), a quarter locally;
# HYPOTHESIS_PROFILE=ci gives the CI sizes locally. No deadline: under pytest-xdist the tests
# share the cores with each other and with Chromium, and a slow example is not a wrong one (the
# benchmarks in bench/ measure speed).
hypothesis_settings.register_profile("ci", max_examples=100, deadline=None, print_blob=True)
hypothesis_settings.register_profile("dev", max_examples=sizes.examples(100), deadline=None)
hypothesis_settings.load_profile(sizes.profile())


def services_required() -> bool:
    return os.environ.get("TRICKTABLE_REQUIRE_SERVICES", "").lower() in {"1", "true", "yes"}


def require(condition: bool, reason: str) -> None:
    """Skip (locally) or fail (in CI) when a needed service is not there."""
    if condition:
        return
    if services_required():
        pytest.fail(f"service required in this run but missing: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session", autouse=True)
def _cache_of_this_worker():
    """Under pytest-xdist (`make test`) each worker keeps its cache keys under a prefix of its
    own, so one worker's throttle counters (anonymous callers share 127.0.0.1) and cleared
    cache never touch another's."""
    from django.conf import settings
    from django.test import override_settings

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    default = settings.CACHES["default"]
    if not worker:
        yield
        return
    prefix = f"{default.get('KEY_PREFIX') or 'tricktable'}-{worker}"
    own = {**default, "KEY_PREFIX": prefix}
    if "LocMemCache" in default["BACKEND"]:
        own["LOCATION"] = prefix
    with override_settings(CACHES={**settings.CACHES, "default": own}):
        yield


def clear_cache() -> None:
    """Empty this run's cache (throttle counters, cached pages). On Redis only the keys under
    the cache's prefix go: Django's `cache.clear()` would FLUSHDB the database the Celery broker
    shares (REDIS_URL), dropping the queues and bindings of workers other tests are using."""
    from django.conf import settings
    from django.core.cache import cache

    config = settings.CACHES["default"]
    if "redis" not in config["BACKEND"].lower():
        cache.clear()
        return
    client = cache._cache.get_client(write=True)
    keys = list(client.scan_iter(match=f"{config.get('KEY_PREFIX', '')}:*", count=1000))
    if keys:
        client.delete(*keys)


@pytest.fixture(autouse=True)
def english_by_default():
    """Each test starts in English: a request in Japanese leaves the thread's language behind,
    and a later test calling an export directly would print Japanese headings."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture
def in_process_tasks(settings):
    """No Redis for this test: a results change writes its standings snapshot and ratings at
    once, as on the club laptop (page tests; the worker path has its own tests)."""
    import uuid

    settings.REDIS_URL = None
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"in-process-{uuid.uuid4().hex}"}}


@pytest.fixture
def postgres_db(db):
    """The test database, which must be PostgreSQL."""
    from django.db import connection

    require(
        connection.vendor == "postgresql",
        f"needs PostgreSQL: DATABASE_URL is not postgres:// (database is {connection.vendor})",
    )
    return connection


@pytest.fixture(scope="session")
def celery_worker_available():
    """The Celery app, once a real worker has answered a ping over Redis."""
    from django.conf import settings

    require(bool(settings.REDIS_URL), "needs Redis and a Celery worker: REDIS_URL is not set")
    from config.celery import app

    try:
        replies = app.control.ping(timeout=5.0)
    except Exception as exc:  # broker unreachable
        replies = None
        require(False, f"needs a Celery worker: cannot reach the broker ({exc})")
    require(bool(replies), "needs a Celery worker: none answered a ping (make worker)")
    return app


@pytest.fixture
def worker(celery_worker_available, settings):
    """A real Celery worker of this test's own (tests/workers.py), not yet started; standings
    recomputes go to its private queue."""
    from tests.workers import Worker

    own = Worker()
    settings.STANDINGS_QUEUE = own.queue
    yield own
    own.stop()


@pytest.fixture
def chromium_path() -> str:
    require(CHROMIUM.exists(), f"needs Chromium at {CHROMIUM} (apt-get install -y chromium)")
    require(
        importlib.util.find_spec("playwright") is not None,
        "needs the playwright Python package (make venv)",
    )
    return str(CHROMIUM)


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def page(chromium_path, live_server, monkeypatch):
    # Playwright's sync API runs an event loop in this thread; let Django's ORM run beside it.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
        try:
            yield context.new_page()
        finally:
            context.close()
            browser.close()


ARTIFACTS = Path(os.environ.get("TRICKTABLE_ARTIFACTS", Path(__file__).resolve().parent.parent
                                / "test-artifacts"))


@pytest.fixture
def screenshot():
    """Save a full-page screenshot as a test artefact: screenshot(page, "standings-ja")
    writes test-artifacts/screenshots/standings-ja.png (TRICKTABLE_ARTIFACTS moves the folder)."""
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def accessibility():
    """axe-core (the standard checker, vendored in tests/vendor/axe-core) on the current page at
    WCAG 2.1 A and AA. Returns one line per violation and element ("rule: help — selector");
    an empty list when the page passes."""

    def check(page) -> list[str]:
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.evaluate(AXE_SOURCE)  # as a script in the page; evaluate is not bound by CSP
        found = page.evaluate(AXE_RUN)
        return [f"{v['id']}: {v['help']} — {target}" for v in found for target in v["targets"]]

    return check


AXE_VERSION = "4.14.1"
AXE_SOURCE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text(
    encoding="utf-8") + "\n;undefined"
#: WCAG 2.1 A and AA rules only (axe's best-practice rules are advice, not the standard).
AXE_RUN = """async () => {
  const result = await window.axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
    resultTypes: ['violations'],
  });
  return result.violations.map(v => ({
    id: v.id, help: v.help, targets: v.nodes.map(n => n.target.join(' ')),
  }));
}"""


def sign_in_browser(page, live_server, user) -> None:
    """Give the browser a signed-in session of `user` (made by Django's test client)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )

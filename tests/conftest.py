"""Shared fixtures for the project's tests (the rules engine's own tests live in tests/games/).

Tests that need a service (PostgreSQL, Redis + a Celery worker, Chromium) skip with a reason when
the service is not configured, so `make test` passes on a bare machine. CI sets
TRICKTABLE_REQUIRE_SERVICES=1: there a missing service is a failure, never a silent skip.
"""

import importlib.util
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests import sizes, waiting

CHROMIUM = Path("/usr/bin/chromium")
#: Debian's package of Chromium's headless shell: the same Blink and V8 as the full browser,
#: without its desktop user interface. It is what Playwright itself runs for headless tests, and
#: it costs about a third of the CPU a page (docs/benchmarks.md, the test suite's timings).
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")


def chromium() -> Path:
    """The Chromium the browser tests drive: TRICKTABLE_CHROMIUM when set (CI sets the full
    /usr/bin/chromium, the browser the club's users have), else the headless shell where it is
    installed (`make test`), else /usr/bin/chromium."""
    chosen = os.environ.get("TRICKTABLE_CHROMIUM")
    if chosen:
        return Path(chosen)
    return HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM


# Hypothesis sizes (tests/sizes.py): full in CI (CI=true, .ci/run), a tenth locally;
# HYPOTHESIS_PROFILE=ci gives the CI sizes locally. No deadline: under pytest-xdist the tests
# share the cores with each other and with Chromium, and a slow example is not a wrong one (the
# benchmarks in bench/ measure speed).
hypothesis_settings.register_profile("ci", max_examples=100, deadline=None, print_blob=True)
hypothesis_settings.register_profile("dev", max_examples=sizes.examples(100), deadline=None)
hypothesis_settings.load_profile(sizes.profile())


#: Where the long stories are: real Chromium driven through a story, the evening server, real
#: servers, whole demo evenings (seconds to a minute each, against milliseconds for most
#: others). Their tests are marked `long` (besides the modules that mark themselves): `make
#: test` leaves them out, `make test-all` and CI run them.
LONG = (
    "tests/browser/",
    "tests/evening/",
    "tests/publishing/test_stack.py",
    "tests/test_sqlite_room.py",
    "tests/tournaments/test_demo.py",
)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The tests under `LONG` marked `long` (before `-m` selects), then the long tests first,
    each module's tests in their order. pytest-xdist's `--dist worksteal` starts each worker on
    its own contiguous half of this order, so a module's tests (and its Chromium, its server)
    mostly stay on one worker, and a worker that runs out takes tests from the back of the
    other's queue, so both finish together on short tests instead of one waiting for the
    other's last browser story."""
    root = Path(str(config.rootpath))
    for item in items:
        if Path(str(item.path)).relative_to(root).as_posix().startswith(LONG):
            item.add_marker(pytest.mark.long)

    def long(item) -> bool:
        return item.get_closest_marker("long") is not None or _is_browser_test(item)

    # The browser tests first and together, so that a worker's run of them shares one Chromium.
    items.sort(key=lambda item: (not _is_browser_test(item), not long(item)))


def pytest_report_header(config):
    """Which Chromium the browser tests drive, and how to choose another; whether the long
    stories are in this run."""
    lines = []
    if "not long" in (config.option.markexpr or ""):
        lines.append("long stories: not in this run (`make test-all` and CI run them)")
    browser = chromium()
    if not browser.exists():
        return [*lines, f"browser tests: skipped, no Chromium at {browser}"]
    hint = (
        ""
        if browser == HEADLESS_SHELL
        else ("; apt-get install chromium-headless-shell for a third of the CPU a page")
    )
    return [*lines, f"browser tests: {browser} (TRICKTABLE_CHROMIUM to choose another{hint})"]


def services_required() -> bool:
    return os.environ.get("TRICKTABLE_REQUIRE_SERVICES", "").lower() in {"1", "true", "yes"}


def require(condition: bool, reason: str) -> None:
    """Skip (locally) or fail (in CI) when a needed service is not there."""
    if condition:
        return
    if services_required():
        pytest.fail(f"service required in this run but missing: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """The pool's wait for a connection (PostgreSQL) is the tests' deadline (see below).

    On SQLite the test database is a file (in /dev/shm where there is one), as the club's
    laptop has: Django's default in-memory test database is shared between threads in SQLite's
    shared-cache mode, where a table being written is locked for every other connection at once
    ("database table is locked", no busy timeout), so a live page polling while a test writes
    failed now and then. A file gets the settings' WAL and busy timeout: readers carry on,
    writers wait their turn. One file per pytest-xdist worker; PostgreSQL is left as it is."""
    from django.conf import settings
    from django.db import connections

    # A pool made before the test database (a request refused by pytest-django's blocker still
    # builds the pool from the settings of that moment) would go on connecting to the base
    # database after Django renamed it, and both workers would share that one: close it, so the
    # first query after setup builds it for the test database.
    for wrapper in connections.all(initialized_only=True):
        close_pool = getattr(wrapper, "close_pool", None)  # PostgreSQL's pool; SQLite has none
        if close_pool is not None:
            close_pool()
    db = settings.DATABASES["default"]
    pool = db.get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict):
        # A thread of a test waits for a pooled connection as long as any test waits for
        # anything (tests/waiting.py), not the half second after which a server answers 503:
        # eight scorers racing beside the test's own connection need nine of the pool's eight,
        # and on a loaded machine the first to finish took longer than half a second to hand
        # its connection back. The servers the tests start keep the configured timeout.
        pool["timeout"] = waiting.SECONDS
    if not db["ENGINE"].endswith("sqlite3") or db.get("TEST", {}).get("NAME"):
        yield
        return
    # Likewise a writer waits for SQLite's lock (the busy timeout, 20 s in the settings) as long
    # as a test waits: the live server's thread and the test's share the file, and a loaded
    # machine is not a locked database. The servers the tests start keep the configured 20 s.
    db.setdefault("OPTIONS", {})["timeout"] = waiting.SECONDS
    shm = Path("/dev/shm")
    folder = shm if shm.is_dir() and os.access(shm, os.W_OK) else Path(tempfile.gettempdir())
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"tricktable-test-{os.getpid()}-{worker}.sqlite3"
    db.setdefault("TEST", {})["NAME"] = str(folder / name)
    yield
    for leftover in folder.glob(f"{name}*"):  # Django removes the file, not its WAL and index
        leftover.unlink(missing_ok=True)


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


@pytest.fixture(scope="session", autouse=True)
def _quick_password_hashing():
    """Passwords made in tests are hashed with MD5: Django's PBKDF2 takes half a second a
    password (1.5 million rounds, as it should in use), and most tests make a director. The
    real hashers stay listed after it, so a password hashed by a real server (the evening
    server's tests) still checks. Production keeps Django's default (tests/test_settings.py)."""
    from django.conf import settings
    from django.test import override_settings

    quick = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=quick):
        yield


@pytest.fixture(scope="session", autouse=True)
def _no_collected_static_files(tmp_path_factory):
    """The test client's WhiteNoise reads no collected static files: it would index all of
    STATIC_ROOT (over 800 files once `make serve` or an evening-server test has collected them)
    for every new test client, an eighth of a second each time, for files no test fetches
    through it (the live server serves them from the sources; the evening-server tests run a
    server of their own, with its own collected files)."""
    from django.test import override_settings

    with override_settings(STATIC_ROOT=tmp_path_factory.mktemp("static-root")):
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
    import redis

    with redis.Redis.from_url(config["LOCATION"]) as client:  # the cache's own database
        keys = list(client.scan_iter(match=f"{config.get('KEY_PREFIX', '')}:*", count=1000))
        if keys:
            client.delete(*keys)


@pytest.fixture(autouse=True)
def _fresh_cache_for_a_live_server(request):
    """A test with a live server starts with an empty cache: its database is flushed, and what
    an earlier test counted under the same row ids (a table's wrong PINs, its waits, the
    throttles) must not meet the same ids again now that shared data keeps its ids."""
    if "live_server" in request.fixturenames:
        clear_cache()
    yield


@pytest.fixture(autouse=True)
def english_by_default():
    """Each test starts in English: a request in Japanese leaves the thread's language behind,
    and a later test calling an export directly would print Japanese headings."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def built_once(tmp_path_factory):
    """built_once(name, build): the data `build()` makes, built once per run and loaded again
    for later tests, in any worker (tests/built_once.py)."""
    from tests.built_once import BuiltOnce

    if os.environ.get("PYTEST_XDIST_WORKER"):
        # pytest-xdist's documented place for what its workers share: the folder above each
        # worker's temporary folder, one per run.
        shared = tmp_path_factory.getbasetemp().parent / "built-once"
        shared.mkdir(exist_ok=True)
        return BuiltOnce(shared)
    return BuiltOnce(tmp_path_factory.mktemp("built-once"))


@pytest.fixture
def in_process_tasks(settings):
    """No Redis for this test: a results change writes its standings snapshot and ratings at
    once, as on the club laptop (page tests; the worker path has its own tests)."""
    import uuid

    settings.REDIS_URL = None
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"in-process-{uuid.uuid4().hex}",
        }
    }


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
def browser(pytestconfig):
    """This worker's Chromium (see `Chromium`): started for the first browser test, kept for the
    browser tests that follow it, stopped before any other test. Each test still gets a fresh
    browser context (`page`): its own cookies, storage and cache, shared with no other."""
    require(
        chromium().exists(),
        f"needs Chromium at {chromium()} (apt-get install -y chromium chromium-headless-shell)",
    )
    require(
        importlib.util.find_spec("playwright") is not None,
        "needs the playwright Python package (make venv)",
    )
    return pytestconfig.stash[RUNNING]


def patient(context):
    """A browser context whose actions and waits give up after tests/waiting.py's deadline."""
    context.set_default_timeout(waiting.MS)
    return context


class Chromium:
    """Playwright's driver and Chromium for a run of browser tests on one worker: starting them
    costs more than a short story itself (docs/benchmarks.md), so they are started once for the
    browser tests that come one after another (the browser tests come first:
    `pytest_collection_modifyitems`), not once a module or a test. Chromium is launched again
    if a test crashed it (one test's crash is that test's failure, not every later test's).

    Playwright's sync API keeps an event loop running in this thread while it is started: Django
    is told that its ORM may run beside it (DJANGO_ALLOW_ASYNC_UNSAFE) for that time, and any
    other test would find the loop (`async_to_sync` refuses to run beside one), so both are
    stopped before a test that is not a browser test (`pytest_runtest_teardown` and
    `pytest_runtest_setup` below)."""

    def __init__(self) -> None:
        self._pw = None
        self._browser = None
        self._env: pytest.MonkeyPatch | None = None

    def get(self):
        if self._pw is None:
            from playwright.sync_api import expect, sync_playwright

            # Playwright's assertions wait 5 s by default, its actions 30 s: a deadline
            # (tests/waiting.py) for a condition to hold, not a measure.
            expect.set_options(timeout=waiting.MS)
            self._env = pytest.MonkeyPatch()
            self._env.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
            self._pw = sync_playwright().start()
        if self._browser is None or not self._browser.is_connected():
            self._browser = self._pw.chromium.launch(
                executable_path=str(chromium()), args=CHROMIUM_ARGS
            )
        return self._browser

    def new_context(self, **options):
        return patient(self.get().new_context(**options))

    def stop(self) -> None:
        if self._pw is None:
            return
        try:
            if self._browser is not None and self._browser.is_connected():
                self._browser.close()
        finally:
            self._browser = None
            self._pw.stop()
            self._pw = None
            if self._env is not None:
                self._env.undo()
                self._env = None


RUNNING = pytest.StashKey[Chromium]()


def pytest_configure(config):
    config.stash[RUNNING] = Chromium()


def _is_browser_test(item) -> bool:
    return item is not None and item.get_closest_marker("browser") is not None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a browser test's fixtures are torn down: Chromium stays for a next browser test,
    and is stopped before anything else."""
    result = yield
    if not _is_browser_test(nextitem):
        item.config.stash[RUNNING].stop()
    return result


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """No test but a browser test runs beside a started Playwright (under `--dist worksteal`
    the next test a worker expected can be taken by the other worker)."""
    if not _is_browser_test(item):
        item.config.stash[RUNNING].stop()


def pytest_unconfigure(config):
    if RUNNING in config.stash:
        config.stash[RUNNING].stop()


@pytest.fixture
def page(browser, live_server, settings):
    """A phone-sized page (390 x 844, English) in a new browser context of the worker's
    Chromium. The live server is Django's WSGI one, whose event stream is a short response the
    browser reconnects to: here after a second, not five, so a story following a live
    page waits for the page, not for the reconnect."""
    settings.LIVE_SHORT_STREAM_RETRY_MS = 1000
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    try:
        yield context.new_page()
    finally:
        context.close()


ARTIFACTS = Path(
    os.environ.get(
        "TRICKTABLE_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"
    )
)


@pytest.fixture
def screenshot():
    """Save a full-page screenshot as a test artefact: screenshot(page, "standings-ja")
    writes test-artifacts/screenshots/standings-ja.png (TRICKTABLE_ARTIFACTS moves the folder)
    and returns its path. Only where screenshots are wanted (`tests/sizes.screenshots()`: CI,
    `make screenshots`); elsewhere it returns None and Chromium is spared the work."""
    folder = ARTIFACTS / "screenshots"
    wanted = sizes.screenshots()
    if wanted:
        folder.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path | None:
        if not wanted:
            return None
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
    encoding="utf-8"
) + "\n;undefined"
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

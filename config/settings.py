"""TrickTable settings, read from the environment (django-environ).

Embedded default: SQLite file, no Redis (Celery tasks run in-process).
Evening server (`make serve`, TRICKTABLE_SERVER=evening): production mode over plain HTTP on the
club's network, the club's own SQLite database in `club/`, its secret key kept beside it.
Big event: DATABASE_URL=postgres://..., REDIS_URL=redis://..., Celery workers, an ASGI server.
"""

import ipaddress
import socket
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import evening
from config.cache import redis_cache

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# Optional .env file at the project root (not committed).
if (BASE_DIR / ".env").is_file():
    env.read_env(BASE_DIR / ".env")

# The evening server: what `make serve` runs for a club evening (config/evening.py).
EVENING_SERVER = evening.is_evening_server()
# The club's own folder: its database, secret key and backups (not in git).
CLUB_DIR = Path(env("CLUB_DIR", default=str(BASE_DIR / "club")))
PORT = env.int("PORT", default=8000)

DEV_SECRET_KEY = "django-insecure-dev-only-change-me-in-production"
DEBUG = env.bool("DEBUG", default=not EVENING_SERVER)
SECRET_KEY = env("SECRET_KEY", default="") or (
    evening.secret_key(CLUB_DIR) if EVENING_SERVER else DEV_SECRET_KEY
)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY (50+ random characters)")

LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
# The evening server answers on the laptop's own network addresses: phones use those.
LAN_ADDRESSES = evening.lan_addresses() if EVENING_SERVER else []
if EVENING_SERVER:
    ALLOWED_HOSTS = [
        *LOCAL_HOSTS,
        *LAN_ADDRESSES,
        socket.gethostname(),
        f"{socket.gethostname()}.local",
        *env.list("ALLOWED_HOSTS", default=[]),
    ]
else:
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[*LOCAL_HOSTS, "0.0.0.0"])

# The address phones use: what table cards, score sheets and every "open this on your phone" QR
# code carry (tournaments/web/links.py). Unset: the evening server's first LAN address;
# elsewhere the address the browser used.
PUBLIC_URL = env(
    "PUBLIC_URL",
    default=f"http://{LAN_ADDRESSES[0]}:{PORT}" if LAN_ADDRESSES else "",
).rstrip("/")
# Secure cookies, HSTS and the HTTPS redirect follow the site's scheme: on for an HTTPS
# deployment (a PUBLIC_URL starting https://, or production without a PUBLIC_URL, behind TLS),
# off on plain HTTP (the evening server on the club's Wi-Fi, or PUBLIC_URL=http://...).
HTTPS = env.bool(
    "HTTPS",
    default=PUBLIC_URL.startswith("https://")
    or (not PUBLIC_URL and not DEBUG and not EVENING_SERVER),
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
CSRF_FAILURE_VIEW = "tournaments.views.errors.csrf_failure"
if PUBLIC_URL:
    _public = urlsplit(PUBLIC_URL)
    if _public.scheme not in ("http", "https") or not _public.hostname:
        raise ImproperlyConfigured(
            f"PUBLIC_URL must be http://host[:port] or https://..., not {PUBLIC_URL!r}"
        )
    CSRF_TRUSTED_ORIGINS.append(f"{_public.scheme}://{_public.netloc}")
    if _public.hostname not in ALLOWED_HOSTS and "*" not in ALLOWED_HOSTS:
        ALLOWED_HOSTS.append(_public.hostname)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "tournaments",
    "api",
]

MIDDLEWARE = [
    # Outermost: streamed responses (static files, the hands export) as ASGI serves them.
    "config.streaming.AsyncStreamingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The club of the address (`/c/<club>/...`, else the home club): tournaments/clubs.
    "tournaments.clubs.middleware.ClubMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "api.middleware.ApiErrorsMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out sign-in into the lockout answer. Its
    # subclass declared synchronous (config/middleware.py), so the chain runs in one thread;
    # axes' check looks for its own class's name only (axes.W002).
    "config.middleware.SyncAxesMiddleware",
]
SILENCED_SYSTEM_CHECKS = ["axes.W002"]

ROOT_URLCONF = "config.urls"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:director-start"  # the director's own club's pages
LOGOUT_REDIRECT_URL = "tournaments:home"

# The shared templates (the base, the director's, public and scoring pages) are in templates/;
# each feature package of tournaments/ keeps its pages' templates in its own templates/ folder
# (tournaments/duplicate/templates/tournaments/duplicate/...: the names stay the pages' names)
# and its template filters in its own templatetags module.
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [
            BASE_DIR / "templates",
            *sorted(BASE_DIR.glob("tournaments/*/templates")),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "libraries": {
                "duplicate": "tournaments.duplicate.templatetags",
                "knockout": "tournaments.knockout.templatetags",
                "publishing": "tournaments.publishing.templatetags",
                "room": "tournaments.room.templatetags",
            },
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.clubs.context.club",  # the club a page names (many clubs)
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Database: DATABASE_URL, default an SQLite file next to manage.py.
# The evening server keeps the club's own database in CLUB_DIR, apart from the demo's.
DEFAULT_SQLITE = CLUB_DIR / "tricktable.sqlite3" if EVENING_SERVER else BASE_DIR / "db.sqlite3"
if EVENING_SERVER:  # owner only (0700); the database files are 0600 (tournaments/apps.py)
    evening.private_folder(CLUB_DIR)
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{DEFAULT_SQLITE}"),
}
# PostgreSQL through a pool of connections per process (psycopg_pool), as Django advises under
# ASGI: otherwise every request opens a connection of its own. DATABASE_POOL=0 turns it off.
# Each checkout is checked: after a restart or failover of PostgreSQL the pool's idle
# connections are dead, and without the check each would fail one request. The check sends an
# empty query when the connection was last handed out over a second ago or its socket has
# something to read (the server's goodbye); one in use moments ago goes out at once
# (config/db_pool.py).
if DATABASES["default"]["ENGINE"].endswith("postgresql") and env.bool("DATABASE_POOL", True):
    from config.db_pool import check_connection

    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN", 2),
        "max_size": env.int("DATABASE_POOL_MAX", 8),
        # A request waits at most this long for a connection, then its page or API call is a
        # 503 with Retry-After (tournaments/views/errors.py: database_unavailable), never a 500
        # after a long wait: under repeated backend kills every answer comes within a second.
        "timeout": env.float("DATABASE_POOL_TIMEOUT", 0.5),
        # A connection that cannot be made again is given up after this long (psycopg_pool
        # then lowers its count) instead of retrying in the background with a doubling delay
        # for minutes: the next request that needs one opens it at once, so the first request
        # after the database returns is served.
        "reconnect_timeout": env.float("DATABASE_RECONNECT_TIMEOUT", 1.0),
        "check": check_connection,
    }
# PostgreSQL binds the queries' parameters itself (Django's documented `server_side_binding`
# option: psycopg's server-side cursors instead of quoting every value into the SQL text), and
# psycopg prepares a statement once a connection has run it DATABASE_PREPARE_THRESHOLD times
# (psycopg's `prepare_threshold`, passed through OPTIONS): PostgreSQL then parses and plans each
# of a submission's statements once a connection instead of once a request.
# DATABASE_PREPARE=false turns both off (Django's defaults): for a pooler that shares server
# sessions between clients and does not keep prepared statements (PgBouncer in transaction mode
# keeps them from 1.22, with max_prepared_statements set).
if DATABASES["default"]["ENGINE"].endswith("postgresql") and env.bool("DATABASE_PREPARE", True):
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "server_side_binding": True,
            "prepare_threshold": env.int("DATABASE_PREPARE_THRESHOLD", 2),
        }
    )
# A server process does its first requests' work (views, rule sets, catalogues, a database
# connection) at uvicorn's lifespan startup, before it accepts one (config/warm.py).
WARM_UP = env.bool("WARM_UP", default=True)
# The seconds a shared cache (the deployment's nginx micro-cache, deploy/nginx/) may keep a
# public page read by a visitor who is not signed in: `Cache-Control: public, max-age=N`
# (tournaments/web/caching.py). A few seconds take a crowd's reloads off the application at
# the cost of standings that many seconds old; 0 says nothing (no page is kept).
PUBLIC_PAGE_MAX_AGE = env.int("PUBLIC_PAGE_MAX_AGE", default=2)
# SQLite (the club laptop): one evening server with many scorers' phones writing at once. WAL lets
# readers carry on while a hand is written; every transaction takes the write lock when it begins
# (IMMEDIATE), so two writers queue on the busy timeout instead of one failing with "database is
# locked" when its read lock cannot be upgraded; synchronous=NORMAL is durable across a crash of
# the server in WAL mode (a power cut may lose the last commits, never corrupt the file).
# A writer waits 20 s for the lock (SQLite's busy timeout) unless the URL says otherwise
# (django-environ's `?timeout=` option: `sqlite:///club.sqlite3?timeout=60`).
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    sqlite_options = DATABASES["default"].setdefault("OPTIONS", {})
    sqlite_options.update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            "transaction_mode": "IMMEDIATE",
        }
    )
    sqlite_options.setdefault("timeout", 20)
# Backups of every tournament's archive (docs/exports.md): into BACKUP_DIR/<slug>/ when a round
# is closed and at most every BACKUP_INTERVAL seconds while hands arrive, keeping the newest
# BACKUP_KEEP files per tournament. Unset (the default): no automatic backups.
# The evening server keeps them in the club's folder.
BACKUP_DIR = env("BACKUP_DIR", default=str(CLUB_DIR / "backups") if EVENING_SERVER else "") or None
BACKUP_INTERVAL = env.int("BACKUP_INTERVAL", default=300)
BACKUP_KEEP = env.int("BACKUP_KEEP", default=20)

# Archives of whole clubs (docs/clubs.md): a club's archive is written here, in its own folder,
# before the club is removed (tournaments/clubs/archive.py). The evening server keeps them with
# the club's data; elsewhere under the project's var/ (not committed).
CLUB_ARCHIVES_DIR = env(
    "CLUB_ARCHIVES_DIR",
    default=str(
        CLUB_DIR / "club-archives" if EVENING_SERVER else BASE_DIR / "var" / "club-archives"
    ),
)
# The most a club archive may hold once unpacked (bytes): an upload beyond is refused.
CLUB_ARCHIVE_MAX_BYTES = env.int("CLUB_ARCHIVE_MAX_BYTES", default=2 * 1024**3)

# Publishing to the club's site (docs/publishing.md): both set, they win over the director's
# setup page. Each try waits at most PUBLISH_TIMEOUT seconds; failed tries are retried after
# PUBLISH_RETRY_BASE seconds, doubling, at most PUBLISH_RETRY_MAX.
PUBLISH_URL = env("PUBLISH_URL", default="")
PUBLISH_KEY = env("PUBLISH_KEY", default="")
PUBLISH_TIMEOUT = env.float("PUBLISH_TIMEOUT", default=10.0)
PUBLISH_RETRY_BASE = env.float("PUBLISH_RETRY_BASE", default=5.0)
PUBLISH_RETRY_MAX = env.float("PUBLISH_RETRY_MAX", default=600.0)
# The certificate authorities the site's HTTPS certificate is checked against, a PEM file
# (a club's own CA, the local CA of `make site`); unset: the system's. Never unchecked.
PUBLISH_CA_FILE = env("PUBLISH_CA_FILE", default="")
if PUBLISH_CA_FILE and not Path(PUBLISH_CA_FILE).is_file():
    raise ImproperlyConfigured(f"PUBLISH_CA_FILE: no file at {PUBLISH_CA_FILE!r}")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Sign-in: django-axes first counts wrong passwords (api.authentication.SignInGuard), then
# Django checks the password.
AUTHENTICATION_BACKENDS = [
    "api.authentication.SignInGuard",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Internationalisation: English and Japanese.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ja", _("Japanese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The club's clock: the evening server defaults to the laptop's own time zone.
TIME_ZONE = env("TIME_ZONE", default=evening.machine_time_zone() if EVENING_SERVER else "UTC")
USE_I18N = True
USE_TZ = True

# Static files, served by whitenoise.
# Absolute: a club's pages (`/c/<club>/`, tournaments/clubs) share the one copy of the files.
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Brotli copies of the static files only where browsers ask for them, over HTTPS
# (config/storage.py).
STATIC_BROTLI = env.bool("STATIC_BROTLI", default=HTTPS)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "config.storage.StaticFilesStorage"  # whitenoise's, rewriting JS module imports
        )
    },
}

# Celery: REDIS_URL unset -> tasks run eagerly in-process; set -> broker and results on Redis.
REDIS_URL = env("REDIS_URL", default=None)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Catch-up for standings missed while a worker or Redis was down (`celery -A config worker -B`,
# or a separate `celery -A config beat`); workers also sweep when they start.
CELERY_BEAT_SCHEDULE = {
    "sweep-standings": {"task": "tournaments.sweep_standings", "schedule": 30.0},
}
# Cache (standings ETags and bodies, throttles): Redis when REDIS_URL is set, so every web
# process and worker shares it; local memory in the embedded default (one process).
if REDIS_URL:
    CACHES = {"default": redis_cache(REDIS_URL)}  # a Redis outage misses, never fails
    # Two installations sharing one Redis database keep their cache entries apart.
    CACHES["default"]["KEY_PREFIX"] = env("CACHE_KEY_PREFIX", default="tricktable")
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The queue of every task not routed elsewhere (publishing, ...): Celery's "celery" unless
# TASK_QUEUE names another (two installations on one Redis, each with its own workers).
CELERY_TASK_DEFAULT_QUEUE = env("TASK_QUEUE", default="celery")
# The queue standings recomputes go to (tests point it at a worker of their own).
STANDINGS_QUEUE = env("STANDINGS_QUEUE", default=CELERY_TASK_DEFAULT_QUEUE)
# Hand-record import jobs (a big file is minutes of work): their own queue if you like.
IMPORTS_QUEUE = env("IMPORTS_QUEUE", default=CELERY_TASK_DEFAULT_QUEUE)
# The federation ranking's recompute (minutes of work for a big federation): its own queue if
# you like, so that it never waits behind, nor holds up, the standings' and publishing's tasks.
FEDERATION_QUEUE = env("FEDERATION_QUEUE", default=CELERY_TASK_DEFAULT_QUEUE)
# A worker starts the recompute this many seconds after the first change of a burst (events
# finishing, clubs opting in or out): one recompute for the burst.
FEDERATION_DEBOUNCE_SECONDS = env.float("FEDERATION_DEBOUNCE_SECONDS", default=10.0)
# Which queue each task is sent to, by the name of the setting that holds it; tasks not named
# here go to Celery's default queue ("celery"). Celery's router (CELERY_TASK_ROUTES,
# config/routing.py) reads the setting when the task is sent (by a service, a worker's start-up
# sweep or beat), so no call names a queue and a changed setting reroutes at once.
TASK_QUEUE_SETTINGS = {
    "tournaments.recompute_standings": "STANDINGS_QUEUE",
    "tournaments.sweep_standings": "STANDINGS_QUEUE",
    "tournaments.recompute_season": "STANDINGS_QUEUE",
    "tournaments.import_hands": "IMPORTS_QUEUE",
    "tournaments.recompute_federation": "FEDERATION_QUEUE",
}
CELERY_TASK_ROUTES = ("config.routing.route",)

# The client's address, for every throttle, the sign-in lockout and the cap on event streams:
# the connection's own (REMOTE_ADDR) unless the connection comes from a proxy named here
# (addresses or networks, comma-separated: TRUSTED_PROXIES=10.0.0.5,192.168.7.0/24); only then
# is X-Forwarded-For read, from the right, past the trusted proxies (tournaments/web/clients.py).
# Default: none, so a header any client can write is never believed, from loopback neither. The
# production recipe hands uvicorn the same list (--forwarded-allow-ips "$TRUSTED_PROXIES",
# README); the evening server does it itself (docs/hostile-input.md).
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
if env.int("NUM_PROXIES", default=0):  # its old setting believed the header from anyone
    raise ImproperlyConfigured(
        "NUM_PROXIES is gone: name the proxies in front of the server in TRUSTED_PROXIES "
        "(their addresses or networks), and hand uvicorn the same list (README)"
    )
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy.strip(), strict=False)
    except ValueError as _error:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is not an address or a network ({_error})"
        ) from _error

# Event streams (GET /api/v1/tournaments/<slug>/events) one client (address) may hold open at
# once in a server process; past it 429 with Retry-After (api/live.py). A device needs one a
# page: the cap keeps one client from using up the server's open files (docs/live.md).
STREAMS_PER_CLIENT = env.int("STREAMS_PER_CLIENT", default=50)
# How many seconds a shared cache (a caching reverse proxy in front of the servers) may answer
# the live standings GET from its copy: `Cache-Control: public, max-age=0, s-maxage=N` on its
# 200s and 304s, so repeated polls of a busy tournament cost the servers one request a second;
# a browser still revalidates every time. 0: `public, no-cache` (docs/live.md).
LIVE_SHARED_CACHE_SECONDS = env.int("LIVE_SHARED_CACHE_SECONDS", default=1)

# The largest request body the server reads, in bytes (config/body_limit.py, around the whole
# ASGI application): a larger one is refused with 413 while it arrives, chunked or not. The
# largest legitimate body is a hand import file (8 MiB) with its form around it.
REQUEST_BODY_LIMIT = env.int("REQUEST_BODY_LIMIT", default=10 * 1024 * 1024)
# How much of one request body is kept in memory while it arrives; beyond it the body goes to a
# temporary file (Django's reading of a body with a length, and config/body_limit.py's of a
# chunked one), so bodies in flight cost at most this each however many there are. Django's
# default is 2.5 MiB; an uploaded file over it is a temporary file as well.
FILE_UPLOAD_MAX_MEMORY_SIZE = env.int("REQUEST_BODY_IN_MEMORY", default=64 * 1024)

# REST API.
REST_FRAMEWORK: dict[str, Any] = {
    # DRF's own get_ident is never used (api.throttles counts tournaments.web.clients'); 0 in case.
    "NUM_PROXIES": 0,
    "DEFAULT_SCHEMA_CLASS": "api.schema.ApiAutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ApiTokenAuthentication",
        "api.authentication.TableTokenAuthentication",
        "api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.ReadOnlyOrSignedIn"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.LimitedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttles.ScopedThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "hand-submit": "120/minute",
        "tokens": "30/minute",
        "login": "10/minute",
        "import": "20/minute",
        "check": "600/minute",
        "export": "30/minute",  # public PDF and XLSX downloads, per client address
        "call": "10/minute",  # calls for the director, per table token
        # Public registration, per client address, the page's form and the API's POST together
        # (tournaments/web/throttles.py); directors signed in are not counted.
        "register": "30/hour",
        "publish": "60/minute",  # rooms publishing to this site, per client address
    },
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# Wrong passwords (django-axes) on every sign-in: /accounts/login/, /admin/login/ and
# POST /api/v1/auth/tokens. After AXES_FAILURE_LIMIT wrong passwords for one username from one
# address, that username is refused from that address for AXES_COOLOFF_TIME: a club's phones
# share one Wi-Fi (one address to a server on the internet), so locking an address alone would
# lock the whole room out, and locking a username alone would let anyone at the table lock the
# director out. Attempts are kept in the database (every process sees them; a restart keeps
# them). `manage.py axes_reset` lifts every lockout (docs/hostile-input.md).
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = (
    "tournaments.web.clients.client_address"  # the same address as the throttles
)
AXES_LOCKOUT_CALLABLE = "api.errors.locked_out"  # a page, or JSON under /api/
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False  # no start-up banner in the evening server's output; failures still logged

SPECTACULAR_SETTINGS = {
    "TITLE": "TrickTable API",
    "DESCRIPTION": "Tournaments for trick-taking card games (Spades, Whist, Solo Whist, "
    "German Whist).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Serve Swagger UI / Redoc assets locally (drf-spectacular-sidecar): docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # OpenAPI 3.1: its schemas are JSON Schema 2020-12, like the embedded hand/1 schema.
    "OAS_VERSION": "3.1.0",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.add_record_schemas",
        "api.schema.add_live_paths",
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameEnum": "api.enums.GAME",
        "TournamentStateEnum": "api.enums.TOURNAMENT_STATE",
        "RoundStateEnum": "api.enums.ROUND_STATE",
        "MatchStateEnum": "api.enums.MATCH_STATE",
        "EntryStatusEnum": "api.enums.ENTRY_STATUS",
        "HandStatusEnum": "api.enums.HAND_STATUS",
        "LateEntryEnum": "api.enums.LATE_ENTRY",
        "KnockoutLengthEnum": "api.enums.KNOCKOUT_LENGTH",
        "PairSideEnum": "api.enums.PAIR_SIDE",
        "TableSideEnum": "api.enums.TABLE_SIDE",
    },
}

# An HTTPS site (see HTTPS above): redirect to HTTPS, secure cookies, HSTS. Behind a proxy that
# terminates TLS, it must set X-Forwarded-Proto. On plain HTTP none of these: a browser drops a
# secure cookie sent over http://, and signing in would fail with "CSRF cookie not set".
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)

# WeasyPrint logs each rendering step at INFO: one PDF would fill the server log.
LOGGERS: dict[str, dict[str, str]] = {"weasyprint.progress": {"level": "WARNING"}}
if EVENING_SERVER:
    # The director's terminal on a club evening: a refused PIN ("Forbidden: /api/v1/...") or a
    # sign-in is answered on the phone and the director's pages; the terminal keeps what needs the
    # laptop (server errors, a burst of wrong passwords).
    LOGGERS.update({"django.request": {"level": "ERROR"}, "axes": {"level": "WARNING"}})
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": LOGGERS,
}

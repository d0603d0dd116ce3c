"""Settings come from the environment; a production configuration passes `check --deploy`."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import INHERITED_NOT

ROOT = Path(__file__).resolve().parent.parent


def configuration(**env: str | None) -> dict[str, str]:
    """The tests' environment, less DEBUG and SECRET_KEY, with `env` on top (a None value unsets
    the variable)."""
    environment = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    environment.update({k: v for k, v in env.items() if v is not None})
    for name in [k for k, v in env.items() if v is None]:
        environment.pop(name, None)
    return environment


def python(*argv: str, environment: dict[str, str]) -> subprocess.CompletedProcess:
    """This Python running `argv` in the project's folder, its output captured."""
    return subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def manage(*args: str, **env: str | None) -> subprocess.CompletedProcess:
    """`manage.py` in a configuration (`configuration`)."""
    return python("manage.py", *args, environment=configuration(**env))


@pytest.mark.parametrize(
    "site",
    [
        {"ALLOWED_HOSTS": "club.example.org"},  # behind TLS, no PUBLIC_URL
        {"PUBLIC_URL": "https://club.example.org"},
    ],
)
def test_an_https_configuration_passes_the_deploy_check(site):
    done = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        **site,
    )
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_with_the_development_secret_key():
    done = manage("check", DEBUG="0", ALLOWED_HOSTS="club.example.org")
    assert done.returncode != 0
    assert "set SECRET_KEY" in done.stderr


def settings_of(*names: str, **env: str) -> dict[str, str]:
    """The named settings as the configuration given by `env` sets them: the settings module
    (config/settings.py) read by Django's `settings` in a process of its own, with the settings
    module manage.py names. Read without setting Django up (`django.setup()`, as `manage.py
    shell` does): what the settings module sets is the question, not the apps, whose loading is
    most of a process's start."""
    code = (
        "from django.conf import settings;"
        f"[print(name, repr(getattr(settings, name, None))) for name in {names!r}]"
    )
    environment = configuration(**{**dict.fromkeys(INHERITED_NOT), **env})
    environment.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")  # as manage.py does
    done = python("-c", code, environment=environment)
    assert done.returncode == 0, done.stderr
    return dict(line.split(" ", 1) for line in done.stdout.strip().splitlines())


SECURITY = (
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
)


def test_the_evening_server_runs_production_mode_over_plain_http(tmp_path):
    found = settings_of(
        "DEBUG",
        "HTTPS",
        *SECURITY,
        "DATABASES",
        "TIME_ZONE",
        "BACKUP_DIR",
        "STATIC_BROTLI",
        "PASSWORD_HASHERS",
        TRICKTABLE_SERVER="evening",
        CLUB_DIR=str(tmp_path),
        TZ="Asia/Tokyo",
    )
    assert found["BACKUP_DIR"] == repr(str(tmp_path / "backups"))
    assert found["DEBUG"] == "False" and found["HTTPS"] == "False"
    assert all(found[name] in ("False", "0") for name in SECURITY)
    assert str(tmp_path / "tricktable.sqlite3") in found["DATABASES"]  # the club's own database
    assert found["TIME_ZONE"] == "'Asia/Tokyo'"  # the laptop's clock
    assert found["STATIC_BROTLI"] == "False"  # browsers ask for Brotli over HTTPS alone
    # Django's own slow hashers (the tests hash with MD5 for speed: tests/conftest.py)
    first = found["PASSWORD_HASHERS"].split(",")[0]
    assert first == "['django.contrib.auth.hashers.PBKDF2PasswordHasher'"


def test_a_plain_http_public_url_in_production_mode_keeps_cookies_for_http():
    found = settings_of(
        "HTTPS",
        *SECURITY,
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        PUBLIC_URL="http://192.168.1.20:8000",
    )
    assert found["HTTPS"] == "False"
    assert all(found[name] in ("False", "0") for name in SECURITY)
    assert "'192.168.1.20'" in found["ALLOWED_HOSTS"]
    assert "'http://192.168.1.20:8000'" in found["CSRF_TRUSTED_ORIGINS"]


def test_an_https_public_url_turns_on_secure_cookies_hsts_and_the_redirect():
    found = settings_of(
        "HTTPS",
        *SECURITY,
        "STATIC_BROTLI",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(60),
        PUBLIC_URL="https://club.example.org",
    )
    assert found["HTTPS"] == "True"
    assert found["STATIC_BROTLI"] == "True"
    assert found["SESSION_COOKIE_SECURE"] == found["CSRF_COOKIE_SECURE"] == "True"
    assert found["SECURE_SSL_REDIRECT"] == "True"
    assert int(found["SECURE_HSTS_SECONDS"]) > 0


def test_a_public_url_that_is_not_a_web_address_is_refused():
    done = manage("check", PUBLIC_URL="club.example.org")
    assert done.returncode != 0
    assert "PUBLIC_URL must be" in done.stderr


def test_the_lockout_answer_imports_on_its_own():
    """django-axes imports AXES_LOCKOUT_CALLABLE first thing in its checks: no import cycle."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup();"
            "from django.conf import settings;"
            "from django.utils.module_loading import import_string;"
            "print(callable(import_string(settings.AXES_LOCKOUT_CALLABLE)))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_the_evening_server_keeps_refusals_and_sign_ins_off_the_directors_terminal(tmp_path):
    """The evening walk (bench/evening_walk.py) saw "Forbidden: /api/v1/matches/1/hands/3/confirm"
    for every wrong PIN and four AXES lines for each sign-in: server errors still show."""
    evening = settings_of("LOGGERS", TRICKTABLE_SERVER="evening", CLUB_DIR=str(tmp_path))
    assert "'django.request': {'level': 'ERROR'}" in evening["LOGGERS"]
    assert "'axes': {'level': 'WARNING'}" in evening["LOGGERS"]
    assert "django.request" not in settings_of("LOGGERS")["LOGGERS"]  # elsewhere, as before

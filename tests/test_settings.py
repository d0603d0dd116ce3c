"""Settings come from the environment; a production configuration passes `check --deploy`."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment,
        capture_output=True, text=True, timeout=120,
    )


def test_a_production_configuration_passes_the_deploy_check():
    done = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="0",
                  SECRET_KEY=secrets.token_urlsafe(60), ALLOWED_HOSTS="club.example.org")
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_with_the_development_secret_key():
    done = manage("check", DEBUG="0", ALLOWED_HOSTS="club.example.org")
    assert done.returncode != 0
    assert "set SECRET_KEY" in done.stderr

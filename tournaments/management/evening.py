"""What the evening server's commands share: they run under the evening server's settings
(TRICKTABLE_SERVER=evening, config/evening.py), re-starting themselves under them if need be."""

from __future__ import annotations

import os
import sys

from django.conf import settings

from tournaments.management import machine as evening


def run_as_evening_server(*, port: int | None = None) -> None:
    """Start this command again under the evening server's settings (the club's database and
    secret key, DEBUG off) unless it already runs under them with this port. Returns only when
    it does."""
    if settings.EVENING_SERVER and (port is None or port == settings.PORT):
        return
    environment = {**os.environ, evening.SERVER_ENV: evening.EVENING}
    if port is not None:
        environment["PORT"] = str(port)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *sys.argv], environment)

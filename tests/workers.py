"""A Celery worker of a test's own: a real `celery -A config worker` process on the test
database, consuming a queue nobody else uses, that the test can stop and start."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.db import connection

from tests import waiting

ROOT = Path(__file__).resolve().parent.parent


def database_url() -> str:
    """The URL of the database this test runs on (pytest-django's test database)."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class Worker:
    def __init__(self, queue: str | None = None) -> None:
        self.queue = queue or f"test-{uuid.uuid4().hex[:8]}"
        self.process: subprocess.Popen | None = None
        self.log = Path(os.environ.get("TMPDIR", "/tmp")) / f"tricktable-{self.queue}.log"

    def start(self, timeout: float = waiting.SECONDS) -> None:
        from config.celery import app

        env = dict(os.environ, DATABASE_URL=database_url(), STANDINGS_QUEUE=self.queue)
        hostname = f"{self.queue}@%h"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "-Q",
                self.queue,
                "-n",
                hostname,
                "-l",
                "warning",
                "--without-gossip",
                "--without-mingle",
                "--logfile",
                str(self.log),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            replies = app.control.ping(destination=[hostname.replace("%h", _host())], timeout=0.5)
            if replies:
                return
            if self.process.poll() is not None:
                break
        self.stop()
        raise RuntimeError(f"worker for {self.queue} did not start; see {self.log}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def _host() -> str:
    import socket

    return socket.gethostname()

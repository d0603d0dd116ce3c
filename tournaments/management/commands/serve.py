"""`python manage.py serve` (`make serve`): the evening server. Production mode on the club's own
network: every interface, uvicorn (the event stream works), DEBUG off, the club's own database,
static files by whitenoise, the director's account made on first start. See
docs/director-guide.md and docs/evening.md."""

from __future__ import annotations

import hashlib
import io
import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

try:
    import fcntl
except ImportError:  # Windows: one server at a time
    fcntl = None  # type: ignore[assignment]

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils.module_loading import import_string

from tournaments.demo.club import DEMO_DIRECTOR
from tournaments.management import machine as evening
from tournaments.management.evening import run_as_evening_server
from tournaments.printing import paper as printing
from tournaments.services import club


def static_sources_fingerprint() -> str:
    """What the collected static files were made from: every source file's path, size and time,
    and whether Brotli copies are made. Collected again when it changes."""
    sources = hashlib.sha256(f"brotli={settings.STATIC_BROTLI}\n".encode())
    for finder in finders.get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            info = os.stat(storage.path(path))
            sources.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return sources.hexdigest()


class Command(BaseCommand):
    help = (
        "Serve a club evening on this machine's network: phones at the tables reach it at the "
        "address printed on start. Production mode over plain HTTP, the club's own database."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--host",
            default="0.0.0.0",
            help="address to listen on (default 0.0.0.0: every interface)",
        )
        parser.add_argument(
            "--port", type=int, default=None, help="port (default $PORT, else 8000)"
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=None,
            help="server processes (default 1; 2 with REDIS_URL set)",
        )
        parser.add_argument(
            "--access-log", action="store_true", help="log every request (off by default)"
        )

    def handle(
        self,
        *args: Any,
        host: str,
        port: int | None,
        workers: int | None,
        access_log: bool,
        **options: Any,
    ) -> None:
        run_as_evening_server(port=port)
        # Whatever this process creates from now on (the database's files, backups, the
        # static files) is its owner's only: the club's folder is 0700 (config/evening.py).
        os.umask(0o077)
        # Every phone's connection and event stream is an open file: as many as the system lets.
        open_files = evening.raise_open_files()
        port = settings.PORT
        # One process keeps the live hub and in-process tasks together; with Redis the
        # processes share events, standings and the task queue.
        processes = workers or (2 if settings.REDIS_URL else 1)
        if processes > 1 and not settings.REDIS_URL:
            raise CommandError(
                "more than one server process needs REDIS_URL (the processes "
                "share live events and tasks through Redis)"
            )
        self.check_port_free(host, port)
        call_command("migrate", interactive=False, verbosity=0)
        self.collect_static()
        self.announce(port, open_files)
        import uvicorn

        uvicorn.run(
            "config.asgi:application",
            host=host,
            port=port,
            workers=processes,
            lifespan="on",
            # Proxy headers only from the proxies the operator named (TRUSTED_PROXIES; default
            # none): uvicorn's own default would believe them from 127.0.0.1.
            proxy_headers=bool(settings.TRUSTED_PROXIES),
            forwarded_allow_ips=list(settings.TRUSTED_PROXIES),
            server_header=False,
            access_log=access_log,
            log_level="info" if access_log else "warning",
            timeout_graceful_shutdown=5,
        )

    def collect_static(self) -> None:
        """Collect (hash and compress) the static files when they changed since the last start:
        a minute's work on a laptop, so not on every start."""
        # The storage's class, not the storage: the storage reads the manifest when it is made,
        # and must not be made before the lock below. Two servers started at once from one
        # checkout: the one that waited while the other collected would keep the empty
        # manifest it read before, and every page would fail ("Missing staticfiles manifest
        # entry").
        storage_class = import_string(settings.STORAGES["staticfiles"]["BACKEND"])
        if not issubclass(storage_class, ManifestFilesMixin):
            return
        root = Path(settings.STATIC_ROOT)
        root.mkdir(parents=True, exist_ok=True)
        stamp, fingerprint = root / ".sources", static_sources_fingerprint()
        manifest = root / storage_class.manifest_name
        with open(root / ".lock", "w") as lock:
            if fcntl is not None:  # two servers starting at once collect one after the other
                fcntl.flock(lock, fcntl.LOCK_EX)
            if manifest.is_file() and stamp.is_file() and stamp.read_text() == fingerprint:
                return
            self.stdout.write("Preparing the static files (once after each update)...")
            call_command("collectstatic", interactive=False, verbosity=0)
            if not settings.STATIC_BROTLI:  # copies an earlier collect made, never served now
                for stale in root.rglob("*.br"):
                    stale.unlink()
            stamp.write_text(fingerprint)

    def check_port_free(self, host: str, port: int) -> None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, port))
            except OSError as error:
                raise CommandError(
                    f"port {port} is taken ({error.strerror}): is TrickTable already running? "
                    f"Use another port: PORT={port + 1} make serve"
                ) from error

    def announce(self, port: int, open_files: int | None = None) -> None:
        out = self.stdout
        credentials = club.ensure_director()
        for username in club.demo_password_accounts(known=DEMO_DIRECTOR):
            credentials = club.reset_director_password(username=username)
            out.write(
                self.style.WARNING(
                    f"The account {username!r} had the demo's published password: it has a new one."
                )
            )
        out.write(self.style.SUCCESS("TrickTable evening server"))
        database = settings.DATABASES["default"]
        out.write(f"  Database:   {database['ENGINE'].rsplit('.', 1)[-1]} {database['NAME']}")
        out.write(f"  Time zone:  {settings.TIME_ZONE}")
        if settings.BACKUP_DIR:
            out.write(f"  Backups:    {settings.BACKUP_DIR}")
        out.write(f"  On this laptop: http://127.0.0.1:{port}/")
        if settings.PUBLIC_URL:
            out.write(self.style.SUCCESS(f"  Phones:     {settings.PUBLIC_URL}/"))
            public_host = urlsplit(settings.PUBLIC_URL).hostname
            for address in [a for a in settings.LAN_ADDRESSES if a != public_host]:
                out.write(f"              http://{address}:{port}/")
        else:
            out.write(
                self.style.ERROR(
                    "  Phones cannot reach this laptop: it has no network address but loopback. "
                    "Join the club's Wi-Fi (or set PUBLIC_URL) and start again before you print "
                    "table cards."
                )
            )
        if credentials is not None:
            out.write(
                self.style.WARNING(
                    f"  Director sign-in: {credentials.username} / {credentials.password}  "
                    "(shown once: write it down; new one: make director-password)"
                )
            )
        if settings.PUBLIC_URL:
            director = reverse("tournaments:director-home")
            url = f"{settings.PUBLIC_URL}{reverse('login')}?next={director}"
            out.write(f"  Scan to open the director's page on your phone: {url}")
            code = io.StringIO()
            printing.qr_code(url).terminal(out=code, compact=True)
            out.write(code.getvalue(), ending="")
        if open_files is not None and open_files < evening.ENOUGH_OPEN_FILES:
            out.write(
                self.style.WARNING(
                    f"  Open files: at most {open_files} (phones' connections and live pages). "
                    f"Raise the limit to {evening.ENOUGH_OPEN_FILES} or more (ulimit -Hn, "
                    "or the system's limits) before a big evening."
                )
            )
        out.write("  Stop with Ctrl+C.")
        out.flush()

"""The director's zip of an event's static website, built by the documented command in a child
process (docs/publishing.md, "Static site").

`manage.py export_site <slug> DIR` crawls the public pages through Django's test `Client`, a
testing tool: its handler reconnects Django's `close_old_connections` receiver around each
request it makes, on the signals every request of the process shares. That is harmless in a
process of its own and wrong inside a server, whose other requests run on other threads
meanwhile. So the server never crawls: `event_zip` runs the very command a club runs by hand,
`python manage.py export_site <slug> <folder>`, as a child process with the server's own
environment (its settings module, DATABASE_URL, TRICKTABLE_SERVER, CLUB_DIR...: the same
database and the same settings), waits for it (`EXPORT_TIMEOUT` at most), and zips the folder
it wrote. The child's own requests never reach the server's sockets, and nothing of the server
process changes.

A child that fails or does not finish in time is `StaticSiteError` with a stable code
(`site-export-failed`, `site-export-timed-out`) and the words for the director; what the child
wrote to its standard error is logged, never shown.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext_lazy

from .site import StaticSiteError

log = logging.getLogger(__name__)

#: Seconds the child may take to write an event's site (a large event takes well under a
#: minute; beyond this something is wrong and the director is told so).
EXPORT_TIMEOUT = 300
#: The end of the child's standard error kept in the log.
LOGGED_CHARS = 4000

FAILED = gettext_lazy(
    "The static website could not be made. The error is logged for the club's administrator; "
    "try again in a moment."
)
TIMED_OUT = gettext_lazy(
    "Making the static website took too long and was stopped. Try again in a moment; a very "
    "large event can be exported with manage.py export_site instead."
)


def command(slug: str, folder: Path) -> list[str]:
    """The child's command line: the documented management command, by the server's Python."""
    return [
        sys.executable,
        str(Path(settings.BASE_DIR) / "manage.py"),
        "export_site",
        slug,
        str(folder),
    ]


def export(slug: str, folder: Path) -> list[str]:
    """Write the event's site into `folder` (new) by the command in a child process; the files
    written, relative to it, sorted. StaticSiteError when the child fails or times out."""
    try:
        done = subprocess.run(
            command(slug, folder),
            check=False,
            capture_output=True,
            timeout=EXPORT_TIMEOUT,
            cwd=settings.BASE_DIR,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as expired:
        log.error(
            "static site of %s: export_site did not finish within %s s; its errors: %s",
            slug,
            EXPORT_TIMEOUT,
            _tail(expired.stderr),
        )
        raise StaticSiteError("site-export-timed-out", str(TIMED_OUT)) from expired
    except OSError as error:  # the interpreter or manage.py cannot be started
        log.error("static site of %s: export_site could not start: %s", slug, error)
        raise StaticSiteError("site-export-failed", str(FAILED)) from error
    if done.returncode != 0:
        log.error(
            "static site of %s: export_site exited with %s: %s",
            slug,
            done.returncode,
            _tail(done.stderr),
        )
        raise StaticSiteError("site-export-failed", str(FAILED))
    written = sorted(
        path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()
    )
    if not written:
        log.error("static site of %s: export_site wrote nothing", slug)
        raise StaticSiteError("site-export-failed", str(FAILED))
    return written


def zipped(folder: Path, written: list[str], top: str) -> tempfile.SpooledTemporaryFile[bytes]:
    """The site's files in one zip, under the folder `top` (unpacked, it is one folder)."""
    out = tempfile.SpooledTemporaryFile(max_size=32 * 1024 * 1024)  # noqa: SIM115 (the response closes it)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in written:
            archive.write(folder / name, f"{top}/{name}")
    out.seek(0)
    return out


def event_zip(slug: str, top: str) -> tempfile.SpooledTemporaryFile[bytes]:
    """The event's static website as a zip (its files under the folder `top`), made by
    `export_site` in a child process; StaticSiteError when it cannot be made."""
    with tempfile.TemporaryDirectory(prefix="tricktable-site-") as parent:
        folder = Path(parent) / "site"
        return zipped(folder, export(slug, folder), top)


def _tail(stderr: bytes | str | None) -> str:
    if not stderr:
        return "(nothing)"
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    return text[-LOGGED_CHARS:]

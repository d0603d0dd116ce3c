"""Backups: the tournament's archive (`tricktable-archive/1`) written to a folder while the
evening runs, so that nothing confirmed is lost if the laptop dies.

With `settings.BACKUP_DIR` set, the archive of a tournament is written to
`BACKUP_DIR/<slug>/<slug>-<UTC timestamp>-<reason>.json` after commit when a round is closed,
and at most every `BACKUP_INTERVAL` seconds while hands arrive (submitted, confirmed or
corrected); the newest `BACKUP_KEEP` files of each tournament are kept, older ones deleted.
A file is written whole or not at all (a temporary file, fsync, rename). Unset: nothing is
written and the hooks cost a settings lookup.

The hot path (a hand submission) pays one dict lookup and, once an interval, one on-commit
callback. The write itself runs in-process after commit in whichever request set it off (the
embedded default has no worker to hand it to). It never breaks a request: a failure is logged
and the next hand after the interval tries again.

`tournament_folders` is the other half (`manage.py restore_backup`, docs/exports.md).
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from tournaments.models import Tournament

log = logging.getLogger(__name__)

SUFFIX = ".json"

_lock = threading.Lock()
_next_due: dict[int, float] = {}  # tournament id -> when hands may next set off a backup
_clock = time.time  # seconds (a test moves it on)

#: The tournament's archive as text. The archive lives with the exports, which use the services:
#: `TournamentsConfig.ready()` hands its writer in here, so the services never import it back.
_archive_text: Callable[[Tournament], str] | None = None


def use_archive(writer: Callable[[Tournament], str]) -> None:
    """Set what a backup writes: `writer(tournament)` gives the archive's text."""
    global _archive_text
    _archive_text = writer


def backup_dir() -> Path | None:
    """The backups folder, or None when backups are off."""
    folder = getattr(settings, "BACKUP_DIR", None)
    return Path(folder) if folder else None


def _interval() -> float:
    return float(getattr(settings, "BACKUP_INTERVAL", 300))


def _keep() -> int:
    return max(1, int(getattr(settings, "BACKUP_KEEP", 20)))


def tournament_backups(*, folder: Path, slug: str) -> list[Path]:
    """A tournament's backup files in `folder` (its own sub-folder), oldest first. The name's
    timestamp orders them; temporary files (a dot in front) are not backups."""
    own = folder / slug
    if not own.is_dir():
        return []
    prefix = f"{slug}-"
    return sorted(
        (
            p
            for p in own.iterdir()
            if p.name.startswith(prefix) and p.name.endswith(SUFFIX) and p.is_file()
        ),
        key=lambda p: p.name,
    )


@contextlib.contextmanager
def one_snapshot() -> Iterator[None]:
    """Reads that see one moment of the database, so a document built from many queries (a
    backup's archive, publishing's payload) is consistent while hands keep arriving, without
    holding up their writes: a deferred read transaction on SQLite (WAL:
    writers carry on), REPEATABLE READ, READ ONLY on PostgreSQL. Inside an outer transaction
    (a test) that transaction already is the snapshot."""
    if connection.in_atomic_block:
        yield
        return
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        # SQLite's wrapper's transaction_mode (the OPTIONS key of the same name): not in the
        # stubs, which type the wrapper every backend shares.
        sqlite: Any = connection
        mode = sqlite.transaction_mode
        sqlite.transaction_mode = None  # plain BEGIN: deferred, takes no write lock
        try:
            with transaction.atomic():
                yield
        finally:
            sqlite.transaction_mode = mode
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _write_atomically(path: Path, text: str) -> None:
    """`path` holds `text` in full, or is untouched: write beside it, fsync, rename, fsync the
    folder (the rename itself survives a power cut)."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def write_backup(*, tournament_id: int, reason: str, folder: Path | None = None) -> Path | None:
    """Write the tournament's archive now; returns the file (None when backups are off or the
    tournament is gone). Older files beyond BACKUP_KEEP are deleted. Raises OSError when the
    folder cannot be written (callers on a request's path use `backup_quietly`)."""
    folder = folder or backup_dir()
    if folder is None:
        return None
    if _archive_text is None:
        raise RuntimeError("no archive writer: the tournaments app is not ready")
    with one_snapshot():
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return None
        text = _archive_text(tournament)
    slug = tournament.slug
    own = folder / slug
    own.mkdir(parents=True, exist_ok=True)
    path = own / f"{slug}-{_stamp()}-{reason}{SUFFIX}"
    _write_atomically(path, text)
    files = tournament_backups(folder=folder, slug=slug)
    for old in files[: max(0, len(files) - _keep())]:
        with contextlib.suppress(OSError):
            old.unlink()
    return path


def backup_quietly(*, tournament_id: int, reason: str) -> Path | None:
    """`write_backup` that never raises: a failure is logged (the evening goes on)."""
    try:
        return write_backup(tournament_id=tournament_id, reason=reason)
    except Exception:
        log.exception("backup of tournament %s (%s) failed", tournament_id, reason)
        return None


def _claim(tournament_id: int) -> bool:
    """Is a backup due for this tournament's hands? If so, the next one is an interval away
    (claimed before writing: two requests at once write one backup, and a failing folder is
    retried once an interval, not on every hand)."""
    now = _clock()
    with _lock:
        if now < _next_due.get(tournament_id, 0.0):
            return False
        _next_due[tournament_id] = now + _interval()
        return True


def hands_arrived(*, tournament_id: int) -> None:
    """A hand was stored (or confirmed, or corrected): after commit, back the tournament up if
    the last backup is at least BACKUP_INTERVAL seconds old. Costs a dict lookup otherwise."""
    if not getattr(settings, "BACKUP_DIR", None):
        return
    if _clock() < _next_due.get(tournament_id, 0.0):
        return

    def run() -> None:
        if _claim(tournament_id):
            backup_quietly(tournament_id=tournament_id, reason="hands")

    transaction.on_commit(run)


def round_closed(*, tournament_id: int, number: int) -> None:
    """A round was closed: back the tournament up after commit (and restart the interval)."""
    if not getattr(settings, "BACKUP_DIR", None):
        return

    def run() -> None:
        with _lock:
            _next_due[tournament_id] = _clock() + _interval()
        backup_quietly(tournament_id=tournament_id, reason=f"round-{number}-closed")

    transaction.on_commit(run)


def forget_schedule() -> None:
    """Start the interval afresh for every tournament (tests; a new evening)."""
    with _lock:
        _next_due.clear()


# -- restore --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Folder:
    """One tournament's backup files, newest first: a restore takes the first it can read."""

    slug: str
    files: tuple[Path, ...]


def tournament_folders(*, path: Path) -> list[Folder]:
    """What restoring `path` means: a file is itself; a tournament's folder (files named
    `<folder>-...json`) gives its files; a backups folder gives the files of each tournament
    folder in it, by slug. Each tournament's files newest first."""
    if path.is_file():
        return [Folder(slug=path.parent.name, files=(path,))]
    if not path.is_dir():
        raise FileNotFoundError(path)
    own = tournament_backups(folder=path.parent, slug=path.name)
    if own:
        return [Folder(slug=path.name, files=tuple(reversed(own)))]
    out = []
    for sub in sorted(p for p in path.iterdir() if p.is_dir()):
        files = tournament_backups(folder=path, slug=sub.name)
        if files:
            out.append(Folder(slug=sub.name, files=tuple(reversed(files))))
    return out

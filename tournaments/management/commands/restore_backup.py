"""`python manage.py restore_backup [PATH]`: after the laptop died, put every tournament back from
its newest readable backup (tournaments.services.backups), into a database that does not hold it.

PATH is the backups folder (default: BACKUP_DIR, else `backups/` beside manage.py), one
tournament's folder in it, or one backup file. `--list` shows the newest file of each
tournament; `--dry-run` reads and checks every file it would restore, and restores it in a
transaction that is rolled back (when the database has its tables), writing nothing.

Each tournament is restored from its newest file that can be read and restored: a file cut
short (the laptop died while it was copied), damaged, hostile (larger than any archive, nested
deeper than any archive, not an archive, or naming another tournament than its folder) or
refused by the restore is reported, and the next older file of the same tournament is tried.
One tournament's bad files never stop another's restore. A tournament the database already
holds is skipped, changing nothing. The command fails (after restoring all it can) when a
tournament has no file that could be restored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from tournaments.exports import archive
from tournaments.models import Tournament
from tournaments.services import SYSTEM, ServiceError, backups

#: The largest backup file read: far above any tournament's archive (a few MiB for a season's
#: worth of full hand records), far below what would exhaust a laptop's memory when parsed.
MAX_BACKUP_BYTES = 64 * 1024 * 1024
#: The deepest nesting of an archive's JSON: an archive is about 10 levels deep (a hand's
#: versions, a record's tricks, a standings payload); anything deeper is not one.
MAX_DEPTH = 64


class Unreadable(Exception):
    """A backup file that cannot be restored: the reason, in words for the operator."""


def default_folder() -> Path:
    return backups.backup_dir() or Path(settings.BASE_DIR) / "backups"


def _depth_over(value: Any, limit: int) -> bool:
    """Is `value` nested deeper than `limit`? Iterative: no recursion however deep."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            pending.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            pending.extend((v, depth + 1) for v in item)
    return False


def read_backup(path: Path, *, slug: str | None = None) -> dict[str, Any]:
    """The archive in a backup file, checked (`archive.check_archive`) before anything is
    written; `slug`, when given, is the tournament the file's folder names. Raises
    `Unreadable` with the reason."""
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_BACKUP_BYTES + 1)
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror or error})") from None
    if len(raw) > MAX_BACKUP_BYTES:
        raise Unreadable(f"is larger than {MAX_BACKUP_BYTES} bytes, more than any archive")
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise Unreadable("is not UTF-8 text: not an archive") from None
    except RecursionError:
        raise Unreadable("is nested deeper than any archive: not an archive") from None
    except json.JSONDecodeError as error:
        raise Unreadable(
            f"is not complete JSON (cut short or damaged: {error.msg}, "
            f"line {error.lineno} column {error.colno})"
        ) from None
    if _depth_over(document, MAX_DEPTH):
        raise Unreadable(f"is nested deeper than {MAX_DEPTH} levels: not an archive")
    try:
        archive.check_archive(document)
    except ServiceError as error:
        raise Unreadable(f"{error.message} [{error.code}]") from None
    named = document["tournament"]["slug"]
    if slug is not None and named != slug:
        raise Unreadable(f"holds the tournament {named!r}, not {slug!r} as its folder says")
    return document


class Command(BaseCommand):
    help = (
        "Restore each tournament from its newest readable backup (BACKUP_DIR/<slug>/), or from "
        "the folder or file given; unreadable files are reported and an older one is tried; "
        "tournaments the database already holds are skipped."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "path",
            nargs="?",
            metavar="PATH",
            help="the backups folder (default: BACKUP_DIR, else ./backups), one tournament's "
            "folder, or one backup file",
        )
        parser.add_argument(
            "--migrate",
            action="store_true",
            help="first create or update the database's tables (a new laptop)",
        )
        parser.add_argument(
            "--list",
            action="store_true",
            help="only show the newest file of each tournament",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="read and check what would be restored, writing nothing",
        )

    def handle(
        self,
        *args: Any,
        path: str | None,
        list: bool,
        migrate: bool,
        dry_run: bool,
        **options: Any,
    ) -> None:
        where = Path(path) if path else default_folder()
        try:
            folders = backups.tournament_folders(path=where)
        except FileNotFoundError as error:
            raise CommandError(f"no backups at {where}") from error
        if not folders:
            raise CommandError(f"no backups at {where} (expected <slug>/<slug>-*.json)")
        if list:
            for folder in folders:
                self.stdout.write(f"{folder.slug}: {folder.files[0]}")
            return
        if migrate and not dry_run:
            call_command("migrate", interactive=False, verbosity=0)
        # A dry run restores in a transaction it rolls back, when there are tables to restore
        # into; into a database not made yet (a new laptop) it reads and checks the files only.
        into_database = not dry_run or Tournament._meta.db_table in (
            connection.introspection.table_names()
        )
        if dry_run:
            self.stdout.write(
                "Dry run: nothing is written."
                + (
                    ""
                    if into_database
                    else " (The database has no tables yet: files checked only.)"
                )
            )
        lost, unreadable, created_users = [], 0, set()
        for folder in folders:
            named = folder.slug if where.is_dir() else None
            done = False
            for file in folder.files:
                try:
                    document = read_backup(file, slug=named)
                    if into_database:
                        restored = self.restore(document, dry_run=dry_run)
                except Unreadable as error:
                    unreadable += 1
                    self.stderr.write(self.style.WARNING(f"{file}: not restored, it {error}"))
                    continue
                except archive.AlreadyHeld as error:
                    self.stderr.write(
                        self.style.WARNING(
                            f"{folder.slug}: skipped, {error.message} [{error.code}]"
                        )
                    )
                    done = True
                    break
                except ServiceError as error:
                    unreadable += 1
                    self.stderr.write(
                        self.style.WARNING(f"{file}: not restored, {error.message} [{error.code}]")
                    )
                    continue
                done = True
                if not into_database:
                    self.stdout.write(f"{file.name}: would be restored (checked).")
                elif dry_run:
                    self.stdout.write(f"{file.name}: would be restored. {restored.summary()}")
                else:
                    created_users |= set(restored.created_users)
                    self.stdout.write(self.style.SUCCESS(f"{file.name}: {restored.summary()}"))
                if file is not folder.files[0]:
                    self.stderr.write(
                        self.style.WARNING(
                            f"{folder.slug}: {'would be restored' if dry_run else 'restored'} "
                            f"from an older backup, {file.name}: what came after it is lost."
                        )
                    )
                break
            if not done:
                lost.append(folder.slug)
        if created_users and not dry_run:
            self.stdout.write(
                self.style.WARNING(
                    "Accounts restored without a password cannot sign in yet: the evening server "
                    "gives the director a new password on its next start (make serve), or now: "
                    "make director-password."
                )
            )
        if lost:
            raise CommandError(
                f"no backup could be restored for: {', '.join(lost)} "
                f"({unreadable} file(s) could not be restored, said above)"
            )

    def restore(self, document: dict[str, Any], *, dry_run: bool) -> archive.Restored:
        """Restore one archive, or (a dry run) restore it and roll it back."""
        try:
            if not dry_run:
                return archive.restore(archive=document, actor=SYSTEM)
            with transaction.atomic():
                restored = archive.restore(archive=document, actor=SYSTEM)
                transaction.set_rollback(True)
            return restored
        except RecursionError:  # check_archive bounds the depth; this is the last guard
            raise Unreadable("is nested deeper than the restore goes: not an archive") from None

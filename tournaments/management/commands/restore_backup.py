"""`python manage.py restore_backup [PATH]`: after the laptop died, put every tournament back from
its newest backup (tournaments.services.backups), into a database that does not hold it.

PATH is the backups folder (default: BACKUP_DIR, else `backups/` beside manage.py), one
tournament's folder in it, or one backup file. `--list` shows what would be restored.
A tournament the database already holds is skipped, changing nothing (say which file to
restore into an empty database instead); any other refusal fails the command.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournaments.exports import archive
from tournaments.services import SYSTEM, ServiceError, backups

# The `import` command reads an archive file; its module's name is a Python keyword.
ImportCommand = importlib.import_module("tournaments.management.commands.import").Command


def default_folder() -> Path:
    return backups.backup_dir() or Path(settings.BASE_DIR) / "backups"


class Command(BaseCommand):
    help = (
        "Restore each tournament from its newest backup (BACKUP_DIR/<slug>/), or from the "
        "folder or file given; tournaments the database already holds are skipped."
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
            help="only show which file would be restored for each tournament",
        )

    def handle(
        self, *args: Any, path: str | None, list: bool, migrate: bool, **options: Any
    ) -> None:
        where = Path(path) if path else default_folder()
        try:
            chosen = backups.newest_backups(path=where)
        except FileNotFoundError as error:
            raise CommandError(f"no backups at {where}") from error
        if not chosen:
            raise CommandError(f"no backups at {where} (expected <slug>/<slug>-*.json)")
        if list:
            for candidate in chosen:
                self.stdout.write(f"{candidate.slug}: {candidate.path}")
            return
        if migrate:
            call_command("migrate", interactive=False, verbosity=0)
        reader = ImportCommand(stdout=self.stdout, stderr=self.stderr)
        failed = []
        for candidate in chosen:
            document = reader.read(str(candidate.path), None)
            try:
                restored = archive.restore(archive=document, actor=SYSTEM)
            except archive.AlreadyHeld as error:
                self.stderr.write(
                    self.style.WARNING(f"{candidate.slug}: skipped, {error.message} [{error.code}]")
                )
                continue
            except ServiceError as error:
                failed.append(f"{candidate.path}: {error.message} [{error.code}]")
                continue
            self.stdout.write(self.style.SUCCESS(f"{candidate.path.name}: {restored.summary()}"))
        if failed:
            raise CommandError("not restored:\n" + "\n".join(failed))

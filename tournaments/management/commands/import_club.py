"""`python manage.py import_club <file> --slug <address> --name <name>`: import a club's whole
archive (`export_club`'s zip) into a new club of this installation, in one transaction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.clubs import archive
from tournaments.services import SYSTEM, ServiceError


class Command(BaseCommand):
    help = (
        "Import a club archive (tricktable-club-archive/1) into a new club at --slug named "
        "--name; refused, changing nothing, when the file is damaged or was changed."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", metavar="FILE", help="the club's archive (a zip)")
        parser.add_argument("--slug", required=True, help="the new club's address")
        parser.add_argument("--name", required=True, help="the new club's name")

    def handle(self, *args: Any, file: str, slug: str, name: str, **options: Any) -> None:
        try:
            with Path(file).open("rb") as data:
                club = archive.import_club(data=data, slug=slug, name=name, actor=SYSTEM)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror or error}") from error
        except ServiceError as error:
            raise CommandError(f"{file}: {error.message} [{error.code}]") from error
        counts = ", ".join(f"{n} {kind}" for kind, n in archive.counts(club).items())
        self.stdout.write(
            self.style.SUCCESS(f"Imported the club {club.name!r} at /c/{club.slug}/: {counts}.")
        )

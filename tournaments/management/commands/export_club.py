"""`python manage.py export_club <club> <file>`: write a club's whole archive
(`tricktable-club-archive/1`, docs/clubs.md) to FILE, a zip."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.clubs import archive
from tournaments.models import Club


class Command(BaseCommand):
    help = (
        "Export a club whole as one zip (tricktable-club-archive/1): every event's archive, the "
        "members, the seasons and a manifest with checksums. Import it with `import_club`."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug", help="the club's address (as in /c/<club>/)")
        parser.add_argument("file", metavar="FILE", help="the zip to write")

    def handle(self, *args: Any, slug: str, file: str, **options: Any) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"no club at the address {slug!r}")
        target = Path(file)
        partial = target.with_name(f".{target.name}.part")
        try:
            with partial.open("wb") as out:
                manifest = archive.write_club_archive(club=club, out=out)
            os.replace(partial, target)
        except OSError as error:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise CommandError(f"cannot write {file}: {error.strerror or error}") from error
        counts = ", ".join(
            f"{n} {kind.replace('_', ' ')}" for kind, n in manifest["counts"].items()
        )
        self.stderr.write(f"Wrote the archive of the club {slug!r} to {file}: {counts}.")

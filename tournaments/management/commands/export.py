"""`python manage.py export <slug> [-o FILE]`: write a tournament's archive
(`tricktable-archive/1`, docs/exports.md) to standard output or to FILE."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.exports import archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Export a tournament as one JSON archive (tricktable-archive/1): every entry, round, "
        "match, hand version, standings snapshot and audit event. Restore it with `import`."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug", help="the tournament's slug (as in /t/<slug>/)")
        parser.add_argument(
            "-o",
            "--output",
            metavar="FILE",
            default="-",
            help="write the archive to FILE (UTF-8) instead of standard output",
        )

    def handle(self, *args: Any, slug: str, output: str, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament with the slug {slug!r}")
        text = archive.dumps(archive.export_archive(tournament))
        if output == "-":
            self.stdout.write(text, ending="")
            return
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror or error}") from error
        size = len(text.encode())
        self.stderr.write(f"Wrote the archive of {slug!r} to {output} ({size} bytes).")

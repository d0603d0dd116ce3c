"""`python manage.py import <archive.json>`: restore a tournament archive (`export`'s output)
into this database, which must not hold that tournament yet; prints what it restored."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.exports import archive
from tournaments.services import SYSTEM, ServiceError


class Command(BaseCommand):
    help = (
        "Restore a tournament archive (tricktable-archive/1) into this database, in one "
        "transaction; refused, changing nothing, when the database already holds the tournament."
    )
    stealth_options = ("stdin",)

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "file", metavar="ARCHIVE", help="the archive (JSON); - for standard input"
        )

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        document = self.read(file, options.get("stdin"))
        try:
            restored = archive.restore(archive=document, actor=SYSTEM)
        except ServiceError as error:
            raise CommandError(f"{file}: {error.message} [{error.code}]") from error
        self.stdout.write(self.style.SUCCESS(restored.summary()))

    def read(self, file: str, stdin: Any) -> Any:
        try:
            if file == "-":
                stream = stdin or sys.stdin.buffer
                raw = stream.read()
            else:
                raw = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror or error}") from error
        try:
            text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
            return json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CommandError(f"{file} is not JSON: {error}") from error

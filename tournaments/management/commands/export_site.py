"""`python manage.py export_site <slug> DIR` (or `--season <slug> DIR`, `--club DIR`): write a
static website of an event, a season or the whole club into DIR (docs/publishing.md, "Static
site")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.staticsite import site


class Command(BaseCommand):
    help = (
        "Write a static website (plain HTML, English and Japanese, relative links only) of one "
        "event's public pages and downloads into DIR; with --season, a season's table and its "
        "events; with --club, every public page of the club. Open DIR/index.html from disk or "
        "upload DIR to any web host."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "what",
            nargs="+",
            metavar="SLUG DIR",
            help="the event's slug (as in /t/<slug>/) and the folder to write; DIR alone with "
            "--season or --club",
        )
        which = parser.add_mutually_exclusive_group()
        which.add_argument(
            "--season", metavar="SEASON", help="a season's slug (as in /seasons/<slug>/) or number"
        )
        which.add_argument("--club", action="store_true", help="every public page of the club")

    def handle(
        self, *args: Any, what: list[str], season: str | None, club: bool, **options: Any
    ) -> None:
        whole = season is not None or club
        if len(what) != (1 if whole else 2):
            raise CommandError(
                "give DIR alone with --season or --club, else the event's slug and DIR"
            )
        folder = Path(what[-1])
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise CommandError(f"{folder} is not an empty folder: choose a new one")
        try:
            if club:
                scope = site.club_scope()
            elif season is not None:
                scope = site.season_scope(season)
            else:
                scope = site.event_scope(what[0])
            written = site.build(scope, folder)
        except site.StaticSiteError as error:
            raise CommandError(str(error)) from error
        except OSError as error:
            raise CommandError(f"cannot write {folder}: {error.strerror or error}") from error
        self.stderr.write(
            f"Wrote {len(written)} files to {folder}: open {folder / 'index.html'} in a browser."
        )

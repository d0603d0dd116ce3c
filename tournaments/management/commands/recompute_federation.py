"""`python manage.py recompute_federation [game ...]`: rebuild the federation ranking from the
opted-in clubs' finished events now, in this process (what a missed task left behind); writes
nothing for a game whose events did not change."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.federation import services as federation
from tournaments.models import GAMES


class Command(BaseCommand):
    help = "Recompute the federation ranking (OpenSkill across opted-in clubs) of some games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "games", nargs="*", choices=[g for g, _ in GAMES], help="games to rate (default: all)"
        )

    def handle(self, *args: Any, games: list[str], **options: Any) -> None:
        for game in games or [g for g, _ in GAMES]:
            outcome = federation.recompute(game=game)
            what = "written" if outcome.written else "unchanged"
            self.stdout.write(
                f"{game}: {outcome.people} people over {outcome.events} events ({what}, "
                f"version {outcome.version})"
            )

"""`python manage.py recompute_ratings [game ...]`: rebuild club ratings from every finished
match (deterministic: the same matches always give the same ratings)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import GAMES
from tournaments.services import ratings


class Command(BaseCommand):
    help = "Recompute the club ratings (OpenSkill) of one or more games from scratch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "games", nargs="*", choices=[g for g, _ in GAMES], help="games to rate (default: all)"
        )

    def handle(self, *args: Any, games: list[str], **options: Any) -> None:
        for game in games or [g for g, _ in GAMES]:
            count = ratings.recompute(game=game)
            self.stdout.write(f"{game}: {count} players rated")

"""`python manage.py demo`: create the demo club tournaments (deterministic for --seed)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.urls import reverse

from tournaments.demo.club import DEMO_DIRECTOR, build
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Create a realistic club Spades tournament (16 teams, 5 rounds, 3 played with simulated "
        "legal hands, one in play), a Solo Whist evening, a finished Spades cup (a Swiss, then a "
        "top-8 knockout), a German Whist season of four evenings, a finished duplicate Spades "
        "Mitchell and a barometer Whist evening in play."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="do nothing when the database already holds a tournament",
        )

    def handle(self, *args: Any, seed: int, if_empty: bool, **options: Any) -> None:
        if if_empty and Tournament.objects.exists():
            self.stdout.write("The database already holds tournaments: demo not loaded.")
            return
        for tournament in build(seed):
            tournament.refresh_from_db()
            self.stdout.write(
                f"{tournament.name}: {tournament.entries.count()} entries, "
                f"{tournament.round_set.count()} rounds ({tournament.get_state_display()})"
            )
        user, password = DEMO_DIRECTOR
        sign_in = reverse("login")  # the director's sign-in (the admin is not the director's)
        self.stdout.write(
            self.style.SUCCESS(f"Demo loaded. Director sign-in: {user} / {password} ({sign_in})")
        )

"""`python manage.py director_password` (`make director-password`): a new random password for the
evening server's director account, shown once."""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand

from tournaments.management.evening import run_as_evening_server
from tournaments.services import club


class Command(BaseCommand):
    help = "Give the evening server's director account a new random password and show it once."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--username", default=club.DIRECTOR, help=f"the account (default {club.DIRECTOR!r})"
        )

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        run_as_evening_server()
        call_command("migrate", interactive=False, verbosity=0)
        credentials = club.reset_director_password(username=username)
        self.stdout.write(
            self.style.SUCCESS(
                f"Director sign-in: {credentials.username} / {credentials.password}  (shown once)"
            )
        )

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The rules engine's Django edge: only the `check_hands` command lives on this side."""

    name = "games"
    verbose_name = "Rules engine"

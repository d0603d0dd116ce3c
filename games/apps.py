from pathlib import Path
from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The rules engine's Django edge: only the `check_hands` command lives on this side."""

    name = "games"
    verbose_name = "Rules engine"

    def ready(self) -> None:
        import games

        if games.ENGINE.active:
            # The compiled engine runs from .accel/: the development server's reloader would
            # watch those files, not the sources an edit changes (which also sets the build
            # aside: games/accel.py). Watch the sources too.
            from django.utils.autoreload import autoreload_started

            autoreload_started.connect(_watch_sources, dispatch_uid="games-sources")


def _watch_sources(sender: Any, **kwargs: Any) -> None:
    sender.watch_dir(Path(__file__).resolve().parent, "*.py")

from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _after_commit(kind: str, payload: dict[str, Any]) -> None:
    """What a committed workflow sets off: a standings recompute, or a live announcement."""
    from tournaments.live import events
    from tournaments.models import Tournament
    from tournaments.services import ratings, standings

    if kind == "results":
        standings.schedule(payload["tournament"])
        return
    events.publish(payload["tournament"], {"event": kind, **payload})
    if kind == "match-finished":
        game = Tournament.objects.filter(pk=payload["tournament"]).values_list("game", flat=True)
        ratings.schedule(game.get())


def _private_database(sender: Any, connection: Any, **kwargs: Any) -> None:
    """A new connection to an SQLite file: the file and its WAL and shared-memory files are
    the owner's only (0600) — the club's database holds PINs, password hashes and sessions.
    Django's documented `connection_created` signal; SQLite gives the files it creates later
    the database's own mode (config/evening.py)."""
    if connection.vendor != "sqlite":
        return
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return
    from tournaments.management.machine import private_database

    private_database(name)


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        """Connect every listener and signal receiver, here and nowhere at import time."""
        from celery.signals import worker_ready
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_delete, post_save

        from tournaments import tasks  # noqa: F401 - registers the Celery tasks
        from tournaments.exports import archive
        from tournaments.federation import hooks as federation
        from tournaments.live import standings_cache
        from tournaments.models import Tournament
        from tournaments.publishing import hooks as publishing
        from tournaments.services import backups, notify

        # A backup is the tournament's archive, which the exports write.
        backups.use_archive(lambda tournament: archive.dumps(archive.export_archive(tournament)))
        # Results changes flip the cached standings to stale at once (before the recompute).
        notify.subscribe(standings_cache.results_changed)
        notify.subscribe(_after_commit)
        for signal in (post_save, post_delete):
            signal.connect(
                standings_cache.tournament_saved,
                sender=Tournament,
                weak=False,
                dispatch_uid=f"tricktable-standings-cache-{signal is post_save}",
            )
        connection_created.connect(
            _private_database, weak=False, dispatch_uid="tricktable-private-database"
        )
        # A round closed or the event ended: publish it to the club's site (when set up).
        publishing.connect()
        # An opted-in club's event ended: re-rate the federation ranking of its game.
        federation.connect()
        # A worker that starts sweeps what was missed while none ran.
        worker_ready.connect(tasks.catch_up, weak=False, dispatch_uid="tricktable-catch-up")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _after_commit(kind: str, payload: dict) -> None:
    """What a committed workflow sets off: a standings recompute, or a live announcement."""
    from tournaments import live
    from tournaments.models import Tournament
    from tournaments.services import ratings, standings

    if kind == "results":
        standings.schedule(payload["tournament"])
        return
    live.publish(payload["tournament"], {"event": kind, **payload})
    if kind == "match-finished":
        game = Tournament.objects.filter(pk=payload["tournament"]).values_list("game", flat=True)
        ratings.schedule(game.get())


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournaments import checks  # noqa: F401 - registers the system checks
        from tournaments.services import notify

        notify.subscribe(_after_commit)

"""System checks that fence `tournaments/services/match_rows.py`: its hand-built SQL stores and
loads hands the way the ORM would only while nothing else hooks into the ORM for those rows.
Start-up (`check`, `migrate`, `runserver`, `make serve`) fails where that no longer holds;
`HAND_ROWS_SQL=false` takes the ORM path instead."""

from __future__ import annotations

from typing import Any

import django
from django.conf import settings
from django.core.checks import CheckMessage, Error, register
from django.db.models import signals

# The Django major version match_rows.py was written and tested against.
WRITTEN_FOR = 6
HINT = (
    "set HAND_ROWS_SQL=false: the hand workflows then read and write through the ORM "
    "(slower, the same results)"
)


@register()
def hand_rows_sql(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if not settings.HAND_ROWS_SQL:
        return []
    from tournaments.models import Hand, HandSubmission, Match

    errors: list[CheckMessage] = []
    for model in (Hand, HandSubmission, Match):  # a match's state: its first hand's update
        for signal in (signals.pre_save, signals.post_save):
            if signal.has_listeners(model):
                name = "pre_save" if signal is signals.pre_save else "post_save"
                errors.append(
                    Error(
                        f"a {name} receiver is attached to {model.__name__}, and the hand "
                        "workflows store it in plain SQL, which sends no signal",
                        hint=HINT,
                        obj=model,
                        id="tournaments.E001",
                    )
                )
    if getattr(settings, "DATABASE_ROUTERS", []) or len(settings.DATABASES) > 1:
        errors.append(
            Error(
                "a database router or a second database is configured, and the hand workflows "
                "read and write the default database in plain SQL",
                hint=HINT,
                id="tournaments.E002",
            )
        )
    if django.VERSION[0] != WRITTEN_FOR:
        errors.append(
            Error(
                f"the hand workflows' plain SQL was written for Django {WRITTEN_FOR}, "
                f"this is Django {django.get_version()}",
                hint=HINT,
                id="tournaments.E003",
            )
        )
    return errors

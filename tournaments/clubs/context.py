"""The club the pages name: on an installation of more than one club, a club's pages say whose
they are (its name in the header and on its home page); with one club they say TrickTable, as
before. Lazy: a page that does not show it asks nothing."""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from tournaments.clubs.models import Club
from tournaments.clubs.services import current_club

#: The installation's own pages (no club's): the clubs' list and their administration, an
#: invitation, the federation ranking, a person's page across clubs. They say TrickTable.
INSTALLATION_PAGES = frozenset(
    {
        "clubs",
        "clubs-manage",
        "clubs-manage-club",
        "clubs-manage-action",
        "clubs-join",
        "federation",
        "federation-game",
        "federation-history",
        "people-person",
    }
)


def club(request: HttpRequest) -> dict[str, Any]:
    def named() -> Club | None:
        match = request.resolver_match
        if match is not None and match.url_name in INSTALLATION_PAGES:
            return None
        try:
            found = current_club(request)
            return found if Club.objects.exclude(pk=found.pk).exists() else None
        except DatabaseError:  # a page about the database being away: TrickTable, unnamed
            return None

    return {"club_named": SimpleLazyObject(named)}

"""Publishing on the pages (tournaments/publishing): the public pages' "published from the room"
note, and the dashboard's publishing panel."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Publication, PublishedEvent
from tournaments.publishing import services, words

register = template.Library()


@register.inclusion_tag("publishing/_published_note.html")
def published_note(tournament: Any) -> dict[str, Any]:
    """ "Published from the room · last updated …" on an event a room publishes (else nothing)."""
    return {"published": services.published_from_room(tournament.pk)}


@register.inclusion_tag("publishing/_published_note.html")
def published_season_note(series: Any) -> dict[str, Any]:
    """The same note on a season's table when the events it counts came from a room: the time
    of the last update of any of them (the events' documents left unread: the note needs none
    of them)."""
    return {
        "published": PublishedEvent.objects.filter(
            tournament__series_members__series_id=series.pk, taken_over_at__isnull=True
        )
        .defer("document")
        .order_by("-updated_at")
        .first()
    }


@register.simple_tag
def publishing_status(tournament: Any) -> dict[str, Any] | None:
    """The dashboard's panel: on the site, the publish record of an event a room publishes; on
    the room, its publication (None: publishing is not set up here and never was)."""
    published = PublishedEvent.objects.filter(
        tournament_id=tournament.pk, taken_over_at__isnull=True
    ).first()
    if published is not None:
        return {"published": published}
    publication = Publication.objects.filter(tournament_id=tournament.pk).first()
    if publication is None and services.current_target() is None:
        return None
    return {
        "published": None,
        "publication": publication,
        "failure": words.failure(publication.error_code)
        if publication and publication.error_code
        else "",
    }

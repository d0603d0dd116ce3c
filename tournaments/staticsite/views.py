"""The director's download of the event's static website as one zip (docs/publishing.md,
"Static site"): the same site `manage.py export_site <slug> DIR` writes — made by that very
command, in a child process (tournaments/staticsite/download.py), never by a crawl inside the
server."""

from __future__ import annotations

from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import path
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from tournaments.models import Tournament
from tournaments.services import Actor
from tournaments.views.access import director_page
from tournaments.views.errors import _render

from . import download
from .site import StaticSiteError

#: The status of the page that says the site could not be made: the server's own failure (the
#: child's), shown as a page in the site's design with its stable code, not as a traceback.
FAILED_STATUS = 500


@require_safe
@director_page(refusal=gettext_lazy("Only this tournament's directors may download its website."))
def site_zip(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponseBase:
    """The event's public pages as a static website in a zip, for the event's directors (the
    site itself holds only what visitors see; the download is kept from others all the same, as
    building it costs the server a process that asks for every page of the event twice).

    When the child process fails or runs out of time the director gets a page saying so, with
    the error's stable code (`site-export-failed`, `site-export-timed-out`)."""
    top = f"{tournament.slug}-site"
    try:
        archive = download.event_zip(tournament.slug, top)
    except StaticSiteError as error:
        failed = _render(
            request,
            "tournaments/director/static_site_failed.html",
            FAILED_STATUS,
            code=error.code,
            message=str(error),
            tournament=tournament,
        )
        failed["Cache-Control"] = "private, no-store"
        return failed
    response = FileResponse(archive, as_attachment=True, filename=f"{top}.zip")
    response["Cache-Control"] = "private, no-store"
    return response


urlpatterns = [
    path("director/<slug:slug>/static-site.zip", site_zip, name="staticsite-zip"),
]

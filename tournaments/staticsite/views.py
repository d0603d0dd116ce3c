"""The director's download of the event's static website as one zip (docs/publishing.md,
"Static site"): the same site `manage.py export_site <slug> DIR` writes."""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path

from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import path
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from tournaments.models import Tournament
from tournaments.services import Actor
from tournaments.views.access import director_page

from . import site


def zipped(folder: Path, written: list[str], top: str) -> tempfile.SpooledTemporaryFile[bytes]:
    """The site's files in one zip, under the folder `top` (unpacked, it is one folder)."""
    out = tempfile.SpooledTemporaryFile(max_size=32 * 1024 * 1024)  # noqa: SIM115 (the response closes it)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in written:
            archive.write(folder / name, f"{top}/{name}")
    out.seek(0)
    return out


@require_safe
@director_page(refusal=gettext_lazy("Only this tournament's directors may download its website."))
def site_zip(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponseBase:
    """The event's public pages as a static website in a zip, for the event's directors (the
    site itself holds only what visitors see; the download is kept from others all the same, as
    building it costs the server every page of the event twice)."""
    top = f"{tournament.slug}-site"
    with tempfile.TemporaryDirectory(prefix="tricktable-site-") as folder:
        written = site.build(site.event_scope(tournament.slug), Path(folder))
        archive = zipped(Path(folder), written, top)
    response = FileResponse(archive, as_attachment=True, filename=f"{top}.zip")
    response["Cache-Control"] = "private, no-store"
    return response


urlpatterns = [
    path("director/<slug:slug>/static-site.zip", site_zip, name="staticsite-zip"),
]

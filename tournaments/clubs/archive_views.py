"""The pages that move and remove a club (docs/clubs.md, "Moving and removing a club").

- The club's directors' `director/club/archive/` (under the club's address): what the club's
  archive holds, and its download `director/club/archive.zip`.
- The installation's administrators' (superusers') pages, at the site's root only (under a
  club's address they are not found): `clubs/import/` (upload a club's archive into a new
  club), `clubs/manage/<club>/remove/` (make the club's archive, kept on the server, download
  it, then type the club's address to remove it) and `clubs/archives/<club>/<file>` (a kept
  archive, also after the club is gone).

Every POST is one service call (tournaments/clubs/archive.py).
"""

from __future__ import annotations

import re
import tempfile
from typing import IO, Any, cast

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.clubs import archive
from tournaments.clubs.models import Club, home_club
from tournaments.clubs.services import current_club
from tournaments.services import Actor, ServiceError
from tournaments.views.access import director_page

#: Each refusal of moving or removing a club, in the reader's language (the code stays shown).
REFUSALS: dict[str, Any] = {
    "not-operator": gettext_lazy("Only the site's administrators may do that."),
    "bad-slug": gettext_lazy(
        "An address is 2 to 50 lower-case letters, digits and hyphens, with no hyphen at "
        "either end."
    ),
    "bad-name": gettext_lazy("A club's name is 1 to 150 characters."),
    "slug-taken": gettext_lazy("Another club has this address: choose another."),
    "club-archive-damaged": gettext_lazy(
        "This file is not a whole club archive: it is damaged or was changed after it was "
        "exported. Nothing was imported."
    ),
    "club-archive-unsupported": gettext_lazy(
        "This club archive was written by another version of TrickTable, which this site "
        "cannot import. Nothing was imported."
    ),
    "bad-archive": gettext_lazy("An event in this archive cannot be read. Nothing was imported."),
    "archive-inconsistent": gettext_lazy(
        "The archive breaks a rule of this site's database. Nothing was imported."
    ),
    "home-club": gettext_lazy("The home club, whose pages are the site's root, cannot be removed."),
    "bad-confirmation": gettext_lazy("Type the club's address exactly to confirm its removal."),
    "club-in-use": gettext_lazy(
        "Another club's records refer to this club's players: nothing was removed."
    ),
}

CLUB_PREFIX = re.compile(r"/c/[-a-zA-Z0-9_]+/$")


def refusal(error: ServiceError) -> str:
    words = REFUSALS.get(error.code)
    return str(words) if words is not None else error.message


def _private(response: HttpResponseBase) -> HttpResponseBase:
    response["Cache-Control"] = "private, no-store"
    return response


def _at_the_root() -> None:
    """The installation's pages are served at the site's root only: under a club's address
    (`/c/<club>/clubs/...`) they are not found."""
    if CLUB_PREFIX.search(get_script_prefix()):
        raise Http404("the installation's pages are at the site's root")


def _club_home(slug: str) -> str:
    return f"{get_script_prefix()}c/{slug}/"


# The club's directors -------------------------------------------------------------------------


@director_page(of="club")
@require_GET
def club_archive(request: HttpRequest) -> HttpResponseBase:
    club = current_club(request)
    return _private(
        render(
            request, "clubs/archive/director.html", {"club": club, "counts": archive.counts(club)}
        )
    )


@director_page(of="club")
@require_GET
def club_archive_download(request: HttpRequest) -> HttpResponseBase:
    """The club's archive, written into a temporary file and streamed from it."""
    club = current_club(request)
    out = tempfile.TemporaryFile()  # noqa: SIM115  (the response closes it when sent)
    archive.write_club_archive(club=club, out=out)
    out.seek(0)
    return _private(FileResponse(out, as_attachment=True, filename=archive.file_name(club)))


# The installation's administrators ------------------------------------------------------------


@director_page(of="installation")
@require_http_methods(["GET", "POST"])
def import_page(request: HttpRequest) -> HttpResponseBase:
    _at_the_root()
    values = {"slug": "", "name": ""}
    status = 200
    error: ServiceError | None = None
    if request.method == "POST":
        values = {k: request.POST.get(k, "").strip() for k in values}
        upload = request.FILES.get("archive")
        if upload is None:
            messages.error(request, _("Choose the club's archive (a .zip file)."))
            status = 400
        else:
            try:
                club = archive.import_club(
                    data=cast(IO[bytes], upload),
                    slug=values["slug"],
                    name=values["name"],
                    actor=Actor(user=request.user),
                )
            except ServiceError as refused:
                error, status = refused, refused.status
            else:
                messages.success(
                    request,
                    _("The club %(name)s is imported whole: its events, members and seasons.")
                    % {"name": club.name},
                )
                return redirect(_club_home(club.slug))
    response = render(
        request,
        "clubs/archive/import.html",
        {
            "values": values,
            "error": error,
            "error_words": refusal(error) if error else "",
        },
        status=status,
    )
    return _private(response)


@director_page(of="installation")
@require_http_methods(["GET", "POST"])
def remove_page(request: HttpRequest, slug: str) -> HttpResponseBase:
    _at_the_root()
    club = get_object_or_404(Club, slug=slug)
    actor = Actor(user=request.user)
    here = reverse("tournaments:club-remove", args=[club.slug])
    if request.method == "POST":
        try:
            if request.POST.get("action") == "archive":
                made = archive.keep_archive(club=club, actor=actor)
                messages.success(
                    request,
                    _("The club's archive is made and kept on the server: %(file)s.")
                    % {"file": made.name},
                )
                return redirect(here)
            final = archive.remove_club(
                club=club, actor=actor, confirm=request.POST.get("confirm", "")
            )
        except ServiceError as error:
            messages.error(request, f"{refusal(error)} [{error.code}]")
            return redirect(here)
        return _private(
            render(
                request,
                "clubs/archive/removed.html",
                {"name": club.name, "slug": slug, "file": final.name},
            )
        )
    files = list(reversed(archive.kept_archives(slug=club.slug)))  # newest first
    return _private(
        render(
            request,
            "clubs/archive/remove.html",
            {
                "club": club,
                "home": club.pk == home_club().pk,
                "counts": archive.counts(club),
                "kept": [p.name for p in files],
            },
        )
    )


@director_page(of="installation")
@require_GET
def kept_archive(request: HttpRequest, slug: str, name: str) -> HttpResponseBase:
    """A club's archive kept on the server (the club may be gone)."""
    _at_the_root()
    found = next((p for p in archive.kept_archives(slug=slug) if p.name == name), None)
    if found is None:
        raise Http404("no such archive")
    return _private(FileResponse(found.open("rb"), as_attachment=True, filename=found.name))


urlpatterns = [
    path("director/club/archive/", club_archive, name="club-archive"),
    path("director/club/archive.zip", club_archive_download, name="club-archive-download"),
    path("clubs/import/", import_page, name="clubs-import"),
    path("clubs/manage/<slug:slug>/remove/", remove_page, name="club-remove"),
    path("clubs/archives/<slug:slug>/<str:name>", kept_archive, name="club-archive-kept"),
]

"""Downloads (see tournaments/views/__init__.py and docs/exports.md).

Public, the same data as the public pages (published rounds, confirmed hands, the latest
standings snapshot):

- `/t/<slug>/export/standings.csv|xlsx|pdf` and `/t/<slug>/export/results.csv|xlsx|pdf`
- `/t/<slug>/export/bracket.csv|xlsx|pdf`: a knockout's bracket (tournaments.exports.bracket)
- `/t/<slug>/export/matches/<id>.json`: one match as a `match/1` record
- `/t/<slug>/export/hands.jsonl`: every confirmed hand as `hand/1` JSON Lines

Directors only: `/t/<slug>/export/archive.json`, the whole tournament with its audit trail.

The PDF and XLSX downloads cost real work (a PDF is rendered by WeasyPrint, half a second or
more), so anyone could keep the server busy by asking again and again. Each is built once per
results version and kept in Django's cache (`_cached`, keyed by the tournament, the download,
the language, its `results_version` and the standings snapshot it shows), and each client
address (`tournaments.web.clients.client_address`, the one home of who a client is) may ask for
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["export"]` of them (429 with Retry-After beyond).
"""

from __future__ import annotations

import logging

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.urls import path, re_path
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from tournaments.clubs.services import current_club
from tournaments.exports import downloads
from tournaments.models import Tournament
from tournaments.selectors.public.tournament import tournament_by_slug
from tournaments.services import Actor
from tournaments.web import throttles
from tournaments.web.clients import client_address

from .access import director_page
from .errors import _render

log = logging.getLogger(__name__)
THROTTLE_SCOPE = "export"


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = tournament_by_slug(slug, club=current_club(request))
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def throttled(request: HttpRequest) -> int | None:
    """Count this download against the client's address; the seconds to wait when it is over
    the rate (None: go ahead). The shared counter, tournaments/web/throttles.py."""
    return throttles.counted(THROTTLE_SCOPE, client_address(request))


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    response = _render(request, "429.html", 429, wait=wait)
    response["Retry-After"] = str(wait)
    return response


@require_safe
def table_export(request: HttpRequest, slug: str, subject: str, fmt: str) -> HttpResponseBase:
    """Standings or results as CSV, XLSX or PDF, headings in the active language. The PDF and
    XLSX are throttled per client address and built once per results version."""
    tournament = _tournament(request, slug)
    if downloads.is_costly(fmt):
        wait = throttled(request)
        if wait is not None:
            return too_many(request, wait)
    return downloads.response(downloads.table(tournament, subject, fmt))


@require_safe
def match_export(request: HttpRequest, slug: str, match_id: int) -> HttpResponseBase:
    """One match as a `match/1` record (its confirmed hands, in order)."""
    download = downloads.match(_tournament(request, slug), match_id)
    if download is None:
        raise Http404("no such match")
    return downloads.response(download)


@require_safe
def hands_export(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Every confirmed hand as `hand/1` JSON Lines, streamed."""
    return downloads.response(downloads.hands(_tournament(request, slug)))


@require_safe
@director_page(refusal=gettext_lazy("Only this tournament's directors may download its archive."))
def archive_export(request: HttpRequest, tournament: Tournament, actor: Actor) -> HttpResponseBase:
    """The whole tournament (`tricktable-archive/1`): its directors only, for it holds the
    audit trail, e-mail addresses and the hands' history."""
    response = downloads.response(downloads.whole(tournament))
    response["Cache-Control"] = "private, no-store"
    return response


urlpatterns = [
    re_path(
        r"^t/(?P<slug>[-a-zA-Z0-9_]+)/export/"
        r"(?P<subject>standings|results|bracket)\.(?P<fmt>csv|xlsx|pdf)$",
        table_export,
        name="export-table",
    ),
    path("t/<slug:slug>/export/matches/<int:match_id>.json", match_export, name="export-match"),
    path("t/<slug:slug>/export/hands.jsonl", hands_export, name="export-hands"),
    path("t/<slug:slug>/export/archive.json", archive_export, name="export-archive"),
]

"""Downloads (see tournaments/views/__init__.py and docs/exports.md).

Public, the same data as the public pages (published rounds, confirmed hands, the latest
standings snapshot):

- `/t/<slug>/export/standings.csv|xlsx|pdf` and `/t/<slug>/export/results.csv|xlsx|pdf`
- `/t/<slug>/export/matches/<id>.json`: one match as a `match/1` record
- `/t/<slug>/export/hands.jsonl`: every confirmed hand as `hand/1` JSON Lines

Directors only: `/t/<slug>/export/archive.json`, the whole tournament with its audit trail.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import path, re_path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.exports import archive, pdf, records, tabular
from tournaments.models import Tournament
from tournaments.selectors import exports as selectors
from tournaments.services import Actor, is_director

SHEETS: dict[str, Callable[[Tournament], tabular.Sheet]] = {
    "standings": tabular.standings_sheet,
    "results": tabular.results_sheet,
}
PDFS: dict[str, Callable[[Tournament], bytes]] = {
    "standings": pdf.standings_pdf,
    "results": pdf.results_pdf,
}


def _tournament(slug: str) -> Tournament:
    tournament = selectors.tournament_by_slug(slug)
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def _download(response: HttpResponse, name: str, *, inline: bool = False) -> HttpResponse:
    """Name the file (ASCII only: the slug is ASCII) and keep shared caches from storing a
    download whose data changes with every result."""
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{name}"'
    response["Cache-Control"] = "no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
def table_export(request: HttpRequest, slug: str, subject: str, fmt: str) -> HttpResponse:
    """Standings or results as CSV, XLSX or PDF, headings in the active language."""
    tournament = _tournament(slug)
    name = tabular.filename(tournament, subject, fmt)
    if fmt == "pdf":
        body = PDFS[subject](tournament)
        return _download(HttpResponse(body, content_type=pdf.PDF_TYPE), name, inline=True)
    sheet = SHEETS[subject](tournament)
    if fmt == "csv":
        return _download(HttpResponse(tabular.to_csv(sheet), content_type=tabular.CSV_TYPE), name)
    body = tabular.to_xlsx(sheet, title=f"{tournament.name} — {sheet.title}")
    return _download(HttpResponse(body, content_type=tabular.XLSX_TYPE), name)


@require_safe
def match_export(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """One match as a `match/1` record (its confirmed hands, in order)."""
    tournament = _tournament(slug)
    match = selectors.public_match(tournament, match_id)
    if match is None:
        raise Http404("no such match")
    body = records.dumps(records.match_record(match)) + "\n"
    name = tabular.filename(tournament, f"round-{match.round.number}-table-{match.table.number}",
                            "json")
    return _download(HttpResponse(body, content_type="application/json"), name)


@require_safe
def hands_export(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """Every confirmed hand as `hand/1` JSON Lines, streamed."""
    tournament = _tournament(slug)
    response = StreamingHttpResponse(records.hand_lines(tournament),
                                     content_type=records.JSONL_TYPE)
    return _download(response, tabular.filename(tournament, "hands", "jsonl"))


@require_safe
def archive_export(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole tournament (`tricktable-archive/1`): its directors only, for it holds the
    audit trail, e-mail addresses and the hands' history."""
    tournament = _tournament(slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_director(Actor(user=request.user), tournament):
        raise PermissionDenied(_("Only this tournament's directors may download its archive."))
    body = archive.dumps(archive.export_archive(tournament))
    response = _download(HttpResponse(body, content_type="application/json"),
                         tabular.filename(tournament, "archive", "json"))
    response["Cache-Control"] = "private, no-store"
    return response


urlpatterns = [
    re_path(
        r"^t/(?P<slug>[-a-zA-Z0-9_]+)/export/"
        r"(?P<subject>standings|results)\.(?P<fmt>csv|xlsx|pdf)$",
        table_export,
        name="export-table",
    ),
    path("t/<slug:slug>/export/matches/<int:match_id>.json", match_export, name="export-match"),
    path("t/<slug:slug>/export/hands.jsonl", hands_export, name="export-hands"),
    path("t/<slug:slug>/export/archive.json", archive_export, name="export-archive"),
]

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
address (`tournaments.clients.client_address`, the one home of who a client is) may ask for
`REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["export"]` of them (429 with Retry-After beyond).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import path, re_path
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments import throttles
from tournaments.clients import client_address
from tournaments.exports import archive, pdf, records, tabular
from tournaments.exports.bracket import bracket_pdf, bracket_sheet
from tournaments.models import AuditEvent, StandingsSnapshot, Tournament
from tournaments.selectors import exports as selectors
from tournaments.services import Actor, is_director

from .errors import _render

log = logging.getLogger(__name__)
#: How long a built download is kept (a new results version makes a new key at once).
CACHE_SECONDS = 60 * 60
THROTTLE_SCOPE = "export"

SHEETS: dict[str, Callable[[Tournament], tabular.Sheet]] = {
    "standings": tabular.standings_sheet,
    "results": tabular.results_sheet,
    "bracket": bracket_sheet,
}
PDFS: dict[str, Callable[[Tournament], bytes]] = {
    "standings": pdf.standings_pdf,
    "results": pdf.results_pdf,
    "bracket": bracket_pdf,
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


def _throttled(request: HttpRequest) -> int | None:
    """Count this download against the client's address; the seconds to wait when it is over
    the rate (None: go ahead). The shared counter, tournaments/throttles.py."""
    return throttles.counted(THROTTLE_SCOPE, client_address(request))


def _too_many(request: HttpRequest, wait: int) -> HttpResponse:
    response = _render(request, "429.html", 429, wait=wait)
    response["Retry-After"] = str(wait)
    return response


def _cache_key(tournament: Tournament, subject: str, fmt: str) -> str:
    """What a download shows, cheaply: the tournament's results version, the standings
    snapshot (which catches up after the results), its latest audited change (a renamed team,
    a withdrawal: every service write is audited) and the heading the PDF prints, in the
    active language."""
    snapshot = (
        StandingsSnapshot.objects.filter(tournament=tournament).values_list("pk", flat=True).first()
    )
    changed = AuditEvent.objects.filter(tournament=tournament).aggregate(last=Max("id"))["last"]
    heading = "\n".join(
        str(part)
        for part in (
            tournament.created_at,
            tournament.name,
            tournament.venue,
            tournament.starts_at,
            tournament.game,
            tournament.format,
            tournament.state,
            tournament.rounds,
        )
    )
    digest = hashlib.sha256(heading.encode()).hexdigest()[:16]
    return (
        f"export:{tournament.pk}:{subject}.{fmt}:{translation.get_language()}:"
        f"r{tournament.results_version}:s{snapshot or 0}:a{changed or 0}:{digest}"
    )


def _cached(key: str, build: Callable[[], bytes]) -> bytes:
    try:
        body = cache.get(key)
    except Exception:  # the cache is away: build it every time
        log.warning("export cache unavailable", exc_info=True)
        return build()
    if body is None:
        body = build()
        try:
            cache.set(key, body, CACHE_SECONDS)
        except Exception:
            log.warning("export cache unavailable", exc_info=True)
    return body


@require_safe
def table_export(request: HttpRequest, slug: str, subject: str, fmt: str) -> HttpResponse:
    """Standings or results as CSV, XLSX or PDF, headings in the active language. The PDF and
    XLSX are throttled per client address and built once per results version."""
    tournament = _tournament(slug)
    name = tabular.filename(tournament, subject, fmt)
    if fmt == "csv":
        sheet = SHEETS[subject](tournament)
        return _download(HttpResponse(tabular.to_csv(sheet), content_type=tabular.CSV_TYPE), name)
    wait = _throttled(request)
    if wait is not None:
        return _too_many(request, wait)
    key = _cache_key(tournament, subject, fmt)
    if fmt == "pdf":
        body = _cached(key, lambda: PDFS[subject](tournament))
        return _download(HttpResponse(body, content_type=pdf.PDF_TYPE), name, inline=True)

    def build_xlsx() -> bytes:
        sheet = SHEETS[subject](tournament)
        return tabular.to_xlsx(sheet, title=f"{tournament.name} — {sheet.title}")

    body = _cached(key, build_xlsx)
    return _download(HttpResponse(body, content_type=tabular.XLSX_TYPE), name)


@require_safe
def match_export(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """One match as a `match/1` record (its confirmed hands, in order)."""
    tournament = _tournament(slug)
    match = selectors.public_match(tournament, match_id)
    if match is None:
        raise Http404("no such match")
    body = records.dumps(records.match_record(match)) + "\n"
    name = tabular.filename(
        tournament, f"round-{match.round.number}-table-{match.table.number}", "json"
    )
    return _download(HttpResponse(body, content_type="application/json"), name)


@require_safe
def hands_export(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """Every confirmed hand as `hand/1` JSON Lines, streamed."""
    tournament = _tournament(slug)
    response = StreamingHttpResponse(
        records.hand_lines(tournament), content_type=records.JSONL_TYPE
    )
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
    response = _download(
        HttpResponse(body, content_type="application/json"),
        tabular.filename(tournament, "archive", "json"),
    )
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

"""The downloads of a tournament, built once for every door they leave by: the public pages'
links (`tournaments/views/exports.py`) and the API (`api/exports.py`). Each answer is a
`Download`: the bytes (or, for the hands, an iterator of lines), the content type, the file's
name and whether a browser should show it inline.

The PDF and XLSX cost real work (a PDF is rendered by WeasyPrint, half a second or more): each is
built once per results version and kept in Django's cache (`cached`, keyed by `cache_key`); the
doors throttle who may ask (docs/exports.md).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Max
from django.http import HttpResponse, StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.models import AuditEvent, StandingsSnapshot, Tournament
from tournaments.selectors import exports as selectors

from . import archive, pdf, records, tabular
from .bracket import bracket_pdf, bracket_sheet

log = logging.getLogger(__name__)
#: How long a built download is kept (a new results version makes a new key at once).
CACHE_SECONDS = 60 * 60
SUBJECTS = ("standings", "results", "bracket")
FORMATS = ("csv", "xlsx", "pdf")

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


@dataclass(frozen=True, slots=True)
class Download:
    body: bytes | Iterable[bytes | str]
    content_type: str
    filename: str
    inline: bool = False
    #: Whether building it cost real work (the doors throttle those).
    costly: bool = False


def cache_key(tournament: Tournament, subject: str, fmt: str) -> str:
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


def cached(key: str, build: Callable[[], bytes]) -> bytes:
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


def is_costly(fmt: str) -> bool:
    """Whether a table download in this format is rendered (PDF) or packed (XLSX)."""
    return fmt != "csv"


def table(tournament: Tournament, subject: str, fmt: str) -> Download:
    """Standings, results or a knockout's bracket as CSV, XLSX or PDF, headings in the active
    language."""
    name = tabular.filename(tournament, subject, fmt)
    if fmt == "csv":
        sheet = SHEETS[subject](tournament)
        return Download(tabular.to_csv(sheet), tabular.CSV_TYPE, name)
    key = cache_key(tournament, subject, fmt)
    if fmt == "pdf":
        body = cached(key, lambda: PDFS[subject](tournament))
        return Download(body, pdf.PDF_TYPE, name, inline=True, costly=True)

    def build_xlsx() -> bytes:
        sheet = SHEETS[subject](tournament)
        return tabular.to_xlsx(sheet, title=f"{tournament.name} — {sheet.title}")

    return Download(cached(key, build_xlsx), tabular.XLSX_TYPE, name, costly=True)


def match(tournament: Tournament, match_id: int) -> Download | None:
    """One public match as a `match/1` record (its confirmed hands, in order), or None."""
    found = selectors.public_match(tournament, match_id)
    if found is None:
        return None
    body = records.dumps(records.match_record(found)) + "\n"
    name = tabular.filename(
        tournament, f"round-{found.round.number}-table-{found.played_table.number}", "json"
    )
    return Download(body.encode(), "application/json", name)


def hands(tournament: Tournament) -> Download:
    """Every confirmed hand as `hand/1` JSON Lines (an iterator: stream it)."""
    return Download(
        records.hand_lines(tournament),
        records.JSONL_TYPE,
        tabular.filename(tournament, "hands", "jsonl"),
    )


def whole(tournament: Tournament) -> Download:
    """The whole tournament (`tricktable-archive/1`), for its directors: it holds the audit
    trail, e-mail addresses and the hands' history."""
    return Download(
        archive.dumps(archive.export_archive(tournament)).encode(),
        "application/json",
        tabular.filename(tournament, "archive", "json"),
    )


def season(series: Any, fmt: str) -> Download:
    """A season's table as CSV, XLSX or PDF; the XLSX and PDF built once per season snapshot
    (keyed like the standings downloads, by the snapshot, the season's inputs and heading)."""
    from .season import season_pdf, season_sheet

    name = tabular.ascii_filename(f"{series.slug}-season.{fmt}")
    if fmt == "csv":
        return Download(tabular.to_csv(season_sheet(series)), tabular.CSV_TYPE, name)
    snapshot = series.snapshots.values_list("pk", flat=True).first()
    heading = hashlib.sha256(f"{series.name}\n{series.rule}\n{series.best}".encode()).hexdigest()
    key = (
        f"export:season:{series.pk}:{fmt}:{translation.get_language()}:s{snapshot or 0}:"
        f"i{series.inputs_version}:{heading[:16]}"
    )
    if fmt == "pdf":
        body = cached(key, lambda: season_pdf(series))
        return Download(body, pdf.PDF_TYPE, name, inline=True, costly=True)
    title = f"{series.name} — {_('Season table')}"
    body = cached(key, lambda: tabular.to_xlsx(season_sheet(series), title=title))
    return Download(body, tabular.XLSX_TYPE, name, costly=True)


def response(download: Download) -> HttpResponse | StreamingHttpResponse:
    """The download as an HTTP answer, for every door: the file named (ASCII only: the slug is
    ASCII), and shared caches kept from storing a download whose data changes with every
    result."""
    if isinstance(download.body, bytes):
        answer: HttpResponse | StreamingHttpResponse = HttpResponse(
            download.body, content_type=download.content_type
        )
    else:
        answer = StreamingHttpResponse(download.body, content_type=download.content_type)
    disposition = "inline" if download.inline else "attachment"
    answer["Content-Disposition"] = f'{disposition}; filename="{download.filename}"'
    answer["Cache-Control"] = "no-cache"
    answer["X-Content-Type-Options"] = "nosniff"
    return answer

"""Standings and results as A4 PDFs, rendered by WeasyPrint from Django templates
(tournaments/exports/templates/): a heading with the tournament's name, game, date and venue,
the name and page numbers in the page margins, and table headings repeated on every page.

Japanese names need a CJK font on the machine (Debian: fonts-noto-cjk); the stylesheet asks for
Noto Sans CJK JP first, which also covers Latin text.
"""

from __future__ import annotations

from itertools import groupby
from types import SimpleNamespace
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.models import Tournament

from .tabular import Sheet, result_lines, standings_sheet

PDF_TYPE = "application/pdf"


def css_string(text: str) -> SafeString:
    """Text for a CSS string in double quotes, inside a <style> element (where HTML escapes
    do not apply): quotes, backslashes, line breaks and `<` become CSS escapes."""
    out = []
    for ch in text:
        if ch in '"\\<>&' or ord(ch) < 0x20:
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    return mark_safe("".join(out))


def _context(tournament: Tournament | SimpleNamespace, sheet: Sheet) -> dict[str, Any]:
    printed = date_format(timezone.localtime(), "DATETIME_FORMAT")
    return {
        "tournament": tournament,
        "sheet": sheet,
        "page_label": css_string(_("Page")),
        "printed_label": css_string(_("Printed %(when)s") % {"when": printed}),
    }


def render(html: str) -> bytes:
    """HTML to PDF. Nothing is fetched: the templates are self-contained, and a fetcher that
    refuses every URL makes sure a name that looks like an address stays text."""
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    class NoFetch(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            raise ValueError(f"exports fetch nothing ({url})")

    return HTML(string=html, base_url=".", url_fetcher=NoFetch()).write_pdf()


#: The most number columns a portrait A4 standings page takes beside the names.
PORTRAIT_METRICS = 9


def standings_html(tournament: Tournament) -> str:
    sheet = standings_sheet(tournament)
    ties, withdrawn = sheet.notes["ties"], sheet.notes["withdrawn"]
    rows = [
        {
            "rank": row[0],
            "entry": row[1],
            "players": row[2],
            "values": row[3:],
            "tied": ties[i],
            "withdrawn": withdrawn[i],
        }
        for i, row in enumerate(sheet.rows)
    ]
    context = _context(tournament, sheet) | {
        "rows": rows,
        "metric_labels": sheet.headers[3:],
        # Landscape where the columns would leave a name too little room on a portrait page.
        "wide": len(sheet.headers) - 3 > PORTRAIT_METRICS,
        "version": sheet.notes["version"],
        "computed_at": sheet.notes["computed_at"],
        "stale": sheet.notes["stale"],
    }
    return render_to_string("tournaments/exports/standings_pdf.html", context)


def results_html(tournament: Tournament) -> str:
    rounds = []
    for number, in_round in groupby(result_lines(tournament), key=lambda line: line.round):
        matches = []
        for _match, grouped in groupby(in_round, key=lambda line: line.match):
            rows = list(grouped)
            matches.append({"table": rows[0].table, "state": rows[0].state, "rows": rows})
        rounds.append({"number": number, "matches": matches})
    sheet = Sheet(_("Results"), [])
    context = _context(tournament, sheet) | {"rounds": rounds}
    return render_to_string("tournaments/exports/results_pdf.html", context)


def standings_pdf(tournament: Tournament) -> bytes:
    return render(standings_html(tournament))


def results_pdf(tournament: Tournament) -> bytes:
    return render(results_html(tournament))

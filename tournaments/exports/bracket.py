"""The knockout's bracket as a download: one row per bracket match (CSV, XLSX) and an A4 PDF of
the bracket round by round with the places, built from the same data as the bracket page
(tournaments.knockout.selectors). Before the bracket is made the table is empty."""

from __future__ import annotations

from decimal import Decimal

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from tournaments.knockout.selectors import bracket_data
from tournaments.models import Tournament

from .pdf import _context, render
from .tabular import Column, Sheet, exact_number


def _score(line: dict) -> int | Decimal | None:
    return exact_number(line["score"]) if line["score"] not in ("", None) else None


def bracket_sheet(tournament: Tournament) -> Sheet:
    """Round, match, both sides (seed, entry, score: the game's points, or matches won in a
    best of N), the winner and the match's state; then each entry's place as decided."""
    columns = [
        Column(_("Round")),
        Column(_("Match"), numeric=True),
        Column(_("Seed"), numeric=True),
        Column(_("Entry")),
        Column(_("Score"), numeric=True),
        Column(_("Seed"), numeric=True),
        Column(_("Entry")),
        Column(_("Score"), numeric=True),
        Column(_("Winner")),
    ]
    sheet = Sheet(_("Bracket"), columns)
    data = bracket_data(tournament)
    if data is None:
        return sheet
    names = {s["entry"]: s["name"] for s in data["seeds"]}
    for round_ in data["rounds"]:
        for match in round_["matches"]:
            top, bottom = match["lines"]
            sheet.rows.append(
                [
                    match["name"],
                    match["index"],
                    top["who"]["seed"] if top["who"] else None,
                    top["who"]["name"] if top["who"] else (_("bye") if match["bye"] else ""),
                    _score(top),
                    bottom["who"]["seed"] if bottom["who"] else None,
                    bottom["who"]["name"] if bottom["who"] else (_("bye") if match["bye"] else ""),
                    _score(bottom),
                    names.get(match["winner"], ""),
                ]
            )
    sheet.notes["placings"] = data["placings"]
    return sheet


def bracket_pdf(tournament: Tournament) -> bytes:
    sheet = Sheet(_("Bracket"), [])
    context = _context(tournament, sheet) | {"bracket": bracket_data(tournament)}
    return render(render_to_string("tournaments/exports/bracket_pdf.html", context))

"""A season's table as CSV, XLSX and PDF, like the standings (tournaments.exports.tabular, pdf):
one column per evening, a dropped result in brackets, exact numbers."""

from __future__ import annotations

from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from tournaments.models import Series
from tournaments.seasons import services as seasons

from .pdf import _context, render
from .tabular import Cell, Column, Sheet, exact_number, neutralise


def season_sheet(series: Series) -> Sheet:
    """Rank, entrant, players, season score, then each evening's score (a dropped one in
    brackets, as text), then evenings won, best evening, total and evenings played."""
    latest = seasons.latest(series=series)
    payload = latest.snapshot.payload if latest.snapshot else {"evenings": [], "rows": []}
    evenings = payload["evenings"]
    columns = [
        Column(_("Rank"), True),
        Column(_("Entry")),
        Column(_("Players")),
        Column(_("Season score"), True),
    ]
    columns += [Column(e["name"], True) for e in evenings]
    columns += [
        Column(_("Evenings won"), True),
        Column(_("Best evening"), True),
        Column(_("Total"), True),
        Column(_("Evenings played"), True),
    ]
    sheet = Sheet(
        _("Season table"),
        columns,
        notes={
            "version": latest.snapshot.version if latest.snapshot else 0,
            "computed_at": latest.snapshot.computed_at if latest.snapshot else None,
            "stale": latest.stale,
            "ties": [],
            "dropped": [],
        },
    )
    for row in payload["rows"]:
        cells: list[Cell] = []
        dropped = []
        for cell in row["evenings"]:
            value = exact_number(cell["score"])
            if value is not None and not cell["counted"]:
                dropped.append(True)
                cells.append(f"({value})")
            else:
                dropped.append(False)
                cells.append(value)
        sheet.rows.append(
            [
                row["rank"],
                neutralise(row["name"]),
                neutralise(" & ".join(row["players"])),
                exact_number(row["score"]),
                *cells,
                row["wins"],
                exact_number(row["best"]),
                exact_number(row["total"]),
                row["played"],
            ]
        )
        sheet.notes["ties"].append(row["tied"])
        sheet.notes["dropped"].append(dropped)
    return sheet


def season_html(series: Series) -> str:
    sheet = season_sheet(series)
    rows = [
        {
            "rank": row[0],
            "entry": row[1],
            "players": row[2],
            "score": row[3],
            "evenings": list(zip(row[4:-4], sheet.notes["dropped"][i], strict=True)),
            "rest": row[-4:],
            "tied": sheet.notes["ties"][i],
        }
        for i, row in enumerate(sheet.rows)
    ]
    heading = SimpleNamespace(
        name=series.name,
        get_game_display=series.get_game_display(),
        starts_at=None,
        venue="",
        get_format_display=series.get_rule_display(),
    )
    context = _context(heading, sheet) | {
        "rows": rows,
        "evening_labels": sheet.headers[4:-4],
        "rest_labels": sheet.headers[-4:],
        "wide": len(sheet.headers) > 10,
        "version": sheet.notes["version"],
        "computed_at": sheet.notes["computed_at"],
        "stale": sheet.notes["stale"],
        "best": series.best,
    }
    return render_to_string("tournaments/exports/season_pdf.html", context)


def season_pdf(series: Series) -> bytes:
    return render(season_html(series))

"""Standings and results as spreadsheets: CSV (UTF-8 with a byte-order mark, so Excel reads
Japanese names correctly) and XLSX (openpyxl).

Numbers stay numbers and stay exact: the standings engine's values are ints and Fractions, and
a Fraction whose decimal expansion ends (Solo Whist's halves, quarters) is written as that exact
decimal (`Decimal("5.5")`), never through a float. A Fraction that does not end (a third, from
an average or a mean of three opponents) is rounded half-even to `PLACES` decimal places; the
archive and the standings snapshot keep it exact.

Text is formula-safe: a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab
or carriage return before one) as a formula, so a team named `=HYPERLINK(...)` would become a
live link. Every text cell starting with one of those (or their full-width forms, which some
Japanese spreadsheet settings read the same way) gets a leading apostrophe. Numbers, negative
ones included, are never text and never touched.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from tournaments import gameplay
from tournaments.models import Seat, Tournament
from tournaments.selectors import exports as selectors
from tournaments.services import standings
from tournaments.words.labels import column_label, standings_columns

from .labels import outcome_label, place_label

Cell = str | int | Decimal | None

PLACES = 3
#: The first characters that make a spreadsheet read text as a formula (OWASP's list), and their
#: full-width forms.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV_TYPE = "text/csv; charset=utf-8"


@dataclass(frozen=True, slots=True)
class Column:
    label: str
    numeric: bool = False


@dataclass(slots=True)
class Sheet:
    """A table to write out: translated headings and rows of cells (text, int or Decimal)."""

    title: str  # the translated title (worksheet tab, PDF heading)
    columns: list[Column]
    rows: list[list[Cell]] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)  # e.g. the snapshot's version

    @property
    def headers(self) -> list[str]:
        return [c.label for c in self.columns]


# -- values ---------------------------------------------------------------------------------------


def _terminates(denominator: int) -> bool:
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    return denominator == 1


def exact_number(value: Any) -> int | Decimal | None:
    """A number as a spreadsheet should hold it: an int when whole, the exact Decimal when its
    expansion ends, else rounded to PLACES. Accepts ints, Decimals, Fractions and the strings
    the database and snapshots keep ("9/2", "-14/3", "2.5"); blank is None."""
    if value is None or value == "" or isinstance(value, bool):
        return None
    exact = value if isinstance(value, Fraction) else Fraction(str(value))
    if exact.denominator == 1:
        return exact.numerator
    if _terminates(exact.denominator):
        digits = 0
        while (exact * 10**digits).denominator != 1:
            digits += 1
        return Decimal((exact * 10**digits).numerator).scaleb(-digits)
    rounded = Decimal(exact.numerator) / Decimal(exact.denominator)
    return rounded.quantize(Decimal(1).scaleb(-PLACES), rounding=ROUND_HALF_EVEN)


def neutralise(value: Cell) -> Cell:
    """Text that a spreadsheet would run as a formula gets a leading apostrophe; anything else
    (numbers included) is returned as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


# -- the tables -----------------------------------------------------------------------------------


def _players(entry: Any) -> list[str]:
    if entry.team_id:
        return [entry.team.first.name, entry.team.second.name]
    return [entry.player.name]


def standings_sheet(tournament: Tournament) -> Sheet:
    """The latest standings snapshot as the page shows it: rank, entry, players, the format's
    summary columns, then the tiebreak chain in its order (`labels.standings_columns`)."""
    latest = standings.latest(tournament=tournament)
    snapshot = latest.snapshot
    payload = snapshot.payload if snapshot else {}
    chain = payload.get("tiebreaks", list(tournament.tiebreaks))
    metrics = standings_columns(tournament.format, list(chain))
    columns = [Column(_("Rank"), numeric=True), Column(_("Entry")), Column(_("Players"))]
    columns += [Column(column_label(name, tournament.format), numeric=True) for name in metrics]
    sheet = Sheet(_("Standings"), columns)
    for row in payload.get("rows", []):
        values = row.get("values", {})
        sheet.rows.append(
            [
                row["rank"],
                row["name"],
                " & ".join(row.get("players", [])),
                *(exact_number(values.get(name)) for name in metrics),
            ]
        )
    sheet.notes = {
        "version": snapshot.version if snapshot else None,
        "computed_at": snapshot.computed_at if snapshot else None,
        "stale": latest.stale,
        "tiebreaks": chain,
        "ties": [bool(r.get("tied")) for r in payload.get("rows", [])],
        "withdrawn": [bool(r.get("withdrawn")) for r in payload.get("rows", [])],
    }
    return sheet


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One entry's part in one match, as the results sheet and the PDF show it."""

    round: int
    match: int
    table: int | None
    state: str
    side: str
    seats: str
    entry: str
    players: str
    opponents: str
    points_for: int | Decimal | None
    points_against: int | Decimal | None
    outcome: str
    place: int | None
    match_points: int | Decimal | None


def _table_outcome(seat: Seat, seats: list[Seat]) -> str:
    """A seat's outcome in words: won, drawn, lost between two sides; at a table of 3-4 its
    place (second of four is no loss)."""
    if not seat.outcome:
        return ""
    if seat.place and len({s.side for s in seats}) > 2:
        return str(place_label(seat.place))
    return outcome_label(seat.outcome)


def result_lines(tournament: Tournament) -> list[ResultLine]:
    """Every seat of every match of the published rounds; points, outcome and match points
    once the match is finished (a bye is finished when drawn)."""
    order = gameplay.layout(tournament.game, tournament.rules).seats
    by_match: dict[int, list[Seat]] = {}
    for seat in selectors.result_seats(tournament):
        by_match.setdefault(seat.match_id, []).append(seat)
    seats = [
        seat
        for group in by_match.values()  # in the selector's order: round, table, match
        for seat in sorted(group, key=lambda s: order.find(s.seats[:1]))  # clockwise from N
    ]
    lines = []
    for seat in seats:
        match = seat.match
        settled = match.state == match.State.FINISHED
        others = [s.entry.name for s in by_match[seat.match_id] if s.side != seat.side]
        lines.append(
            ResultLine(
                round=match.round.number,
                match=match.pk,
                table=match.table.number if match.table is not None else None,
                state=str(match.get_state_display()),
                side="" if match.is_bye else seat.side,  # a bye's seat is "-"
                seats="" if match.is_bye else seat.seats,
                entry=seat.entry.name,
                players=" & ".join(_players(seat.entry)),
                opponents=" / ".join(others),
                points_for=exact_number(seat.points_for) if settled else None,
                points_against=exact_number(seat.points_against) if settled else None,
                outcome=_table_outcome(seat, by_match[seat.match_id]),
                place=seat.place,
                match_points=exact_number(seat.match_points) if settled else None,
            )
        )
    return lines


def results_sheet(tournament: Tournament) -> Sheet:
    """One row per entry per match of every published round: round, table, the match's state,
    seats, entry, players, opponents, points for and against, outcome, place and match points.
    The side gets a column of its own only where it differs from the seats (progressive play,
    two players on one side); elsewhere it would say the seats again."""
    lines = result_lines(tournament)
    with_side = any(line.side and line.side != line.seats for line in lines)
    columns = [
        Column(_("Round"), numeric=True),
        Column(_("Table"), numeric=True),
        Column(_("State")),
        *([Column(_("Side"))] if with_side else []),
        Column(_("Seats")),
        Column(_("Entry")),
        Column(_("Players")),
        Column(_("Opponents")),
        Column(_("Points for"), numeric=True),
        Column(_("Points against"), numeric=True),
        Column(_("Outcome")),
        Column(_("Place"), numeric=True),
        Column(_("Match points"), numeric=True),
    ]
    sheet = Sheet(_("Results"), columns)
    for line in lines:
        sheet.rows.append(
            [
                line.round,
                line.table,
                line.state,
                *([line.side] if with_side else []),
                line.seats,
                line.entry,
                line.players,
                line.opponents,
                line.points_for,
                line.points_against,
                line.outcome,
                line.place,
                line.match_points,
            ]
        )
    return sheet


# -- writers --------------------------------------------------------------------------------------


def to_csv(sheet: Sheet) -> bytes:
    """RFC 4180 CSV (CRLF line ends) in UTF-8 with a byte-order mark."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([neutralise(h) for h in sheet.headers])
    for row in sheet.rows:
        writer.writerow(["" if v is None else neutralise(v) for v in row])
    return out.getvalue().encode("utf-8-sig")


def _width(text: str) -> int:
    """Display width in character cells: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _column_widths(sheet: Sheet) -> list[int]:
    widths = [_width(h) for h in sheet.headers]
    for row in sheet.rows:
        for i, value in enumerate(row):
            if value is not None:
                widths[i] = max(widths[i], _width(str(value)))
    return [min(max(w + 2, 6), 60) for w in widths]


def _sheet_name(title: str) -> str:
    """A worksheet name Excel accepts: at most 31 characters, none of []:*?/\\."""
    cleaned = "".join(" " if ch in "[]:*?/\\" else ch for ch in title).strip()
    return cleaned[:31] or "Sheet"


def to_xlsx(sheets: Sequence[Sheet] | Sheet, *, title: str = "") -> bytes:
    """A workbook with one worksheet per sheet: bold frozen header row, widths fitted to the
    content, numbers as numbers (exact decimals), text formula-safe."""
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    if isinstance(sheets, Sheet):
        sheets = [sheets]
    book = Workbook()
    first = book.active
    assert first is not None  # a new workbook has one sheet
    book.remove(first)
    book.properties.title = title or None
    book.properties.creator = "TrickTable"
    bold = Font(bold=True)
    for sheet in sheets:
        ws = book.create_sheet(_sheet_name(sheet.title))
        ws.append([_text(neutralise(h), ILLEGAL_CHARACTERS_RE) for h in sheet.headers])
        for cell, column in zip(ws[1], sheet.columns, strict=True):
            cell.font = bold
            cell.alignment = Alignment(horizontal="right" if column.numeric else "left")
        for row in sheet.rows:
            ws.append([_text(neutralise(v), ILLEGAL_CHARACTERS_RE) for v in row])
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # never a formula, whatever the text
        ws.freeze_panes = "A2"
        for index, width in enumerate(_column_widths(sheet), 1):
            ws.column_dimensions[get_column_letter(index)].width = width
        if sheet.rows:
            ws.auto_filter.ref = ws.dimensions
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _text(value: Cell, illegal: Any) -> Cell:
    """XML cannot hold most control characters: drop them from text (numbers pass through)."""
    if isinstance(value, str):
        return illegal.sub("", value)
    return value


def filename(tournament: Tournament, subject: str, extension: str) -> str:
    """`<slug>-<subject>.<ext>`, ASCII letters, digits, '-', '_' and '.' only."""
    return ascii_filename(f"{tournament.slug}-{subject}.{extension}")


def ascii_filename(name: str) -> str:
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "-" for ch in name)
    return safe.strip("-.") or "export"

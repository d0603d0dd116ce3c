"""Bulk entry: a CSV or XLSX file of teams or players, previewed row by row and imported in one
transaction (all rows or none).

The file has a header row; the columns are matched case-insensitively, in English or Japanese:

    team / チーム              the team's name (team events; optional)
    player1 / プレイヤー1      first player (team events)
    player2 / プレイヤー2      second player (team events)
    player / プレイヤー        the player (individual events; `player1` is accepted too)
    club1, club2, club         membership numbers (会員番号1, 会員番号2, 会員番号)
    seed / シード              a positive whole number, optional

Other columns are ignored. Cells are text: stripped, runs of spaces collapsed. CSV must be UTF-8
(a byte-order mark is allowed); XLSX is read with openpyxl in read-only (streaming) mode. At most
`MAX_ROWS` rows and `MAX_BYTES` bytes, `MAX_COLUMNS` columns and `MAX_CELL` characters a cell.

An XLSX file is a zip archive, and 2 MiB of it can unpack to gigabytes (a million shared strings,
a row of a million cells, a sheet claiming `A1:XFD1048576`). Before openpyxl sees it, the
archive's table of contents is checked: at most `MAX_PARTS` entries, none over `MAX_PART_BYTES`
(the shared strings `MAX_SHARED_STRINGS_BYTES`) and all together at most `MAX_UNPACKED_BYTES`
uncompressed (`too-large-unpacked`). What openpyxl parses costs by the element, so the XML parts
are then unpacked and their tags counted: at most `MAX_SHEET_TAGS` in the worksheets,
`MAX_SHARED_STRINGS_TAGS` in the shared strings and `MAX_OTHER_TAGS` in every other part it
parses together (styles, workbook, content types, relationships; `too-large-unpacked`), and no
DTD (`bad-file`): the worst file the caps allow costs well under a second of CPU. A sheet whose
stated size is over the caps is refused before its first row is read.

`parse_entries` only reads the file; `import_entries` also checks every row against the
tournament by registering it through `register_entry` (as a director), and keeps the entries
only when no row has an error and it is not a dry run. Every problem has a stable code.
"""

from __future__ import annotations

import csv
import io
import unicodedata
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from django.db import transaction

from tournaments.models import Player, Tournament, max_length

from .actors import Actor, audit, require_director
from .entries import PlayerSpec, register_entry
from .errors import ServiceError

MAX_ROWS = 2000
MAX_BYTES = 2 * 1024 * 1024
MAX_NAME = 100
MAX_CLUB = max_length(Player, "club_number")
MAX_BLANK_ROWS = 5 * MAX_ROWS  # a sheet padded with empty rows is read this far, no further
MAX_COLUMNS = 64  # columns of a row (the file needs at most eight)
MAX_CELL = 1000  # characters of one cell
MAX_SHEET_ROWS = 1 + MAX_ROWS + MAX_BLANK_ROWS  # rows an XLSX sheet may state it has
# The XLSX archive, checked before it is opened: entries and their uncompressed sizes.
MAX_PARTS = 100
MAX_PART_BYTES = 4 * 1024 * 1024  # a sheet of 2,000 rows of long names is about 2.5 MiB
MAX_SHARED_STRINGS_BYTES = 1024 * 1024  # openpyxl reads them all at once when it opens the file
MAX_UNPACKED_BYTES = 8 * 1024 * 1024
# What openpyxl parses costs by the element, not by the byte (a few MiB of empty <font/> elements
# in the styles part cost seconds of CPU): the XML parts' tags (their "<") are counted before it
# opens the file. A full honest file (2,000 rows, shared strings, a formatted styles part) has
# about 50,000 in its sheet, 40,000 in its shared strings and 2,000 in the rest. The caps keep the
# worst allowed file within a second of CPU (bench/xlsx_parts.py, docs/benchmarks.md).
MAX_SHEET_TAGS = 120_000  # every worksheet together (openpyxl streams the first)
MAX_SHARED_STRINGS_TAGS = 80_000  # read whole when the file is opened
MAX_OTHER_TAGS = 10_000  # styles, workbook, content types, relationships, properties, charts

#: Every error code, file-level or row-level, with what it means. Stable.
ERROR_CODES: dict[str, str] = {
    "bad-file": "the file is not a readable UTF-8 CSV or XLSX file",
    "too-large": f"the file is larger than {MAX_BYTES} bytes",
    "too-many-rows": f"the file has more than {MAX_ROWS} entry rows",
    "too-large-unpacked": (
        f"the XLSX archive holds more than {MAX_PARTS} parts, a part over {MAX_PART_BYTES} "
        f"bytes or more than {MAX_UNPACKED_BYTES} bytes in all once unpacked, or more XML "
        f"elements than openpyxl may read (sheets {MAX_SHEET_TAGS} tags, shared strings "
        f"{MAX_SHARED_STRINGS_TAGS}, every other part together {MAX_OTHER_TAGS})"
    ),
    "too-many-columns": f"a row has (or the sheet states) more than {MAX_COLUMNS} columns",
    "cell-too-long": f"a cell holds more than {MAX_CELL} characters",
    "bad-header": "the header row lacks a needed column, or names a column twice",
    "no-rows": "the file has a header but no entry rows",
    "missing-player": "a player's name is empty",
    "same-player": "a team names the same player twice",
    "duplicate-in-file": "a player, team name or seed appears in more than one row",
    "bad-seed": "the seed is not a positive whole number",
    "too-long": f"a name is over {MAX_NAME} characters or a club number over {MAX_CLUB}",
    "club-without-player": "a club number is given for an empty player cell",
}

# Header names, compared after NFKC normalisation, case folding and removing white space.
HEADERS: dict[str, tuple[str, ...]] = {
    "team": ("team", "teamname", "チーム", "チーム名"),
    "player1": ("player1", "プレイヤー1", "プレーヤー1", "選手1"),
    "player2": ("player2", "プレイヤー2", "プレーヤー2", "選手2"),
    "player": ("player", "name", "プレイヤー", "プレーヤー", "選手", "名前"),
    "club1": ("club1", "clubnumber1", "会員番号1"),
    "club2": ("club2", "clubnumber2", "会員番号2"),
    "club": ("club", "clubnumber", "会員番号"),
    "seed": ("seed", "シード"),
    "affiliation": ("affiliation", "family", "所属", "家族"),
}
_ALIASES = {alias: column for column, aliases in HEADERS.items() for alias in aliases}


@dataclass(frozen=True, slots=True)
class RowError:
    """One problem: a stable `code`, a message, and the row (None: the whole file) and column."""

    code: str
    message: str
    row: int | None = None
    column: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "row": self.row, "column": self.column}


@dataclass(slots=True)
class EntryRow:
    """One entry row of the file. `row` is its row number in the file (the header is row 1 when
    it is the first row)."""

    row: int
    players: tuple[PlayerSpec, ...]
    team: str = ""
    seed: int | None = None
    affiliation: str = ""
    errors: list[RowError] = field(default_factory=list)
    entry: int | None = None  # the Entry id, once imported (None in a dry run)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def name(self) -> str:
        if self.team:
            return self.team
        return " & ".join(p.name for p in self.players if p.name)

    def as_dict(self) -> dict[str, Any]:
        return {
            "row": self.row,
            "team": self.team,
            "players": [{"name": p.name, "club_number": p.club_number} for p in self.players],
            "seed": self.seed,
            "affiliation": self.affiliation,
            "entry": self.entry,
            "errors": [e.as_dict() for e in self.errors],
        }


@dataclass(slots=True)
class EntriesPreview:
    """What a file holds and what is wrong with it. `imported` says whether entries were
    written (never in a dry run, never when any row has an error)."""

    filename: str
    team_event: bool
    rows: list[EntryRow] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)  # about the whole file
    dry_run: bool = False
    imported: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors and all(row.ok for row in self.rows)

    @property
    def error_rows(self) -> list[int]:
        return [row.row for row in self.rows if row.errors]

    @property
    def all_errors(self) -> list[RowError]:
        return [*self.errors, *(e for row in self.rows for e in row.errors)]

    @property
    def created(self) -> list[int]:
        return [row.entry for row in self.rows if row.entry is not None]

    def as_dict(self) -> dict[str, Any]:
        return {
            "filename": self.filename,
            "team_event": self.team_event,
            "ok": self.ok,
            "dry_run": self.dry_run,
            "imported": self.imported,
            "errors": [e.as_dict() for e in self.errors],
            "rows": [row.as_dict() for row in self.rows],
        }


class _FileProblem(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# -- reading the file ----------------------------------------------------------------------------


def _cell(value: Any) -> str:
    """A cell as clean text: stripped, runs of white space collapsed to one space."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "TRUE" if value else "FALSE"
    elif isinstance(value, float) and value.is_integer():
        text = str(int(value))  # a number typed in a spreadsheet: 12.0 -> "12"
    elif isinstance(value, datetime | date | time):
        text = value.isoformat()
    else:
        text = str(value)
    return " ".join(text.split())


def _kind(data: bytes, filename: str) -> str:
    name = filename.lower().rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    if ext in ("xlsx", "xlsm"):
        return "xlsx"
    if ext in ("csv", "txt", "tsv"):
        return "csv"
    if not ext:
        return "xlsx" if data.startswith(b"PK\x03\x04") else "csv"
    raise _FileProblem("bad-file", f"a .{ext} file cannot be read: use CSV (UTF-8) or XLSX")


def _csv_rows(data: bytes) -> Iterator[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _FileProblem(
            "bad-file", f"the CSV file is not UTF-8 (byte {error.start}): save it as CSV UTF-8"
        ) from error
    if "\x00" in text:
        raise _FileProblem("bad-file", "the CSV file holds NUL characters: is it a CSV file?")
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        yield from reader
    except csv.Error as error:
        raise _FileProblem("bad-file", f"the CSV file cannot be read: {error}") from error


def _tag_budget(name: str) -> str | None:
    """Which budget of tags an archive part counts against: None for a part openpyxl does not
    parse (pictures, printer settings, the theme, which it keeps as bytes)."""
    lowered = name.lower()
    if not lowered.endswith((".xml", ".rels")) or lowered.startswith("xl/theme/"):
        return None
    if lowered.startswith("xl/worksheets/") and lowered.count("/") == 2:
        return "sheets"
    if lowered.endswith("sharedstrings.xml"):
        return "shared strings"
    return "other parts"


TAG_LIMITS = {
    "sheets": MAX_SHEET_TAGS,
    "shared strings": MAX_SHARED_STRINGS_TAGS,
    "other parts": MAX_OTHER_TAGS,
}


def _check_archive(data: bytes) -> None:
    """Refuse an XLSX archive that would unpack to more than the caps, from its table of
    contents (the sizes are the archive's own claims; zipfile stops reading an entry at its
    stated size, so a part cannot unpack to more than it says), then refuse one whose XML parts
    hold more tags than openpyxl may parse, or a DTD (no part of a workbook has one: it is
    how entities expand), by unpacking those parts (8 MiB at most) and counting."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = archive.infolist()
            _check_sizes(parts)
            tags = dict.fromkeys(TAG_LIMITS, 0)
            for part in parts:
                budget = _tag_budget(part.filename)
                if budget is None:
                    continue
                xml = archive.read(part)
                if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:
                    raise _FileProblem(
                        "bad-file", f"the XLSX part {part.filename[:100]} declares a DTD"
                    )
                tags[budget] += xml.count(b"<")
                if tags[budget] > TAG_LIMITS[budget]:
                    raise _FileProblem(
                        "too-large-unpacked",
                        f"the XLSX file's {budget} hold more than {TAG_LIMITS[budget]} XML "
                        "tags; at most that many are read",
                    )
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, zlib.error) as error:
        raise _FileProblem("bad-file", "the file is not a readable XLSX workbook") from error


def _check_sizes(parts: list[zipfile.ZipInfo]) -> None:
    if len(parts) > MAX_PARTS:
        raise _FileProblem(
            "too-large-unpacked",
            f"the XLSX file holds {len(parts)} parts; at most {MAX_PARTS}",
        )
    total = 0
    for part in parts:
        limit = (
            MAX_SHARED_STRINGS_BYTES
            if part.filename.lower().endswith("sharedstrings.xml")
            else MAX_PART_BYTES
        )
        if part.file_size > limit:
            raise _FileProblem(
                "too-large-unpacked",
                f"the XLSX part {part.filename[:100]} unpacks to {part.file_size} bytes; "
                f"at most {limit}",
            )
        total += part.file_size
    if total > MAX_UNPACKED_BYTES:
        raise _FileProblem(
            "too-large-unpacked",
            f"the XLSX file unpacks to {total} bytes; at most {MAX_UNPACKED_BYTES}",
        )


def _xlsx_rows(data: bytes) -> Iterator[tuple[Any, ...]]:
    _check_archive(data)
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # a damaged file: openpyxl and zipfile raise a zoo of errors
        raise _FileProblem("bad-file", "the file is not a readable XLSX workbook") from error
    try:
        if not book.worksheets:
            raise _FileProblem("bad-file", "the workbook has no sheet")
        sheet = book.worksheets[0]
        # The sheet's stated size (its <dimension>) pads every row to its width in read-only
        # mode: a claim over the caps is refused, and the rows are then read as they are.
        if (sheet.max_column or 0) > MAX_COLUMNS:
            raise _FileProblem(
                "too-many-columns",
                f"the sheet states {sheet.max_column} columns; at most {MAX_COLUMNS}",
            )
        if (sheet.max_row or 0) > MAX_SHEET_ROWS:
            raise _FileProblem(
                "too-many-rows", f"the sheet states {sheet.max_row} rows; at most {MAX_ROWS}"
            )
        sheet.reset_dimensions()
        rows = sheet.iter_rows(values_only=True)
        while True:
            try:
                row = next(rows)
            except StopIteration:
                return
            except Exception as error:
                raise _FileProblem(
                    "bad-file", "the workbook's first sheet cannot be read"
                ) from error
            yield row
    finally:
        book.close()


def _rows(data: bytes, filename: str) -> Iterable[Iterable[Any]]:
    if len(data) > MAX_BYTES:
        raise _FileProblem("too-large", f"the file is over {MAX_BYTES // (1024 * 1024)} MiB")
    if not data.strip():
        raise _FileProblem("bad-file", "the file is empty")
    return _xlsx_rows(data) if _kind(data, filename) == "xlsx" else _csv_rows(data)


def _header_key(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def _columns(header: list[str], team_event: bool) -> dict[str, int]:
    """Which cell holds which column, or a bad-header problem."""
    found: dict[str, int] = {}
    for index, text in enumerate(header):
        column = _ALIASES.get(_header_key(text))
        if column is None:
            continue
        if column in found:
            raise _FileProblem("bad-header", f"the column {column!r} appears twice in the header")
        found[column] = index
    if team_event:
        missing = [c for c in ("player1", "player2") if c not in found]
        if missing:
            raise _FileProblem(
                "bad-header",
                "a team event's file needs the columns player1 and player2 "
                "(プレイヤー1, プレイヤー2); missing: " + ", ".join(missing),
            )
    else:
        if "player" not in found and "player1" in found:
            found["player"] = found.pop("player1")
            if "club" not in found and "club1" in found:
                found["club"] = found.pop("club1")
        if "player" not in found:
            raise _FileProblem(
                "bad-header", "an individual event's file needs the column player (プレイヤー)"
            )
    return found


# -- reading the rows ----------------------------------------------------------------------------


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def _player_key(spec: PlayerSpec) -> str:
    if spec.club_number:
        return "club:" + spec.club_number
    return "name:" + spec.name.casefold()


def _parse_row(
    number: int, cells: list[str], columns: dict[str, int], team_event: bool
) -> EntryRow:
    def get(column: str) -> str:
        index = columns.get(column)
        return cells[index] if index is not None and index < len(cells) else ""

    errors: list[RowError] = []
    slots = (("player1", "club1"), ("player2", "club2")) if team_event else (("player", "club"),)
    players = []
    for name_column, club_column in slots:
        name, club = get(name_column), _normal(get(club_column))
        if not name:
            errors.append(
                RowError(
                    "club-without-player" if club else "missing-player",
                    f"{name_column} is empty" + (f" (club number {club})" if club else ""),
                    number,
                    name_column,
                )
            )
        elif len(name) > MAX_NAME:
            errors.append(
                RowError(
                    "too-long", f"{name_column} is over {MAX_NAME} characters", number, name_column
                )
            )
        if len(club) > MAX_CLUB:
            errors.append(
                RowError(
                    "too-long", f"{club_column} is over {MAX_CLUB} characters", number, club_column
                )
            )
        players.append(PlayerSpec(name=name, club_number=club))
    team = get("team") if team_event else ""
    if len(team) > MAX_NAME:
        errors.append(RowError("too-long", f"team is over {MAX_NAME} characters", number, "team"))
    seed: int | None = None
    seed_text = _normal(get("seed"))
    if seed_text:
        if seed_text.isascii() and seed_text.isdigit() and 1 <= int(seed_text) <= 1_000_000:
            seed = int(seed_text)
        else:
            errors.append(
                RowError(
                    "bad-seed", f"seed {seed_text!r} is not a positive whole number", number, "seed"
                )
            )
    if (
        team_event
        and all(p.name for p in players)
        and _player_key(players[0]) == _player_key(players[1])
    ):
        errors.append(
            RowError("same-player", "a team needs two different players", number, "player2")
        )
    affiliation = " ".join(_normal(get("affiliation")).split())
    if len(affiliation) > MAX_NAME:
        errors.append(
            RowError(
                "too-long", f"affiliation is over {MAX_NAME} characters", number, "affiliation"
            )
        )
    return EntryRow(
        row=number,
        players=tuple(players),
        team=team,
        seed=seed,
        affiliation=affiliation,
        errors=errors,
    )


def _duplicates(rows: list[EntryRow]) -> None:
    """Mark every later row that repeats a player, a team name or a seed of an earlier row."""
    players: dict[str, int] = {}
    teams: dict[str, int] = {}
    seeds: dict[int, int] = {}
    for row in rows:
        for index, spec in enumerate(row.players):
            if not spec.name:
                continue
            key = _player_key(spec)
            column = ("player1", "player2")[index] if len(row.players) == 2 else "player"
            if key in players and players[key] != row.row:
                row.errors.append(
                    RowError(
                        "duplicate-in-file",
                        f"{spec.name} is already in row {players[key]}",
                        row.row,
                        column,
                    )
                )
            players.setdefault(key, row.row)
        if row.team:
            key = row.team.casefold()
            if key in teams:
                row.errors.append(
                    RowError(
                        "duplicate-in-file",
                        f"the team name {row.team!r} is already in row {teams[key]}",
                        row.row,
                        "team",
                    )
                )
            teams.setdefault(key, row.row)
        if row.seed is not None:
            if row.seed in seeds:
                row.errors.append(
                    RowError(
                        "duplicate-in-file",
                        f"seed {row.seed} is already in row {seeds[row.seed]}",
                        row.row,
                        "seed",
                    )
                )
            seeds.setdefault(row.seed, row.row)


def parse_entries(data: bytes, *, filename: str, team_event: bool) -> EntriesPreview:
    """Read a CSV or XLSX file of entries into a preview; never raises for a bad file (the
    preview's `errors` say what is wrong with the file, each row's `errors` with the row)."""
    preview = EntriesPreview(filename=filename, team_event=team_event)
    rows: Iterable[Iterable[Any]] | None = None
    try:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise _FileProblem("bad-file", "the file's content must be bytes")
        data = bytes(data)
        columns: dict[str, int] | None = None
        blank = 0
        rows = _rows(data, filename)
        for number, raw in enumerate(rows, 1):
            raw = tuple(raw)
            if len(raw) > MAX_COLUMNS and any(v not in (None, "") for v in raw[MAX_COLUMNS:]):
                raise _FileProblem(
                    "too-many-columns",
                    f"row {number} has {len(raw)} columns; at most {MAX_COLUMNS}",
                )
            cells = [_cell(value) for value in raw[:MAX_COLUMNS]]
            for index, text in enumerate(cells):
                if len(text) > MAX_CELL:
                    raise _FileProblem(
                        "cell-too-long",
                        f"row {number}, column {index + 1} holds {len(text)} characters; "
                        f"at most {MAX_CELL}",
                    )
            if not any(cells):
                blank += 1
                if blank > MAX_BLANK_ROWS:
                    break
                continue
            if columns is None:
                columns = _columns(cells, team_event)
                continue
            if len(preview.rows) >= MAX_ROWS:
                raise _FileProblem("too-many-rows", f"the file has more than {MAX_ROWS} rows")
            preview.rows.append(_parse_row(number, cells, columns, team_event))
        if columns is None:
            raise _FileProblem("bad-file", "the file has no header row")
        if not preview.rows:
            raise _FileProblem("no-rows", "the file has a header but no entries")
    except _FileProblem as problem:
        preview.rows = []
        preview.errors.append(RowError(problem.code, problem.message))
        return preview
    finally:
        if rows is not None and hasattr(rows, "close"):
            rows.close()
    _duplicates(preview.rows)
    return preview


# -- importing -----------------------------------------------------------------------------------


class _Undo(Exception):
    """Raised inside the import's transaction to roll it back."""


def import_entries(
    *, tournament: Tournament, actor: Actor, data: bytes, filename: str, dry_run: bool = False
) -> EntriesPreview:
    """Register every row of the file as an entry, in one transaction: all or nothing.

    Each row goes through `register_entry` as the acting director, so a row is refused for the
    same reasons a single registration would be (its `ServiceError` becomes the row's error). If
    any row has an error, or this is a dry run, nothing is written and the preview says which
    rows failed; otherwise `imported` is true and each row names its new entry. Every row whose
    cells read correctly is tried even when others did not, so the preview lists every problem
    of every row at once."""
    require_director(actor, tournament)
    preview = parse_entries(data, filename=filename, team_event=tournament.is_team_event)
    preview.dry_run = dry_run
    if preview.errors:  # the file as a whole could not be read: no row to check
        return preview
    try:
        with transaction.atomic():
            for row in preview.rows:
                if row.errors:
                    # Its cells are wrong already; every other row is still tried, so one pass
                    # reports every problem (an entered player in row 9 beside a bad seed in 3).
                    continue
                try:
                    entry = register_entry(
                        tournament=tournament,
                        actor=actor,
                        players=list(row.players),
                        name=row.team,
                        seed=row.seed,
                        affiliation=row.affiliation,
                    )
                except ServiceError as error:
                    row.errors.append(RowError(error.code, error.message, row.row))
                else:
                    row.entry = entry.pk
            if not preview.ok or dry_run:
                raise _Undo
            audit(
                tournament=tournament,
                actor=actor,
                action="entries-imported",
                subject=filename[:100],
                data={"rows": len(preview.rows), "entries": preview.created},
            )
    except _Undo:
        for row in preview.rows:
            row.entry = None
        return preview
    preview.imported = True
    return preview

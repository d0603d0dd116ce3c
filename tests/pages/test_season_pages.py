"""The season pages: the public table (evenings as columns, dropped results marked, ties
sharing a place), the projector, the downloads, and the directors' page."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model

from tests.season_data import evening, played, winter_season
from tournaments.models import Series
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return Actor(user=get_user_model().objects.create_user("td", password="pw"))


@pytest.fixture
def season(director):
    return winter_season(director)


def test_the_season_page_shows_each_evening_and_marks_the_dropped_results(client, season):
    page = client.get(f"/seasons/{season.slug}/").content.decode()
    for n in range(1, 5):
        assert f"Night {n}" in page
    # Aiko: 10, 8, 5 (shared 3rd: (6 + 5) / 2 = 5½), 10 -> best three 28, the 5½ dropped.
    assert page.count('class="num evening dropped"') >= 1
    assert "5½" in page and "(dropped)" in page
    assert "Only the best 3 evenings count" in page


def test_entrants_sharing_a_place_show_the_same_rank(client, director):
    from tournaments.seasons import services as seasons

    series = seasons.create_series(actor=director, name="Duo", game="german-whist")
    for n, order in enumerate([("Ann", "Bo"), ("Bo", "Ann")], 1):
        night = evening(director, f"Night {n}", day=n)
        played(night, [(order[0], 1, 2), (order[1], 2, 0)])
        seasons.add_tournament(actor=director, series=series, tournament=night)
    seasons.recompute(series_id=series.pk)
    rows = client.get(f"/seasons/{series.slug}/fragment/").content.decode()
    assert rows.count('<td class="num">1=<span class="visually-hidden"> (tied)</span>') == 2


def test_the_projector_and_its_fragment_render(client, season):
    for url in (
        f"/seasons/{season.slug}/projector/",
        f"/seasons/{season.slug}/projector/fragment/",
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert "Aiko Sato" in response.content.decode()


def test_the_csv_download_has_a_column_per_evening_and_brackets_dropped_results(client, season):
    body = client.get(f"/seasons/{season.slug}/export/table.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][4:8] == ["Night 1", "Night 2", "Night 3", "Night 4"]
    aiko = next(r for r in rows if r[1] == "Aiko Sato")
    assert (aiko[0], aiko[3], aiko[4:8]) == ("1", "28", ["10", "8", "(5.5)", "10"])


@pytest.mark.parametrize("fmt, kind", [("xlsx", "spreadsheetml"), ("pdf", "application/pdf")])
def test_the_xlsx_and_pdf_downloads_are_built(client, season, fmt, kind):
    response = client.get(f"/seasons/{season.slug}/export/table.{fmt}")
    assert response.status_code == 200 and kind in response["Content-Type"]


def test_a_stranger_cannot_manage_or_create_a_season(client, season):
    assert client.get(f"/seasons/{season.slug}/manage/").status_code == 302  # sign in first
    assert (
        client.post("/seasons/", {"name": "Mine", "game": "spades", "rule": "placing"}).status_code
        == 403
    )
    other = get_user_model().objects.create_user("other", password="pw")
    client.force_login(other)
    assert client.get(f"/seasons/{season.slug}/manage/").status_code == 403


def test_a_director_creates_a_season_and_adds_an_evening_of_its_game_only(client, director):
    client.force_login(director.user)
    response = client.post(
        "/seasons/",
        {
            "name": "Spring",
            "game": "german-whist",
            "rule": "match-points",
            "points": "",
            "best": "2",
        },
    )
    series = Series.objects.get(name="Spring")
    assert response.status_code == 302 and (series.rule, series.best) == ("match-points", 2)
    night = evening(director, "Spring night")
    spades = evening(director, "Spades night", game="spades")
    page = client.get(f"/seasons/{series.slug}/manage/").content.decode()
    assert "Spring night" in page and "Spades night" not in page
    client.post(f"/seasons/{series.slug}/manage/add/", {"tournament": night.pk})
    client.post(f"/seasons/{series.slug}/manage/add/", {"tournament": spades.pk})
    assert list(series.tournaments.all()) == [night]
    client.post(f"/seasons/{series.slug}/manage/remove/{night.slug}/")
    assert not series.tournaments.exists()

"""The bracket as a download (CSV, XLSX, PDF, as the standings are) and in the tournament's JSON
archive, which restores it with the entries it names."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse

from tournaments.exports import archive
from tournaments.knockout import services as knockout
from tournaments.models import Match, Tournament

from ..tournaments.conftest import play_round
from .helpers import knockout_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(swiss, director):
    tournament = swiss(6, rounds=1)
    knockout.set_knockout(
        tournament=tournament, actor=director, top_cut=4, length="hands", count=1, third_place=True
    )
    play_round(tournament, director)
    tournament.refresh_from_db()
    knockout.confirm_cut(
        tournament=tournament, actor=director, entries=knockout.cut_list(tournament=tournament).ids
    )
    tournament.refresh_from_db()
    knockout_round(tournament, director)
    knockout_round(tournament, director, seed=2)
    tournament.refresh_from_db()
    return tournament


def url(tournament, fmt):
    return reverse("tournaments:export-table", args=[tournament.slug, "bracket", fmt])


def test_the_bracket_csv_has_a_row_per_match_with_seeds_scores_and_winners(client, played):
    response = client.get(url(played, "csv"))
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "Round",
        "Match",
        "Seed",
        "Entry",
        "Score",
        "Seed",
        "Entry",
        "Score",
        "Winner",
    ]
    assert [r[0] for r in rows[1:]] == ["Semi-finals", "Semi-finals", "Final", "Third-place match"]
    assert [(r[2], r[5]) for r in rows[1:3]] == [("1", "4"), ("2", "3")]
    board = knockout.board(played)
    champion = played.entries.get(pk=board.bracket.champion).name
    assert rows[3][8] == champion


def test_the_bracket_xlsx_and_pdf_download(client, played):
    xlsx = client.get(url(played, "xlsx"))
    pdf = client.get(url(played, "pdf"))
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    assert pdf.status_code == 200 and pdf.content[:5] == b"%PDF-"


def test_the_archive_keeps_the_bracket_and_restores_it_with_its_entries(played):
    data = archive.export_archive(played)
    seeds = knockout.seeds(played)
    by_archive = {row["id"]: row for row in data["entries"]}
    assert len(data["tournament"]["bracket"]["seeds"]) == 4
    assert all(i in by_archive for i in data["tournament"]["bracket"]["seeds"])
    assert {m["bracket_round"] for m in data["matches"]} >= {1, 2}
    names = [played.entries.get(pk=pk).name for pk in seeds]
    champion = knockout.board(played).bracket.champion
    champion_name = played.entries.get(pk=champion).name
    text = archive.dumps(data)
    Tournament.objects.filter(pk=played.pk).delete()

    restored = archive.restore(archive=json.loads(text)).tournament

    assert [restored.entries.get(pk=pk).name for pk in knockout.seeds(restored)] == names
    board = knockout.board(restored)
    assert board.complete
    assert restored.entries.get(pk=board.bracket.champion).name == champion_name
    assert Match.objects.filter(round__tournament=restored, bracket_round=2).count() == 2

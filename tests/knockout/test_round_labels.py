"""Round pages label a knockout table with its bracket round, in English and Japanese."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.knockout import services as knockout
from tournaments.knockout.selectors import table_label

pytestmark = pytest.mark.django_db


@pytest.fixture
def eight(make_tournament, director):
    tournament = make_tournament(format="knockout", teams=8, rounds=1)
    knockout.set_knockout(
        tournament=tournament, actor=director, length="hands", count=1, third_place=True
    )
    listed = services.cut_list(tournament=tournament)
    services.confirm_cut(tournament=tournament, actor=director, entries=listed.ids)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    tournament.refresh_from_db()
    return tournament


def test_the_public_round_page_labels_each_quarter_final_table(client, eight):
    url = reverse("tournaments:public-round", args=[eight.slug, 1])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert html.count(">Quarter-final</span>") == 4
    ja = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert ja.count(">準々決勝</span>") == 4


def test_the_director_round_page_labels_the_knockout_tables(client, director_user, eight):
    client.force_login(director_user)
    html = client.get(reverse("tournaments:director-round", args=[eight.slug, 1])).content.decode()
    assert html.count(">Quarter-final</span>") == 4


def test_a_swiss_round_has_no_bracket_label(client, swiss, director):
    tournament = swiss(4, rounds=2)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    html = client.get(reverse("tournaments:public-round", args=[tournament.slug, 1])).content
    assert b"bracket-round" not in html


@pytest.mark.parametrize(
    ("entrants", "bracket_round", "index", "label"),
    [
        (8, 3, 1, "Final"),
        (8, 3, 2, "Third place"),
        (8, 2, 1, "Semi-final"),
        (16, 1, 5, "Round of 16"),
        (5, 1, 1, "Quarter-final"),
        (32, 1, 1, "Round of 32"),
    ],
)
def test_a_bracket_round_is_named_from_the_bracket_size(entrants, bracket_round, index, label):
    tournament = SimpleNamespace(bracket={"seeds": list(range(1, entrants + 1))}, third_place=True)
    match = SimpleNamespace(bracket_round=bracket_round, bracket_index=index)
    assert table_label(tournament, match) == label

"""A Swiss cut to its top 2 (issue 28): a third-place match is refused on the form and the API
(two go straight to the final: no semi-finals, no third place), the bracket never announces one
it does not have, and the final between two who met in the Swiss is not flagged a rematch."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments import services
from tournaments.knockout import selectors as ko_select
from tournaments.knockout import services as knockout
from tournaments.models import Tournament
from tournaments.selectors import director as select
from tournaments.services import ServiceError

from ..tournaments.conftest import play_round
from .test_create_and_projector import new_tournament

pytestmark = pytest.mark.django_db


def test_the_service_refuses_a_third_place_match_with_a_top_two_cut(swiss, director):
    tournament = swiss(4, rounds=2)
    with pytest.raises(ServiceError) as both:
        knockout.set_knockout(tournament=tournament, actor=director, top_cut=2, third_place=True)
    knockout.set_knockout(tournament=tournament, actor=director, top_cut=4, third_place=True)
    with pytest.raises(ServiceError) as later:  # a third place set, then the cut made 2
        knockout.set_knockout(tournament=tournament, actor=director, top_cut=2)
    assert both.value.code == later.value.code == "bad-third-place"
    assert "no semi-finals" in both.value.message
    tournament.refresh_from_db()
    assert (tournament.top_cut, tournament.third_place) == (4, True)
    knockout.set_knockout(tournament=tournament, actor=director, top_cut=2, third_place=False)
    tournament.refresh_from_db()
    assert (tournament.top_cut, tournament.third_place) == (2, False)


def test_the_api_refuses_it_with_the_code(swiss, director_user):
    tournament = swiss(4, rounds=2)
    client = APIClient()
    client.force_authenticate(director_user)
    answer = client.patch(
        f"/api/v1/tournaments/{tournament.slug}/knockout",
        {"top_cut": 2, "third_place": True},
        format="json",
    )
    assert (answer.status_code, answer.json()["code"]) == (422, "bad-third-place")
    tournament.refresh_from_db()
    assert (tournament.top_cut, tournament.third_place) == (0, False)


def test_the_knockout_page_says_why_against_the_tick(client, director_user, swiss):
    tournament = swiss(4, rounds=2)
    client.force_login(director_user)
    page = client.post(
        reverse("tournaments:director-knockout", args=[tournament.slug]),
        {"top_cut": "2", "length": "target", "tiebreak_hands": "1", "third_place": "on"},
    )
    assert page.status_code == 200
    assert page.context["form"].errors["third_place"] == [
        "A top cut of 2 goes straight to the final: with no semi-finals there is no "
        "third-place match. Untick it, or cut to 4 or 8."
    ]
    tournament.refresh_from_db()
    assert (tournament.top_cut, tournament.third_place) == (0, False)


def test_the_new_tournament_form_refuses_it_for_a_swiss_only(client, director_user):
    client.force_login(director_user)
    top_two = {"knockout-top_cut": "2", "knockout-third_place": "on", "rounds": "3"}
    refused = client.post(
        reverse("tournaments:director-home"), new_tournament(client, format="swiss", **top_two)
    )
    assert refused.status_code == 400 and not Tournament.objects.exists()
    assert "no third-place match" in refused.context["knockout_form"].errors["third_place"][0]
    # a knockout has no cut: a leftover "Top 2" of the hidden Swiss section is ignored
    made = client.post(
        reverse("tournaments:director-home"), new_tournament(client, format="knockout", **top_two)
    )
    assert made.status_code == 302
    assert Tournament.objects.get().third_place


def test_the_final_of_a_top_two_cut_is_not_flagged_a_rematch(
    client, director_user, swiss, director
):
    tournament = swiss(2, rounds=1)
    knockout.set_knockout(tournament=tournament, actor=director, top_cut=2, length="hands", count=1)
    play_round(tournament, director)  # the two meet in the Swiss
    tournament.refresh_from_db()
    services.confirm_cut(
        tournament=tournament, actor=director, entries=services.cut_list(tournament=tournament).ids
    )
    tournament.refresh_from_db()
    final = services.generate_round(tournament=tournament, actor=director)  # a draft
    rows, _ = select.tables(final)
    assert [row.match.bracket_round for row in rows] == [1]
    assert [row.rematch for row in rows] == [False]
    assert select.rematches(final) == []
    client.force_login(director_user)
    page = client.get(
        reverse("tournaments:director-round", args=[tournament.slug, final.number])
    ).content.decode()
    assert "Final" in page
    assert 'class="flag warn">Rematch<' not in page and "have met before" not in page


def test_a_knockout_of_two_never_announces_a_third_place_match(make_tournament, director):
    tournament = make_tournament(format="knockout", teams=2, rounds=1)
    knockout.set_knockout(
        tournament=tournament, actor=director, length="hands", count=1, third_place=True
    )
    services.confirm_cut(
        tournament=tournament, actor=director, entries=services.cut_list(tournament=tournament).ids
    )
    tournament.refresh_from_db()
    shown = ko_select.bracket_data(tournament)
    assert shown["third_place"] is False
    assert [len(r["matches"]) for r in shown["rounds"]] == [1]
    assert "third-place" not in ko_select.summary(tournament)

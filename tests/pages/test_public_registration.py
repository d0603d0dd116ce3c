"""The public registration page (issue 28): the form comes first and the rules fold away below
it, the confirmation stays in view after entering, and the rules say the match length the
tournament really plays ("4 hands"), not the rules' "first side to 500"."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.pages.test_public import event
from tests.tournaments.builders import make_director
from tournaments.presentation import describe

pytestmark = pytest.mark.django_db


def page_of(tournament, language="en") -> str:
    client = Client()
    client.cookies["django_language"] = language
    return client.get(
        reverse("tournaments:public-tournament", args=[tournament.slug])
    ).content.decode()


def test_a_four_hand_match_is_described_as_four_hands_not_the_rules_target():
    tournament = event(make_director("td"), hands=4)
    html = page_of(tournament)
    assert "Match: 4 hands; the higher score after the last one wins the match." in html
    assert "first side to 500" not in html
    ja = page_of(tournament, "ja")
    assert "4ハンド" in ja and "500" not in ja.split('id="rules"')[1].split("</ul>")[0]


def test_a_match_to_the_target_keeps_the_rules_sentence():
    with translation.override("en"):
        to_target = describe("spades", "standard")
        by_director = describe("spades", "standard", match_length="director")
    assert any("first side to 500" in s for s in to_target)
    assert not any("first side to 500" in s for s in by_director)
    assert by_director[-1].startswith("Match: hands are played until the director closes")


def test_the_form_comes_before_the_folded_rules():
    html = page_of(event(make_director("td")))
    assert html.index('id="register"') < html.index('id="rules"') < html.index('id="entries"')
    assert '<details class="rules-details">' in html  # folded while the form is there


def test_entering_lands_where_the_confirmation_is():
    tournament = event(make_director("td"), teams=1)
    url = reverse("tournaments:public-tournament", args=[tournament.slug])
    answer = Client().post(
        url,
        {"team_name": "Moonshot", "player_1": "Aiko", "player_2": "Ben"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 302 and answer["Location"] == url  # no jump to #entries

"""The director's dashboard says what a knockout is, not its unused rounds setting."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.knockout import services as knockout

pytestmark = pytest.mark.django_db


def test_the_dashboard_says_what_the_knockout_is_instead_of_rounds(
    client, director_user, director, make_tournament
):
    tournament = make_tournament(format="knockout", teams=8, rounds=5)
    knockout.set_knockout(
        tournament=tournament, actor=director, length="best-of", count=3, third_place=True
    )
    client.force_login(director_user)
    url = reverse("tournaments:director-dashboard", args=[tournament.slug])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Knockout of 8, best of 3, third-place match, 3 bracket rounds" in html
    assert "5 rounds" not in html
    ja = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "8組のノックアウト" in ja


def test_a_swiss_dashboard_still_says_its_rounds(client, director_user, swiss):
    tournament = swiss(4, rounds=3)
    client.force_login(director_user)
    html = client.get(reverse("tournaments:director-dashboard", args=[tournament.slug])).content
    assert b"3 rounds" in html and b"Knockout of" not in html

"""The federation's pages at the installation's root (a club's address of them is sent there), in
English and Japanese, and a club's opt-in on its director's page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.federation import services as federation
from tournaments.models import Club, FederationRating, Person, Player

from .builders import director_of, finished_event, make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(in_process_tasks):
    north, south = make_club("north"), make_club("south")
    n_td, s_td = director_of(north), director_of(south)
    finished_event(n_td, "North Friday", [("Aiko", "Ben"), ("Chika", "Dan")], seed=1)
    finished_event(s_td, "South Monday", [("Aiko", "Emi"), ("Fumi", "Goro")], seed=2)
    Player.objects.filter(name="Aiko").update(person=Person.objects.create())
    federation.recompute(game="spades")
    return north, south


def test_the_leaderboard_lists_each_person_once_with_their_clubs_and_events(client, rated):
    north, south = rated
    page = client.get("/federation/")
    assert page.status_code == 200
    rows = {row.name: row for row in page.context["rows"]}
    assert len(page.context["rows"]) == FederationRating.objects.filter(game="spades").count() == 7
    assert [c.name for c in rows["Aiko"].clubs] == [north.name, south.name]
    assert rows["Aiko"].rating.events == 2 and rows["Ben"].rating.events == 1
    assert [r.rating.ordinal for r in page.context["rows"]] == sorted(
        (r.rating.ordinal for r in page.context["rows"]), reverse=True
    )
    text = page.content.decode()
    history = reverse("tournaments:federation-history", args=["spades", rows["Aiko"].rating.pk])
    assert f'href="{history}"' in text and south.name in text


def test_the_ranking_opens_on_the_first_game_that_has_ratings(client, rated):
    assert client.get("/federation/").context["game"] == "spades"
    FederationRating.objects.filter(game="spades").update(game="german-whist")
    assert client.get("/federation/").context["game"] == "german-whist"
    FederationRating.objects.all().delete()
    assert client.get("/federation/").context["game"] == "spades"  # none: the first game


def test_a_persons_history_has_their_rating_after_each_event_with_the_clubs_address(client, rated):
    north, south = rated
    aiko = FederationRating.objects.get(person__isnull=False)
    page = client.get(reverse("tournaments:federation-history", args=["spades", aiko.pk]))
    assert page.status_code == 200
    rows = page.context["rows"]
    assert [r.event for r in rows] == ["North Friday", "South Monday"]
    assert [r.ordinal for r in rows] == [point[5] for point in aiko.history]
    assert rows[1].url.startswith(f"/c/{south.slug}/t/")
    assert client.get(rows[1].url).status_code == 200  # the event's page at its club's address


def test_an_unknown_game_or_rating_is_not_found(client, rated):
    assert client.get("/federation/no-such-game/").status_code == 404
    assert client.get("/federation/spades/999999/").status_code == 404


def test_a_clubs_address_of_the_federation_is_sent_to_the_root(client, rated):
    north, _south = rated
    answer = client.get(f"/c/{north.slug}/federation/spades/")
    assert answer.status_code == 302 and answer["Location"] == "/federation/spades/"


def test_the_pages_speak_japanese(client, rated):
    page = client.get("/federation/", headers={"accept-language": "ja"})
    text = page.content.decode()
    assert "連盟" in text and "Events counted" not in text


def test_a_clubs_director_puts_the_club_out_of_the_ranking_and_back(
    client, rated, django_capture_on_commit_callbacks
):
    _north, south = rated
    user = south.directors.get()
    client.force_login(user)
    address = f"/c/{south.slug}/director/federation/"
    page = client.get(address)
    assert page.status_code == 200 and page.context["form"]["joined"].value() is True
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(address, {})
    assert answer.status_code == 302
    south.refresh_from_db()
    assert not south.federation
    assert not FederationRating.objects.filter(player__club=south).exists()  # re-rated at once
    client.post(address, {"joined": "on"})
    south.refresh_from_db()
    assert south.federation


def test_another_clubs_director_cannot_change_this_clubs_opt_in(client, rated):
    north, south = rated
    client.force_login(north.directors.get())
    answer = client.post(f"/c/{south.slug}/director/federation/", {})
    assert answer.status_code == 403
    assert Club.objects.get(pk=south.pk).federation

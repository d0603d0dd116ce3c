"""A club's address: `/c/<club>/` serves the club's pages with every link carrying the club;
the site's root is the home club's, as on an installation with one club."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments import services
from tournaments.clubs import running
from tournaments.models import Club, Player, Tournament, home_club
from tournaments.services import Actor, NotAllowed, PlayerSpec

pytestmark = pytest.mark.django_db

SPADES = {"preset": "standard"}


def event(user, club: Club, name: str = "Friday Spades") -> Tournament:
    return services.create_tournament(
        actor=Actor(user=user, club=club),
        name=name,
        game="spades",
        rules=SPADES,
        format="swiss",
        rounds=3,
    )


@pytest.fixture
def north(db) -> Club:
    home_club()  # the installation's first club is the home club
    return Club.objects.create(name="North Spades Club", slug="north")


@pytest.fixture
def north_td(north):
    user = get_user_model().objects.create_user("north-td")
    north.directors.add(user)
    return user


def test_an_empty_installation_has_one_club_that_owns_what_is_made_without_one():
    made = Player.objects.create(name="Aiko")
    assert Club.objects.count() == 1
    assert made.club == home_club()


def test_a_clubs_event_is_served_at_its_address_with_links_that_keep_the_club(
    client, north, north_td
):
    tournament = event(north_td, north)
    answer = client.get(f"/c/north/t/{tournament.slug}/")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'href="/c/north/t/{tournament.slug}/' in html
    assert 'href="/static/' not in html or "/c/north/static/" not in html
    # Addresses made after the request are the root's again.
    assert reverse("tournaments:home") == "/"


def test_another_clubs_event_is_not_found_at_this_clubs_address_nor_at_the_root(
    client, north, north_td
):
    tournament = event(north_td, north)
    assert client.get(f"/t/{tournament.slug}/").status_code == 404
    assert client.get(f"/c/{home_club().slug}/t/{tournament.slug}/").status_code == 404


def test_an_unknown_club_is_not_found(client, north):
    assert client.get("/c/nowhere/").status_code == 404


def test_a_club_address_without_its_slash_is_sent_to_it(client, north):
    answer = client.get("/c/north?lang=ja")
    assert answer.status_code == 301
    assert answer["Location"] == "/c/north/?lang=ja"


def test_a_director_of_one_club_cannot_make_an_event_in_another(north, north_td):
    with pytest.raises(NotAllowed) as refused:
        event(north_td, home_club())
    assert refused.value.code == "not-club-director"


def test_on_an_installation_of_one_club_every_account_directs_it():
    user = get_user_model().objects.create_user("td")
    assert event(user, home_club()).club == home_club()


def test_with_a_second_club_an_account_of_no_club_directs_none(north):
    user = get_user_model().objects.create_user("td")
    for club in (home_club(), north):
        with pytest.raises(NotAllowed) as refused:
            event(user, club)
        assert refused.value.code == "not-club-director"


def test_a_second_club_names_the_home_clubs_directors_who_directed_it_by_default(admin_user):
    before = get_user_model().objects.create_user("td")
    running.create_club(actor=Actor(user=admin_user), name="North", slug="north")
    later = get_user_model().objects.create_user("later")
    assert list(home_club().directors.all()) == [before]
    assert event(before, home_club()).club == home_club()
    with pytest.raises(NotAllowed):
        event(later, home_club())


def test_a_director_removed_from_another_club_directs_no_club(client, admin_user):
    admin = Actor(user=admin_user)
    home_td = get_user_model().objects.create_user("home-td")
    north = running.create_club(actor=admin, name="North", slug="north")
    nora, ned = (get_user_model().objects.create_user(name) for name in ("nora", "ned"))
    north.directors.add(nora, ned)
    running.remove_director(actor=admin, club=north, user_id=ned.pk)
    client.force_login(ned)
    for page in ("/director/", "/director/club/", "/director/members/", "/director/publishing/"):
        assert client.get(page).status_code == 403, page
        assert client.get("/c/north" + page).status_code == 403, page
    assert client.get("/director/club/archive.zip").status_code == 403
    client.force_login(home_td)
    assert client.get("/director/club/").status_code == 200


def test_a_director_of_another_club_is_refused_this_clubs_director_pages(client, north, north_td):
    client.force_login(north_td)
    assert client.get("/c/north/director/").status_code == 200
    assert client.get("/director/").status_code == 403


def test_players_are_found_among_the_clubs_own_members_only(north, north_td):
    theirs = event(north_td, north)
    home_td = get_user_model().objects.create_user("td")
    home_club().directors.add(home_td)
    ours = event(home_td, home_club(), name="Home Spades")
    services.open_registration(tournament=theirs, actor=Actor(user=north_td))
    spec = PlayerSpec(name="Aiko Sato", club_number="17")
    north_aiko = services.find_or_create_player(spec, club=north)
    home_aiko = services.find_or_create_player(spec, club=ours.club)
    assert north_aiko.pk != home_aiko.pk
    assert (north_aiko.club, home_aiko.club) == (north, home_club())


def test_a_clubs_pages_name_the_club_once_the_installation_has_more_than_one(client, north):
    home = client.get("/c/north/").content.decode()
    assert "<h1>North Spades Club</h1>" in home
    assert 'class="brand" href="/c/north/">North Spades Club</a>' in home


def test_the_installations_own_pages_name_no_club(client, north):
    for page in ("/clubs/", "/federation/"):
        html = client.get(page).content.decode()
        assert 'class="brand" href="/">TrickTable</a>' in html, page
    assert f">{home_club().name}</a>" in client.get("/").content.decode()  # a club page


def test_an_installation_of_one_club_still_says_tricktable(client):
    home_club()
    page = client.get("/").content.decode()
    assert "<h1>TrickTable</h1>" in page
    assert home_club().name not in page


def test_another_clubs_director_is_refused_an_event_there_whatever_the_body_says(
    client, north, north_td
):
    client.force_login(get_user_model().objects.create_user("home-td"))
    for body in ({}, {"name": "Raid"}):
        answer = client.post("/c/north/api/v1/tournaments", body, content_type="application/json")
        assert (answer.status_code, answer.json()["code"]) == (403, "not-club-director")
    assert not Tournament.objects.filter(club=north).exists()


def test_signing_in_at_the_root_leads_a_clubs_director_to_their_clubs_pages(
    client, north, north_td
):
    north_td.set_password("a long pass phrase")
    north_td.save()
    answer = client.post(
        "/accounts/login/", {"username": "north-td", "password": "a long pass phrase"}, follow=True
    )
    assert answer.redirect_chain[-1][0] == "/c/north/director/"
    assert answer.status_code == 200
    home_td = get_user_model().objects.create_user("home-td", password="another pass phrase")
    home_club().directors.add(home_td)
    client.logout()
    answer = client.post(
        "/accounts/login/", {"username": "home-td", "password": "another pass phrase"}, follow=True
    )
    assert answer.redirect_chain[-1][0] == "/director/" and answer.status_code == 200

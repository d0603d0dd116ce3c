"""Running clubs: the installation's administrators make clubs, invite their first director and
suspend or resume them; a club's directors invite further directors by a one-time link, revoke
it, and remove a director but never the last (docs/clubs.md, "Running clubs")."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tournaments import services
from tournaments.clubs import running
from tournaments.models import (
    Club,
    ClubAuditEvent,
    ClubInvitation,
    Player,
    Tournament,
    home_club,
)
from tournaments.services import Actor, ServiceError
from tournaments.tokens import hash_secret

pytestmark = pytest.mark.django_db

STRONG = "kettle-Pharaoh-97"


@pytest.fixture
def admin(db):
    home_club()
    return get_user_model().objects.create_superuser("site-admin", password=STRONG)


@pytest.fixture
def north(admin) -> Club:
    return running.create_club(actor=Actor(user=admin), name="North Spades Club", slug="north")


@pytest.fixture
def north_td(north):
    user = get_user_model().objects.create_user("north-td", password=STRONG)
    north.directors.add(user)
    return user


def link_secret(html: str) -> str:
    found = re.search(r"data-invitation-link>https?://[^<]*/clubs/join/([^/<]+)/<", html)
    assert found, "no invitation link on the page"
    return found[1]


def refused(code: str, call, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(**kwargs)
    assert caught.value.code == code
    return caught.value


# Making clubs ----------------------------------------------------------------------------------


def test_an_administrator_makes_a_club_from_the_manage_page_and_it_is_served_at_its_address(
    client, admin
):
    client.force_login(admin)
    answer = client.post("/clubs/manage/", {"name": " Tokyo  Whist ", "slug": "Tokyo-Whist"})
    assert answer.status_code == 302
    club = Club.objects.get(slug="tokyo-whist")
    assert club.name == "Tokyo Whist"
    assert answer["Location"] == "/clubs/manage/tokyo-whist/"
    assert client.get("/c/tokyo-whist/").status_code == 200
    event = ClubAuditEvent.objects.get(club=club)
    assert (event.action, event.actor_label) == ("created", "site-admin")
    listing = client.get("/clubs/manage/").content.decode()
    assert 'data-club="tokyo-whist"' in listing


@pytest.mark.parametrize(
    ("slug", "code"),
    [
        ("a", "bad-slug"),
        ("-north", "bad-slug"),
        ("north-", "bad-slug"),
        ("north spades", "bad-slug"),
        ("北", "bad-slug"),
        ("x" * 51, "bad-slug"),
        ("admin", "slug-reserved"),
        ("api", "slug-reserved"),
        ("clubs", "slug-reserved"),
        ("static", "slug-reserved"),
    ],
)
def test_a_clubs_address_is_checked_and_the_sites_words_are_refused(admin, slug, code):
    refused(code, running.create_club, actor=Actor(user=admin), name="A club", slug=slug)
    assert not Club.objects.exclude(pk=home_club().pk).exists()


def test_a_taken_address_and_an_empty_name_are_refused(admin, north):
    actor = Actor(user=admin)
    refused("slug-taken", running.create_club, actor=actor, name="Other", slug="north")
    refused("slug-taken", running.create_club, actor=actor, name="Other", slug="NORTH ")
    refused("bad-name", running.create_club, actor=actor, name="   ", slug="empty")
    assert Club.objects.count() == 2


def test_the_manage_page_says_a_refusal_with_its_code_and_keeps_what_was_typed(client, admin):
    client.force_login(admin)
    answer = client.post("/clubs/manage/", {"name": "The Admins", "slug": "admin"})
    html = answer.content.decode()
    assert answer.status_code == 400
    assert 'data-code="slug-reserved"' in html
    assert 'value="The Admins"' in html


def test_someone_not_an_administrator_cannot_make_or_manage_clubs(client, north, north_td):
    refused(
        "not-administrator",
        running.create_club,
        actor=Actor(user=north_td),
        name="Mine",
        slug="mine",
    )
    refused(
        "not-administrator",
        running.suspend_club,
        actor=Actor(user=north_td),
        club=north,
        reason="x",
    )
    assert client.get("/clubs/manage/").status_code == 302  # to the sign-in page
    client.force_login(north_td)
    for address in ("/clubs/manage/", "/clubs/manage/north/"):
        assert client.get(address).status_code == 403
    assert client.post("/clubs/manage/", {"name": "Mine", "slug": "mine"}).status_code == 403
    assert client.post("/clubs/manage/north/suspend/", {"reason": "x"}).status_code == 403
    assert not Club.objects.filter(slug="mine").exists()
    north.refresh_from_db()
    assert north.suspended_at is None


# Invitations -----------------------------------------------------------------------------------


def test_an_invitation_keeps_only_the_hash_of_its_secret(admin, north):
    invitation, secret = running.invite_director(actor=Actor(user=admin), club=north, label="Aiko")
    assert invitation.key_hash == hash_secret(secret)
    assert secret not in str(list(ClubInvitation.objects.filter(pk=invitation.pk).values_list()))
    assert invitation.expires_at - timezone.now() > timedelta(days=6)


def test_the_first_director_opens_the_link_makes_an_account_and_directs_the_club_once(
    client, admin, north
):
    client.force_login(admin)
    page = client.post("/clubs/manage/north/invite/", {"label": "Aiko, the captain"})
    assert page.status_code == 200
    secret = link_secret(page.content.decode())
    client.logout()

    opened = client.get(f"/clubs/join/{secret}/")
    assert opened.status_code == 200
    assert "North Spades Club" in opened.content.decode()
    assert opened["Referrer-Policy"] == "same-origin"
    joined = client.post(
        f"/clubs/join/{secret}/",
        {"username": "aiko", "password1": STRONG, "password2": STRONG},
    )
    assert joined.status_code == 302
    assert joined["Location"] == "/c/north/director/club/"
    aiko = get_user_model().objects.get(username="aiko")
    assert list(north.directors.all()) == [aiko]
    assert client.get("/c/north/director/club/").status_code == 200  # signed in as aiko

    again = client.post(
        f"/clubs/join/{secret}/",
        {"username": "mallory", "password1": STRONG, "password2": STRONG},
    )
    assert again.status_code == 410
    assert 'data-code="invitation-used"' in again.content.decode()
    assert not get_user_model().objects.filter(username="mallory").exists()
    who = ClubAuditEvent.objects.get(club=north, action="joined")
    assert (who.subject_label, who.invitation.invited_by) == ("aiko", admin)
    assert ClubAuditEvent.objects.get(club=north, action="invited").subject_label == (
        "Aiko, the captain"
    )


def test_a_signed_in_person_accepts_with_their_own_account(client, admin, north):
    _invitation, secret = running.invite_director(actor=Actor(user=admin), club=north)
    bea = get_user_model().objects.create_user("bea", password=STRONG)
    client.force_login(bea)
    assert "bea" in client.get(f"/clubs/join/{secret}/").content.decode()
    assert client.post(f"/clubs/join/{secret}/").status_code == 302
    assert north.directors.filter(pk=bea.pk).exists()
    refused("invitation-used", running.accept_invitation, secret=secret, user=bea)


def test_a_weak_password_is_refused_and_the_link_stays_open(client, admin, north):
    _invitation, secret = running.invite_director(actor=Actor(user=admin), club=north)
    error = refused(
        "weak-password", running.accept_invitation, secret=secret, username="cho", password="cho"
    )
    assert error.details
    answer = client.post(
        f"/clubs/join/{secret}/", {"username": "cho", "password1": "123", "password2": "123"}
    )
    assert answer.status_code == 400
    assert not get_user_model().objects.filter(username="cho").exists()
    running.accept_invitation(secret=secret, username="cho", password=STRONG)
    assert north.directors.filter(username="cho").exists()


def test_a_taken_user_name_is_refused(admin, north, north_td):
    _invitation, secret = running.invite_director(actor=Actor(user=admin), club=north)
    refused(
        "username-taken",
        running.accept_invitation,
        secret=secret,
        username="NORTH-td",
        password=STRONG,
    )


@pytest.mark.parametrize("how", ["expired", "revoked", "unknown"])
def test_an_expired_revoked_or_unknown_link_is_refused(client, admin, north, how):
    invitation, secret = running.invite_director(actor=Actor(user=admin), club=north)
    if how == "expired":
        ClubInvitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
    elif how == "revoked":
        running.revoke_invitation(actor=Actor(user=admin), club=north, invitation_id=invitation.pk)
    else:
        secret = secret[::-1]
    code = f"invitation-{how}"
    refused(code, running.accept_invitation, secret=secret, username="dai", password=STRONG)
    answer = client.post(
        f"/clubs/join/{secret}/",
        {"username": "dai", "password1": STRONG, "password2": STRONG},
    )
    assert answer.status_code == (404 if how == "unknown" else 410)
    assert f'data-code="{code}"' in answer.content.decode()
    assert not get_user_model().objects.filter(username="dai").exists()
    assert not north.directors.exists()


def test_a_used_invitation_cannot_be_revoked_and_a_revoked_one_not_twice(admin, north):
    actor = Actor(user=admin)
    used, secret = running.invite_director(actor=actor, club=north)
    running.accept_invitation(secret=secret, username="eri", password=STRONG)
    refused(
        "invitation-used", running.revoke_invitation, actor=actor, club=north, invitation_id=used.pk
    )
    other, _secret = running.invite_director(actor=actor, club=north)
    running.revoke_invitation(actor=actor, club=north, invitation_id=other.pk)
    refused(
        "invitation-revoked",
        running.revoke_invitation,
        actor=actor,
        club=north,
        invitation_id=other.pk,
    )


# The club's directors --------------------------------------------------------------------------


def test_a_clubs_director_invites_a_further_director_from_the_clubs_page(client, north, north_td):
    client.force_login(north_td)
    page = client.get("/c/north/director/club/")
    assert page.status_code == 200
    assert "north-td" in page.content.decode()
    made = client.post("/c/north/director/club/invite/", {"label": "Fumi"})
    secret = link_secret(made.content.decode())
    invitation = ClubInvitation.objects.get(key_hash=hash_secret(secret))
    assert (invitation.club, invitation.invited_by, invitation.label) == (north, north_td, "Fumi")
    listed = client.get("/c/north/director/club/").content.decode()
    assert "Fumi" in listed and secret not in listed

    assert (
        client.post("/c/north/director/club/revoke/", {"invitation": invitation.pk}).status_code
        == 302
    )
    refused(
        "invitation-revoked",
        running.accept_invitation,
        secret=secret,
        username="fumi",
        password=STRONG,
    )


def test_another_clubs_director_cannot_see_or_invite_to_the_club(client, admin, north, north_td):
    south = running.create_club(actor=Actor(user=admin), name="South", slug="south")
    south_td = get_user_model().objects.create_user("south-td")
    south.directors.add(south_td)
    invitation, _secret = running.invite_director(actor=Actor(user=north_td), club=north)
    client.force_login(south_td)
    assert client.get("/c/north/director/club/").status_code == 403
    assert client.post("/c/north/director/club/invite/", {"label": "x"}).status_code == 403
    assert (
        client.post("/c/north/director/club/revoke/", {"invitation": invitation.pk}).status_code
        == 403
    )
    assert (
        client.post("/c/north/director/club/remove/", {"director": north_td.pk}).status_code == 403
    )
    # At its own address, another club's invitation is not found.
    answer = client.post("/c/south/director/club/revoke/", {"invitation": invitation.pk})
    assert 'data-code="invitation-unknown"' in answer.content.decode()
    refused("not-club-director", running.invite_director, actor=Actor(user=south_td), club=north)
    assert ClubInvitation.objects.filter(club=north).count() == 1
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_the_last_director_is_kept_and_another_may_be_removed(client, north, north_td):
    actor = Actor(user=north_td)
    refused("last-director", running.remove_director, actor=actor, club=north, user_id=north_td.pk)
    second = get_user_model().objects.create_user("second")
    north.directors.add(second)
    client.force_login(north_td)
    answer = client.post("/c/north/director/club/remove/", {"director": second.pk})
    assert answer.status_code == 302
    assert list(north.directors.all()) == [north_td]
    answer = client.post("/c/north/director/club/remove/", {"director": north_td.pk})
    assert 'data-code="last-director"' in answer.content.decode()
    assert list(north.directors.all()) == [north_td]
    removed = ClubAuditEvent.objects.get(club=north, action="director-removed")
    assert (removed.actor_label, removed.subject_label) == ("north-td", "second")


# Suspension ------------------------------------------------------------------------------------


def test_a_suspended_club_refuses_its_pages_and_api_and_keeps_its_data(
    client, admin, north, north_td
):
    tournament = services.create_tournament(
        actor=Actor(user=north_td, club=north),
        name="Friday Spades",
        game="spades",
        rules={"preset": "standard"},
        format="swiss",
        rounds=3,
    )
    Player.objects.create(name="Aiko", club=north)
    client.force_login(admin)
    answer = client.post("/clubs/manage/north/suspend/", {"reason": "unpaid hosting"})
    assert answer.status_code == 302
    north.refresh_from_db()
    assert north.suspended_at is not None
    assert "unpaid hosting" in client.get("/clubs/manage/north/").content.decode()

    client.force_login(north_td)
    for address in ("/c/north/", f"/c/north/t/{tournament.slug}/", "/c/north/director/"):
        page = client.get(address)
        assert page.status_code == 403, address
        assert 'data-code="club-suspended"' in page.content.decode()
        assert "Friday Spades" not in page.content.decode()
    japanese = client.get("/c/north/", HTTP_ACCEPT_LANGUAGE="ja")
    assert japanese.status_code == 403 and japanese["Content-Language"] == "ja"
    assert 'class="brand" href="/"' in japanese.content.decode()  # the root's links
    api = client.get(f"/c/north/api/v1/tournaments/{tournament.slug}/standings")
    assert (api.status_code, api.json()["code"]) == (403, "club-suspended")
    posted = client.post("/c/north/director/club/invite/", {"label": "x"})
    assert posted.status_code == 403
    refused("club-suspended", running.invite_director, actor=Actor(user=north_td), club=north)
    refused(
        "club-suspended",
        services.create_tournament,
        actor=Actor(user=north_td, club=north),
        name="Saturday",
        game="spades",
        rules={"preset": "standard"},
        format="swiss",
        rounds=3,
    )
    # Its data stays, and resuming opens it again as it was.
    assert Tournament.objects.filter(club=north).count() == 1
    assert Player.objects.filter(club=north).count() == 1
    running.resume_club(actor=Actor(user=admin), club=north)
    assert client.get(f"/c/north/t/{tournament.slug}/").status_code == 200
    assert [e.action for e in ClubAuditEvent.objects.filter(club=north)][:2] == [
        "resumed",
        "suspended",
    ]


def test_a_suspended_club_says_so_in_japanese(client, admin, north):
    running.suspend_club(actor=Actor(user=admin), club=north, reason="test")
    english = client.get("/c/north/").content.decode()
    japanese = client.get("/c/north/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "This club is suspended" in english
    assert "This club is suspended" not in japanese
    assert 'lang="ja"' in japanese


def test_the_home_club_cannot_be_suspended_and_suspension_needs_a_reason(admin, north):
    actor = Actor(user=admin)
    refused("home-club", running.suspend_club, actor=actor, club=home_club(), reason="no")
    refused("reason-required", running.suspend_club, actor=actor, club=north, reason="  ")
    refused("club-not-suspended", running.resume_club, actor=actor, club=north)
    running.suspend_club(actor=actor, club=north, reason="why")
    refused("club-suspended", running.suspend_club, actor=actor, club=north, reason="again")


# The installation's front page -----------------------------------------------------------------


def test_the_front_page_lists_the_clubs_and_the_root_stays_the_home_clubs(client, admin, north):
    running.create_club(actor=Actor(user=admin), name="Quiet Club", slug="quiet")
    running.suspend_club(
        actor=Actor(user=admin), club=Club.objects.get(slug="quiet"), reason="asked to"
    )
    front = client.get("/clubs/")
    html = front.content.decode()
    assert front.status_code == 200
    assert 'href="/c/north/"' in html
    assert f'href="/c/{home_club().slug}/"' in html
    assert "Quiet Club" in html and 'href="/c/quiet/"' not in html
    assert client.get("/").status_code == 200  # the home club's home page, as before


def test_the_installations_pages_under_a_clubs_address_go_to_the_root(client, north):
    answer = client.get("/c/north/clubs/")
    assert (answer.status_code, answer["Location"]) == (302, "/clubs/")


def test_the_directors_home_leads_to_the_clubs_directors_and_an_administrator_to_the_clubs(
    client, admin, north, north_td
):
    client.force_login(north_td)
    html = client.get("/c/north/director/").content.decode()
    assert 'href="/c/north/director/club/"' in html
    assert "/clubs/manage/" not in html
    client.force_login(admin)
    assert 'href="/clubs/manage/"' in client.get("/director/").content.decode()

"""How the club's site names its members: in full or by initials (the club's choice), and a
name removed on request (the results stay, the name goes, and stays gone when the room publishes
again). Checked on every public page, export and archive the site serves for the events."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tournaments.members import names, services
from tournaments.models import (
    HandSubmission,
    Match,
    Player,
    PublishedEvent,
    RemovedName,
    Tournament,
)
from tournaments.publishing import services as publishing
from tournaments.services import Actor, ServiceError

from .conftest import as_published, players_of, publish, read

pytestmark = pytest.mark.django_db


def served(client, event: Tournament, director=None) -> str:
    """Everything the site serves about the event: its public pages and exports (and, for its
    director, its archive), in both languages, and its players' pages."""
    slug = event.slug
    urls = [
        reverse("tournaments:public-tournament", args=[slug]),
        reverse("tournaments:public-standings", args=[slug]),
        reverse("tournaments:export-table", args=[slug, "standings", "csv"]),
        reverse("tournaments:export-table", args=[slug, "results", "csv"]),
        reverse("tournaments:export-hands", args=[slug]),
    ]
    if event.format == Tournament.Format.DUPLICATE:
        urls = [
            reverse("tournaments:duplicate-results", args=[slug]),
            reverse("tournaments:duplicate-deals", args=[slug]),
            reverse("tournaments:duplicate-export", args=[slug, "csv"]),
            *(
                reverse("tournaments:duplicate-card", args=[slug, n])
                for n in event.duplicate_pairs.values_list("number", flat=True)
            ),
            *(
                reverse("tournaments:duplicate-traveller", args=[slug, n])
                for n in event.boards.values_list("number", flat=True)
            ),
        ]
    else:
        for number in event.round_set.values_list("number", flat=True):
            urls.append(reverse("tournaments:public-round", args=[slug, number]))
        for match in Match.objects.filter(round__tournament=event).values_list("pk", flat=True):
            urls.append(reverse("tournaments:public-match", args=[slug, match]))
            urls.append(reverse("tournaments:export-match", args=[slug, match]))
    for player in players_of(event):
        if player.name != names.WITHHELD:
            urls.append(reverse("tournaments:public-player", args=[player.pk]))
    pages = [read(client, url, language) for url in urls for language in ("en", "ja")]
    if director is not None:
        client.force_login(director)
        pages.append(read(client, reverse("tournaments:export-archive", args=[slug])))
        client.logout()
    return "\n".join(pages)


def full_names(room_event: Tournament) -> list[str]:
    return [p["name"] for p in as_published(room_event)["players"]]


@pytest.fixture
def room_swiss(db, settings, built_once):
    """A Spades Swiss with a round closed and one in play, built once per run."""
    from tournaments.demo import club as demo

    settings.REDIS_URL = None
    built_once("names-spades-swiss", lambda: demo.build_spades(9, teams=4, played=1))
    return Tournament.objects.get(name="Friday Night Spades")


def test_in_initials_mode_no_full_name_is_anywhere_on_the_site(
    room_swiss, site_key, site_director, staff, client
):
    key, _secret = site_key
    event = publish(key, room_swiss, "initials-evening")
    everyone = full_names(room_swiss)
    # Each page is read once and every name looked for in it: the site does not change while
    # the names are looked for.
    seen = served(client, event)
    assert all(name in seen for name in everyone[:2])  # full names, at first
    before = {p.uid: p.pk for p in players_of(event)}

    services.set_public_names(actor=staff, mode="initials")
    event = Tournament.objects.get(slug="initials-evening")
    seen = served(client, event, director=site_director.user)
    for name in everyone:
        assert name not in seen, name
        assert names.initials(name) in seen
    assert {p.uid: p.pk for p in players_of(event)} == before  # the same players, renamed
    shown_as = names.initials(everyone[0])
    finder = read(client, reverse("tournaments:members-search") + "?q=" + shown_as)
    site_player = Player.objects.get(uid__in=before, name=shown_as)
    assert reverse("tournaments:public-player", args=[site_player.pk]) in finder

    # The room publishes again, with a change: still initials only.
    document = as_published(room_swiss, "initials-evening")
    document["seasons"] = []
    document["tournament"]["venue"] = "Upstairs"
    assert publishing.receive(key=key, slug="initials-evening", document=document).outcome == (
        "updated"
    )
    seen = served(client, Tournament.objects.get(slug="initials-evening"))
    assert not [name for name in everyone if name in seen]

    # Back to full names: every page shows them again, the same players.
    services.set_public_names(actor=staff, mode="full")
    event = Tournament.objects.get(slug="initials-evening")
    seen = served(client, event)
    assert all(name in seen for name in everyone)
    assert {p.uid: p.pk for p in players_of(event)} == before


def test_initials_of_a_duplicate_evening_too(duplicate_evening, staff, client, settings):
    room = Tournament.objects.exclude(pk=duplicate_evening.pk).get(
        format=Tournament.Format.DUPLICATE
    )
    everyone = full_names(room)
    services.set_public_names(actor=staff, mode="initials")
    seen = served(client, Tournament.objects.get(slug=duplicate_evening.slug))
    assert not [name for name in everyone if name in seen]


def test_a_removed_name_is_gone_everywhere_and_stays_gone_after_a_republish(
    room_swiss, site_key, site_director, client
):
    key, _secret = site_key
    event = publish(key, room_swiss, "removal-evening")
    person = players_of(event)[0]
    name, uid = person.name, person.uid
    results_before = (
        event.entries.count(),
        HandSubmission.objects.filter(hand__match__round__tournament=event).count(),
    )
    assert name in served(client, event)

    client.force_login(site_director.user)  # the event's director on the site (the key's owner)
    remove = reverse("tournaments:members-remove", args=[person.pk])
    asked = client.post(remove)
    assert name in asked.content.decode() and not RemovedName.objects.exists()  # asks first
    assert client.post(remove, {"confirm": "yes"}).status_code == 302
    client.logout()

    event = Tournament.objects.get(slug="removal-evening")
    seen = served(client, event, director=site_director.user)
    assert name not in seen
    assert name not in json.dumps(PublishedEvent.objects.get(slug="removal-evening").document)
    assert Player.objects.get(uid=uid).name == names.WITHHELD
    assert client.get(reverse("tournaments:public-player", args=[person.pk])).status_code == 404
    assert (
        event.entries.count(),
        HandSubmission.objects.filter(hand__match__round__tournament=event).count(),
    ) == results_before  # the results stay

    # The room still names them: republished with a change, and in a new event, the name
    # stays gone.
    document = as_published(room_swiss, "removal-evening")
    document["seasons"] = []
    document["tournament"]["venue"] = "Downstairs"
    assert publishing.receive(key=key, slug="removal-evening", document=document).outcome == (
        "updated"
    )
    again = publish(key, room_swiss, "removal-evening-copy")
    for published in (Tournament.objects.get(slug="removal-evening"), again):
        assert name not in served(client, published, director=site_director.user)
    assert Player.objects.get(uid=uid).pk == person.pk  # the same player, results kept
    assert not Player.objects.filter(uid=uid).exclude(name=names.WITHHELD).exists()
    for finder in (
        read(client, reverse("tournaments:members-search") + "?q=" + name[:4]),
        read(client, reverse("tournaments:members-search")),
    ):
        assert reverse("tournaments:public-player", args=[person.pk]) not in finder


def test_only_the_clubs_staff_choose_and_only_directors_remove(
    room_swiss, site_key, site_director, client, django_user_model
):
    key, _secret = site_key
    event = publish(key, room_swiss, "guarded-evening")
    stranger = Actor(user=django_user_model.objects.create_user("passer-by"))
    with pytest.raises(ServiceError) as refused:
        services.set_public_names(actor=stranger, mode="initials")
    assert refused.value.code == "not-staff"
    with pytest.raises(ServiceError) as refused:
        services.remove_name(actor=stranger, player=players_of(event)[0])
    assert refused.value.code == "not-director"
    client.force_login(stranger.user)
    answer = client.post(
        reverse("tournaments:members-remove", args=[players_of(event)[0].pk]), {"confirm": "yes"}
    )
    assert answer.status_code == 403
    assert not RemovedName.objects.exists()
    assert names.public_mode() == "full"


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ["Members' names", "Initials only"]), ("ja", ["会員の名前", "イニシャルのみ"])],
)
def test_the_clubs_members_page_speaks_both_languages(client, staff, language, words):
    client.force_login(staff.user)
    page = read(client, reverse("tournaments:members-director"), language)
    for sentence in words:
        assert sentence in page
    assert client.post(reverse("tournaments:members-director"), {"public_names": "initials"})
    assert names.public_mode() == "initials"

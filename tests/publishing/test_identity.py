"""Re-publishing updates the event on the site in place: the same people are the same players
(the same ids, so links to a player still work), the tournament, its rounds, entries and matches
keep their ids, corrections and late changes are carried over, nothing is duplicated; and the
same person of the room is the same player on the site in every event it publishes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services as workflows
from tournaments.demo import club as demo
from tournaments.models import Entry, HandSubmission, Match, Player, Round, Team, Tournament
from tournaments.publishing import payload, services
from tournaments.services import Actor, PlayerSpec

from .conftest import as_published

pytestmark = pytest.mark.django_db

SLUG = "friday-at-the-club"


def site_players(slug: str) -> dict[str, int]:
    """uid -> id of the site event's players."""
    entries = Entry.objects.filter(tournament__slug=slug)
    ids = set(entries.exclude(player=None).values_list("player_id", flat=True))
    for first, second in Team.objects.filter(entries__in=entries).values_list("first", "second"):
        ids |= {first, second}
    return {str(uid): pk for uid, pk in Player.objects.filter(pk__in=ids).values_list("uid", "pk")}


def ids(slug: str) -> dict[str, object]:
    t = Tournament.objects.get(slug=slug)
    return {
        "tournament": t.pk,
        "rounds": sorted(Round.objects.filter(tournament=t).values_list("number", "pk")),
        "entries": sorted(Entry.objects.filter(tournament=t).values_list("pk", flat=True)),
        "matches": sorted(
            Match.objects.filter(round__tournament=t).values_list(
                "round__number", "table__number", "pk"
            ),
            key=lambda m: (m[0], m[1] or 0, m[2]),
        ),
        "teams": sorted(Team.objects.filter(entries__tournament=t).values_list("pk", flat=True)),
    }


def test_a_player_keeps_their_id_and_page_across_republishes(room_event, site_key, client):
    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    before_players = site_players(SLUG)
    before = ids(SLUG)
    counts = (Player.objects.count(), Team.objects.count(), Tournament.objects.count())
    assert len(before_players) == 8  # four teams of two

    # In the room: a name corrected, a confirmed hand corrected, the next round played on.
    room_player = Player.objects.filter(
        pk__in=Team.objects.filter(entries__tournament=room_event).values("first")
    ).first()
    room_player.name = "Corrected Name"
    room_player.save()
    director = Actor(user=room_event.directors.get(), label="director")
    confirmed = (
        HandSubmission.objects.filter(
            hand__match__round__tournament=room_event, status="confirmed", is_current=True
        )
        .select_related("hand")
        .order_by("hand__match__round__number", "hand_id")
        .first()
    )
    record = {k: v for k, v in confirmed.record.items() if k not in ("format", "game", "rules")}
    record.pop("before", None)
    record["notes"] = ["corrected at the table"]
    workflows.correct_hand(
        hand=confirmed.hand,
        actor=director,
        record=record,
        expected_version=confirmed.version,
        reason="misread",
    )
    received = services.receive(key=key, slug=SLUG, document=as_published(room_event))
    assert received.outcome == "updated"

    after_players = site_players(SLUG)
    assert after_players == before_players  # the same people, the same ids
    after = ids(SLUG)
    assert after == before  # the tournament, rounds, entries, matches and teams too
    assert (Player.objects.count(), Team.objects.count(), Tournament.objects.count()) == counts
    site = Tournament.objects.get(slug=SLUG)
    assert HandSubmission.objects.filter(
        hand__match__round__tournament=site, reason="misread"
    ).exists()
    # The link published before still leads to the same person, now under the corrected name.
    published_uid = next(
        p["uid"] for p in as_published(room_event)["players"] if p["name"] == "Corrected Name"
    )
    site_uid = services.names.site_uid(key.owner_id, published_uid, "")
    page = client.get(reverse("tournaments:public-player", args=[after_players[site_uid]]))
    assert page.status_code == 200
    assert "Corrected Name" in page.content.decode()
    assert SLUG in page.content.decode()
    match = after["matches"][0][2]
    assert client.get(reverse("tournaments:public-match", args=[SLUG, match])).status_code == 200


def test_a_late_entry_is_added_and_nothing_duplicated(room_event, site_key):
    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    before = site_players(SLUG)
    director = Actor(user=room_event.directors.get(), label="director")
    workflows.register_entry(
        tournament=room_event,
        actor=director,
        players=[PlayerSpec("Late Arrival"), PlayerSpec("Late Partner")],
        name="Latecomers",
        late_entry=Tournament.LateEntry.ZERO,
    )
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    after = site_players(SLUG)
    assert set(before.items()) < set(after.items())
    assert len(after) == len(before) + 2
    assert Tournament.objects.get(slug=SLUG).entries.count() == room_event.entries.count()


def test_the_same_person_is_the_same_player_in_every_event_the_room_publishes(settings, site_key):
    settings.REDIS_URL = None
    key, _secret = site_key
    evenings = demo.build_season(5, players=4, evenings=2)
    for number, evening in enumerate(evenings, 1):
        document = as_published(evening, f"evening-{number}")
        document["seasons"] = []
        services.receive(key=key, slug=f"evening-{number}", document=document)
    first, second = site_players("evening-1"), site_players("evening-2")
    shared = set(first) & set(second)
    assert shared  # the club's players came to both evenings
    assert all(first[uid] == second[uid] for uid in shared)
    # Identified by the room's record, never by name: another owner's room publishing the same
    # people gets players of its own.
    from django.contrib.auth import get_user_model

    other = Actor(user=get_user_model().objects.create_user("another-club"))
    other_key, _ = services.create_key(actor=other)
    document = as_published(evenings[0], "elsewhere")
    document["seasons"] = []
    services.receive(key=other_key, slug="elsewhere", document=document)
    assert not set(site_players("elsewhere").values()) & set(first.values())


def test_the_room_sends_no_email_address_or_club_number(room_event):
    member = Player.objects.get(
        pk=Team.objects.filter(entries__tournament=room_event).values("first")[:1]
    )
    member.email, member.club_number = "someone@example.org", "M-1"
    member.save()
    document = payload.build(room_event)
    assert all(p["email"] == "" and p["club_number"] == "" for p in document["players"])
    assert all(p["uid"] for p in document["players"])
    assert "someone@example.org" not in payload.encode(document).decode()

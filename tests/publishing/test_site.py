"""The site receives events from a room (tournaments.publishing.services.receive): created,
replaced whole, found unchanged; refused with a stable code, changing nothing; taken over."""

from __future__ import annotations

import copy

import pytest
from django.contrib.auth import get_user_model

from tournaments import services as workflows
from tournaments.models import (
    AuditEvent,
    Entry,
    HandSubmission,
    Player,
    PublishedEvent,
    PublishingKey,
    Round,
    Team,
    Tournament,
)
from tournaments.publishing import services
from tournaments.services import Actor, ServiceError

from .conftest import as_published

pytestmark = pytest.mark.django_db

SLUG = "friday-at-the-club"


def counts() -> dict[str, int]:
    return {
        "tournaments": Tournament.objects.count(),
        "players": Player.objects.count(),
        "teams": Team.objects.count(),
        "entries": Entry.objects.count(),
        "versions": HandSubmission.objects.count(),
        "published": PublishedEvent.objects.count(),
    }


def test_a_key_is_shown_once_and_stored_hashed(site_director):
    key, secret = services.create_key(actor=site_director, label="laptop")
    assert secret not in key.key_hash and key.key_hash != secret
    assert not PublishingKey.objects.filter(key_hash=secret).exists()
    assert services.key_for(secret) == key
    services.revoke_key(key=key, actor=site_director)
    with pytest.raises(ServiceError) as refused:
        services.key_for(secret)
    assert (refused.value.code, refused.value.status) == ("publish-key-invalid", 401)


def test_first_publish_creates_the_event_directed_by_the_keys_owner(room_event, site_key):
    key, _secret = site_key
    document = as_published(room_event)
    received = services.receive(key=key, slug=SLUG, document=document)
    assert received.outcome == "created"
    site = Tournament.objects.get(slug=SLUG)
    assert received.tournament == site
    assert list(site.directors.all()) == [key.owner]
    assert site.round_set.count() == room_event.round_set.count()
    room_hands = HandSubmission.objects.filter(hand__match__round__tournament=room_event)
    site_hands = HandSubmission.objects.filter(hand__match__round__tournament=site)
    assert site_hands.count() == room_hands.count() > 0
    assert not site_hands.exclude(idempotency_key=None).exists()  # never sent
    assert PublishedEvent.objects.get(slug=SLUG).tournament == site


def test_the_same_document_again_is_unchanged_and_changes_nothing(room_event, site_key):
    key, _secret = site_key
    document = as_published(room_event)
    first = services.receive(key=key, slug=SLUG, document=document)
    before = counts()
    again = copy.deepcopy(document)
    again["exported_at"] = "2030-01-01T00:00:00+00:00"  # a later export of the same event
    second = services.receive(key=key, slug=SLUG, document=again)
    assert second.outcome == "unchanged"
    assert second.tournament.pk == first.tournament.pk
    assert counts() == before
    assert second.event.updated_at == first.event.updated_at
    assert second.event.received_at > first.event.received_at


def test_republishing_replaces_the_event_with_corrections_and_no_duplicates(room_event, site_key):
    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    before = counts()
    # In the room: the director corrects a confirmed hand (a new version supersedes it).
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
    site = Tournament.objects.get(slug=SLUG)
    assert HandSubmission.objects.filter(
        hand__match__round__tournament=site, reason="misread"
    ).exists()
    after = counts()
    assert after["tournaments"] == before["tournaments"]  # replaced, not added
    assert after["players"] == before["players"]  # the old event's players went with it
    assert after["teams"] == before["teams"]
    assert after["versions"] == before["versions"] + 2  # the correction, in room and site
    assert Tournament.objects.filter(slug=SLUG).count() == 1


def test_another_owners_key_is_refused_and_changes_nothing(room_event, site_key):
    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    other = get_user_model().objects.create_user("other-club")
    other_key, _ = services.create_key(actor=Actor(user=other))
    before = counts()
    document = as_published(room_event)
    document["tournament"]["name"] = "Hijacked"
    with pytest.raises(ServiceError) as refused:
        services.receive(key=other_key, slug=SLUG, document=document)
    assert (refused.value.code, refused.value.status) == ("publish-other-key", 409)
    assert counts() == before
    assert Tournament.objects.get(slug=SLUG).name == room_event.name


def test_the_same_owners_new_key_carries_on(room_event, site_key, site_director):
    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    services.revoke_key(key=key, actor=site_director)
    new_key, _ = services.create_key(actor=site_director)
    document = as_published(room_event)
    document["tournament"]["venue"] = "Another hall"
    assert services.receive(key=new_key, slug=SLUG, document=document).outcome == "updated"
    assert PublishedEvent.objects.get(slug=SLUG).key == new_key


def test_a_slug_the_site_uses_for_its_own_event_is_refused(room_event, site_key):
    key, _secret = site_key
    before = counts()
    document = as_published(room_event, slug=room_event.slug)  # the site's own event's slug
    with pytest.raises(ServiceError) as refused:
        services.receive(key=key, slug=room_event.slug, document=document)
    assert (refused.value.code, refused.value.status) == ("publish-slug-taken", 409)
    assert counts() == before


@pytest.mark.parametrize(
    ("spoil", "code"),
    [
        (lambda d: d.update(format="tricktable-archive/9"), "unsupported-archive"),
        (lambda d: d.pop("rounds"), "bad-archive"),
        (lambda d: d["entries"][0].update(team=999), "bad-archive"),
        (lambda d: d["tournament"].update(slug="another-slug"), "publish-slug-mismatch"),
    ],
)
def test_a_bad_archive_is_refused_and_changes_nothing(room_event, site_key, spoil, code):
    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    before = counts()
    published = PublishedEvent.objects.get(slug=SLUG)
    document = as_published(room_event)
    document["tournament"]["name"] = "Changed"
    spoil(document)
    with pytest.raises(ServiceError) as refused:
        services.receive(key=key, slug=SLUG, document=document)
    assert refused.value.code == code
    assert counts() == before
    assert PublishedEvent.objects.get(slug=SLUG).digest == published.digest
    assert Tournament.objects.get(slug=SLUG).name == room_event.name


def test_site_directors_change_a_published_event_only_after_taking_it_over(
    room_event, site_key, site_director
):
    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    site = Tournament.objects.get(slug=SLUG)
    open_round = site.round_set.exclude(state=Round.State.CLOSED).first()
    with pytest.raises(ServiceError) as refused:
        workflows.update_tournament(
            tournament=site, actor=site_director, changes={"venue": "Elsewhere"}
        )
    assert refused.value.code == "published-from-room"
    stranger = Actor(user=get_user_model().objects.create_user("passer-by"))
    event = PublishedEvent.objects.get(slug=SLUG)
    with pytest.raises(ServiceError) as refused:
        services.take_over(event=event, actor=stranger)
    assert refused.value.code == "not-director"

    services.take_over(event=event, actor=site_director)
    assert AuditEvent.objects.filter(tournament=site, action="published-taken-over").exists()
    workflows.update_tournament(
        tournament=site, actor=site_director, changes={"venue": "Elsewhere"}
    )
    assert open_round is not None
    before = counts()
    with pytest.raises(ServiceError) as refused:
        services.receive(key=key, slug=SLUG, document=as_published(room_event))
    assert (refused.value.code, refused.value.status) == ("publish-taken-over", 409)
    assert counts() == before
    assert Tournament.objects.get(slug=SLUG).venue == "Elsewhere"


def test_a_season_counting_the_event_keeps_counting_it_after_a_republish(
    room_event, site_key, site_director
):
    from tournaments.models import Series, SeriesMember
    from tournaments.seasons import services as seasons

    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    season = seasons.create_series(actor=site_director, name="Winter season", game="spades")
    seasons.add_tournament(
        actor=site_director, series=season, tournament=Tournament.objects.get(slug=SLUG)
    )
    before = Series.objects.get(pk=season.pk).inputs_version
    document = as_published(room_event)
    document["tournament"]["venue"] = "The back room"
    services.receive(key=key, slug=SLUG, document=document)
    member = SeriesMember.objects.get(series=season)
    assert member.tournament == Tournament.objects.get(slug=SLUG)
    assert Series.objects.get(pk=season.pk).inputs_version > before  # its table recomputed


def test_nobody_scores_or_registers_on_a_published_event_until_it_is_taken_over(
    room_event, site_key, site_director
):
    """Not only the director's workflows: a hand entered at a table as a director, and a
    registration, are refused too (published-from-room), changing nothing."""
    key, _secret = site_key
    services.receive(key=key, slug=SLUG, document=as_published(room_event))
    site = Tournament.objects.get(slug=SLUG)
    in_play = (
        site.round_set.exclude(state=Round.State.CLOSED).get().matches.exclude(is_bye=True).first()
    )
    played = (
        HandSubmission.objects.filter(hand__match__round__tournament=room_event, is_current=True)
        .order_by("id")
        .first()
    )
    record = {k: v for k, v in played.record.items() if k not in ("format", "game", "rules")}
    record.pop("before", None)
    before = counts()
    with pytest.raises(ServiceError) as refused:
        workflows.submit_hand(match=in_play, actor=site_director, record=record)
    assert refused.value.code == "published-from-room"
    with pytest.raises(ServiceError) as refused:
        workflows.register_entry(
            tournament=site, actor=Actor(label="passer-by"), players=["A Stranger", "Another"]
        )
    assert refused.value.code == "published-from-room"
    assert counts() == before

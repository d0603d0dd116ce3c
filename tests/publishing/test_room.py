"""The room's side: what leaves the laptop (no secrets), when (a round closed, the event ended,
"Publish now"), and how a site that is down, then up, is retried with backoff until it answers."""

from __future__ import annotations

import json
import random
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.utils import timezone

from tests import waiting
from tournaments import services as workflows
from tournaments.demo import club as demo
from tournaments.demo import simulate
from tournaments.models import (
    Entry,
    HandSubmission,
    Publication,
    PublishAttempt,
    Tournament,
)
from tournaments.publishing import payload, sender, services
from tournaments.publishing.payload import SECRET_KEYS
from tournaments.services import PlayerSpec

from .fake_site import CREATED, DOWN, UPDATED, Answer, reserved_port, serving

pytestmark = pytest.mark.django_db


def keys_anywhere(value) -> set[str]:
    if isinstance(value, dict):
        return {str(k).lower() for k in value} | set().union(
            *(keys_anywhere(v) for v in value.values())
        )
    if isinstance(value, list):
        return set().union(*(keys_anywhere(v) for v in value)) if value else set()
    return set()


@pytest.fixture
def site_port():
    """The site's port, free until the test serves on it (a site that is down till then)."""
    with reserved_port() as port:
        yield port


@pytest.fixture
def to_site(settings, site_port):
    settings.PUBLISH_URL = site_port.url
    settings.PUBLISH_KEY = "room-key-0123456789"
    settings.PUBLISH_RETRY_BASE = 5
    settings.PUBLISH_RETRY_MAX = 60
    settings.PUBLISH_TIMEOUT = 2


def test_the_payload_holds_no_secret(room_event, client):
    director = room_event.directors.get()
    director.set_password("director-password-xyz")
    director.save()
    client.force_login(director)  # a session in the database
    secret = workflows.issue_table_token(
        table=room_event.round_set.order_by("number").last().tables.first(),
        actor=workflows.Actor(user=director),
    )[1]
    keys = list(
        HandSubmission.objects.filter(hand__match__round__tournament=room_event)
        .exclude(idempotency_key=None)
        .values_list("idempotency_key", flat=True)
    )
    pins = list(Entry.objects.filter(tournament=room_event).values_list("pin", flat=True))
    assert keys and all(pins)
    document = payload.build(room_event)
    text = payload.encode(document).decode()
    assert not keys_anywhere(document) & SECRET_KEYS  # no PIN, token, password, key anywhere
    for value in [*keys, secret, director.password, *Session.objects.values_list("pk", flat=True)]:
        assert value not in text
    assert document["directors"] == []
    users = set(get_user_model().objects.values_list("username", flat=True))
    named = [
        v.get(f)
        for h in document["hands"]
        for v in h["versions"]
        for f in ("submitted_by", "decided_by")
    ]
    named += [a.get("actor") for a in document["audit"]]
    assert not set(named) & users
    # ...and the document is still an archive: what the site restores.
    assert document["format"] == "tricktable-archive/1"
    assert len(document["entries"]) == Entry.objects.filter(tournament=room_event).count()
    assert json.loads(text)["tournament"]["slug"] == room_event.slug


def test_backoff_doubles_up_to_the_most(settings):
    settings.PUBLISH_RETRY_BASE = 5
    settings.PUBLISH_RETRY_MAX = 60
    assert [services.backoff(n) for n in range(7)] == [0, 5, 10, 20, 40, 60, 60]
    assert services.backoff(10_000) == 60


def test_nothing_is_owed_while_publishing_is_not_set_up(room_event, settings):
    settings.PUBLISH_URL = settings.PUBLISH_KEY = ""
    assert services.current_target() is None
    assert services.request_publish(tournament_id=room_event.pk, reason="now") is None
    assert not Publication.objects.exists()


def test_the_environment_wins_over_the_setup_page(room_event, to_site, site_port):
    director = workflows.Actor(user=room_event.directors.get())
    services.save_target(url="https://saved.example", key="saved-key", actor=director)
    assert services.current_target().url == site_port.url


def test_a_refused_event_is_offered_again_when_the_key_changes(room_event, settings):
    settings.PUBLISH_URL = settings.PUBLISH_KEY = ""
    director = workflows.Actor(user=room_event.directors.get())
    services.save_target(url="https://club.example", key="old", actor=director)
    publication = services.request_publish(tournament_id=room_event.pk, reason="now")
    Publication.objects.filter(pk=publication.pk).update(
        state=Publication.State.REFUSED, next_attempt_at=None
    )
    services.save_target(url="https://club.example", key="new", actor=director)
    assert services.due() == [room_event.pk]
    stranger = workflows.Actor(user=get_user_model().objects.create_user("not-the-director"))
    with pytest.raises(workflows.ServiceError) as refused:
        services.save_target(url="https://evil.example", key="k", actor=stranger)
    assert refused.value.code == "not-operator"


def one_round_event() -> Tournament:
    """A one-round Spades Swiss of four teams, played to the end of its round (not closed)."""
    director = demo.director_actor()
    tournament = workflows.create_tournament(
        actor=director,
        name="One Round",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=1,
        match_length="target",
    )
    workflows.open_registration(tournament=tournament, actor=director)
    for n in range(4):
        workflows.register_entry(
            tournament=tournament,
            actor=director,
            name=f"Team {n}",
            players=[PlayerSpec(f"North {n}"), PlayerSpec(f"South {n}")],
        )
    for entry in tournament.entries.all():
        workflows.check_in(entry=entry, actor=director)
    round_ = workflows.generate_round(tournament=tournament, actor=director)
    workflows.publish_round(round=round_, actor=director)
    rng = random.Random(4)
    for match in round_.matches.filter(is_bye=False):
        simulate.play_match(match, rng, director=director, hands=24)
    return tournament


def test_closing_a_round_and_ending_the_event_ask_for_a_publish(
    db, to_site, django_capture_on_commit_callbacks, monkeypatch
):
    sent: list[int] = []
    monkeypatch.setattr(sender, "dispatch", sent.append)  # no network here: see below
    event = one_round_event()
    assert not Publication.objects.exists()
    director = demo.director_actor()
    with django_capture_on_commit_callbacks(execute=True):
        workflows.close_round(round=event.round_set.get(), actor=director)
    publication = Publication.objects.get(tournament=event)
    assert publication.reason == "round-closed:round 1"
    assert publication.state == Publication.State.PENDING
    assert sent == [event.pk]
    with django_capture_on_commit_callbacks(execute=True):
        workflows.finish_tournament(tournament=event, actor=director)
    publication.refresh_from_db()
    assert publication.reason == "event-finished"
    assert sent == [event.pk, event.pk]


def test_a_site_that_is_down_then_up_gets_the_event_after_backoff(room_event, to_site, site_port):
    start = timezone.now()
    services.request_publish(tournament_id=room_event.pk, reason="now", now=start)
    # No site at all (the laptop is offline): a try, then a wait of PUBLISH_RETRY_BASE.
    publication = services.send(tournament_id=room_event.pk, now=start)
    assert publication.state == Publication.State.RETRYING
    assert publication.error_code == "site-unreachable"
    assert publication.next_attempt_at == start + timedelta(seconds=5)
    assert services.due(now=start + timedelta(seconds=4)) == []
    assert services.due(now=start + timedelta(seconds=5)) == [room_event.pk]
    with serving(
        site_port, [DOWN, Answer(429, {"code": "throttled"}, {"Retry-After": "90"}), CREATED]
    ) as site:
        later = start + timedelta(seconds=5)
        publication = services.send(tournament_id=room_event.pk, now=later)
        assert (publication.state, publication.failures) == (Publication.State.RETRYING, 2)
        assert publication.next_attempt_at == later + timedelta(seconds=10)  # doubled
        assert services.send(tournament_id=room_event.pk, now=later).failures == 2  # not due
        later += timedelta(seconds=10)
        publication = services.send(tournament_id=room_event.pk, now=later)
        assert publication.next_attempt_at == later + timedelta(seconds=90)  # the site's wait
        later += timedelta(seconds=90)
        publication = services.send(tournament_id=room_event.pk, now=later)
        assert publication.state == Publication.State.SENT
        assert (publication.failures, publication.last_outcome) == (0, "created")
        assert publication.last_sent_at == later and publication.next_attempt_at is None
        assert services.due(now=later + timedelta(days=1)) == []
        put = site.received[-1]
    assert put.path == f"/api/v1/publish/{room_event.slug}"
    assert put.headers["Authorization"] == "Bearer room-key-0123456789"
    assert json.loads(put.body)["tournament"]["slug"] == room_event.slug
    attempts = list(PublishAttempt.objects.filter(publication=publication).order_by("pk"))
    assert [(a.ok, a.error_code) for a in attempts] == [
        (False, "site-unreachable"),
        (False, "unavailable"),
        (False, "throttled"),
        (True, ""),
    ]


def test_a_refusal_waits_for_the_director_and_a_new_request_tries_again(
    room_event, to_site, site_port
):
    services.request_publish(tournament_id=room_event.pk, reason="now")
    taken = Answer(409, {"code": "publish-slug-taken", "message": "the site has its own"})
    with serving(site_port, [taken, UPDATED]):
        publication = services.send(tournament_id=room_event.pk)
        assert publication.state == Publication.State.REFUSED
        assert publication.error_code == "publish-slug-taken"
        assert services.due(now=timezone.now() + timedelta(days=1)) == []
        assert services.send(tournament_id=room_event.pk).state == Publication.State.REFUSED
        services.request_publish(tournament_id=room_event.pk, reason="now")
        assert services.send(tournament_id=room_event.pk).state == Publication.State.SENT


def test_a_request_during_a_send_is_sent_too(room_event, to_site):
    start = timezone.now()
    services.request_publish(tournament_id=room_event.pk, reason="now", now=start)
    owed = Publication.objects.get(tournament=room_event)

    requested = owed.requested_at  # a send reads this, then the site answers; meanwhile:
    services.request_publish(
        tournament_id=room_event.pk, reason="now", now=start + timedelta(seconds=1)
    )
    publication = services._record(  # the answer to the send that read `requested`
        owed.pk, requested, sender_reply(), 100, start + timedelta(seconds=2)
    )
    assert publication.state == Publication.State.PENDING
    assert services.due(now=start + timedelta(seconds=2)) == [room_event.pk]


def sender_reply():
    from tournaments.publishing.client import Reply

    return Reply(ok=True, retry=False, status=200, outcome="updated")


@pytest.mark.django_db(transaction=True)
def test_the_evening_servers_thread_sends_when_the_site_comes_up(settings, site_port):
    """The in-process sender (no worker): the trigger returns at once; the thread retries with
    backoff while the site is down and delivers once it is up."""
    from tournaments.demo import club as demo

    settings.REDIS_URL = None
    settings.PUBLISH_URL = site_port.url
    settings.PUBLISH_KEY = "room-key"
    settings.PUBLISH_RETRY_BASE = 0.2
    settings.PUBLISH_RETRY_MAX = 0.5
    event = demo.build_spades(5, teams=4, played=0)
    try:
        assert sender.trigger(tournament_id=event.pk, reason="now") is True  # no transaction
        waiting.until(
            lambda: Publication.objects.get(tournament=event).failures >= 2,
            "the thread's tries while the site is down",
        )
        with serving(site_port, [CREATED]) as site:
            waiting.until(
                lambda: Publication.objects.get(tournament=event).state == Publication.State.SENT,
                "the thread's delivery once the site is up",
            )
    finally:
        sender.stop()  # not left to wake in a later test, or after the database is gone
    assert not [t for t in threading.enumerate() if t.name == "tricktable-publish"]
    assert len(site.received) == 1
    assert Tournament.objects.filter(pk=event.pk).exists()


def test_the_celery_task_retries_while_the_site_is_down_and_stops_once_sent(
    room_event, to_site, site_port
):
    """With a worker (REDIS_URL), `publish_event` asks Celery to retry after the backoff while
    the site cannot be reached, and returns once the event is sent (called directly here:
    Celery raises its Retry instead of queueing it)."""
    from celery.exceptions import Retry

    from tournaments.publishing.tasks import publish_event

    services.request_publish(tournament_id=room_event.pk, reason="now")
    with pytest.raises(Retry):
        publish_event.run(room_event.pk)
    Publication.objects.filter(tournament=room_event).update(next_attempt_at=timezone.now())
    with serving(site_port, [CREATED]):
        assert publish_event.run(room_event.pk) == Publication.State.SENT
    assert publish_event.run(room_event.pk) == Publication.State.SENT  # nothing owed: no send
    assert PublishAttempt.objects.filter(ok=True).count() == 1


def test_an_event_on_its_way_is_not_sent_twice(room_event, to_site, monkeypatch):
    """Another process (a second worker, another server process's thread) that looks while a
    send is on its way finds the event claimed, and sends nothing."""
    from tournaments.publishing import client
    from tournaments.publishing.client import Reply

    puts: list[str] = []

    def put_event(*, site: str, key: str, slug: str, body: bytes) -> Reply:
        puts.append(slug)
        if len(puts) == 1:
            assert services.due(now=timezone.now() + timedelta(seconds=5)) == []
            meanwhile = services.send(tournament_id=room_event.pk)
            assert meanwhile.state == Publication.State.PENDING
        return Reply(ok=True, retry=False, status=201, outcome="created")

    monkeypatch.setattr(client, "put_event", put_event)
    services.request_publish(tournament_id=room_event.pk, reason="now")
    assert services.send(tournament_id=room_event.pk).state == Publication.State.SENT
    assert puts == [room_event.slug]


@pytest.mark.parametrize(
    ("answer", "retry", "code"),
    [
        (Answer(500, {}), True, "site-error"),
        (Answer(502, {"code": "bad-gateway"}), True, "bad-gateway"),
        (Answer(429, {}), True, "site-busy"),
        (Answer(301, {}, {"Location": "https://elsewhere.example/"}), False, "site-redirects"),
        (Answer(404, {"code": "not-found"}), False, "site-not-tricktable"),
        (Answer(401, {"code": "publish-key-invalid"}), False, "publish-key-invalid"),
        (Answer(413, {"code": "too-large"}), False, "too-large"),
        (Answer(400, {}), False, "site-refused"),
    ],
)
def test_what_each_answer_of_the_site_means_for_the_next_try(answer, retry, code):
    from tournaments.publishing import client, words

    with reserved_port() as port, serving(port, [answer]):
        reply = client.put_event(site=f"{port.url}/", key="k", slug="an-event", body=b"{}")
    assert (reply.ok, reply.retry, reply.code) == (False, retry, code)
    assert words.failure(code)  # the director reads plain words for each

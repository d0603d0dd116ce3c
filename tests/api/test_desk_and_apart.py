"""The API's registration desk and keeping apart: check in several entries at once, take a
check-in back, an entry's affiliation, pairs kept apart (directors only)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import AuditEvent, KeepApart
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return get_user_model().objects.create_user("td", password="a-long-password")


@pytest.fixture
def tournament(td):
    actor = Actor(user=td)
    made = services.create_tournament(
        actor=actor, name="Desk", game="spades", rules="standard", format="swiss", rounds=3
    )
    services.open_registration(tournament=made, actor=actor)
    for n in range(1, 5):
        services.register_entry(
            tournament=made, actor=actor, players=[f"P{n}a", f"P{n}b"], name=f"Team {n}"
        )
    return made


@pytest.fixture
def as_td(td):
    client = APIClient()
    client.force_authenticate(td)
    return client


def test_a_director_checks_in_many_takes_one_back_and_sets_an_affiliation(as_td, tournament):
    first, second, *_ = tournament.entries.order_by("pk")

    many = as_td.post(
        f"/api/v1/tournaments/{tournament.slug}/entries/check-in",
        {"entries": [first.pk, second.pk]},
        format="json",
    )
    undone = as_td.post(f"/api/v1/entries/{second.pk}/undo-check-in")
    club = as_td.post(
        f"/api/v1/entries/{first.pk}/affiliation", {"affiliation": "Koenji"}, format="json"
    )

    assert many.status_code == 200
    assert [e["status"] for e in many.json()] == ["checked-in", "checked-in"]
    assert undone.json()["status"] == "registered"
    assert club.json()["affiliation"] == "Koenji"


def test_pairs_are_kept_apart_and_let_meet_by_a_director_only(as_td, tournament):
    first, second, *_ = tournament.entries.order_by("pk")
    url = f"/api/v1/tournaments/{tournament.slug}/kept-apart"

    stranger = APIClient().post(url, {"first": first.pk, "second": second.pk}, format="json")
    made = as_td.post(
        url, {"first": second.pk, "second": first.pk, "reason": "a couple"}, format="json"
    )
    listed = as_td.get(url)
    gone = as_td.delete(f"/api/v1/kept-apart/{made.json()['id']}")

    assert stranger.status_code in (401, 403) and "code" in stranger.json()
    assert made.status_code == 201
    assert (made.json()["first"], made.json()["second"]) == (first.pk, second.pk)
    assert [p["reason"] for p in listed.json()["results"]] == ["a couple"]
    assert gone.status_code == 204 and not KeepApart.objects.exists()
    assert AuditEvent.objects.filter(action="kept-apart-removed").count() == 1


def test_the_public_registers_with_an_affiliation_but_cannot_check_itself_in(tournament):
    public = APIClient()
    url = f"/api/v1/tournaments/{tournament.slug}/entries"

    entered = public.post(
        url, {"players": [{"name": "Ann"}, {"name": "Bo"}], "affiliation": "Koenji"}, format="json"
    )
    refused = public.post(
        url, {"players": [{"name": "Cy"}, {"name": "Di"}], "checked_in": True}, format="json"
    )

    assert entered.status_code == 201 and entered.json()["affiliation"] == "Koenji"
    assert entered.json()["status"] == "registered"
    assert refused.status_code == 403 and refused.json()["code"] == "not-director"

"""The API's knockout: settings, the cut list, confirming it (directors only, idempotent, a
stale list refused with its code) and the bracket as played, in the OpenAPI document."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.knockout.helpers import knockout_round
from tests.tournaments.conftest import play_round
from tournaments import services
from tournaments.models import AuditEvent
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return get_user_model().objects.create_user("td", password="a-long-password")


@pytest.fixture
def as_td(td):
    client = APIClient()
    client.force_authenticate(td)
    return client


@pytest.fixture
def swiss(td):
    actor = Actor(user=td)
    made = services.create_tournament(
        actor=actor, name="Cup night", game="spades", rules="standard", format="swiss", rounds=2
    )
    services.open_registration(tournament=made, actor=actor)
    for n in range(1, 7):
        services.register_entry(
            tournament=made, actor=actor, players=[f"P{n}a", f"P{n}b"], name=f"Team {n}"
        )
    made.refresh_from_db()
    return made


def test_a_director_sets_the_knockout_and_bad_settings_get_a_code(as_td, swiss):
    url = f"/api/v1/tournaments/{swiss.slug}/knockout"
    good = as_td.patch(
        url, {"top_cut": 4, "length": "best-of", "count": 3, "third_place": True}, format="json"
    )
    even = as_td.patch(url, {"count": 2}, format="json")
    empty = as_td.patch(url, {}, format="json")
    assert good.status_code == 200
    assert (
        good.json()["top_cut"],
        good.json()["knockout_length"],
        good.json()["knockout_count"],
        good.json()["third_place"],
    ) == (4, "best-of", 3, True)
    assert (even.status_code, even.json()["code"]) == (422, "bad-knockout-length")
    assert empty.json()["code"] == "no-changes"


def test_strangers_cannot_set_the_knockout_or_confirm_the_cut(swiss):
    anon = APIClient()
    set_ = anon.patch(f"/api/v1/tournaments/{swiss.slug}/knockout", {"top_cut": 4}, format="json")
    confirm = anon.post(f"/api/v1/tournaments/{swiss.slug}/cut", {"entries": [1, 2]}, format="json")
    assert set_.status_code in (401, 403) and confirm.status_code in (401, 403)
    swiss.refresh_from_db()
    assert swiss.top_cut == 0 and swiss.bracket == {}


def test_the_cut_list_is_confirmed_once_and_the_bracket_follows_the_results(as_td, td, swiss):
    director = Actor(user=td)
    services.set_knockout(
        tournament=swiss, actor=director, top_cut=4, length="hands", count=1, third_place=True
    )
    cut_url = f"/api/v1/tournaments/{swiss.slug}/cut"
    early = as_td.get(cut_url).json()
    assert (early["can_confirm"], early["refusal"]["code"]) == (False, "swiss-not-over")
    for seed in range(2):
        play_round(swiss, director, seed=seed)
    bracket_url = f"/api/v1/tournaments/{swiss.slug}/bracket"
    assert APIClient().get(bracket_url).status_code == 404

    shown = APIClient().get(cut_url).json()
    assert shown["can_confirm"] and len(shown["entries"]) == 4
    ids = [row["entry"] for row in shown["entries"]]
    assert [row["seed"] for row in shown["entries"]] == [1, 2, 3, 4]
    stale = as_td.post(cut_url, {"entries": ids[::-1]}, format="json")
    first = as_td.post(cut_url, {"entries": ids}, format="json")
    again = as_td.post(cut_url, {"entries": ids}, format="json")

    assert (stale.status_code, stale.json()["code"]) == (409, "cut-changed")
    assert first.status_code == 200 and first.json()["confirmed"]
    assert again.status_code == 200
    assert AuditEvent.objects.filter(action="cut-confirmed").count() == 1
    swiss.refresh_from_db()
    knockout_round(swiss, director)
    bracket = APIClient().get(bracket_url).json()
    semis = bracket["rounds"][0]["matches"]
    assert [(m["top"]["seed"], m["bottom"]["seed"]) for m in semis] == [(1, 4), (2, 3)]
    assert all(m["state"] == "decided" and m["winner"] for m in semis)
    final, third = bracket["rounds"][1]["matches"]
    assert {final["top"]["entry"], final["bottom"]["entry"]} == {m["winner"] for m in semis}
    assert third["third_place"] and third["state"] == "ready"
    assert {third["top"]["entry"], third["bottom"]["entry"]} == {
        m["top"]["entry"] if m["winner"] == m["bottom"]["entry"] else m["bottom"]["entry"]
        for m in semis
    }
    assert bracket["rounds"][1]["name"] == "Final"
    assert bracket["complete"] is False


def test_the_knockout_endpoints_are_in_the_openapi_document(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/tournaments/{slug}/cut"])
    assert "get" in paths["/api/v1/tournaments/{slug}/bracket"]
    assert "patch" in paths["/api/v1/tournaments/{slug}/knockout"]
    assert "knockout" in schema["components"]["schemas"]["FormatEnum"]["enum"]
    assert "BracketMatch" in schema["components"]["schemas"]


def test_a_knockout_is_created_with_its_settings_and_without_rounds(as_td):
    made = as_td.post(
        "/api/v1/tournaments",
        {
            "name": "Cup final night",
            "game": "spades",
            "rules": "standard",
            "format": "knockout",
            "knockout": {"length": "best-of", "count": 3, "third_place": True},
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert (
        made.json()["format"],
        made.json()["knockout_length"],
        made.json()["knockout_count"],
        made.json()["third_place"],
    ) == ("knockout", "best-of", 3, True)
    # Its rounds follow from the bracket, which needs the entries: none yet, not "1".
    assert made.json()["rounds"] is None


def test_a_swiss_with_a_cut_at_creation_and_refusals_that_create_nothing(as_td):
    from tournaments.models import Tournament

    base = {"name": "Cut night", "game": "spades", "rules": "standard", "format": "swiss"}
    cut = as_td.post(
        "/api/v1/tournaments", {**base, "rounds": 3, "knockout": {"top_cut": 4}}, format="json"
    )
    no_rounds = as_td.post("/api/v1/tournaments", {**base, "name": "No rounds"}, format="json")
    even = as_td.post(
        "/api/v1/tournaments",
        {**base, "name": "Even", "rounds": 3, "knockout": {"length": "best-of", "count": 2}},
        format="json",
    )
    assert (cut.status_code, cut.json()["top_cut"]) == (201, 4)
    assert no_rounds.status_code in (400, 422) and no_rounds.json()["code"]
    assert (even.status_code, even.json()["code"]) == (422, "bad-knockout-length")
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Cut night"]


@pytest.mark.parametrize(("entrants", "rounds"), [(2, 1), (4, 2), (5, 3), (8, 3), (9, 4)])
def test_a_knockouts_rounds_are_its_brackets(entrants, rounds):
    from api.serializers import TournamentSerializer
    from tournaments.models import Tournament

    knockout = Tournament(
        name="Cup", game="spades", format="knockout", bracket={"seeds": list(range(entrants))}
    )
    assert TournamentSerializer().get_rounds(knockout) == rounds

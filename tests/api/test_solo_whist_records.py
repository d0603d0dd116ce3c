"""Solo Whist hands over the API store what the table counted: the declaring side's tricks
(shared/spec/games/solo-whist.md section 3, "Summary record: tricks taken by the declaring
side"), never a split of the defenders' tricks nobody counted. Records stored in the four-seat
form stay readable: the engine still reads them, and the lists show them as stored."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.records import check_record
from tests.tournaments.builders import make_match, side_pin
from tournaments.models import HandSubmission

from .conftest import assert_error, client_with, table_token

pytestmark = pytest.mark.django_db

#: dealer N: E proposes, S accepts: the declaring side is E and S ("ES"), 9 tricks of 8.
PROP_COP = {
    "dealer": "N",
    "calls": [
        {"seat": "E", "call": "prop"},
        {"seat": "S", "call": "cop"},
        {"seat": "W", "call": "pass"},
        {"seat": "N", "call": "pass"},
    ],
    "turned": "5H",
    "tricks": {"ES": 9},
}


@pytest.fixture
def solo(director):
    return make_match(director, game="solo-whist", rules="phillips", fmt="individual")


@pytest.fixture
def phone(solo):
    _, secret = table_token(solo.table)
    return client_with(f"Table {secret}")


def submit(client, match, record, seat="N", key="solo-0001-abcdef"):
    return client.post(
        f"/api/v1/matches/{match.pk}/hands",
        {"record": record, "pin": side_pin(match, seat)},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def test_the_declaring_sides_tricks_are_stored_as_counted(phone, solo):
    response = submit(phone, solo, PROP_COP)
    assert response.status_code == 201, response.content
    body = response.json()
    # 9 of 8: one overtrick: v = 1 + 1/4 = 5/4 to each partner from one opponent each
    assert body["result"]["tricks"] == {"ES": 9}
    assert body["result"]["score"] == {"N": "-5/4", "E": "5/4", "S": "5/4", "W": "-5/4"}
    stored = HandSubmission.objects.get()
    assert stored.record["tricks"] == {"ES": 9}
    assert stored.result["tricks"] == {"ES": 9}


def test_a_count_for_a_seat_outside_the_declaring_side_is_refused_and_nothing_stored(phone, solo):
    record = {**PROP_COP, "tricks": {"E": 9}}  # E alone is not the side that declared
    body = assert_error(submit(phone, solo, record), 422, "invalid-hand")
    assert body["details"][0]["code"] == "bad-seat"
    assert not HandSubmission.objects.exists()


def test_the_four_seat_form_is_still_taken_and_shown_as_stored(phone, solo, client):
    record = {**PROP_COP, "tricks": {"N": 2, "E": 5, "S": 4, "W": 2}}
    response = submit(phone, solo, record)
    assert response.status_code == 201, response.content
    assert response.json()["result"]["score"] == {"N": "-5/4", "E": "5/4", "S": "5/4", "W": "-5/4"}
    page = client.get(reverse("tournaments:scoring-table", args=[solo.table_id]))
    assert "N 2 · E 5 · S 4 · W 2" in page.content.decode()


def test_the_hands_list_export_and_check_say_the_same_count(phone, solo, client):
    assert submit(phone, solo, PROP_COP).status_code == 201
    # W answers: neither the one who entered it (N) nor the declaring side (E and S)
    confirmed = phone.post(
        f"/api/v1/matches/{solo.pk}/hands/1/confirm",
        {"pin": side_pin(solo, "W"), "version": 1},
        format="json",
    )
    assert confirmed.status_code == 200, confirmed.content
    page = client.get(reverse("tournaments:scoring-table", args=[solo.table_id]))
    assert "Tricks: E+S 9" in page.content.decode()
    slug = solo.round.tournament.slug
    public = client.get(reverse("tournaments:public-match", args=[slug, solo.pk]))
    assert '<span class="kv">E+S 9</span>' in public.content.decode()
    lines = b"".join(Client().get(f"/t/{slug}/export/hands.jsonl").streaming_content)
    [exported] = [json.loads(line) for line in lines.splitlines()]
    assert exported["tricks"] == {"ES": 9}
    # the exported record checks again as it was scored (check_hands reads the same engine)
    again = check_record(exported)
    assert again["ok"] and again["tricks"] == {"ES": 9}
    match = client.get(f"/api/v1/tournaments/{slug}/exports/matches/{solo.pk}.json").json()
    assert match["hands"][0]["tricks"] == {"ES": 9}

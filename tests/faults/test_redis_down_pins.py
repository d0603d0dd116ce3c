"""Wrong PINs with Redis down (issue 28, item 3: "with the cache down, guessing fails closed:
never a 500, never unlimited"). Redis is the cache, the live announcements and the Celery
broker at once (`redis_down()`); the budget of wrong PINs lives in the database, so the
scoring API and the duplicate phone still count every guess, refuse the 21st of the hour against
an entry's PIN with 429 and Retry-After, and answer no request with a 500. The right PIN of the
other side is still taken while its own budget lasts."""

from __future__ import annotations

import pytest
from django.db.models import Count
from django.test import Client
from django.urls import reverse

from tests.duplicate.builders import make_event, pair_pin
from tests.tournaments.builders import HAND_1, make_director, make_match, side_pin
from tournaments.duplicate import services as dup
from tournaments.models import BoardResult, Entry, HandSubmission, PinFailure
from tournaments.services import side_pins
from tournaments.services.table_access import issue_round_tokens

from .conftest import scorer_client, submit
from .test_redis_down import redis_down

pytestmark = pytest.mark.django_db


def free_pins(count: int) -> list[str]:
    taken = set(Entry.objects.values_list("pin", flat=True))
    return [f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in taken][:count]


def test_with_redis_down_pin_guessing_on_the_api_is_counted_and_refused_never_a_500():
    match = make_match(make_director())
    client = scorer_client(match)
    client.raise_request_exception = False
    assert submit(client, match, HAND_1, key="redis-down-pins-1").status_code == 201
    url = f"/api/v1/matches/{match.pk}/hands/1/confirm"
    statuses = []
    with redis_down():
        for n, pin in enumerate(free_pins(side_pins.BUDGET + 5)):
            response = client.post(
                url, {"pin": pin, "version": 1}, format="json", REMOTE_ADDR=f"10.9.0.{n + 1}"
            )
            statuses.append(response.status_code)
            assert response.status_code in (403, 429), response.content[:300]
            if response.status_code == 429:
                assert int(response["Retry-After"]) > 0
                assert response.json()["code"] in ("side-pin-wait", "side-pin-locked")
    # never unlimited: no more than the hour's budget was tested against the entry's PIN
    assert statuses.count(403) <= side_pins.BUDGET
    assert statuses[-5:] == [429] * 5
    per_entry = PinFailure.objects.values("entry").annotate(n=Count("id"))
    assert per_entry and max(row["n"] for row in per_entry) == side_pins.BUDGET
    assert HandSubmission.objects.get().status == "pending"


def test_with_redis_down_the_other_sides_right_pin_still_confirms():
    match = make_match(make_director())
    client = scorer_client(match)
    client.raise_request_exception = False
    assert submit(client, match, HAND_1, key="redis-down-pins-2").status_code == 201
    url = f"/api/v1/matches/{match.pk}/hands/1/confirm"
    with redis_down():
        wrong = client.post(url, {"pin": free_pins(1)[0], "version": 1}, format="json")
        assert wrong.status_code == 403 and wrong.json()["code"] == "side-pin-wrong"
        right = client.post(
            url, {"pin": side_pin(match, "EW"), "version": 1}, format="json", REMOTE_ADDR="10.9.9.9"
        )
        assert right.status_code == 200, right.content[:300]
    assert HandSubmission.objects.get().status == "confirmed"


def test_with_redis_down_the_duplicate_phone_counts_wrong_pins_and_never_answers_500():
    td = make_director()
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secret = issue_round_tokens(round=round_, actor=td)[round_.tables.get(number=1).pk]
    auth = {"HTTP_AUTHORIZATION": f"Table {secret}"}
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    form = {"action": "submit", "board": board, "side": "NS"}
    form |= {f"call_{s}": v for s, v in {"N": "3", "E": "4", "S": "3", "W": "4"}.items()}
    form |= {f"tricks_{s}": str(v) for s, v in {"N": 3, "E": 4, "S": 3, "W": 3}.items()}
    url = reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1])
    phone = Client(raise_request_exception=False)
    statuses = []
    with redis_down():
        for n, pin in enumerate(free_pins(side_pins.BUDGET + 3)):
            answer = phone.post(url, {**form, "pin": pin}, REMOTE_ADDR=f"10.8.0.{n + 1}", **auth)
            statuses.append(answer.status_code)
            assert answer.status_code in (403, 429), answer.content[:300]
            if answer.status_code == 429:
                assert int(answer["Retry-After"]) > 0
        assert statuses[-3:] == [429] * 3
        assert not BoardResult.objects.exists()
        # the guesses used up the hour's budget of both pairs' PINs (each guess was tested
        # against both): the right PIN waits too, until the director clears the table
        fresh = Client(raise_request_exception=False)
        ns = {**form, "pin": pair_pin(round_, 1, "NS")}
        locked = fresh.post(url, ns, REMOTE_ADDR="10.8.9.9", **auth)
        assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
        match = round_.matches.get(table__number=1)
        assert side_pins.clear_pin_failures(match=match, actor=td) > 0
        taken = fresh.post(url, ns, REMOTE_ADDR="10.8.9.9", **auth)
        assert taken.status_code == 200, taken.content[:300]
    assert BoardResult.objects.get().status == "pending"

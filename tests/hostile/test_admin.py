"""The admin cannot break a match (issue 14, point 10), tried as a superuser through the admin's
own pages: a hand version cannot be deleted (deleting the current one left a hand that could
never be scored again), nor anything whose deletion would take versions with it (the hand, its
match, round, table or tournament); a match's state and result, and its seats' results, cannot
be edited there. The match's admin page links to the director's match page, where corrections
go through the services."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments.models import Hand, HandSubmission, Match, Round, Seat, Table

from .conftest import the_shared_play, unchanged

pytestmark = pytest.mark.django_db


#: The module's match in play, built once (conftest.SharedPlay).
play, pending = the_shared_play()


@pytest.fixture
def admin(db) -> Client:
    root = get_user_model().objects.create_superuser("root", password="root-pass-42")
    browser = Client(raise_request_exception=False)
    browser.force_login(root)
    return browser


def test_a_hand_version_cannot_be_deleted_from_its_page(admin, pending):
    version = HandSubmission.objects.get(is_current=True)
    url = f"/admin/tournaments/handsubmission/{version.pk}/delete/"
    with unchanged():
        assert admin.get(url).status_code == 403
        assert admin.post(url, {"post": "yes"}).status_code == 403
    assert (
        "/delete/"
        not in admin.get(f"/admin/tournaments/handsubmission/{version.pk}/change/").content.decode()
    )


def test_hand_versions_cannot_be_deleted_in_bulk(admin, pending):
    with unchanged():
        admin.post(
            "/admin/tournaments/handsubmission/",
            {
                "action": "delete_selected",
                "post": "yes",
                "_selected_action": list(HandSubmission.objects.values_list("pk", flat=True)),
            },
        )


@pytest.mark.parametrize("model", [Hand, Match, Round, Table])
def test_nothing_whose_deletion_takes_hand_versions_with_it_can_be_deleted(admin, pending, model):
    obj = model.objects.filter(pk__in=_holding_the_hand(pending, model)).get()
    url = f"/admin/tournaments/{model._meta.model_name}/{obj.pk}/delete/"
    with unchanged():
        response = admin.post(url, {"post": "yes"})
        assert response.status_code in (200, 403), response.status_code  # refused, not done
    assert HandSubmission.objects.filter(hand__match=pending.match).exists()


def _holding_the_hand(play, model) -> list[int]:
    match = play.match
    return {
        Hand: [h.pk for h in match.hands.all()],
        Match: [match.pk],
        Round: [match.round_id],
        Table: [match.table_id],
    }[model]


def test_a_match_nobody_scored_goes_a_scored_one_stays(admin, pending):
    """The refusal is about hand versions, not matches. (A tournament with entries was never
    deletable here: its seats protect the entries.)"""
    empty = pending.other_match
    admin.post(f"/admin/tournaments/match/{empty.pk}/delete/", {"post": "yes"})
    assert not Match.objects.filter(pk=empty.pk).exists()
    admin.post(f"/admin/tournaments/match/{pending.match.pk}/delete/", {"post": "yes"})
    assert Match.objects.filter(pk=pending.match.pk).exists()


def test_a_match_s_state_and_result_are_not_editable(admin, pending):
    match = pending.match
    page = admin.get(f"/admin/tournaments/match/{match.pk}/change/").content.decode()
    for field in ("state", "result", "finished_at"):
        assert f'name="{field}"' not in page, field
    for field in ("outcome", "match_points", "points_for", "points_against", "place"):
        assert f'name="seats-0-{field}"' not in page, field
    seats = list(Seat.objects.filter(match=match).order_by("pk"))
    form = {
        "round": match.round_id,
        "table": match.table_id,
        "state": "finished",
        "result": json.dumps({"winner": "EW"}),
        "finished_at_0": "2026-01-01",
        "finished_at_1": "20:00:00",
        "seats-TOTAL_FORMS": len(seats),
        "seats-INITIAL_FORMS": len(seats),
        "seats-MIN_NUM_FORMS": 0,
        "seats-MAX_NUM_FORMS": 1000,
    }
    for n, seat in enumerate(seats):
        form.update(
            {
                f"seats-{n}-id": seat.pk,
                f"seats-{n}-match": match.pk,
                f"seats-{n}-entry": seat.entry_id,
                f"seats-{n}-side": seat.side,
                f"seats-{n}-seats": seat.seats,
                f"seats-{n}-outcome": "win",
                f"seats-{n}-match_points": "3",
                f"seats-{n}-place": "1",
            }
        )
    with unchanged():
        response = admin.post(f"/admin/tournaments/match/{match.pk}/change/", form)
        assert response.status_code == 302, response.content.decode()[:2000]
    match.refresh_from_db()
    assert match.state != "finished" and match.result is None
    assert set(Seat.objects.filter(match=match).values_list("outcome", flat=True)) == {""}


def test_the_match_page_sends_corrections_to_the_director_s_page(admin, pending):
    match = pending.match
    page = admin.get(f"/admin/tournaments/match/{match.pk}/change/").content.decode()
    assert f'href="/director/{pending.slug}/matches/{match.pk}/"' in page

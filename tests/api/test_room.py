"""The room's API (issue 15 points 4–6): the round clock, calls for the director, table
progress."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tests.api.conftest import assert_error
from tournaments.models import DirectorCall, Round, RoundClock, Table

pytestmark = pytest.mark.django_db


def clock_url(match, action: str = "") -> str:
    return f"/api/v1/rounds/{match.round_id}/clock" + (f"/{action}" if action else "")


def test_anyone_reads_a_published_rounds_clock_with_the_servers_time(anon, match):
    body = anon.get(clock_url(match)).json()
    assert body["state"] == "unset" and body["duration_seconds"] == 3600
    assert (
        abs(datetime.fromisoformat(body["server_time"]).timestamp() - datetime.now().timestamp())
        < 60
    )


def test_a_draft_rounds_clock_is_not_found_for_the_public(anon, match):
    Round.objects.filter(pk=match.round_id).update(state=Round.State.DRAFT)
    assert_error(anon.get(clock_url(match)), 404, "not-found")


def test_a_director_sets_starts_pauses_resumes_and_extends_the_clock(td, match):
    set_ = td.post(clock_url(match), {"minutes": 40, "last_hand_minutes": 6}, format="json")
    assert set_.status_code == 200 and set_.json()["state"] == "ready"
    assert set_.json()["last_hand_seconds"] == 360
    started = td.post(clock_url(match, "start")).json()
    assert started["state"] == "running" and 2390 <= started["remaining_seconds"] <= 2400
    assert started["ends_at"] is not None
    assert td.post(clock_url(match, "pause")).json()["state"] == "paused"
    assert td.post(clock_url(match, "resume")).json()["state"] == "running"
    extended = td.post(clock_url(match, "extend"), {"minutes": 5}, format="json").json()
    assert 2690 <= extended["remaining_seconds"] <= 2700


def test_a_reload_reads_the_same_time_left(td, anon, match):
    td.post(clock_url(match, "start"))
    RoundClock.objects.filter(round=match.round).update(
        started_at=RoundClock.objects.get(round=match.round).started_at - timedelta(minutes=15)
    )
    left = anon.get(clock_url(match)).json()["remaining_seconds"]
    assert 2690 <= left <= 2700


def test_pausing_a_clock_that_is_not_running_is_409_with_a_stable_code(td, match):
    assert_error(td.post(clock_url(match, "pause")), 409, "clock-not-running")
    td.post(clock_url(match, "start"))
    assert_error(td.post(clock_url(match, "resume")), 409, "clock-not-paused")
    assert_error(td.post(clock_url(match, "start")), 409, "clock-already-started")


def test_a_bad_length_is_422_and_changes_nothing(td, match):
    assert_error(
        td.post(clock_url(match), {"minutes": 0}, format="json"), 422, "clock-minutes-invalid"
    )
    assert not RoundClock.objects.exists()


def test_only_the_tournaments_directors_run_the_clock(anon, other_td, scorer, match):
    assert anon.post(clock_url(match, "start")).status_code in (401, 403)
    assert_error(other_td.post(clock_url(match, "start")), 403, "not-director")
    assert scorer.post(clock_url(match, "start")).status_code == 403
    assert not RoundClock.objects.exists()


# -- calls ----------------------------------------------------------------------------------------


def call_url(match) -> str:
    return f"/api/v1/tables/{match.table_id}/call"


def test_the_tables_scorer_calls_the_director_once_while_the_call_is_open(scorer, match):
    first = scorer.post(call_url(match), {"reason": "ruling", "note": "revoke"}, format="json")
    assert first.status_code == 200 and first.json()["open"] is True
    again = scorer.post(call_url(match), {}, format="json")
    assert again.json()["id"] == first.json()["id"]
    assert DirectorCall.objects.count() == 1


def test_another_tables_scorer_cannot_call_for_this_table(other_scorer, match):
    assert_error(other_scorer.post(call_url(match), {}, format="json"), 403, "wrong-table")
    assert not DirectorCall.objects.exists()


def test_nobody_but_a_table_scorer_calls(anon, td, match):
    assert anon.post(call_url(match), {}, format="json").status_code in (401, 403)
    assert td.post(call_url(match), {}, format="json").status_code == 403
    assert not DirectorCall.objects.exists()


def test_an_unknown_reason_is_400(scorer, match):
    assert_error(scorer.post(call_url(match), {"reason": "cheat"}, format="json"), 400)


def test_calls_are_throttled_per_table(scorer, match, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "call": "2/minute",
        },
    }
    for _ in range(2):
        assert scorer.post(call_url(match), {}, format="json").status_code == 200
    assert_error(scorer.post(call_url(match), {}, format="json"), 429, "throttled")


def test_the_director_sees_open_calls_and_acknowledges_and_the_phone_reads_it(td, scorer, match):
    call = scorer.post(call_url(match), {"reason": "slow"}, format="json").json()
    listed = td.get(f"/api/v1/rounds/{match.round_id}/calls").json()["results"]
    assert [c["id"] for c in listed] == [call["id"]] and listed[0]["table"]["number"] == 1
    done = td.post(f"/api/v1/calls/{call['id']}/acknowledge").json()
    assert done["open"] is False and done["acknowledged_at"]
    seen = scorer.get(call_url(match)).json()
    assert seen["id"] == call["id"] and seen["open"] is False
    assert td.get(f"/api/v1/rounds/{match.round_id}/calls").json()["results"] == []


def test_a_table_without_a_call_answers_204(scorer, match):
    assert scorer.get(call_url(match)).status_code == 204


def test_another_tables_scorer_cannot_read_this_tables_call(other_scorer, match):
    assert_error(other_scorer.get(call_url(match)), 403, "wrong-table")


def test_only_directors_acknowledge(scorer, other_td, match):
    call = scorer.post(call_url(match), {}, format="json").json()
    assert scorer.post(f"/api/v1/calls/{call['id']}/acknowledge").status_code == 403
    assert_error(other_td.post(f"/api/v1/calls/{call['id']}/acknowledge"), 403, "not-director")
    assert DirectorCall.objects.get().is_open


# -- progress -------------------------------------------------------------------------------------


def test_progress_lists_each_table_slowest_first_for_directors(td, anon, match):
    Table.objects.create(round=match.round, number=2)  # a table without a match is not listed
    rows = td.get(f"/api/v1/rounds/{match.round_id}/progress").json()["results"]
    assert [r["table"] for r in rows] == [{"id": match.table_id, "number": 1}]
    assert rows[0]["current_hand"] == 1 and rows[0]["pending"] == 0
    assert rows[0]["open_call"] is None
    assert anon.get(f"/api/v1/rounds/{match.round_id}/progress").status_code in (401, 403)

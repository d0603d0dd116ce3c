"""Replayed and stale requests: a submission sent again (a phone retrying) stores one version and
gets it back every time; the same key with another body, a second confirmation or rejection,
and an answer to a version that was superseded are 409 and change nothing. Nothing accepted is
lost: what the first 201 returned is what every retry returns and what the API lists.

Two racing retries and two racing scorers (PostgreSQL) are in tests/api/test_hands.py and
tests/faults/test_races.py."""

from __future__ import annotations

import pytest

from tests.tournaments.builders import HAND_1, HAND_2, side_pin, spades_hand
from tournaments.models import HandSubmission

from .conftest import Play, post_json, refused, state, submit, the_shared_play, unchanged

pytestmark = pytest.mark.django_db


#: The module's match in play, built once (conftest.SharedPlay).
play, pending = the_shared_play()


def answer(play: Play, action: str, who=None, **body):
    """Confirm or reject hand 1; a table scorer answering for a side gives that side's PIN."""
    body.setdefault("version", 1)
    if who is None and "side" in body:
        body.setdefault("pin", side_pin(play.match, body["side"]))
    return post_json(who or play.scorer, play.hand_url(1, action), body)


def test_the_same_submission_sent_five_times_stores_one_version_and_returns_it_each_time(play):
    first = submit(play.scorer, play.match, key="replay-five-1")
    assert first.status_code == 201, first.content
    after_first = state()
    replies = [submit(play.scorer, play.match, key="replay-five-1") for _ in range(4)]
    assert [r.status_code for r in replies] == [200] * 4
    assert all(r.json() == first.json() for r in replies)
    assert state() == after_first, "a retry changes nothing, results_version included"
    listed = play.anon.get(f"/api/v1/matches/{play.match.pk}/hands").json()["results"]
    assert [v["id"] for v in listed] == [first.json()["id"]]
    assert HandSubmission.objects.get().raw == HAND_1


def test_the_same_key_in_the_body_is_a_retry_too(play):
    first = submit(play.scorer, play.match, key=None, idempotency_key="replay-body-1")
    again = submit(play.scorer, play.match, key=None, idempotency_key="replay-body-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]


def test_the_same_key_with_a_different_hand_is_409_and_changes_nothing(play):
    submit(play.scorer, play.match, key="replay-other-1")
    with unchanged():
        refused(
            submit(play.scorer, play.match, HAND_2, key="replay-other-1"),
            409,
            "idempotency-key-reused",
        )
        refused(
            submit(play.scorer, play.match, {**HAND_1, "extra": 1}, key="replay-other-1"),
            409,
            "idempotency-key-reused",
        )


def test_the_same_key_at_another_table_is_409_and_changes_nothing(play):
    submit(play.scorer, play.match, key="replay-table-1")
    with unchanged():
        refused(
            submit(play.other_scorer, play.other_match, key="replay-table-1"),
            409,
            "idempotency-key-reused",
        )


def test_header_and_body_keys_that_differ_are_400_mismatch(play):
    with unchanged():
        refused(
            submit(play.scorer, play.match, key="replay-head-1", idempotency_key="replay-body-2"),
            400,
            "idempotency-key-mismatch",
        )


def test_the_same_hand_under_a_new_key_while_it_awaits_confirmation_is_409(pending):
    with unchanged():
        refused(
            submit(pending.scorer, pending.match, key="replay-new-key", number=1),
            409,
            "hand-already-submitted",
        )


def test_a_refused_submission_does_not_use_up_its_key(play):
    bad = {**HAND_1, "tricks": {"N": 13, "E": 0, "S": 0, "W": 1}}
    with unchanged():
        for _ in range(3):
            refused(submit(play.scorer, play.match, bad, key="replay-refused"), 422, "invalid-hand")
    fixed = submit(play.scorer, play.match, key="replay-refused")
    assert fixed.status_code == 201, fixed.content


def test_a_confirmation_sent_again_is_409_not_pending_and_changes_nothing(pending):
    first = answer(pending, "confirm", side="EW")
    assert first.status_code == 200 and first.json()["status"] == "confirmed"
    with unchanged():
        for _ in range(4):
            refused(answer(pending, "confirm", side="EW"), 409, "not-pending")
        refused(answer(pending, "reject", side="EW", reason="late"), 409, "not-pending")
        refused(answer(pending, "confirm", who=pending.td), 409, "not-pending")


def test_a_rejection_sent_again_is_409_not_pending_and_keeps_the_first_reason(pending):
    first = answer(pending, "reject", side="EW", reason="we took 4")
    assert first.status_code == 200
    with unchanged():
        refused(answer(pending, "reject", side="EW", reason="changed my mind"), 409, "not-pending")
        refused(answer(pending, "confirm", side="EW"), 409, "not-pending")
    assert HandSubmission.objects.get().reason == "we took 4"


def test_answering_a_version_superseded_by_a_resubmission_is_409_stale_version(pending):
    answer(pending, "reject", side="EW", reason="we took 4")
    recount = spades_hand("N", ["4", "3", "7", "6"], {"N": 4, "E": 3, "S": 3, "W": 3})
    again = submit(pending.scorer, pending.match, recount, key="replay-v2", number=1)
    assert again.status_code == 201 and again.json()["version"] == 2, again.content
    with unchanged():
        body = refused(answer(pending, "confirm", side="EW", version=1), 409, "stale-version")
        refused(answer(pending, "reject", side="EW", version=1, reason="x"), 409, "stale-version")
    assert body["details"] == {"current": 2}


def test_answering_a_hand_the_director_corrected_is_409(pending):
    corrected = post_json(
        pending.td,
        pending.hand_url(1, "correct"),
        {"record": HAND_1, "reason": "seen at the table", "version": 1},
    )
    assert corrected.status_code == 201, corrected.content
    with unchanged():
        refused(answer(pending, "confirm", side="EW", version=1), 409, "stale-version")
        refused(answer(pending, "confirm", side="EW", version=2), 409, "not-pending")


def test_the_original_submission_retried_after_its_rejection_returns_the_stored_version(pending):
    answer(pending, "reject", side="EW", reason="we took 4")
    with unchanged():
        retry = submit(pending.scorer, pending.match, key="pending-hand-1")
    assert retry.status_code == 200
    assert retry.json()["status"] == "rejected" and retry.json()["version"] == 1


def test_a_retry_after_the_match_finished_still_gets_its_stored_version(play):
    first = submit(play.td, play.match, key="replay-late-1", side="")
    finished = play.td.post(f"/api/v1/matches/{play.match.pk}/finish")
    assert finished.status_code == 200 and finished.json()["state"] == "finished"
    with unchanged():
        retry = submit(play.td, play.match, key="replay-late-1", side="")
    assert retry.status_code == 200 and retry.json()["id"] == first.json()["id"]


def test_a_director_correction_sent_twice_is_stale_the_second_time(pending):
    """A correction names the version it corrects: the same one sent twice is refused the
    second time (`stale-version`); a correction of the new version is a third version, and the
    history shows all of them."""
    body = {"record": HAND_1, "reason": "recount", "version": 1}
    first = post_json(pending.td, pending.hand_url(1, "correct"), body)
    with unchanged():
        refused(post_json(pending.td, pending.hand_url(1, "correct"), body), 409, "stale-version")
    second = post_json(pending.td, pending.hand_url(1, "correct"), {**body, "version": 2})
    assert (first.json()["version"], second.json()["version"]) == (2, 3)
    history = pending.anon.get(f"/api/v1/matches/{pending.match.pk}/hands/1/versions").json()[
        "results"
    ]
    assert [(v["version"], v["status"]) for v in history] == [
        (1, "superseded"),
        (2, "superseded"),
        (3, "confirmed"),
    ]
    assert history[0]["raw"] == HAND_1  # as sent (PostgreSQL's jsonb keeps no key order)

"""The hand workflow: submit, confirm, reject, correct, finish — through the services."""

from __future__ import annotations

import random
import threading
from fractions import Fraction

import pytest
from django.db import connection

from tournaments import services
from tournaments.demo import simulate
from tournaments.models import (
    AuditEvent,
    Hand,
    HandSubmission,
    Match,
)
from tournaments.services import Actor

from .builders import HAND_1, HAND_2, make_director, make_match, scorer, spades_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def director() -> Actor:
    return make_director()


@pytest.fixture
def match(director) -> Match:
    return make_match(director)


def test_a_legal_hand_is_stored_pending_with_the_engine_score(match):
    submitted = services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="key-0001"
    )
    version = submitted.submission
    assert submitted.created
    assert (version.version, version.status, version.is_current) == (1, "pending", True)
    assert version.result["score"] == {"NS": 60, "EW": 70}
    assert version.record["before"] == {"score": {"NS": 0, "EW": 0}, "bags": {"NS": 0, "EW": 0}}
    assert version.record["rules"] == "standard" and version.raw == HAND_1
    match.refresh_from_db()
    assert match.state == "playing"
    assert match.round.state == "in-play"


def test_an_illegal_hand_is_refused_with_the_engine_errors_and_nothing_is_stored(match):
    bad = spades_hand("N", ["4", "3", "7", "6"], {"N": 3, "E": 4, "S": 3, "W": 4})
    with pytest.raises(services.Invalid) as caught:
        services.submit_hand(match=match, actor=scorer(match, "NS"), record=bad)
    assert caught.value.code == "invalid-hand"
    assert caught.value.details[0]["code"] == "tricks-do-not-sum"
    assert not Hand.objects.exists() and not HandSubmission.objects.exists()
    match.refresh_from_db()
    assert match.state == "pending"


def test_a_retry_with_the_same_key_returns_the_stored_version(match):
    first = services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="retry-key-1"
    )
    again = services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="retry-key-1"
    )
    assert not again.created and again.submission.pk == first.submission.pk
    assert HandSubmission.objects.count() == 1


def test_a_key_reused_for_a_different_hand_is_a_conflict(match):
    services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="retry-key-2"
    )
    services.confirm_hand(
        submission=HandSubmission.objects.get(),
        expected_version=HandSubmission.objects.get().version,
        actor=scorer(match, "EW"),
    )
    with pytest.raises(services.Conflict) as caught:
        services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=HAND_2, idempotency_key="retry-key-2"
        )
    assert caught.value.code == "idempotency-key-reused"
    assert HandSubmission.objects.count() == 1


def test_a_scorer_cannot_submit_at_another_table(match, director):
    other = make_match(director)
    with pytest.raises(services.NotAllowed) as caught:
        services.submit_hand(match=match, actor=scorer(other, "NS"), record=HAND_1)
    assert caught.value.code == "wrong-table"
    with pytest.raises(services.NotAllowed):
        services.submit_hand(match=match, actor=Actor(), record=HAND_1)


def test_the_submitting_side_cannot_confirm_its_own_hand(match):
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    with pytest.raises(services.NotAllowed) as caught:
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "NS")
        )
    assert caught.value.code == "own-side"
    confirmed = services.confirm_hand(
        submission=version, expected_version=version.version, actor=scorer(match, "EW")
    )
    assert confirmed.status == "confirmed" and confirmed.decided_side == "EW"


def test_a_pending_hand_cannot_be_submitted_twice(match):
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    with pytest.raises(services.Conflict) as caught:
        services.submit_hand(match=match, actor=scorer(match, "EW"), record=HAND_1, number=1)
    assert caught.value.code == "hand-already-submitted"


def test_a_rejected_hand_is_entered_again_as_a_new_version(match):
    first = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    services.reject_hand(
        submission=first,
        expected_version=first.version,
        actor=scorer(match, "EW"),
        reason="E took 5",
    )
    with pytest.raises(services.Conflict) as caught:
        services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_2)
    assert caught.value.code == "earlier-hand-rejected"
    fixed = spades_hand("N", ["4", "3", "7", "6"], {"N": 3, "E": 5, "S": 3, "W": 2})
    second = services.submit_hand(
        match=match, actor=scorer(match, "EW"), record=fixed, number=1
    ).submission
    first.refresh_from_db()
    assert (second.version, second.is_current) == (2, True)
    assert (first.status, first.is_current, first.superseded_by_id) == (
        "rejected",
        False,
        second.pk,
    )


def test_the_dealer_must_follow_the_rotation(match):
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    services.confirm_hand(
        submission=version, expected_version=version.version, actor=scorer(match, "EW")
    )
    wrong = spades_hand("W", ["4", "3", "6", "6"], {"N": 3, "E": 4, "S": 4, "W": 2})
    with pytest.raises(services.Invalid) as caught:
        services.submit_hand(match=match, actor=scorer(match, "NS"), record=wrong)
    assert caught.value.details[0]["code"] == "wrong-dealer"


def test_a_later_hand_is_scored_from_the_state_the_earlier_hands_left(match):
    for record in (HAND_1, HAND_2):
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=record
        ).submission
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )
    assert version.result["after"] == {"score": {"NS": 121, "EW": 130}, "bags": {"NS": 1, "EW": 0}}


def test_a_correction_needs_a_director_and_a_reason(match):
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    with pytest.raises(services.NotAllowed):
        services.correct_hand(
            hand=version.hand,
            actor=scorer(match, "EW"),
            record=HAND_1,
            expected_version=version.version,
            reason="typo",
        )
    director = Actor(user=match.round.tournament.directors.get())
    with pytest.raises(services.ServiceError) as caught:
        services.correct_hand(
            hand=version.hand,
            actor=director,
            record=HAND_1,
            reason=" ",
            expected_version=version.version,
        )
    assert caught.value.code == "reason-required"


def test_a_correction_is_a_new_version_and_rescores_the_later_hands(match):
    director = Actor(user=match.round.tournament.directors.get())
    for record in (HAND_1, HAND_2):
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=record
        ).submission
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )
    first = HandSubmission.objects.get(hand__number=1)
    corrected = spades_hand("N", ["4", "3", "7", "6"], {"N": 4, "E": 4, "S": 3, "W": 2})
    new = services.correct_hand(
        hand=first.hand,
        actor=director,
        record=corrected,
        expected_version=first.version,
        reason="N took the last trick",
    )
    first.refresh_from_db()
    assert (new.version, new.status, new.source) == (2, "confirmed", "director")
    assert (first.status, first.is_current) == ("superseded", False)
    second = HandSubmission.objects.get(hand__number=2, is_current=True)
    assert (second.version, second.source, second.status) == (2, "rescore", "confirmed")
    # Hand 1 now: NS bid 6 took 7 (+61, a bag), EW bid 7 took 6 (set, -70); hand 2 adds
    # +61 and +60 as before: NS 122 with 2 bags, EW -10.
    assert second.result["after"] == {"score": {"NS": 122, "EW": -10}, "bags": {"NS": 2, "EW": 0}}
    assert second.record["before"] == new.result["after"]
    event = AuditEvent.objects.get(action="hand-corrected")
    assert event.reason == "N took the last trick" and event.data["rescored"] == [2]


def test_a_correction_that_breaks_a_later_hand_changes_nothing(director):
    match = make_match(director, rules={"preset": "standard", "options": {"target": 100}})
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    services.confirm_hand(
        submission=version, expected_version=version.version, actor=scorer(match, "EW")
    )
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_2).submission
    services.confirm_hand(
        submission=version, expected_version=version.version, actor=scorer(match, "EW")
    )
    match.refresh_from_db()
    assert match.state == "finished"  # EW reached 100 first (130 v 121)
    # A correction that ends the match in hand 1 (EW bid 10 and made it: +100) would leave
    # hand 2 after the end: refused, and nothing changes.
    big = spades_hand("N", ["4", "3", "7", "6"], {"N": 3, "E": 4, "S": 3, "W": 3})
    big["calls"][2]["call"] = "10"
    big["tricks"] = {"N": 0, "E": 6, "S": 3, "W": 4}
    before = list(HandSubmission.objects.values_list("pk", "status", "is_current"))
    with pytest.raises(services.Invalid) as caught:
        services.correct_hand(
            hand=Hand.objects.get(number=1),
            actor=director,
            record=big,
            expected_version=1,
            reason="bid was 10",
        )
    assert caught.value.code == "later-hand-invalid"
    assert list(HandSubmission.objects.values_list("pk", "status", "is_current")) == before


def test_a_match_to_a_target_finishes_when_the_last_hand_is_confirmed(director):
    match = make_match(director, rules={"preset": "standard", "options": {"target": 100}})
    for record in (HAND_1, HAND_2):
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=record
        ).submission
        match.refresh_from_db()
        assert match.state == "playing"
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )
    match.refresh_from_db()
    assert match.state == "finished" and match.result["ended_by"] == "rules"
    seats = {s.side: s for s in match.seats.all()}
    assert (seats["EW"].outcome, seats["EW"].match_points) == ("win", 2)
    assert (seats["NS"].outcome, seats["NS"].match_points) == ("loss", 0)
    assert (seats["NS"].points_for, seats["NS"].points_against) == ("121", "130")
    with pytest.raises(services.Invalid) as caught:
        services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    assert caught.value.code == "match-over"


def test_a_fixed_length_match_ends_after_its_hands(director):
    match = make_match(director, match_length="hands", match_hands=1)
    version = services.submit_hand(match=match, actor=scorer(match, "EW"), record=HAND_1).submission
    services.confirm_hand(
        submission=version, expected_version=version.version, actor=scorer(match, "NS")
    )
    match.refresh_from_db()
    assert match.state == "finished" and match.result["ended_by"] == "hands"
    with pytest.raises(services.Invalid):
        services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_2)


def test_a_director_closes_a_match_only_when_every_hand_is_confirmed(match, director):
    version = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    with pytest.raises(services.Invalid) as caught:
        services.finish_match(match=match, actor=director)
    assert caught.value.code == "unconfirmed-hands"
    services.confirm_hand(
        submission=version, expected_version=version.version, actor=scorer(match, "EW")
    )
    with pytest.raises(services.NotAllowed):
        services.finish_match(match=match, actor=scorer(match, "EW"))
    services.finish_match(match=match, actor=director)
    match.refresh_from_db()
    assert match.result["ended_by"] == "director"
    assert {s.side: s.outcome for s in match.seats.all()} == {"EW": "win", "NS": "loss"}
    assert AuditEvent.objects.filter(action="match-closed").count() == 1


def test_a_level_match_closed_by_the_director_is_a_draw(match, director):
    services.finish_match(match=match, actor=director)
    assert {(s.outcome, s.match_points) for s in match.seats.all()} == {("draw", 1)}


def test_solo_whist_points_stay_exact_fractions_and_shared_places_share_points(director):
    match = make_match(
        director,
        game="solo-whist",
        rules="phillips",
        fmt="individual",
        match_length="hands",
        match_hands=4,
    )
    simulate.play_match(match, random.Random(5))
    match.refresh_from_db()
    assert match.state == "finished"
    seats = list(match.seats.all())
    totals = [Fraction(s.points_for) for s in seats]
    assert sum(totals) == 0  # settlements are zero-sum
    tournament = match.round.tournament
    place_points = [Fraction(p) for p in tournament.place_points]
    for seat in seats:
        shared = [s for s in seats if s.place == seat.place]
        span = place_points[seat.place - 1 : seat.place - 1 + len(shared)]
        assert Fraction(str(seat.match_points)) == sum(span) / len(span)


def test_announcements_happen_after_commit_only(match, django_capture_on_commit_callbacks):
    heard = []
    stop = services.notify.subscribe(lambda kind, payload: heard.append(kind))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            version = services.submit_hand(
                match=match, actor=scorer(match, "NS"), record=HAND_1
            ).submission
        assert heard == ["hand-submitted"]
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.Invalid):
            services.submit_hand(match=match, actor=scorer(match, "NS"), record={"x": 1})
        assert heard == ["hand-submitted"]
        with django_capture_on_commit_callbacks(execute=True):
            services.confirm_hand(
                submission=version, expected_version=version.version, actor=scorer(match, "EW")
            )
        assert heard == ["hand-submitted", "results", "hand-confirmed"]  # cache fresh first
    finally:
        stop()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_scorers_racing_on_one_hand_leave_one_version_and_one_conflict(postgres_db):
    director = make_director("race-td")
    match = make_match(director)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def submit(side: str, key: str) -> None:
        try:
            barrier.wait()
            services.submit_hand(
                match=match, actor=scorer(match, side), record=HAND_1, number=1, idempotency_key=key
            )
            outcomes.append("stored")
        except services.Conflict as error:
            outcomes.append(error.code)
        except Exception as error:  # reported in the assertion below
            outcomes.append(repr(error))
        finally:
            connection.close()

    threads = [
        threading.Thread(target=submit, args=(side, f"race-{side}-key")) for side in ("NS", "EW")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["hand-already-submitted", "stored"]
    assert Hand.objects.count() == 1
    assert HandSubmission.objects.filter(is_current=True).count() == 1


# -- the version seen (expected_version) and voiding ---------------------------------------------


def _pending(match) -> HandSubmission:
    return services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission


@pytest.mark.parametrize("seen", [2, 0, None, "1", True])
def test_confirming_a_version_not_seen_is_stale_and_changes_nothing(match, director, seen):
    pending = _pending(match)
    for who in (scorer(match, "EW"), director):
        with pytest.raises(services.Conflict) as caught:
            services.confirm_hand(submission=pending, actor=who, expected_version=seen)
        assert caught.value.code == "stale-version" and caught.value.details == {"current": 1}
    assert HandSubmission.objects.get().status == "pending"


def test_rejecting_a_version_not_seen_is_stale_and_changes_nothing(match):
    pending = _pending(match)
    with pytest.raises(services.Conflict) as caught:
        services.reject_hand(
            submission=pending, actor=scorer(match, "EW"), expected_version=3, reason="x"
        )
    assert caught.value.code == "stale-version"
    assert HandSubmission.objects.get().status == "pending"


def test_correcting_a_version_not_seen_is_stale_and_changes_nothing(match, director):
    pending = _pending(match)
    fixed = {**HAND_1, "tricks": {"N": 3, "E": 5, "S": 3, "W": 2}}
    services.correct_hand(
        hand=pending.hand, actor=director, record=fixed, reason="slip", expected_version=1
    )
    with pytest.raises(services.Conflict) as caught:  # a second director saw version 1 too
        services.correct_hand(
            hand=pending.hand, actor=director, record=HAND_1, reason="no", expected_version=1
        )
    assert caught.value.code == "stale-version" and caught.value.details == {"current": 2}
    assert HandSubmission.objects.count() == 2


def test_a_director_voids_a_pending_hand_and_the_table_enters_it_again(match, director):
    pending = _pending(match)
    voided = services.void_hand(
        submission=pending, actor=director, expected_version=1, reason="misdeal"
    )
    assert (voided.status, voided.reason, voided.is_current) == ("voided", "misdeal", True)
    again = services.submit_hand(
        match=match, actor=scorer(match, "EW"), record=HAND_2, number=1
    ).submission
    assert (again.version, again.status) == (2, "pending")
    voided.refresh_from_db()
    assert (voided.status, voided.is_current) == ("voided", False)


def test_a_voided_hand_is_audited_as_a_sentence(match, director):
    from tournaments.words import audit as audit_words

    rejected = _pending(match)
    services.reject_hand(
        submission=rejected, actor=scorer(match, "EW"), expected_version=1, reason="we took 4"
    )
    services.void_hand(
        submission=rejected, actor=director, expected_version=1, reason="dealt again"
    )
    event = AuditEvent.objects.get(action="hand-voided")
    assert event.reason == "dealt again"
    sentence = audit_words.sentence(event, {})
    assert sentence == (
        f"Voided disputed hand 1 at table {match.table.number}, round 1 "
        "(version 1): the table enters it again."
    )


@pytest.mark.parametrize("problem", ["scorer", "no-reason", "confirmed", "stale"])
def test_a_void_that_may_not_be_changes_nothing(match, director, problem):
    pending = _pending(match)
    if problem == "confirmed":
        services.confirm_hand(submission=pending, actor=director, expected_version=1)
    who = scorer(match, "EW") if problem == "scorer" else director
    reason = " " if problem == "no-reason" else "why"
    before = list(HandSubmission.objects.values_list("pk", "status", "reason"))
    with pytest.raises(services.ServiceError) as caught:
        services.void_hand(
            submission=pending,
            actor=who,
            reason=reason,
            expected_version=2 if problem == "stale" else 1,
        )
    assert (
        caught.value.code
        == {
            "scorer": "not-director",
            "no-reason": "reason-required",
            "confirmed": "not-voidable",
            "stale": "stale-version",
        }[problem]
    )
    assert list(HandSubmission.objects.values_list("pk", "status", "reason")) == before
    assert not AuditEvent.objects.filter(action="hand-voided").exists()


def test_a_match_ends_without_a_voided_last_hand(match, director):
    first = services.submit_hand(match=match, actor=director, record=HAND_1).submission
    second = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_2).submission
    with pytest.raises(services.Invalid):
        services.finish_match(match=match, actor=director)
    services.void_hand(submission=second, actor=director, expected_version=1, reason="late")
    services.finish_match(match=match, actor=director)
    match.refresh_from_db()
    assert match.state == "finished" and match.result["hands"] == 1
    assert match.result["after"] == first.result["after"]

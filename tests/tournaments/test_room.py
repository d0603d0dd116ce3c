"""The room's services (issue 15 points 4–6): the round clock kept on the server, calls for the
director, and table progress slowest first."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.tournaments.builders import HAND_1, HAND_2, make_director, make_match, scorer
from tournaments import services
from tournaments.live import events
from tournaments.models import AuditEvent, DirectorCall, Round, RoundClock, Table
from tournaments.room import selectors as select
from tournaments.room import services as room
from tournaments.services import Actor, ServiceError
from tournaments.words import audit as audit_words

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return make_director()


@pytest.fixture
def match(td):
    return make_match(td)


@pytest.fixture
def heard(django_capture_on_commit_callbacks):
    """The live announcements made (after commit)."""
    said: list[dict] = []
    stop = events.listen(lambda tournament_id, event: said.append(event))
    yield said
    stop()


def _shift(clock: RoundClock, seconds: int) -> None:
    """Pretend the clock was started (and paused) `seconds` earlier."""
    clock.started_at -= timedelta(seconds=seconds)
    if clock.paused_at:
        clock.paused_at -= timedelta(seconds=seconds)
    clock.save()


# -- the clock ------------------------------------------------------------------------------------


def test_a_started_clock_counts_down_from_the_tournaments_minutes_per_round(match, td):
    clock = room.start_clock(round=match.round, actor=td)
    state = room.clock_state(clock, now=clock.started_at + timedelta(minutes=10))
    assert state.state == "running"
    assert state.remaining == timedelta(minutes=50)


def test_the_time_left_comes_from_the_server_so_every_page_reads_the_same(match, td):
    clock = room.start_clock(round=match.round, actor=td)
    _shift(clock, 125)
    again = RoundClock.objects.get(pk=clock.pk)  # a reload, another phone
    now = clock.started_at + timedelta(seconds=125)  # the server's time, whatever it read
    left = select.round_clock(match.round, now=now).remaining
    assert left == timedelta(minutes=57, seconds=55)
    assert room.clock_state(again, now=now).remaining == left
    assert room.clock_state(again).remaining <= left  # and it counts down from there


def test_a_paused_clock_stands_still_and_resumes_where_it_stopped(match, td):
    clock = room.start_clock(round=match.round, actor=td)
    _shift(clock, 600)
    paused = room.pause_clock(round=match.round, actor=td)
    left = room.clock_state(paused).remaining
    later = room.clock_state(paused, now=paused.paused_at + timedelta(minutes=30))
    assert later.state == "paused" and later.remaining == left
    _shift(paused, 300)  # the pause has lasted five minutes
    resumed = room.resume_clock(round=match.round, actor=td)
    assert resumed.paused_for >= timedelta(minutes=5)
    assert abs(room.clock_state(resumed).remaining - left) < timedelta(seconds=2)


def test_pausing_a_clock_that_is_not_running_is_refused_with_a_stable_code(match, td):
    with pytest.raises(ServiceError) as refused:
        room.pause_clock(round=match.round, actor=td)
    assert refused.value.code == "clock-not-running" and refused.value.status == 409
    assert not RoundClock.objects.exists()


def test_resuming_a_running_clock_is_refused(match, td):
    room.start_clock(round=match.round, actor=td)
    with pytest.raises(ServiceError) as refused:
        room.resume_clock(round=match.round, actor=td)
    assert refused.value.code == "clock-not-paused"


def test_starting_a_clock_twice_is_refused(match, td):
    room.start_clock(round=match.round, actor=td)
    with pytest.raises(ServiceError) as refused:
        room.start_clock(round=match.round, actor=td)
    assert refused.value.code == "clock-already-started"


def test_extending_adds_minutes_to_the_time_left(match, td):
    clock = room.start_clock(round=match.round, actor=td)
    before = room.clock_state(clock).remaining
    extended = room.extend_clock(round=match.round, actor=td, minutes=7)
    assert room.clock_state(extended).remaining - before > timedelta(minutes=6, seconds=58)


def test_the_last_hand_warning_shows_at_the_directors_minutes_left(match, td):
    room.set_clock(round=match.round, actor=td, minutes=30, last_hand_minutes=8)
    clock = room.start_clock(round=match.round, actor=td)
    at = clock.started_at
    assert not room.clock_state(clock, now=at + timedelta(minutes=21)).last_hand_called
    assert room.clock_state(clock, now=at + timedelta(minutes=23)).last_hand_called


def test_at_time_the_clock_is_over_and_counts_into_the_negative(match, td):
    room.set_clock(round=match.round, actor=td, minutes=20)
    clock = room.start_clock(round=match.round, actor=td)
    state = room.clock_state(clock, now=clock.started_at + timedelta(minutes=21))
    assert state.state == "over" and state.remaining == timedelta(minutes=-1)


def test_minutes_set_as_default_are_the_next_rounds_length(match, td):
    room.set_clock(round=match.round, actor=td, minutes=45, last_hand_minutes=5, as_default=True)
    tournament = match.round.tournament
    tournament.refresh_from_db()
    assert (tournament.round_minutes, tournament.last_hand_minutes) == (45, 5)
    second = Round.objects.create(tournament=tournament, number=2, state=Round.State.PUBLISHED)
    clock = room.start_clock(round=second, actor=td)
    assert clock.duration == timedelta(minutes=45) and clock.last_hand == timedelta(minutes=5)


@pytest.mark.parametrize("minutes", [0, -5, 601, True])
def test_a_length_out_of_range_is_refused_and_changes_nothing(match, td, minutes):
    with pytest.raises(ServiceError) as refused:
        room.set_clock(round=match.round, actor=td, minutes=minutes)
    assert refused.value.code == "clock-minutes-invalid"
    assert not RoundClock.objects.exists()


def test_only_the_tournaments_directors_run_the_clock(match):
    other = make_director("other")
    with pytest.raises(ServiceError) as refused:
        room.start_clock(round=match.round, actor=other)
    assert refused.value.code == "not-director"


def test_a_draft_rounds_clock_does_not_start(match, td):
    Round.objects.filter(pk=match.round_id).update(state=Round.State.DRAFT)
    with pytest.raises(ServiceError) as refused:
        room.start_clock(round=match.round, actor=td)
    assert refused.value.code == "round-not-in-play"


def test_each_clock_change_is_a_sentence_in_the_audit_trail(match, td):
    room.start_clock(round=match.round, actor=td)
    room.pause_clock(round=match.round, actor=td)
    room.resume_clock(round=match.round, actor=td)
    room.extend_clock(round=match.round, actor=td, minutes=5)
    said = [
        audit_words.sentence(e, {})
        for e in AuditEvent.objects.order_by("id")
        if e.action.startswith("clock-")
    ]
    assert said[0] == "Started round 1's clock (60 minutes)."
    assert re.fullmatch(r"Paused round 1's clock with (59:59|60:00) left\.", said[1])
    assert said[3] == "Gave round 1 5 more minutes."


def test_a_clock_change_is_announced_live_after_commit(
    match, td, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        room.start_clock(round=match.round, actor=td)
    clock_events = [e for e in heard if e["event"] == "clock"]
    assert clock_events and clock_events[0]["clock"]["state"] == "running"


def test_a_paused_clock_must_have_been_started_in_the_database(match):
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundClock.objects.create(
            round=match.round,
            duration=timedelta(minutes=5),
            last_hand=timedelta(0),
            paused_at=timezone.now(),
        )


# -- calls for the director -----------------------------------------------------------------------


def test_the_tables_own_scorer_calls_the_director(match):
    call = room.call_director(
        table=match.table, actor=scorer(match, "NS"), reason="ruling", note="revoke at trick 5"
    )
    assert call.is_open and call.reason == "ruling" and call.note == "revoke at trick 5"


def test_calling_twice_while_a_call_is_open_is_one_call(match):
    first = room.call_director(table=match.table, actor=scorer(match, "NS"))
    again = room.call_director(table=match.table, actor=scorer(match, "EW"), reason="slow")
    assert again.pk == first.pk and DirectorCall.objects.count() == 1


def test_another_tables_code_cannot_call_for_this_table(match):
    other = Table.objects.create(round=match.round, number=2)
    with pytest.raises(ServiceError) as refused:
        room.call_director(table=other, actor=scorer(match, "NS"))
    assert refused.value.code == "wrong-table" and refused.value.status == 403
    assert not DirectorCall.objects.exists()


def test_a_director_cannot_call_for_a_table(match, td):
    with pytest.raises(ServiceError) as refused:
        room.call_director(table=match.table, actor=td)
    assert refused.value.code == "wrong-table"


def test_an_unknown_reason_is_refused(match):
    with pytest.raises(ServiceError) as refused:
        room.call_director(table=match.table, actor=scorer(match, "NS"), reason="cheating")
    assert refused.value.code == "call-reason-unknown"


def test_the_database_keeps_one_open_call_per_table(match):
    DirectorCall.objects.create(table=match.table)
    with pytest.raises(IntegrityError), transaction.atomic():
        DirectorCall.objects.create(table=match.table)


def test_an_acknowledged_call_is_closed_and_the_table_may_call_again(match, td):
    call = room.call_director(table=match.table, actor=scorer(match, "NS"))
    done = room.acknowledge_call(call=call, actor=td)
    assert not done.is_open and done.acknowledged_by == td.user
    assert room.table_call(match.table).pk == call.pk
    again = room.call_director(table=match.table, actor=scorer(match, "NS"))
    assert again.pk != call.pk and again.is_open


def test_only_a_director_acknowledges(match):
    call = room.call_director(table=match.table, actor=scorer(match, "NS"))
    with pytest.raises(ServiceError) as refused:
        room.acknowledge_call(call=call, actor=scorer(match, "EW"))
    assert refused.value.code == "not-director"


def test_calls_are_sentences_in_the_audit_trail(match, td):
    call = room.call_director(table=match.table, actor=scorer(match, "NS"), reason="score")
    room.acknowledge_call(call=call, actor=td)
    said = [
        audit_words.sentence(e, {})
        for e in AuditEvent.objects.order_by("id")
        if e.action in ("director-called", "call-acknowledged")
    ]
    assert said == [
        "Table 1 of round 1 called the director: A scoring problem.",
        "Answered the call from table 1 of round 1.",
    ]


def test_a_call_and_its_acknowledgement_are_announced_live(
    match, td, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call = room.call_director(table=match.table, actor=scorer(match, "NS"))
    with django_capture_on_commit_callbacks(execute=True):
        room.acknowledge_call(call=call, actor=td)
    assert [(e["event"], e["open"]) for e in heard if e["event"] == "call"] == [
        ("call", True),
        ("call", False),
    ]


# -- table progress -------------------------------------------------------------------------------


def _second_table(match, td):
    """A second table in the same round, with the same entries' twins."""
    from tests.tournaments.builders import Entry, Match, Player, Seat, Team

    table = Table.objects.create(round=match.round, number=2)
    other = Match.objects.create(round=match.round, table=table)
    for side in ("NS", "EW"):
        team = Team.objects.create(
            name=f"Second {side}",
            first=Player.objects.create(name="a"),
            second=Player.objects.create(name="b"),
        )
        entry = Entry.objects.create(tournament=match.round.tournament, team=team)
        Seat.objects.create(match=other, entry=entry, side=side, seats=side)
    return other


def test_progress_puts_the_table_with_fewest_hands_first(match, td):
    other = _second_table(match, td)
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    rows = select.table_progress(match.round)
    assert [r.number for r in rows] == [other.table.number, match.table.number]
    assert rows[1].current_hand == 2 and rows[1].pending == 1 and rows[0].current_hand == 1


def test_a_calling_table_comes_first_whatever_its_progress(match, td):
    other = _second_table(match, td)
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    room.call_director(table=match.table, actor=scorer(match, "NS"))
    rows = select.table_progress(match.round)
    assert rows[0].number == match.table.number and rows[0].call is not None
    assert rows[1].number == other.table.number


def test_progress_counts_confirmed_pending_and_disputed_hands(match, td):
    first = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    services.confirm_hand(
        submission=first.submission,
        actor=scorer(match, "EW"),
        expected_version=first.submission.version,
    )
    second = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_2)
    services.reject_hand(
        submission=second.submission,
        actor=scorer(match, "EW"),
        reason="no",
        expected_version=second.submission.version,
    )
    row = select.table_progress(match.round)[0]
    assert (row.hands, row.confirmed, row.pending, row.disputed) == (2, 1, 0, 1)
    assert row.waited is not None and row.waited < timedelta(minutes=1)


def test_a_public_actor_is_not_a_table(match):
    with pytest.raises(ServiceError):
        room.call_director(table=match.table, actor=Actor(label="public"))


def test_a_match_of_three_hands_never_announces_hand_four(td):
    """The evening walk: a 3-hand match whose hand 3 awaits confirmation showed "Hand now 4"
    on the director's dashboard; it is at its last hand, awaiting confirmation."""
    from django.test import Client
    from django.urls import reverse

    from tests.tournaments.builders import spades_hand

    match = make_match(td, match_length="hands", match_hands=3)
    hand_3 = spades_hand("S", ["3", "3", "4", "4"], {"N": 4, "E": 3, "S": 3, "W": 3})
    for record in (HAND_1, HAND_2):
        done = services.submit_hand(match=match, actor=scorer(match, "NS"), record=record)
        services.confirm_hand(
            submission=done.submission,
            actor=scorer(match, "EW"),
            expected_version=done.submission.version,
        )
    client = Client()
    client.force_login(td.user)
    page = reverse("tournaments:director-dashboard", args=[match.round.tournament.slug])
    (row,) = select.table_progress(match.round)
    assert row.current_hand == 3 and not row.last_pending
    assert re.search(r'<td class="num">\s*3\s*</td>', client.get(page).content.decode())

    services.submit_hand(match=match, actor=scorer(match, "NS"), record=hand_3)
    (row,) = select.table_progress(match.round)
    assert (row.hands, row.pending, row.finished) == (3, 1, False)
    assert row.current_hand is None and row.last_pending
    text = client.get(page).content.decode()
    assert "Last hand awaits confirmation" in text
    assert not re.search(r'<td class="num">\s*4\s*</td>', text)
    projector = reverse("tournaments:public-projector-fragment", args=[match.round.tournament.slug])
    screen = Client().get(projector).content.decode()
    assert "Last hand awaits confirmation" in screen and "Hand 4" not in screen
    client.cookies["django_language"] = "ja"
    assert "最終ハンドの確認待ち" in client.get(page).content.decode()


def test_a_target_match_whose_last_hand_reaches_the_target_awaits_its_confirmation(td):
    """A match to a target ends by its rules: once the hand that reaches it is entered, the
    table awaits that hand's confirmation, it does not play another."""
    from tests.tournaments.builders import spades_hand

    match = make_match(td, rules={"preset": "standard", "options": {"target": 100}})
    big = spades_hand("N", ["0", "7", "0", "10"], {"N": 7, "E": 0, "S": 6, "W": 0})
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=big)
    (row,) = select.table_progress(match.round)
    assert (row.hands, row.pending, row.finished) == (1, 1, False)
    assert row.last_pending and row.current_hand is None

"""The duplicate workflows: creating an event, the movement seating each round, results
checked against the board, confirmed by the other side, adjusted by a director, released to
the tables, and the constraints that keep one result per board per table-round."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests.duplicate.builders import make_event, play_round, played, table_scorer
from tests.tournaments.builders import make_director
from tournaments.duplicate import selectors as selectors
from tournaments.duplicate import services as dup
from tournaments.models import Board, BoardResult, DuplicatePair, Tournament
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return make_director()


def first_match(tournament):
    round_ = tournament.round_set.get(number=1)
    return round_.matches.select_related("table", "round").order_by("table__number").first()


def test_the_same_seed_deals_the_same_boards(td):
    a = make_event(td, start=False)
    b = make_event(td, start=False)
    assert a.boards.count() == 6  # 3 sets of 2
    assert [x.hands for x in a.boards.all()] == [x.hands for x in b.boards.all()]


def test_starting_numbers_the_pairs_and_the_mitchell_seats_ns_and_ew(td):
    tournament = make_event(td)
    assert list(
        DuplicatePair.objects.filter(tournament=tournament).values_list("number", flat=True)
    ) == [1, 2, 3, 4, 5, 6]
    round_ = dup.start_round(tournament=tournament, actor=td)
    seats = {
        (m.table.number, s.side): s.entry.duplicate_pair.number
        for m in round_.matches.all()
        for s in m.seats.all()
    }
    assert seats[(1, "NS")] == 1 and seats[(1, "EW")] == 4


def test_a_result_waits_for_the_other_side_and_a_pin(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    match = first_match(tournament)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    out = dup.submit_board_result(
        match=match, board=board, record=played(tournament, board), actor=table_scorer(match, "NS")
    )
    assert out.result.status == "pending"
    with pytest.raises(ServiceError) as own:
        dup.confirm_board_result(
            result=out.result, actor=table_scorer(match, "NS"), expected_version=1
        )
    assert own.value.code == "own-side"
    ew = table_scorer(match, "EW")
    wrong = type(ew)(table=ew.table, side="EW", pin="0000" if ew.pin != "0000" else "1111")
    with pytest.raises(ServiceError) as bad:
        dup.confirm_board_result(result=out.result, actor=wrong, expected_version=1)
    assert bad.value.code == "side-pin-wrong"
    assert (
        dup.confirm_board_result(result=out.result, actor=ew, expected_version=1).status
        == "confirmed"
    )


def test_a_full_record_of_another_deal_is_refused(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    match = first_match(tournament)
    first, second = dup.boards_of(dup.event_of(tournament), 1, 1)
    record = played(tournament, second)
    record["dealer"] = Board.objects.get(tournament=tournament, number=first).dealer
    with pytest.raises(ServiceError) as error:
        dup.submit_board_result(
            match=match, board=first, record=record, actor=table_scorer(match, "NS")
        )
    assert error.value.code == "board-mismatch"
    assert not BoardResult.objects.exists()


def test_a_board_of_another_table_is_refused(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    match = first_match(tournament)
    other = dup.boards_of(dup.event_of(tournament), 1, 2)[0]
    with pytest.raises(ServiceError) as error:
        dup.submit_board_result(
            match=match,
            board=other,
            record=played(tournament, other),
            actor=table_scorer(match, "NS"),
        )
    assert error.value.code == "wrong-board"


def test_a_retry_with_the_same_key_returns_the_stored_result(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    match = first_match(tournament)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    record = played(tournament, board)
    first = dup.submit_board_result(
        match=match,
        board=board,
        record=record,
        actor=table_scorer(match, "NS"),
        idempotency_key="k1",
    )
    again = dup.submit_board_result(
        match=match,
        board=board,
        record=record,
        actor=table_scorer(match, "NS"),
        idempotency_key="k1",
    )
    assert (again.created, again.result.pk) == (False, first.result.pk)


def test_the_database_keeps_one_current_result_per_board_per_table_round(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    match = first_match(tournament)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    out = dup.submit_board_result(
        match=match, board=board, record=played(tournament, board), actor=table_scorer(match, "NS")
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        BoardResult.objects.create(
            tournament=tournament,
            board=out.result.board,
            match=match,
            round_number=1,
            table_number=1,
            ns_pair=1,
            ew_pair=4,
            version=2,
            kind="summary",
            ns_score=1,
            ew_score=2,
        )


def test_an_adjusted_result_needs_a_reason_and_is_audited(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    match = first_match(tournament)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    with pytest.raises(ServiceError) as error:
        dup.adjust_board_result(
            match=match, board=board, actor=td, ns="average-plus", ew="average-minus", reason=" "
        )
    assert error.value.code == "reason-required"
    result = dup.adjust_board_result(
        match=match,
        board=board,
        actor=td,
        ns="average-plus",
        ew="average-minus",
        reason="board fouled",
    )
    assert result.status == "confirmed"
    assert tournament.audit.filter(action="duplicate-adjusted", reason="board fouled").exists()


def test_a_round_closes_only_when_every_board_has_a_result(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    with pytest.raises(ServiceError) as error:
        dup.close_duplicate_round(round=round_, actor=td)
    assert error.value.code == "results-missing"


def test_nobody_but_the_director_sees_results_before_they_are_released(td):
    tournament = make_event(td)
    play_round(tournament, td)
    assert selectors.scored(tournament).event.travellers == {}
    assert len(selectors.scored(tournament, director=True).event.travellers) == 6
    dup.release_results(tournament=tournament, actor=td, through_round=1)
    assert len(selectors.scored(tournament).event.travellers) == 6


def test_a_whole_mitchell_ranks_ns_and_ew_fields_and_finishes(td):
    tournament = make_event(td)
    for n in range(1, 4):
        play_round(tournament, td, seed=n)
    dup.finish_duplicate(tournament=tournament, actor=td)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED
    scored = selectors.scored(tournament)
    assert set(scored.event.rankings) == {"NS", "EW"}
    assert sorted(s.pair for s in scored.event.rankings["NS"]) == [1, 2, 3]
    # every board played three times: the tops add up to 3 boards x 3 rounds... per pair
    assert all(s.boards == 6 for s in scored.event.rankings["EW"])


def test_a_missing_pair_sits_out_and_its_opponents_play_nothing(td):
    tournament = make_event(td, pairs=5)
    round_ = dup.start_round(tournament=tournament, actor=td)
    assert round_.matches.count() == 2  # pair 6 is missing: its table sits out


def test_a_barometer_plays_the_same_boards_at_every_table(td):
    tournament = make_event(td, game="whist", rules="short-whist", movement="barometer", tables=2)
    event = dup.event_of(tournament)
    assert dup.boards_of(event, 1, 1) == dup.boards_of(event, 1, 2)
    play_round(tournament, td)
    dup.release_results(tournament=tournament, actor=td, through_round=1)
    ranking = selectors.scored(tournament).event.rankings
    assert list(ranking) == ["all"] and len(ranking["all"]) == 4


def test_a_finished_event_feeds_the_club_ratings_one_game_per_field(td):
    from tournaments.models import Rating
    from tournaments.services import ratings

    tournament = make_event(td)
    for n in range(1, 4):
        play_round(tournament, td, seed=n)
    dup.finish_duplicate(tournament=tournament, actor=td)
    assert [g.id < 0 for g in ratings.duplicate_games("spades")] == [True, True]
    assert ratings.recompute(game="spades") == 12
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


def test_an_answer_to_a_version_the_confirmer_never_saw_is_refused_and_changes_nothing(td):
    tournament = make_event(td)
    dup.start_round(tournament=tournament, actor=td)
    match = first_match(tournament)
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    ns, ew = table_scorer(match, "NS"), table_scorer(match, "EW")
    first = dup.submit_board_result(
        match=match, board=board, record=played(tournament, board), actor=ns
    ).result
    dup.reject_board_result(result=first, actor=ew, expected_version=1, reason="9 tricks")
    second = dup.submit_board_result(
        match=match, board=board, record=played(tournament, board, seed=7), actor=ns
    ).result
    assert second.version == 2
    for result, seen in ((second, 1), (first, 1), (second, None), (second, True)):
        with pytest.raises(ServiceError) as stale:
            dup.confirm_board_result(result=result, actor=ew, expected_version=seen)
        assert stale.value.code == "stale-version"
        assert stale.value.details == {"current": 2}
    with pytest.raises(ServiceError) as stale:
        dup.reject_board_result(result=second, actor=ew, expected_version=1)
    assert stale.value.code == "stale-version"
    second.refresh_from_db()
    assert (second.status, second.decided_label) == ("pending", "")
    assert (
        dup.confirm_board_result(result=second, actor=ew, expected_version=2).status == "confirmed"
    )


def test_the_director_enters_a_boards_deal_until_it_is_played(td):
    tournament = make_event(td, start=False)
    hands = {
        s: " ".join(c[1] + c[0] for c in tournament.boards.get(number=2).hands[s]) for s in "NESW"
    }
    board = dup.set_board_deal(tournament=tournament, actor=td, number=1, hands=hands)
    assert board.source == "director" and len(board.hands["N"]) == 13
    bad = dict(hands, N=hands["E"])
    with pytest.raises(ServiceError) as twice:
        dup.set_board_deal(tournament=tournament, actor=td, number=1, hands=bad)
    assert twice.value.code == "bad-deal"
    with pytest.raises(ServiceError) as none:
        dup.set_board_deal(tournament=tournament, actor=td, number=99, hands=hands)
    assert none.value.code == "no-board"

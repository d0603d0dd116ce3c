"""Rounds: generating the draft pairings (Swiss, round robin, individual and progressive
movements), swapping, publishing and closing."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from decimal import Decimal

import pytest
from django.db import transaction

from tournaments import pairing, services
from tournaments.demo.simulate import play_match
from tournaments.models import AuditEvent, Match, Round, Seat, Table, Tournament
from tournaments.services import ServiceError, history

from .conftest import bye_entries, entries, finish_round, play_round, tables_of

pytestmark = pytest.mark.django_db


def audit_events(tournament: Tournament, action: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(tournament=tournament, action=action).order_by("id"))


def opponents_in(round_: Round) -> set[frozenset[int]]:
    """Who met whom at the tables of a round (pairs of entry ids on different sides)."""
    met = set()
    for table in tables_of(round_):
        for (a, side_a, _), (b, side_b, _) in itertools.combinations(table, 2):
            if side_a != side_b:
                met.add(frozenset((a, b)))
    return met


# -- generate --------------------------------------------------------------------------------


def test_generate_round_makes_a_draft_of_two_sided_tables(swiss, director):
    tournament = swiss(4)

    round_ = services.generate_round(tournament=tournament, actor=director)

    assert (round_.number, round_.state) == (1, Round.State.DRAFT)
    tables = tables_of(round_)
    assert len(tables) == 2
    for table in tables:
        assert sorted((side, seats) for _, side, seats in table) == [("EW", "EW"), ("NS", "NS")]
    seated = sorted(entry for table in tables for entry, _, _ in table)
    assert seated == sorted(e.pk for e in entries(tournament))
    assert Match.objects.filter(round=round_, state=Match.State.PENDING).count() == 2
    [event] = audit_events(tournament, "round-generated")
    assert event.data["tables"] == 2
    assert event.data["regenerated"] is False


def test_a_draft_round_leaves_the_tournament_in_registration(swiss, director):
    tournament = swiss(4)

    services.generate_round(tournament=tournament, actor=director)

    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.REGISTRATION


def test_generate_round_refuses_a_second_draft(swiss, director):
    tournament = swiss(4)
    services.generate_round(tournament=tournament, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director)

    assert caught.value.code == "draft-exists"
    assert tournament.round_set.count() == 1


def test_regenerate_replaces_the_draft_with_a_fresh_one(swiss, director):
    tournament = swiss(6)
    first = services.generate_round(tournament=tournament, actor=director)
    late = services.register_entry(tournament=tournament, actor=director, players=["L1", "L2"])

    second = services.generate_round(tournament=tournament, actor=director, regenerate=True)

    assert second.number == 1
    assert not Round.objects.filter(pk=first.pk).exists()
    assert list(tournament.round_set.all()) == [second]
    assert Seat.objects.filter(match__round=second, entry=late).exists()
    assert audit_events(tournament, "round-generated")[-1].data["regenerated"] is True


def test_generate_round_refuses_while_the_previous_round_is_not_closed(swiss, director):
    tournament = swiss(4)
    round_1 = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_1, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director)

    assert caught.value.code == "round-open"
    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director, regenerate=True)
    assert caught.value.code == "round-open"


def test_generate_round_refuses_a_round_beyond_the_last(swiss, director):
    tournament = swiss(2, rounds=1)
    play_round(tournament, director)

    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director)

    assert caught.value.code == "no-more-rounds"
    assert tournament.round_set.count() == 1


def test_generate_round_is_for_directors_only(swiss, stranger):
    tournament = swiss(4)

    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=stranger)

    assert caught.value.code == "not-director"
    assert not tournament.round_set.exists()


def test_generate_round_needs_two_entries(swiss, director):
    tournament = swiss(1)

    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director)

    assert caught.value.code == "pairing-too-few-entrants"
    assert not tournament.round_set.exists()


def test_generate_round_is_refused_once_the_tournament_is_finished(swiss, director):
    tournament = swiss(2, rounds=2)
    play_round(tournament, director)
    services.finish_tournament(tournament=tournament, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director)

    assert caught.value.code == "tournament-finished"


def test_can_generate_round_gives_the_code_generate_round_would_refuse_with(swiss, director):
    """The dashboard's "generate" button asks the service; its answer is the workflow's own
    refusal code at every step of a tournament (or None when the draw may go ahead)."""
    tournament = swiss(2, rounds=2)

    def check() -> str | None:
        latest = tournament.round_set.order_by("-number").first()
        return services.can_generate_round(tournament=tournament, latest=latest)

    def refused_with() -> str | None:
        try:
            with transaction.atomic():
                services.generate_round(tournament=tournament, actor=director)
                transaction.set_rollback(True)
        except ServiceError as error:
            return error.code
        return None

    assert check() is None and refused_with() is None
    round_1 = services.generate_round(tournament=tournament, actor=director)
    assert check() == refused_with() == "draft-exists"
    assert (
        services.can_generate_round(tournament=tournament, latest=round_1, regenerate=True) is None
    )
    services.publish_round(round=round_1, actor=director)
    assert check() == refused_with() == "round-open"
    finish_round(round_1, director)
    assert check() is None and refused_with() is None
    play_round(tournament, director)
    assert check() == refused_with() == "no-more-rounds"
    services.finish_tournament(tournament=tournament, actor=director)
    tournament.refresh_from_db()
    assert check() == refused_with() == "tournament-finished"


def test_an_odd_count_gives_one_bye_worth_the_bye_points(swiss, director):
    tournament = swiss(5, points_bye=Decimal("1.5"))

    round_ = services.generate_round(tournament=tournament, actor=director)

    [bye] = Match.objects.filter(round=round_, is_bye=True)
    assert bye.table is None
    assert bye.state == Match.State.FINISHED
    [seat] = bye.seats.all()
    assert seat.outcome == "bye"
    assert seat.match_points == Decimal("1.5")
    assert len(tables_of(round_)) == 2
    assert audit_events(tournament, "round-generated")[0].data["byes"] == [seat.entry_id]


def test_byes_go_to_a_different_entry_each_round(swiss, director):
    tournament = swiss(5, rounds=3)
    byes = []
    for n in range(3):
        round_ = play_round(tournament, director, seed=n)
        byes += bye_entries(round_)

    assert len(byes) == 3
    assert len(set(byes)) == 3


def test_a_bye_counts_in_the_standings(swiss, director):
    tournament = swiss(3)
    round_ = play_round(tournament, director)
    [bye] = bye_entries(round_)

    rows = {row.entrant: row for row in history.standings_rows(tournament)}

    assert rows[bye].values["match_points"] == 2


def test_swiss_round_two_avoids_a_rematch(swiss, director):
    tournament = swiss(4)
    round_1 = play_round(tournament, director)

    round_2 = services.generate_round(tournament=tournament, actor=director)

    assert not opponents_in(round_1) & opponents_in(round_2)


def test_swiss_pairing_is_the_same_for_the_same_seed(swiss, director):
    tournament = swiss(8, seed=11)
    first = tables_of(services.generate_round(tournament=tournament, actor=director))

    again = tables_of(
        services.generate_round(tournament=tournament, actor=director, regenerate=True)
    )

    assert first == again


def test_history_counts_the_north_south_side_as_the_first_side(swiss, director):
    tournament = swiss(2)
    round_ = play_round(tournament, director)
    [table] = tables_of(round_)
    north_south = next(entry for entry, side, _ in table if side == "NS")
    east_west = next(entry for entry, side, _ in table if side == "EW")

    past = history.load(tournament).past

    assert past[north_south].first == 1
    assert past[east_west].first == -1


def test_history_ignores_a_draft_round(swiss, director):
    tournament = swiss(4)
    services.generate_round(tournament=tournament, actor=director)

    past = history.load(tournament).past

    assert all(not p.opponents for p in past.values())


# -- swap ------------------------------------------------------------------------------------


def test_swapping_within_a_match_changes_sides(swiss, director):
    tournament = swiss(2)
    round_ = services.generate_round(tournament=tournament, actor=director)
    [before] = tables_of(round_)
    (a, side_a, _), (b, side_b, _) = before
    first, second = (
        (e for e in entries(tournament) if e.pk == a),
        (e for e in entries(tournament) if e.pk == b),
    )

    services.swap_entries(round=round_, actor=director, first=next(first), second=next(second))

    [after] = tables_of(round_)
    sides = {entry: side for entry, side, _ in after}
    assert sides == {a: side_b, b: side_a}


def test_swapping_across_matches_exchanges_opponents(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    by_id = {e.pk: e for e in entries(tournament)}
    (a, side_a, _), (b, _, _) = tables_of(round_)[0]
    (c, side_c, _), (d, _, _) = tables_of(round_)[1]

    services.swap_entries(round=round_, actor=director, first=by_id[a], second=by_id[c])

    assert opponents_in(round_) == {frozenset((c, b)), frozenset((a, d))}
    seat_a = Seat.objects.get(match__round=round_, entry_id=a)
    seat_c = Seat.objects.get(match__round=round_, entry_id=c)
    assert (seat_a.side, seat_c.side) == (side_c, side_a)
    [event] = audit_events(tournament, "entries-swapped")
    assert event.data == {"round": 1, "tables": [1, 2], "entries": [a, c], "rematches": []}


def test_swapping_with_a_bye_moves_the_bye(swiss, director):
    tournament = swiss(3)
    round_ = services.generate_round(tournament=tournament, actor=director)
    by_id = {e.pk: e for e in entries(tournament)}
    [had_bye] = bye_entries(round_)
    playing = tables_of(round_)[0][0][0]

    services.swap_entries(round=round_, actor=director, first=by_id[had_bye], second=by_id[playing])

    assert bye_entries(round_) == [playing]
    assert had_bye in {entry for entry, _, _ in tables_of(round_)[0]}
    bye_seat = Seat.objects.get(match__round=round_, match__is_bye=True)
    assert bye_seat.outcome == "bye"


def test_a_swap_that_makes_a_rematch_is_recorded_with_the_rematch(swiss, director):
    tournament = swiss(4)
    round_1 = play_round(tournament, director)
    round_2 = services.generate_round(tournament=tournament, actor=director)
    by_id = {e.pk: e for e in entries(tournament)}
    (a, _, _), (b, _, _) = tables_of(round_1)[0]
    # a's round-2 opponent changes places with b: a meets b again, and so do the other two.
    a_opponent = next(
        next(e for e, _, _ in table if e != a)
        for table in tables_of(round_2)
        if a in dict((e, s) for e, s, _ in table)
    )

    services.swap_entries(
        round=round_2, actor=director, first=by_id[a_opponent], second=by_id[b], reason="friends"
    )

    [event] = audit_events(tournament, "entries-swapped")
    assert event.reason == "friends"
    expected = sorted(tuple(sorted(pair)) for pair in opponents_in(round_1))
    assert sorted(tuple(p) for p in event.data["rematches"]) == expected


def test_swap_is_refused_once_the_round_is_published(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    first, second = entries(tournament)[:2]
    before = tables_of(round_)

    with pytest.raises(ServiceError) as caught:
        services.swap_entries(round=round_, actor=director, first=first, second=second)

    assert caught.value.code == "round-not-draft"
    assert tables_of(round_) == before


def test_swap_refuses_an_entry_not_in_the_round(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    outsider = services.register_entry(tournament=tournament, actor=director, players=["O", "P"])

    with pytest.raises(ServiceError) as caught:
        services.swap_entries(
            round=round_, actor=director, first=entries(tournament)[0], second=outsider
        )

    assert caught.value.code == "not-in-round"


def test_swap_refuses_an_entry_with_itself(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    entry = entries(tournament)[0]

    with pytest.raises(ServiceError) as caught:
        services.swap_entries(round=round_, actor=director, first=entry, second=entry)

    assert caught.value.code == "bad-swap"


def test_swap_is_for_directors_only(swiss, director, stranger):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    first, second = entries(tournament)[:2]

    with pytest.raises(ServiceError) as caught:
        services.swap_entries(round=round_, actor=stranger, first=first, second=second)

    assert caught.value.code == "not-director"


# -- publish and close -----------------------------------------------------------------------


def test_publish_round_publishes_it_and_starts_the_tournament(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)

    services.publish_round(round=round_, actor=director)

    round_.refresh_from_db()
    tournament.refresh_from_db()
    assert round_.state == Round.State.PUBLISHED
    assert round_.published_at is not None
    assert tournament.state == Tournament.State.RUNNING
    assert audit_events(tournament, "round-published")[0].subject == "round 1"


def test_publish_round_refuses_a_published_round(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.publish_round(round=round_, actor=director)

    assert caught.value.code == "round-not-draft"


def test_publish_round_is_for_directors_only(swiss, director, stranger):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.publish_round(round=round_, actor=stranger)

    assert caught.value.code == "not-director"
    round_.refresh_from_db()
    assert round_.state == Round.State.DRAFT


def test_close_round_refuses_while_a_match_is_unfinished(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    first, second = Match.objects.filter(round=round_).order_by("table__number")
    play_match(first, random.Random(3), director=director, hands=1)

    with pytest.raises(ServiceError) as caught:
        services.close_round(round=round_, actor=director)

    assert caught.value.code == "matches-unfinished"
    assert caught.value.details == {"tables": [second.table.number]}
    round_.refresh_from_db()
    assert round_.state != Round.State.CLOSED


def test_close_round_closes_a_round_whose_matches_are_all_finished(swiss, director):
    tournament = swiss(5)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)

    finish_round(round_, director, hands=2)

    round_.refresh_from_db()
    assert round_.state == Round.State.CLOSED
    assert round_.closed_at is not None
    outcomes = Counter(Seat.objects.filter(match__round=round_).values_list("outcome", flat=True))
    assert outcomes["bye"] == 1
    assert sum(outcomes.values()) == 5
    assert "" not in outcomes
    assert audit_events(tournament, "round-closed")


def test_close_round_refuses_a_draft(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.close_round(round=round_, actor=director)

    assert caught.value.code == "round-not-published"


def test_closing_a_closed_round_changes_nothing(swiss, director):
    tournament = swiss(2)
    round_ = play_round(tournament, director)

    services.close_round(round=round_, actor=director)

    assert len(audit_events(tournament, "round-closed")) == 1


def test_close_round_is_for_directors_only(swiss, director, stranger):
    tournament = swiss(2)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.close_round(round=round_, actor=stranger)

    assert caught.value.code == "not-director"


# -- round robin -----------------------------------------------------------------------------


def test_round_robin_of_five_meets_every_pair_once_and_rotates_the_bye(make_tournament, director):
    tournament = make_tournament(format="round-robin", rounds=5, teams=5)
    ids = [e.pk for e in entries(tournament)]
    met: Counter[frozenset[int]] = Counter()
    byes: list[int] = []

    for n in range(5):
        round_ = play_round(tournament, director, seed=n)
        met.update(opponents_in(round_))
        byes += bye_entries(round_)

    assert met == Counter(frozenset(pair) for pair in itertools.combinations(ids, 2))
    assert sorted(byes) == sorted(ids)
    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director)
    assert caught.value.code == "no-more-rounds"


def test_round_robin_refuses_rounds_beyond_its_schedule(make_tournament, director):
    tournament = make_tournament(format="round-robin", rounds=3, teams=2)
    play_round(tournament, director)

    with pytest.raises(ServiceError) as caught:
        services.generate_round(tournament=tournament, actor=director)

    assert caught.value.code == "round-robin-complete"


def test_round_robin_gives_a_withdrawn_entrys_opponents_byes(make_tournament, director):
    tournament = make_tournament(format="round-robin", rounds=5, teams=5)
    ids = [e.pk for e in entries(tournament)]
    play_round(tournament, director)
    gone = entries(tournament)[2]
    services.withdraw(entry=gone, actor=director)

    for number in range(2, 6):
        round_ = play_round(tournament, director, seed=number)
        schedule = pairing.round_robin(ids, number)
        should_rest = {
            other for table in schedule.tables if gone.pk in table for other in table
        } - {gone.pk}
        assert not Seat.objects.filter(match__round=round_, entry=gone).exists()
        assert set(bye_entries(round_)) == should_rest | (set(schedule.byes) - {gone.pk})


def test_round_robin_leaves_out_an_entry_withdrawn_before_it_started(make_tournament, director):
    tournament = make_tournament(format="round-robin", rounds=3, teams=4)
    gone = entries(tournament)[0]
    services.withdraw(entry=gone, actor=director)

    round_ = services.generate_round(tournament=tournament, actor=director)

    assert len(tables_of(round_)) == 1
    assert len(bye_entries(round_)) == 1
    assert not Seat.objects.filter(match__round=round_, entry=gone).exists()


# -- individual and progressive movements ----------------------------------------------------


def test_individual_solo_whist_seats_tables_of_four_and_sits_two_out(make_tournament, director):
    tournament = make_tournament(
        game="solo-whist", rules="phillips", format="individual", rounds=3, players=10
    )

    round_ = services.generate_round(tournament=tournament, actor=director)

    tables = tables_of(round_)
    assert len(tables) == 2
    for table in tables:
        assert [(side, seats) for _, side, seats in table] == [
            ("E", "E"),
            ("N", "N"),
            ("S", "S"),
            ("W", "W"),
        ]
    out = bye_entries(round_)
    assert len(out) == 2
    seated = {entry for table in tables for entry, _, _ in table}
    assert seated.isdisjoint(out)
    assert seated | set(out) == {e.pk for e in entries(tournament)}


def test_individual_sit_outs_rotate(make_tournament, director):
    tournament = make_tournament(
        game="solo-whist", rules="phillips", format="individual", rounds=2, players=10
    )
    first = play_round(tournament, director)

    second = services.generate_round(tournament=tournament, actor=director)

    assert set(bye_entries(first)).isdisjoint(bye_entries(second))


def test_progressive_spades_seats_partners_north_south_and_east_west(make_tournament, director):
    tournament = make_tournament(format="progressive", rounds=3, players=8)

    round_ = services.generate_round(tournament=tournament, actor=director)

    tables = tables_of(round_)
    assert len(tables) == 2
    for table in tables:
        assert [(side, seats) for _, side, seats in table] == [
            ("EW", "E"),
            ("NS", "N"),
            ("NS", "S"),
            ("EW", "W"),
        ]
    assert bye_entries(round_) == []
    assert Table.objects.filter(round=round_).count() == 2


def test_progressive_partners_change_the_next_round(make_tournament, director):
    tournament = make_tournament(format="progressive", rounds=2, players=8)
    first = play_round(tournament, director)

    second = services.generate_round(tournament=tournament, actor=director)

    def partnerships(round_: Round) -> set[frozenset[int]]:
        out = set()
        for table in tables_of(round_):
            for side in ("NS", "EW"):
                out.add(frozenset(e for e, s, _ in table if s == side))
        return out

    assert partnerships(first).isdisjoint(partnerships(second))

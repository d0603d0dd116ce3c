"""Entries: public and director registration, player matching, check-in, late entries,
withdrawals, seeds and fixed tables."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import AuditEvent, Entry, Player, Seat, Team, Tournament
from tournaments.services import PlayerSpec, ServiceError

from .conftest import bye_entries, entries, play_round, tables_of

pytestmark = pytest.mark.django_db


def actions(tournament: Tournament, action: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(tournament=tournament, action=action).order_by("id"))


# -- registration ----------------------------------------------------------------------------


def test_public_registers_a_team_while_registration_is_open(make_tournament, public):
    tournament = make_tournament()

    entry = services.register_entry(
        tournament=tournament, actor=public, players=["Aiko", "Ben"], name="Spade Aces"
    )

    assert entry.team.name == "Spade Aces"
    assert [p.name for p in entry.team.players] == ["Aiko", "Ben"]
    assert entry.player is None
    assert entry.status == Entry.Status.REGISTERED
    assert entry.joined_round == 1
    assert entry.late_entry == ""


def test_a_team_without_a_name_is_named_after_its_players(make_tournament, public):
    tournament = make_tournament()

    entry = services.register_entry(tournament=tournament, actor=public, players=["Aiko", "Ben"])

    assert entry.team.name == "Aiko & Ben"


@pytest.mark.parametrize("open_", [False, True])
def test_public_registration_is_refused_unless_registration_is_open(
    make_tournament, public, director, open_
):
    tournament = make_tournament(open_=open_, teams=2)
    if open_:  # registration closes when the first round is published
        round_ = services.generate_round(tournament=tournament, actor=director)
        services.publish_round(round=round_, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=public, players=["Aiko", "Ben"])

    assert caught.value.code == "registration-closed"
    assert not Player.objects.filter(name="Aiko").exists()


def test_a_director_registers_before_registration_opens(make_tournament, director):
    tournament = make_tournament(open_=False)

    entry = services.register_entry(tournament=tournament, actor=director, players=["Aiko", "Ben"])

    assert entry.tournament_id == tournament.pk
    assert actions(tournament, "entry-registered")[0].data == {"entry": entry.pk}


def test_nobody_registers_once_the_tournament_is_finished(make_tournament, director):
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(state=Tournament.State.FINISHED)

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=director, players=["Aiko", "Ben"])

    assert caught.value.code == "tournament-finished"


def test_a_player_is_matched_by_club_number_whatever_the_name_says(make_tournament, director):
    # A director's registration: a public one never takes a member's record (issue 14 point
    # 11; tests/hostile/test_smaller_holes.py).
    aiko = Player.objects.create(name="Aiko Tanaka", club_number="0042")
    tournament = make_tournament()

    entry = services.register_entry(
        tournament=tournament,
        actor=director,
        players=[PlayerSpec(name="A. Tanaka", club_number="0042"), PlayerSpec(name="Ben")],
    )

    assert entry.team.first_id == aiko.pk
    assert Player.objects.filter(club_number="0042").count() == 1


def test_a_player_is_matched_by_name_ignoring_case_and_spaces(make_tournament, public):
    aiko = Player.objects.create(name="Aiko Tanaka")
    tournament = make_tournament()

    entry = services.register_entry(
        tournament=tournament, actor=public, players=["  aiko   TANAKA ", "Ben"]
    )

    assert entry.team.first_id == aiko.pk
    assert Player.objects.filter(name__iexact="aiko tanaka").count() == 1


def test_an_unknown_club_number_creates_a_new_player(make_tournament, public):
    Player.objects.create(name="Aiko", club_number="1")
    tournament = make_tournament()

    entry = services.register_entry(
        tournament=tournament,
        actor=public,
        players=[PlayerSpec(name="Aiko", club_number="2"), PlayerSpec(name="Ben")],
    )

    assert entry.team.first.club_number == "2"
    assert Player.objects.filter(name="Aiko").count() == 2


def test_a_player_cannot_hold_two_entries(make_tournament, public):
    tournament = make_tournament()
    services.register_entry(tournament=tournament, actor=public, players=["Aiko", "Ben"])

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=public, players=["Chie", "aiko"])

    assert caught.value.code == "already-entered"
    assert tournament.entries.count() == 1
    assert not Player.objects.filter(name="Chie").exists()


def test_a_player_cannot_enter_an_individual_event_twice(make_tournament, public):
    tournament = make_tournament(game="solo-whist", rules="phillips", format="individual")
    services.register_entry(tournament=tournament, actor=public, players=["Aiko"])

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=public, players=["AIKO"])

    assert caught.value.code == "already-entered"


def test_a_team_needs_two_different_players(make_tournament, public):
    tournament = make_tournament()

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=public, players=["Aiko", "aiko"])

    assert caught.value.code == "bad-entry"
    assert not Team.objects.exists()


@pytest.mark.parametrize("players", [["Aiko"], ["Aiko", "Ben", "Chie"]])
def test_a_team_entry_names_exactly_two_players(make_tournament, public, players):
    tournament = make_tournament()

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=public, players=players)

    assert caught.value.code == "bad-entry"


def test_an_individual_entry_names_one_player(make_tournament, public):
    tournament = make_tournament(game="solo-whist", rules="phillips", format="individual")

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=public, players=["Aiko", "Ben"])

    assert caught.value.code == "bad-entry"


def test_progressive_play_enters_players_not_teams(make_tournament, public):
    tournament = make_tournament(format="progressive")

    entry = services.register_entry(tournament=tournament, actor=public, players=["Aiko"])

    assert entry.player.name == "Aiko"
    assert entry.team is None


@pytest.mark.parametrize("name", ["", "   ", "x" * 101])
def test_a_player_needs_a_reasonable_name(make_tournament, public, name):
    tournament = make_tournament()

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=public, players=[name, "Ben"])

    assert caught.value.code == "bad-player"
    assert not tournament.entries.exists()


def test_a_club_number_longer_than_the_column_is_refused(make_tournament, public):
    tournament = make_tournament()

    with pytest.raises(ServiceError) as caught:
        services.register_entry(
            tournament=tournament,
            actor=public,
            players=[PlayerSpec("Aiko", club_number="9" * 31), PlayerSpec("Ben")],
        )

    assert caught.value.code == "bad-player"
    assert not Player.objects.exists()


def test_registering_with_a_taken_seed_is_refused(make_tournament, director):
    tournament = make_tournament()
    services.register_entry(tournament=tournament, actor=director, players=["A", "B"], seed=1)

    with pytest.raises(ServiceError) as caught:
        services.register_entry(tournament=tournament, actor=director, players=["C", "D"], seed=1)

    assert caught.value.code == "seed-taken"
    assert tournament.entries.count() == 1


@pytest.mark.parametrize("seed", [0, -1, True, "1"])
def test_registering_with_a_seed_that_is_not_a_positive_number_is_refused(
    make_tournament, director, seed
):
    tournament = make_tournament()

    with pytest.raises(ServiceError) as caught:
        services.register_entry(
            tournament=tournament, actor=director, players=["A", "B"], seed=seed
        )

    assert caught.value.code == "bad-seed"


# -- late entries ----------------------------------------------------------------------------


def test_a_late_entry_joins_from_the_next_round_with_the_tournament_policy(swiss, director):
    tournament = swiss(4, late_entry="draw")
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)

    late = services.register_entry(tournament=tournament, actor=director, players=["Late", "Too"])

    assert late.joined_round == 2
    assert late.late_entry == "draw"
    [event] = actions(tournament, "late-entry")
    assert event.data == {"entry": late.pk, "joined_round": 2, "policy": "draw"}
    assert event.subject == late.name


def test_a_late_entry_may_have_its_own_policy(swiss, director):
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)

    late = services.register_entry(
        tournament=tournament, actor=director, players=["Late", "Too"], late_entry="bye"
    )

    assert late.late_entry == "bye"


def test_an_unknown_late_entry_policy_is_refused(swiss, director):
    tournament = swiss(2)

    with pytest.raises(ServiceError) as caught:
        services.register_entry(
            tournament=tournament, actor=director, players=["A", "B"], late_entry="maybe"
        )

    assert caught.value.code == "bad-late-entry"


def test_a_draft_round_does_not_make_an_entry_late(swiss, director):
    tournament = swiss(4)
    services.generate_round(tournament=tournament, actor=director)

    entry = services.register_entry(tournament=tournament, actor=director, players=["A", "B"])

    assert entry.joined_round == 1
    assert not actions(tournament, "late-entry")


def test_a_late_entry_is_paired_in_the_round_it_joins(swiss, director):
    tournament = swiss(4, late_entry="draw")
    play_round(tournament, director)
    late = services.register_entry(tournament=tournament, actor=director, players=["L1", "L2"])

    round_2 = services.generate_round(tournament=tournament, actor=director)

    seated = {s.entry_id for s in Seat.objects.filter(match__round=round_2)}
    assert late.pk in seated
    assert len(seated) == 5
    assert len(bye_entries(round_2)) == 1


def test_a_late_entry_scores_its_missed_rounds_by_policy(swiss, director):
    from tournaments.services import history

    tournament = swiss(4, late_entry="draw")
    play_round(tournament, director)
    late = services.register_entry(tournament=tournament, actor=director, players=["L1", "L2"])

    rows = {row.entrant: row for row in history.standings_rows(tournament)}

    assert rows[late.pk].values["match_points"] == 1  # a draw's points for round 1


# -- check-in --------------------------------------------------------------------------------


def test_check_in_marks_the_entry_and_is_audited_once(swiss, director):
    tournament = swiss(2)
    entry = entries(tournament)[0]

    services.check_in(entry=entry, actor=director)
    services.check_in(entry=entry, actor=director)

    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN
    assert len(actions(tournament, "checked-in")) == 1


def test_only_a_director_checks_in(swiss, stranger):
    entry = entries(swiss(2))[0]

    with pytest.raises(ServiceError) as caught:
        services.check_in(entry=entry, actor=stranger)

    assert caught.value.code == "not-director"
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_a_withdrawn_entry_cannot_check_in(swiss, director):
    entry = entries(swiss(2))[0]
    services.withdraw(entry=entry, actor=director)

    with pytest.raises(ServiceError) as caught:
        services.check_in(entry=entry, actor=director)

    assert caught.value.code == "withdrawn"


def test_round_one_seats_every_entry_while_nobody_has_checked_in(swiss, director):
    tournament = swiss(4)

    round_ = services.generate_round(tournament=tournament, actor=director)

    assert Seat.objects.filter(match__round=round_).count() == 4


def test_round_one_seats_only_checked_in_entries_once_check_in_began(swiss, director):
    tournament = swiss(6)
    here = entries(tournament)[:4]
    for entry in here:
        services.check_in(entry=entry, actor=director)

    round_ = services.generate_round(tournament=tournament, actor=director)

    seated = sorted(s.entry_id for s in Seat.objects.filter(match__round=round_))
    assert seated == sorted(e.pk for e in here)
    assert bye_entries(round_) == []


# -- withdrawal ------------------------------------------------------------------------------


def test_a_withdrawn_entry_is_not_paired_next_round_but_stays_in_history(swiss, director):
    from tournaments.services import history

    tournament = swiss(4)
    round_1 = play_round(tournament, director)
    gone = entries(tournament)[0]

    services.withdraw(entry=gone, actor=director, reason="went home")
    round_2 = services.generate_round(tournament=tournament, actor=director)

    gone.refresh_from_db()
    assert gone.status == Entry.Status.WITHDRAWN
    assert gone.withdrawn_after_round == 1
    assert not Seat.objects.filter(match__round=round_2, entry=gone).exists()
    assert len(bye_entries(round_2)) == 1  # three left: one of them has the bye
    assert Seat.objects.filter(match__round=round_1, entry=gone).exists()
    rows = {row.entrant for row in history.standings_rows(tournament)}
    assert gone.pk in rows
    [event] = actions(tournament, "withdrawn")
    assert event.reason == "went home"
    assert event.data == {"entry": gone.pk, "in_draft_round": False}


def test_withdrawing_from_a_draft_round_says_so(swiss, director):
    tournament = swiss(4)
    services.generate_round(tournament=tournament, actor=director)
    entry = entries(tournament)[0]

    services.withdraw(entry=entry, actor=director)

    assert actions(tournament, "withdrawn")[0].data["in_draft_round"] is True


def test_withdrawing_twice_changes_nothing(swiss, director):
    tournament = swiss(2)
    entry = entries(tournament)[0]

    services.withdraw(entry=entry, actor=director)
    services.withdraw(entry=entry, actor=director)

    assert len(actions(tournament, "withdrawn")) == 1


def test_only_a_director_withdraws_an_entry(swiss, stranger):
    entry = entries(swiss(2))[0]

    with pytest.raises(ServiceError) as caught:
        services.withdraw(entry=entry, actor=stranger)

    assert caught.value.code == "not-director"


def test_a_withdrawn_teams_player_may_enter_again_in_a_new_team(swiss, director):
    tournament = swiss(2)
    entry = entries(tournament)[0]
    services.withdraw(entry=entry, actor=director)
    first = entry.team.first

    again = services.register_entry(
        tournament=tournament, actor=director, players=[first.name, "Someone New"]
    )

    assert again.team.first_id == first.pk


# -- seeds and fixed tables ------------------------------------------------------------------


def test_set_seed_stores_and_audits_the_seed(swiss, director):
    tournament = swiss(2)
    entry = entries(tournament)[0]

    services.set_seed(entry=entry, actor=director, seed=7)

    entry.refresh_from_db()
    assert entry.seed == 7
    assert actions(tournament, "seeded")[0].data == {"entry": entry.pk, "seed": 7}


def test_set_seed_refuses_a_seed_another_entry_holds(swiss, director):
    tournament = swiss(2)
    first, second = entries(tournament)
    services.set_seed(entry=first, actor=director, seed=1)

    with pytest.raises(ServiceError) as caught:
        services.set_seed(entry=second, actor=director, seed=1)

    assert caught.value.code == "seed-taken"
    second.refresh_from_db()
    assert second.seed is None
    assert len(actions(tournament, "seeded")) == 1


def test_set_seed_can_clear_a_seed_and_give_it_to_another(swiss, director):
    tournament = swiss(2)
    first, second = entries(tournament)
    services.set_seed(entry=first, actor=director, seed=1)

    services.set_seed(entry=first, actor=director, seed=None)
    services.set_seed(entry=second, actor=director, seed=1)

    second.refresh_from_db()
    assert second.seed == 1


@pytest.mark.parametrize("seed", [0, -3])
def test_set_seed_refuses_a_seed_below_one(swiss, director, seed):
    entry = entries(swiss(2))[0]

    with pytest.raises(ServiceError) as caught:
        services.set_seed(entry=entry, actor=director, seed=seed)

    assert caught.value.code == "bad-seed"


def test_fix_table_is_honoured_by_generate_round(swiss, director):
    tournament = swiss(8)
    pinned = entries(tournament)[5]

    services.fix_table(entry=pinned, actor=director, table=3, reason="wheelchair access")
    round_ = services.generate_round(tournament=tournament, actor=director)

    seat = Seat.objects.select_related("match__table").get(match__round=round_, entry=pinned)
    assert seat.match.table.number == 3
    assert sorted(t.number for t in round_.tables.all()) == [1, 2, 3, 4]
    event = actions(tournament, "table-fixed")[0]
    assert event.reason == "wheelchair access"
    assert event.data == {"entry": pinned.pk, "table": 3}


def test_fix_table_beyond_the_tables_in_play_keeps_the_number(swiss, director):
    tournament = swiss(4)
    pinned = entries(tournament)[0]

    services.fix_table(entry=pinned, actor=director, table=9)
    round_ = services.generate_round(tournament=tournament, actor=director)

    assert sorted(t.number for t in round_.tables.all()) == [1, 9]
    assert len(tables_of(round_)) == 2


def test_fix_table_refuses_a_table_already_fixed_for_another_entry(swiss, director):
    first, second = entries(swiss(4))[:2]
    services.fix_table(entry=first, actor=director, table=2)

    with pytest.raises(ServiceError) as caught:
        services.fix_table(entry=second, actor=director, table=2)

    assert caught.value.code == "table-taken"


def test_fix_table_refuses_table_zero(swiss, director):
    entry = entries(swiss(2))[0]

    with pytest.raises(ServiceError) as caught:
        services.fix_table(entry=entry, actor=director, table=0)

    assert caught.value.code == "bad-table"


def test_fix_table_none_frees_the_entry(swiss, director):
    entry = entries(swiss(2))[0]
    services.fix_table(entry=entry, actor=director, table=2)

    services.fix_table(entry=entry, actor=director, table=None)

    entry.refresh_from_db()
    assert entry.fixed_table is None


# -- the registration desk --------------------------------------------------------------------


def test_checking_in_many_at_once_checks_in_the_registered_and_leaves_the_rest(
    make_tournament, director
):
    tournament = make_tournament(teams=4)
    first, second, third, _fourth = tournament.entries.order_by("pk")
    services.check_in(entry=first, actor=director)

    done = services.check_in_entries(
        tournament=tournament, actor=director, entries=[first.pk, second.pk, third.pk]
    )

    assert [e.pk for e in done] == [second.pk, third.pk]
    assert list(tournament.entries.order_by("pk").values_list("status", flat=True)) == [
        "checked-in",
        "checked-in",
        "checked-in",
        "registered",
    ]
    assert AuditEvent.objects.filter(tournament=tournament, action="checked-in").count() == 3


def test_checking_in_many_refuses_the_lot_for_a_withdrawn_or_foreign_entry(
    make_tournament, director
):
    tournament = make_tournament(teams=3)
    other = make_tournament(teams=1)
    first, second, third = tournament.entries.order_by("pk")
    services.withdraw(entry=third, actor=director)

    with pytest.raises(ServiceError) as withdrawn:
        services.check_in_entries(
            tournament=tournament, actor=director, entries=[first.pk, third.pk]
        )
    with pytest.raises(ServiceError) as foreign:
        services.check_in_entries(
            tournament=tournament, actor=director, entries=[second.pk, other.entries.get().pk]
        )

    assert (withdrawn.value.code, foreign.value.code) == ("withdrawn", "no-such-entry")
    assert not tournament.entries.filter(status="checked-in").exists()


def test_a_check_in_is_taken_back_until_a_round_seats_the_entry(make_tournament, director):
    tournament = make_tournament(teams=4)
    entries = list(tournament.entries.order_by("pk"))
    services.check_in_entries(
        tournament=tournament, actor=director, entries=[e.pk for e in entries]
    )

    services.undo_check_in(entry=entries[0], actor=director)
    services.check_in(entry=entries[0], actor=director)
    services.generate_round(tournament=tournament, actor=director)

    with pytest.raises(ServiceError) as seated:
        services.undo_check_in(entry=entries[0], actor=director)
    assert seated.value.code == "already-seated"
    assert tournament.entries.get(pk=entries[0].pk).status == "checked-in"
    assert AuditEvent.objects.filter(action="check-in-undone").count() == 1


def test_a_director_registers_someone_at_the_desk_checked_in_and_the_public_cannot(
    make_tournament, director, public
):
    tournament = make_tournament()

    entry = services.register_entry(
        tournament=tournament, actor=director, players=["Mai", "Tom"], checked_in=True
    )
    with pytest.raises(ServiceError) as refused:
        services.register_entry(
            tournament=tournament, actor=public, players=["Ann", "Bo"], checked_in=True
        )

    assert entry.status == "checked-in" and refused.value.code == "not-director"
    assert tournament.entries.count() == 1


# -- keeping apart ----------------------------------------------------------------------------


def _opponents(round_) -> set[frozenset[int]]:
    return {frozenset(entry for entry, _, _ in table) for table in tables_of(round_)}


def test_entries_of_one_affiliation_are_kept_apart_in_the_draw(make_tournament, director):
    tournament = make_tournament(teams=4)
    plain = services.generate_round(tournament=tournament, actor=director)
    pairs = _opponents(plain)
    first, other = sorted(next(iter(pairs)))
    services.set_affiliation(
        entry=Entry.objects.get(pk=first), actor=director, affiliation="Koenji  Club"
    )
    services.set_affiliation(
        entry=Entry.objects.get(pk=other), actor=director, affiliation="koenji club"
    )

    again = services.generate_round(tournament=tournament, actor=director, regenerate=True)

    assert frozenset((first, other)) not in _opponents(again)
    assert AuditEvent.objects.filter(action="affiliation-set").count() == 2


def test_a_pair_named_to_keep_apart_is_kept_apart_and_can_be_let_meet(make_tournament, director):
    tournament = make_tournament(teams=4)
    plain = _opponents(services.generate_round(tournament=tournament, actor=director))
    first, other = (Entry.objects.get(pk=pk) for pk in sorted(next(iter(plain))))

    pair = services.keep_apart(
        tournament=tournament, actor=director, first=other, second=first, reason="a couple"
    )
    services.keep_apart(tournament=tournament, actor=director, first=first, second=other)
    kept = services.generate_round(tournament=tournament, actor=director, regenerate=True)
    services.allow_together(pair=pair, actor=director)
    freed = services.generate_round(tournament=tournament, actor=director, regenerate=True)

    assert (pair.first_id, pair.second_id) == (first.pk, other.pk)
    assert frozenset((first.pk, other.pk)) not in _opponents(kept)
    assert _opponents(freed) == plain
    assert [
        e.action for e in AuditEvent.objects.filter(action__startswith="kept-apart").order_by("id")
    ] == ["kept-apart", "kept-apart-removed"]


def test_keeping_apart_refuses_one_entry_twice_and_another_tournaments_entry(
    make_tournament, director
):
    tournament = make_tournament(teams=2)
    other = make_tournament(teams=1)
    one = tournament.entries.first()

    with pytest.raises(ServiceError) as same:
        services.keep_apart(tournament=tournament, actor=director, first=one, second=one)
    with pytest.raises(ServiceError) as foreign:
        services.keep_apart(
            tournament=tournament, actor=director, first=one, second=other.entries.get()
        )
    assert (same.value.code, foreign.value.code) == ("bad-pair", "no-such-entry")

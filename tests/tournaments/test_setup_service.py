"""A director edits the setup (services.setup.update_tournament): every value checked as at
creation, the draw's and hands' settings locked once a round is published, the change audited,
and a change to what the standings are computed from counted as a change to results."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from tests.tournaments.conftest import finish_round, play_round
from tournaments import services
from tournaments.models import AuditEvent, Round, Seat, Tournament
from tournaments.services import Conflict, Invalid, NotAllowed
from tournaments.services.setup import EDITABLE, update_tournament
from tournaments.standings import DEFAULT_CHAINS

pytestmark = pytest.mark.django_db


def snapshot(tournament: Tournament) -> dict:
    """Every editable field as stored, to prove a refusal changed nothing."""
    fresh = Tournament.objects.get(pk=tournament.pk)
    return {name: getattr(fresh, name) for name in (*EDITABLE, "results_version", "state")}


def published(swiss, director, n: int = 4) -> Tournament:
    tournament = swiss(n)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    tournament.refresh_from_db()
    return tournament


# -- before a round is published: everything is editable ---------------------------------------


def test_every_setup_field_is_editable_before_a_round_is_published(make_tournament, director):
    tournament = make_tournament(open_=False)
    starts = timezone.make_aware(datetime(2025, 5, 9, 18, 30))

    updated = update_tournament(
        tournament=tournament,
        actor=director,
        changes={
            "name": "  Friday Night Spades ",
            "venue": "Club room",
            "starts_at": starts,
            "rules": {"preset": "standard", "options": {"sandbag": True}},
            "format": "round-robin",
            "double_round_robin": True,
            "rounds": 6,
            "match_length": "hands",
            "match_hands": 8,
            "points_win": 3,
            "points_draw": Decimal("1.5"),
            "points_loss": 0,
            "points_bye": 3,
            "tiebreaks": ["match_points", "wins"],
            "late_entry": "draw",
            "show_provisional": True,
            "seed": 42,
        },
    )

    assert updated.name == "Friday Night Spades"
    assert updated.venue == "Club room"
    assert updated.starts_at == starts
    assert updated.rules == {"preset": "standard", "options": {"sandbag": True}}
    assert (updated.format, updated.double_round_robin, updated.rounds) == ("round-robin", True, 6)
    assert (updated.match_length, updated.match_hands) == ("hands", 8)
    assert (updated.points_win, updated.points_draw, updated.points_bye) == (
        Decimal(3),
        Decimal("1.5"),
        Decimal(3),
    )
    assert updated.tiebreaks == ["match_points", "wins"]
    assert (updated.late_entry, updated.show_provisional, updated.seed) == ("draw", True, 42)


def test_new_rules_bring_their_table_size_and_the_format_its_default_points(
    make_tournament, director
):
    tournament = make_tournament(
        game="solo-whist", rules="phillips", format="individual", open_=False
    )
    assert tournament.place_points == ["3", "2", "1", "0"]

    updated = update_tournament(
        tournament=tournament,
        actor=director,
        changes={
            "game": "spades",
            "rules": {"preset": "standard", "options": {"players": 3, "partnership": False}},
        },
    )

    assert updated.table_size == 3
    assert updated.place_points == ["2", "1", "0"]


def test_changing_nothing_writes_no_audit_event(make_tournament, director):
    tournament = make_tournament()
    before = AuditEvent.objects.count()

    update_tournament(
        tournament=tournament,
        actor=director,
        changes={"name": tournament.name, "rounds": tournament.rounds},
    )

    assert AuditEvent.objects.count() == before


def test_a_change_is_audited_with_each_fields_value_before_and_after(make_tournament, director):
    tournament = make_tournament(rounds=3)

    update_tournament(
        tournament=tournament,
        actor=director,
        changes={"rounds": 5, "points_win": Decimal(3), "venue": "Hall"},
    )

    event = AuditEvent.objects.filter(tournament=tournament, action="setup-changed").get()
    assert event.actor == director.user
    assert event.data["changes"] == {
        "rounds": {"before": 3, "after": 5},
        "points_win": {"before": "2.0", "after": "3"},
        "venue": {"before": "", "after": "Hall"},
    }


def test_a_change_to_the_draw_discards_the_draft_round(swiss, director):
    tournament = swiss(4)
    services.generate_round(tournament=tournament, actor=director)

    update_tournament(tournament=tournament, actor=director, changes={"seed": 7})

    assert not Round.objects.filter(tournament=tournament).exists()
    event = AuditEvent.objects.get(tournament=tournament, action="setup-changed")
    assert event.data["discarded_draft"] == 1


# -- once a round is published ---------------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"game": "whist", "rules": "short-whist"},
        {"rules": "hoyle"},
        {"format": "round-robin"},
        {"double_round_robin": True},
        {"match_length": "hands", "match_hands": 4},
    ],
)
def test_the_game_rules_format_and_match_length_lock_once_a_round_is_published(
    swiss, director, changes
):
    tournament = published(swiss, director)
    before = snapshot(tournament)

    with pytest.raises(Conflict) as refused:
        update_tournament(tournament=tournament, actor=director, changes=changes)

    assert refused.value.code == "setup-locked"
    assert snapshot(tournament) == before


def test_rounds_may_grow_after_publishing_but_not_below_the_rounds_made(swiss, director):
    tournament = swiss(4, rounds=3)
    play_round(tournament, director)
    services.generate_round(tournament=tournament, actor=director)  # round 2, a draft

    grown = update_tournament(tournament=tournament, actor=director, changes={"rounds": 5})
    assert grown.rounds == 5
    shrunk = update_tournament(tournament=tournament, actor=director, changes={"rounds": 2})
    assert shrunk.rounds == 2
    before = snapshot(tournament)

    with pytest.raises(Invalid) as refused:
        update_tournament(tournament=tournament, actor=director, changes={"rounds": 1})

    assert refused.value.code == "bad-rounds"
    assert refused.value.details == {"rounds_made": 2}
    assert snapshot(tournament) == before


def test_name_and_venue_may_still_change_once_a_round_is_published(swiss, director):
    tournament = published(swiss, director)

    updated = update_tournament(
        tournament=tournament, actor=director, changes={"name": "Renamed", "venue": "Annex"}
    )

    assert (updated.name, updated.venue) == ("Renamed", "Annex")


def test_a_finished_tournament_keeps_its_results_settings(swiss, director):
    tournament = swiss(2, rounds=1)
    play_round(tournament, director)
    services.finish_tournament(tournament=tournament, actor=director)
    before = snapshot(tournament)

    with pytest.raises(Conflict) as refused:
        update_tournament(tournament=tournament, actor=director, changes={"points_win": 3})

    assert refused.value.code == "tournament-finished"
    assert snapshot(tournament) == before
    renamed = update_tournament(tournament=tournament, actor=director, changes={"name": "Done"})
    assert renamed.name == "Done"


# -- standings inputs: the results version counts the change --------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"points_win": 3},
        {"points_bye": 1},
        {"tiebreaks": ["match_points", "wins", "buchholz"]},
        {"late_entry": "bye"},
        {"show_provisional": True},
    ],
)
def test_a_change_to_points_or_tiebreaks_bumps_the_results_version(swiss, director, changes):
    tournament = published(swiss, director)
    version = tournament.results_version

    updated = update_tournament(tournament=tournament, actor=director, changes=changes)

    assert updated.results_version == version + 1


def test_a_change_to_the_name_does_not_bump_the_results_version(swiss, director):
    tournament = published(swiss, director)
    version = tournament.results_version

    updated = update_tournament(tournament=tournament, actor=director, changes={"name": "X"})

    assert updated.results_version == version


def test_new_points_restate_the_match_points_of_settled_matches(swiss, director):
    tournament = swiss(3, rounds=2)  # three teams: one has a bye
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    finish_round(round_, director, hands=2)

    update_tournament(
        tournament=tournament,
        actor=director,
        changes={"points_win": 5, "points_draw": 2, "points_bye": 4},
    )

    seats = Seat.objects.filter(match__round=round_)
    expected = {"win": Decimal(5), "draw": Decimal(2), "loss": Decimal(0), "bye": Decimal(4)}
    assert {seat.outcome for seat in seats} & {"win", "draw"}
    assert "bye" in {seat.outcome for seat in seats}
    for seat in seats:
        assert seat.match_points == expected[seat.outcome]


# -- refusals change nothing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"colour": "red"}, "unknown-field"),
        ({"state": "finished"}, "unknown-field"),
        ({"slug": "other"}, "unknown-field"),
        ({"name": "  "}, "bad-name"),
        ({"name": "x" * 151}, "bad-name"),
        ({"venue": "v" * 151}, "bad-venue"),
        ({"starts_at": "next friday"}, "bad-starts-at"),
        ({"game": "bridge"}, "bad-game"),
        ({"rules": "no-such-preset"}, "bad-rules"),
        ({"rules": {"preset": "standard", "options": {"nil_value": "lots"}}}, "bad-rules"),
        ({"format": "ladder"}, "bad-format"),
        ({"format": "individual"}, "bad-format"),
        ({"table_size": 3}, "bad-format"),
        ({"rounds": 0}, "bad-rounds"),
        ({"rounds": True}, "bad-rounds"),
        ({"match_length": "forever"}, "bad-match-length"),
        ({"match_length": "hands"}, "bad-match-length"),
        ({"points_win": "two"}, "bad-points"),
        ({"points_win": 0}, "bad-points"),
        ({"points_loss": 99999}, "bad-points"),
        ({"place_points": "3,2,1"}, "bad-points"),
        ({"tiebreaks": ["match_points", "charm"]}, "bad-tiebreaks"),
        ({"tiebreaks": "match_points"}, "bad-tiebreaks"),
        ({"late_entry": "never"}, "bad-late-entry"),
        ({"show_provisional": "yes"}, "bad-flag"),
        ({"seed": -1}, "bad-seed"),
    ],
)
def test_a_bad_value_is_refused_and_nothing_changes(make_tournament, director, changes, code):
    tournament = make_tournament(teams=2)
    before = snapshot(tournament)
    events = AuditEvent.objects.count()

    with pytest.raises(Invalid) as refused:
        update_tournament(
            tournament=tournament, actor=director, changes={"venue": "Changed", **changes}
        )

    assert refused.value.code == code
    assert snapshot(tournament) == before
    assert AuditEvent.objects.count() == events


def test_rules_that_would_change_teams_into_players_are_refused_once_entries_exist(
    make_tournament, director
):
    tournament = make_tournament(teams=2)
    before = snapshot(tournament)

    with pytest.raises(Invalid) as refused:
        update_tournament(
            tournament=tournament,
            actor=director,
            changes={
                "rules": {"preset": "standard", "options": {"partnership": False}},
                "format": "individual",
            },
        )

    assert refused.value.code == "entries-registered"
    assert snapshot(tournament) == before


def test_changes_must_be_a_mapping(make_tournament, director):
    tournament = make_tournament()

    with pytest.raises(Invalid) as refused:
        update_tournament(tournament=tournament, actor=director, changes=["name"])

    assert refused.value.code == "bad-changes"


def test_only_the_tournaments_directors_may_edit_it(make_tournament, stranger):
    tournament = make_tournament()
    before = snapshot(tournament)

    with pytest.raises(NotAllowed):
        update_tournament(tournament=tournament, actor=stranger, changes={"name": "Mine"})

    assert snapshot(tournament) == before


# -- defaults follow the format ----------------------------------------------------------------


def test_a_new_format_brings_its_default_tiebreaks_unless_they_were_chosen(
    make_tournament, director
):
    plain = make_tournament(open_=False)
    chosen = make_tournament(open_=False, tiebreaks=["match_points", "wins"])

    plain = update_tournament(tournament=plain, actor=director, changes={"format": "round-robin"})
    chosen = update_tournament(tournament=chosen, actor=director, changes={"format": "round-robin"})

    assert plain.tiebreaks == list(DEFAULT_CHAINS["round_robin"])
    assert chosen.tiebreaks == ["match_points", "wins"]


def test_none_restores_the_formats_default_points_and_tiebreaks(make_tournament, director):
    tournament = make_tournament(
        game="solo-whist",
        rules="phillips",
        format="individual",
        open_=False,
        place_points=[5, 3, 1, 0],
        points_bye=Decimal(1),
        tiebreaks=["match_points"],
    )

    updated = update_tournament(
        tournament=tournament,
        actor=director,
        changes={"place_points": None, "points_bye": None, "tiebreaks": None},
    )

    assert updated.place_points == ["3", "2", "1", "0"]
    assert updated.points_bye == Decimal("1.5")  # the average place
    assert updated.tiebreaks == list(DEFAULT_CHAINS["tables"])

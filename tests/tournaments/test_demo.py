"""The demo command builds a realistic club evening through the real workflows, the same way
every time for a seed."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tests import demo_club
from tournaments.demo import club as demo
from tournaments.models import HandSubmission, Match, Player, Round, Team, Tournament

pytestmark = pytest.mark.django_db


def fingerprint(tournament: Tournament) -> list:
    """Everything the seed decides: pairings, seats, every hand as sent and its status."""
    out = []
    for round_ in tournament.round_set.order_by("number"):
        for match in Match.objects.filter(round=round_).order_by("table__number", "id"):
            seats = sorted(
                (s.seats, s.entry.name, s.outcome, str(s.match_points)) for s in match.seats.all()
            )
            hands = list(
                HandSubmission.objects.filter(hand__match=match)
                .order_by("hand__number", "version")
                .values_list("hand__number", "version", "status", "raw")
            )
            out.append((round_.number, round_.state, match.state, seats, hands))
    return out


def wipe() -> None:
    Tournament.objects.all().delete()
    Team.objects.all().delete()
    Player.objects.all().delete()


def test_the_same_seed_builds_the_same_tournaments_and_another_seed_does_not():
    first = fingerprint(demo.build_spades(7, teams=6, played=1))
    wipe()
    again = fingerprint(demo.build_spades(7, teams=6, played=1))
    wipe()
    other = fingerprint(demo.build_spades(8, teams=6, played=1))
    assert first == again
    assert first != other


def test_the_demo_command_builds_the_club_evening_once(capsys, settings, built_once):
    settings.REDIS_URL = None  # the embedded default: snapshots and ratings in-process
    # The command's build, made here or by the axe check of every page (one per run).
    built_once(demo_club.NAME, demo_club.build)
    spades = Tournament.objects.get(name="Friday Night Spades")
    assert (spades.format, spades.rounds, spades.entries.count()) == ("swiss", 5, 16)
    states = list(spades.round_set.order_by("number").values_list("state", flat=True))
    assert states == ["closed", "closed", "closed", "in-play"]
    in_play = Round.objects.get(tournament=spades, number=4)
    match_states = set(in_play.matches.values_list("state", flat=True))
    assert match_states == {"finished", "playing", "pending"}
    current = HandSubmission.objects.filter(is_current=True, hand__match__round=in_play)
    assert set(current.values_list("status", flat=True)) == {"confirmed", "pending", "rejected"}
    full = HandSubmission.objects.filter(hand__match__round__tournament=spades).first()
    assert "deal" in full.raw and "play" in full.raw  # full records, card by card
    solo = Tournament.objects.get(game="solo-whist")
    assert (solo.state, solo.entries.count(), solo.round_set.count()) == ("finished", 12, 3)
    assert spades.snapshots.exists() and solo.snapshots.exists()
    hands = HandSubmission.objects.count()
    call_command("demo", "--if-empty")
    assert HandSubmission.objects.count() == hands
    assert "already holds" in capsys.readouterr().out


def test_the_demo_cup_is_a_finished_swiss_ending_in_a_top_8_knockout():
    from tournaments.knockout import services as knockout

    cup = demo.build_cup(2026)
    cup.refresh_from_db()
    assert (cup.state, cup.top_cut, cup.rounds) == ("finished", 8, 3)
    board = knockout.board(cup)
    assert len(knockout.seeds(cup)) == 8 and board.complete
    assert sorted(board.placings.values()) == [1, 2, 3, 4, 5, 5, 5, 5]
    knockout_rounds = cup.round_set.filter(number__gt=3).count()
    assert knockout_rounds == 3, "quarter-finals, semi-finals, the final with third place"
    consolation = Match.objects.filter(
        round__tournament=cup, round__number__gt=3, bracket_round__isnull=True, is_bye=False
    )
    assert consolation.exists(), "the four outside the cut played on"

"""The invariants the database itself enforces, whatever code writes the rows: each test goes
around the services and expects an IntegrityError from the database."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from tournaments.models import (
    Entry,
    Hand,
    HandSubmission,
    Match,
    Player,
    Round,
    Seat,
    Table,
    Team,
    Tournament,
)

from .conftest import PlayerFactory, TeamFactory

pytestmark = pytest.mark.django_db


def tournament(**fields) -> Tournament:
    values = {
        "name": "Raw",
        "slug": f"raw-{Tournament.objects.count() + 1}",
        "game": "spades",
        "rules": "standard",
        "format": "swiss",
        "rounds": 3,
    }
    values.update(fields)
    return Tournament.objects.create(**values)


@pytest.fixture
def match() -> Match:
    round_ = Round.objects.create(tournament=tournament(), number=1)
    return Match.objects.create(round=round_, table=Table.objects.create(round=round_, number=1))


@pytest.fixture
def hand(match) -> Hand:
    return Hand.objects.create(match=match, number=1)


def submission(hand: Hand, version: int = 1, **fields) -> HandSubmission:
    values = {"raw": {}, "record": {}, "result": {}, "version": version}
    values.update(fields)
    return HandSubmission.objects.create(hand=hand, **values)


def refused(create) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


# -- entries, players, teams -----------------------------------------------------------------


def test_an_entry_with_both_a_team_and_a_player_is_refused():
    t, team, player = tournament(), TeamFactory(), PlayerFactory()

    refused(lambda: Entry.objects.create(tournament=t, team=team, player=player))


def test_an_entry_with_neither_a_team_nor_a_player_is_refused():
    t = tournament()

    refused(lambda: Entry.objects.create(tournament=t))


def test_a_team_of_one_player_twice_is_refused():
    player = PlayerFactory()

    refused(lambda: Team.objects.create(name="Solo", first=player, second=player))
    assert Team.objects.create(name="Pair", first=player, second=PlayerFactory())


def test_a_team_enters_a_tournament_once():
    t, team = tournament(), TeamFactory()
    Entry.objects.create(tournament=t, team=team)

    refused(lambda: Entry.objects.create(tournament=t, team=team))
    assert Entry.objects.create(tournament=tournament(), team=team)


def test_a_player_enters_a_tournament_once():
    t, player = tournament(format="progressive"), PlayerFactory()
    Entry.objects.create(tournament=t, player=player)

    refused(lambda: Entry.objects.create(tournament=t, player=player))


def test_a_seed_is_held_by_one_entry_per_tournament():
    t = tournament()
    Entry.objects.create(tournament=t, team=TeamFactory(), seed=1)

    refused(lambda: Entry.objects.create(tournament=t, team=TeamFactory(), seed=1))
    assert Entry.objects.create(tournament=t, team=TeamFactory(), seed=None)
    assert Entry.objects.create(tournament=t, team=TeamFactory(), seed=None)


def test_a_club_number_belongs_to_one_player_but_many_may_have_none():
    Player.objects.create(name="Aiko", club_number="7")
    Player.objects.create(name="Ben", club_number="")

    refused(lambda: Player.objects.create(name="Chie", club_number="7"))
    assert Player.objects.create(name="Dai", club_number="")


# -- tournaments -----------------------------------------------------------------------------


def test_a_fixed_length_match_needs_a_positive_number_of_hands():
    refused(lambda: tournament(match_length="hands", match_hands=0))
    assert tournament(match_length="hands", match_hands=6)
    assert tournament(match_length="target", match_hands=None)


def test_a_fixed_length_match_without_a_number_of_hands_is_refused():
    refused(lambda: tournament(match_length="hands", match_hands=None))


def test_points_must_be_ordered_win_draw_loss():
    refused(lambda: tournament(points_win=Decimal(1), points_draw=Decimal(2)))
    refused(lambda: tournament(points_draw=Decimal(0), points_loss=Decimal(1)))
    assert tournament(points_win=Decimal(1), points_draw=Decimal(1), points_loss=Decimal(1))


def test_a_tournament_has_at_least_one_round():
    refused(lambda: tournament(rounds=0))


@pytest.mark.parametrize(
    ("field", "value"),
    [("game", "bridge"), ("format", "ladder"), ("state", "paused"), ("table_size", 5)],
)
def test_a_tournament_refuses_unknown_values(field, value):
    refused(lambda: tournament(**{field: value}))


# -- rounds, tables, matches, seats ----------------------------------------------------------


def test_a_round_number_is_used_once_per_tournament():
    t = tournament()
    Round.objects.create(tournament=t, number=1)

    refused(lambda: Round.objects.create(tournament=t, number=1))


def test_a_table_number_is_used_once_per_round(match):
    refused(lambda: Table.objects.create(round=match.round, number=1))
    assert Table.objects.create(round=match.round, number=2)
    other = Round.objects.create(tournament=match.round.tournament, number=2)
    assert Table.objects.create(round=other, number=1)


def test_a_bye_has_no_table_and_a_match_has_one(match):
    round_ = match.round
    table = Table.objects.create(round=round_, number=2)

    refused(lambda: Match.objects.create(round=round_, is_bye=True, table=table))
    refused(lambda: Match.objects.create(round=round_, is_bye=False, table=None))
    assert Match.objects.create(round=round_, is_bye=True, table=None)


def test_an_entry_sits_once_per_match_and_a_seat_holds_one_entry(match):
    t = match.round.tournament
    a = Entry.objects.create(tournament=t, team=TeamFactory())
    b = Entry.objects.create(tournament=t, team=TeamFactory())
    Seat.objects.create(match=match, entry=a, side="NS", seats="NS")

    refused(lambda: Seat.objects.create(match=match, entry=a, side="EW", seats="EW"))
    refused(lambda: Seat.objects.create(match=match, entry=b, side="NS", seats="NS"))
    assert Seat.objects.create(match=match, entry=b, side="EW", seats="EW")


# -- hands and their versions ----------------------------------------------------------------


def test_a_hand_number_is_used_once_per_match(hand):
    refused(lambda: Hand.objects.create(match=hand.match, number=1))


def test_a_hand_has_one_current_version(hand):
    submission(hand, 1, status="rejected")

    refused(lambda: submission(hand, 2, status="pending"))


def test_a_hand_has_one_confirmed_version(hand):
    submission(hand, 1, status="confirmed", is_current=False)

    refused(lambda: submission(hand, 2, status="confirmed", is_current=True))


def test_a_version_number_is_used_once_per_hand(hand):
    submission(hand, 1, status="rejected", is_current=False)

    refused(lambda: submission(hand, 1, status="rejected", is_current=False))


def test_an_idempotency_key_is_used_once_in_the_whole_database(match, hand):
    other = Hand.objects.create(match=match, number=2)
    submission(hand, 1, idempotency_key="key-00000001")

    refused(lambda: submission(other, 1, idempotency_key="key-00000001"))
    assert submission(other, 1, idempotency_key=None)
    third = Hand.objects.create(match=match, number=3)
    assert submission(third, 1, idempotency_key=None)


def test_a_pending_version_is_the_current_one(hand):
    refused(lambda: submission(hand, 1, status="pending", is_current=False))


def test_a_superseded_version_is_not_current(hand):
    refused(lambda: submission(hand, 1, status="superseded", is_current=True))

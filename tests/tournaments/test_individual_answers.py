"""At individual tables (Solo Whist, cutthroat and 3-player Spades) each player is a side: a
hand is entered with the entering player's PIN and confirmed by a player who is neither the one
who entered it, nor its declarer, nor the declarer's partner of that hand (issue 28: in a
proposal and acceptance the acceptor, the declarer's own partner, was offered as the one who
answers, so the hand could be confirmed by its own side)."""

from __future__ import annotations

import pytest

from tests.tournaments.builders import make_director, make_match, side_pin
from tournaments import services
from tournaments.models import HandSubmission, Match
from tournaments.selectors.scoring import scoring_view
from tournaments.services import Actor, ServiceError

pytestmark = pytest.mark.django_db

#: E proposes, S accepts (cops): E declares with S as partner; N and W are the opponents.
PROP_COP = {
    "dealer": "N",
    "calls": [
        {"seat": "E", "call": "prop"},
        {"seat": "S", "call": "cop"},
        {"seat": "W", "call": "pass"},
        {"seat": "N", "call": "pass"},
    ],
    "turned": "5H",
    "tricks": {"N": 2, "E": 4, "S": 4, "W": 3},
}


def player(match: Match, seat: str, *, side: str = "") -> Actor:
    """The phone at the table, with the PIN of the player at `seat` (and a stated side)."""
    return Actor(table=match.table_id, side=side, pin=side_pin(match, seat), label=seat)


@pytest.fixture
def solo(db) -> Match:
    return make_match(make_director(), game="solo-whist", rules="phillips", fmt="individual")


def refusal(call) -> str:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value.code


def test_a_hand_is_entered_by_the_player_whose_pin_it_is(solo):
    stored = services.submit_hand(match=solo, actor=player(solo, "N"), record=PROP_COP)
    assert stored.submission.submitted_side == "N"
    assert (
        refusal(
            lambda: services.submit_hand(
                match=solo, actor=player(solo, "N", side="W"), record=PROP_COP, number=1
            )
        )
        == "side-pin-mismatch"
    )
    assert HandSubmission.objects.count() == 1


@pytest.mark.parametrize(
    ("answering", "code"), [("N", "own-side"), ("E", "declarer-side"), ("S", "declarer-side")]
)
def test_neither_the_declarer_nor_the_acceptor_nor_the_one_who_entered_it_answers(
    solo, answering, code
):
    pending = services.submit_hand(match=solo, actor=player(solo, "N"), record=PROP_COP)
    for answer in (services.confirm_hand, services.reject_hand):
        assert (
            refusal(
                lambda answer=answer: answer(
                    submission=pending.submission,
                    actor=player(solo, answering),
                    expected_version=1,
                )
            )
            == code
        )
    assert HandSubmission.objects.get().status == "pending"


def test_the_other_opponent_confirms_and_the_page_offers_only_them(solo):
    pending = services.submit_hand(match=solo, actor=player(solo, "N"), record=PROP_COP)
    view = scoring_view(solo.table)
    assert view.hands[0].answerers == ("W",)  # not N (entered it), E (declarer), S (acceptor)
    done = services.confirm_hand(
        submission=pending.submission, actor=player(solo, "W"), expected_version=1
    )
    assert (done.status, done.decided_side) == ("confirmed", "W")


def test_a_hand_the_declarer_entered_is_answered_by_an_opponent_not_the_partner(solo):
    pending = services.submit_hand(match=solo, actor=player(solo, "E"), record=PROP_COP)
    assert scoring_view(solo.table).hands[0].answerers == ("N", "W")
    assert (
        refusal(
            lambda: services.confirm_hand(
                submission=pending.submission, actor=player(solo, "S"), expected_version=1
            )
        )
        == "declarer-side"
    )
    done = services.reject_hand(
        submission=pending.submission, actor=player(solo, "N"), expected_version=1, reason="x"
    )
    assert (done.status, done.decided_side) == ("rejected", "N")


def test_at_a_three_player_spades_table_any_other_player_confirms():
    match = make_match(make_director(), rules="pagat-3p", fmt="individual")
    record = {
        "dealer": "N",
        "calls": [
            {"seat": "E", "call": "6"},
            {"seat": "S", "call": "5"},
            {"seat": "N", "call": "5"},
        ],
        "tricks": {"N": 5, "E": 6, "S": 6},
    }
    pending = services.submit_hand(match=match, actor=player(match, "E"), record=record)
    assert pending.submission.submitted_side == "E"
    assert scoring_view(match.table).hands[0].answerers == ("N", "S")
    assert (
        refusal(
            lambda: services.confirm_hand(
                submission=pending.submission, actor=player(match, "E"), expected_version=1
            )
        )
        == "own-side"
    )
    done = services.confirm_hand(
        submission=pending.submission, actor=player(match, "S"), expected_version=1
    )
    assert (done.status, done.decided_side) == ("confirmed", "S")


def test_an_individual_tables_page_speaks_of_players_not_the_other_side(solo):
    """Issue 28: the phone said "the other side confirms with its PIN" at individual tables,
    where there are no sides."""
    from django.test import Client
    from django.urls import reverse

    services.submit_hand(match=solo, actor=player(solo, "N"), record=PROP_COP)
    page = Client().get(reverse("tournaments:scoring-table", args=[solo.table_id]))
    text = page.content.decode()
    assert "PIN of the player entering the hand" in text
    assert "PIN of the player answering" in text
    assert "not the hand's declarer nor the declarer's partner" in text
    assert "other side" not in text
    assert "awaits confirmation by another player" in text  # the script's words too

"""The knockout's invariants live in the database too: a cut of 0, 2, 4 or 8, a counted knockout
length, tie-break hands of at least one, a bracket place given whole or not at all."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tournaments.models import Match, Round, Table, Tournament

pytestmark = pytest.mark.django_db


def tournament(**fields) -> Tournament:
    values = {
        "name": "Raw",
        "slug": f"raw-{Tournament.objects.count() + 1}",
        "game": "spades",
        "rules": "standard",
        "format": "knockout",
        "rounds": 1,
    } | fields
    return Tournament.objects.create(**values)


def refused(create) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


@pytest.mark.parametrize(
    "fields",
    [
        {"top_cut": 3},
        {"top_cut": 16},
        {"knockout_length": "hands"},
        {"knockout_length": "best-of", "knockout_count": 0},
        {"knockout_length": "coin", "knockout_count": 1},
        {"tiebreak_hands": 0},
    ],
)
def test_the_database_refuses_a_knockout_setting_out_of_range(fields):
    refused(lambda: tournament(**fields))


def test_the_database_takes_a_knockout_format_with_its_settings():
    made = tournament(
        knockout_length="best-of", knockout_count=3, tiebreak_hands=2, third_place=True
    )
    assert made.format == "knockout"
    assert tournament(format="swiss", top_cut=8).top_cut == 8


def test_a_match_has_a_whole_place_in_the_bracket_or_none():
    round_ = Round.objects.create(tournament=tournament(), number=1)

    def match(n, **fields):
        return Match.objects.create(
            round=round_, table=Table.objects.create(round=round_, number=n), **fields
        )

    refused(lambda: match(1, bracket_round=1))
    refused(lambda: match(2, bracket_round=0, bracket_index=1))
    assert match(3, bracket_round=1, bracket_index=2).bracket_index == 2

"""One rule for each kind of value in the API's answers (docs/api.md, "Values"): numbers are
JSON integers or exact "p/q" fractions, a missing value is null, times are RFC 3339 in UTC
with `Z`."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction

import pytest

from tournaments.models import Seat
from tournaments.words.formatting import exact, timestamp

pytestmark = pytest.mark.django_db

RFC3339_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (None, None),
        ("", None),
        (2, 2),
        (Decimal("2.0"), 2),
        (Decimal("1.5"), "3/2"),
        ("160", 160),
        ("-14/3", "-14/3"),
        (Fraction(7, 2), "7/2"),
    ],
)
def test_a_number_is_an_integer_or_an_exact_fraction(value, written):
    assert exact(value) == written


def test_a_time_is_utc_with_z():
    assert timestamp(datetime(2026, 12, 7, 19, 30, tzinfo=UTC)) == "2026-12-07T19:30:00Z"
    assert timestamp(None) is None


def test_a_match_before_play_says_null_and_after_says_numbers(anon, match):
    seats = anon.get(f"/api/v1/matches/{match.pk}").json()["seats"]
    assert {(s["match_points"], s["points_for"], s["outcome"]) for s in seats} == {
        (None, None, None)
    }
    Seat.objects.filter(match=match, side="NS").update(
        match_points=Decimal("1.5"), points_for="37/2", points_against="160", outcome="draw"
    )
    ns = next(
        s for s in anon.get(f"/api/v1/matches/{match.pk}").json()["seats"] if s["side"] == "NS"
    )
    assert (ns["match_points"], ns["points_for"], ns["points_against"]) == ("3/2", "37/2", 160)
    assert ns["outcome"] == "draw"


def test_a_tournament_says_its_points_as_numbers_and_times_with_z(anon, match):
    body = anon.get(f"/api/v1/tournaments/{match.round.tournament.slug}").json()
    assert isinstance(body["points_win"], int) and isinstance(body["points_loss"], int)
    assert RFC3339_Z.match(body["created_at"]), body["created_at"]


def test_the_round_clock_says_its_times_with_z(td, match):
    clock = td.get(f"/api/v1/rounds/{match.round_id}/clock").json()
    assert RFC3339_Z.match(clock["server_time"]), clock


def test_a_side_is_one_of_the_tables_sides(scorer, match):
    """Sides are enums everywhere (NS, EW, or a seat at individual tables): a made-up side is
    refused as invalid input before anything else is looked at."""
    response = scorer.post(
        f"/api/v1/matches/{match.pk}/hands",
        {"record": {}, "side": "XX"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="key-side-xx",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and "side" in response.json()["details"]

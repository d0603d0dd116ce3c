"""`GET /api/v1/tournaments/{slug}/queue`: the director's result queue — hands awaiting
confirmation and disputed ones, oldest first; for the tournament's directors only."""

from __future__ import annotations

from tournaments import services

from ..tournaments.builders import HAND_1, HAND_2, scorer
from .conftest import assert_error


def test_the_queue_lists_pending_and_disputed_hands_oldest_first(td, match):
    first = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1).submission
    services.reject_hand(
        submission=first,
        expected_version=first.version,
        actor=scorer(match, "EW"),
        reason="E took 5",
    )
    slug = match.round.tournament.slug
    body = td.get(f"/api/v1/tournaments/{slug}/queue").json()
    assert [(i["number"], i["status"], i["table"], i["round"]) for i in body["results"]] == [
        (1, "rejected", {"id": match.table_id, "number": 1}, {"id": match.round_id, "number": 1})
    ]
    assert body["results"][0]["reason"] == "E took 5"
    again = services.submit_hand(
        match=match, actor=scorer(match, "EW"), record=HAND_1, number=1
    ).submission
    services.confirm_hand(
        submission=again, expected_version=again.version, actor=scorer(match, "NS")
    )
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_2)
    body = td.get(f"/api/v1/tournaments/{slug}/queue").json()
    assert [(i["number"], i["status"]) for i in body["results"]] == [(2, "pending")]
    assert td.get(f"/api/v1/tournaments/{slug}/queue?status=rejected").json()["count"] == 0


def test_the_queue_is_for_the_tournaments_directors_only(anon, other_td, scorer, match):
    slug = match.round.tournament.slug
    assert_error(anon.get(f"/api/v1/tournaments/{slug}/queue"), 401, "not-authenticated")
    assert_error(other_td.get(f"/api/v1/tournaments/{slug}/queue"), 403, "not-director")
    assert scorer.get(f"/api/v1/tournaments/{slug}/queue").status_code == 403

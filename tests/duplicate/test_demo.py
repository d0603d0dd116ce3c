"""The demo's duplicate evenings: a finished Spades Mitchell of five tables whose every result
is a legal full record of its board, and a barometer Whist evening in play."""

from __future__ import annotations

import pytest

from tournaments.demo import club as demo
from tournaments.duplicate import selectors as select
from tournaments.duplicate.engine import Board as Dealt
from tournaments.duplicate.engine import board_score
from tournaments.models import BoardResult, Round

pytestmark = pytest.mark.django_db


def test_the_duplicate_spades_demo_is_a_finished_mitchell_of_legal_full_records():
    tournament = demo.build_duplicate_spades()
    event = tournament.duplicate
    assert (tournament.state, event.movement, event.tables) == ("finished", "mitchell", 5)
    results = BoardResult.objects.filter(tournament=tournament, is_current=True)
    assert results.count() == 5 * 5 * event.boards_per_round
    for r in results.select_related("board"):
        b = r.board
        dealt = Dealt(
            number=b.number, dealer=b.dealer, hands={s: tuple(c) for s, c in b.hands.items()}
        )
        assert r.record["deal"] and r.status == "confirmed"
        score = board_score(
            game="spades", rules=tournament.rules, record=r.record, board_scoring="cga", board=dealt
        )
        assert (score.ns, score.ew) == (r.ns_score, r.ew_score)
    rankings = select.scored(tournament).event.rankings
    assert set(rankings) == {"NS", "EW"} and all(len(v) == 5 for v in rankings.values())


def test_the_barometer_whist_demo_is_in_play_with_released_rounds():
    tournament = demo.build_duplicate_whist()
    assert tournament.state == "running"
    states = list(
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("state", flat=True)
    )
    assert states == ["closed", "closed", "in-play"]
    assert tournament.duplicate.released_round == 2
    statuses = set(
        BoardResult.objects.filter(tournament=tournament, round_number=3).values_list(
            "status", flat=True
        )
    )
    assert statuses == {"confirmed", "pending"}
    assert len(select.scored(tournament).event.rankings["all"]) == 6

"""Which rounds visitors may see: one rule (`Round.objects.public()`, `Round.public_q`,
`Round.is_public`) for every page, export and API answer."""

from __future__ import annotations

from tournaments.models import Match, Round, Table
from tournaments.services import create_tournament


def test_public_rounds_are_every_state_but_a_draft(db, director):
    tournament = create_tournament(
        actor=director, name="Club night", game="spades", rules="standard", format="swiss", rounds=4
    )
    for number, state in enumerate(Round.State.values, 1):
        round_ = Round.objects.create(tournament=tournament, number=number, state=state)
        Match.objects.create(round=round_, table=Table.objects.create(round=round_, number=1))
    shown = {r.state for r in tournament.round_set.public()}
    assert shown == {"published", "in-play", "closed"}
    assert {r.state for r in Round.objects.all() if r.is_public} == shown
    via_matches = Match.objects.filter(Round.public_q("round__")).values_list(
        "round__state", flat=True
    )
    assert set(via_matches) == shown

"""What a table card shows now: the table of the event (`EventTable`) resolved to the match at
that table in the round being played, or what comes next between rounds. One home for the card
page, its live fragment, the token probe and the API's answer about a table token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.shortcuts import get_object_or_404

from tournaments.models import Club, EventTable, Match, Round, Table, Tournament, home_club


class CardState:
    PLAYING = "playing"  # a round is in play and this table has a match in it
    IDLE = "idle"  # a round is in play, but no match at this table in it
    WAITING = "waiting"  # no round in play: the next one is not published yet
    OVER = "over"  # the event has finished


@dataclass(frozen=True, slots=True)
class CardNow:
    """The card's table now: `table` is the round's table whose match the phone shows (in play,
    or the one just played while waiting for the next round); `next_round` the round that
    starts next when none is in play."""

    event_table: EventTable
    tournament: Tournament
    state: str
    round: Round | None = None
    table: Table | None = None
    match_id: int | None = None
    next_round: int | None = None
    #: the table's match in the round in play is over (its last hand confirmed): the card no
    #: longer says it is being played, it says what comes next
    match_finished: bool = False

    @property
    def last_round(self) -> bool:
        """The rounds the event was set up with are all played (a knockout's count grows with
        its bracket, and a top cut follows the Swiss rounds: never said for those)."""
        return (
            self.tournament.format != Tournament.Format.KNOCKOUT
            and not self.tournament.top_cut
            and self.round is not None
            and self.round.number >= self.tournament.rounds
        )


def event_table(card_id: int, *, club: Club | None = None) -> EventTable:
    """The club's event's table with its tournament (404 when unknown or another club's)."""
    found = EventTable.objects.select_related("tournament").filter(
        tournament__club=club or home_club()
    )
    return get_object_or_404(found, pk=card_id)


def card_now(found: EventTable) -> CardNow:
    """The newest published round decides (a draft is for the directors only): in play, the
    table's match in it; closed, the next round is awaited; the event finished, it is over."""
    tournament = found.tournament
    latest = Round.objects.public().filter(tournament=tournament).order_by("-number").first()
    table = (
        Table.objects.select_related("round").filter(round=latest, event_table=found).first()
        if latest is not None
        else None
    )
    match_id, match_state = (
        Match.objects.filter(table=table).values_list("pk", "state").first()
        if table is not None
        else None
    ) or (None, None)
    common: dict[str, Any] = {"event_table": found, "tournament": tournament, "round": latest}
    if tournament.state == Tournament.State.FINISHED:
        return CardNow(**common, state=CardState.OVER, table=table, match_id=match_id)
    if latest is None:
        return CardNow(**common, state=CardState.WAITING, next_round=1)
    if latest.state == Round.State.CLOSED:
        return CardNow(
            **common,
            state=CardState.WAITING,
            table=table,
            match_id=match_id,
            next_round=latest.number + 1,
        )
    if table is None or match_id is None:
        return CardNow(**common, state=CardState.IDLE)
    return CardNow(
        **common,
        state=CardState.PLAYING,
        table=table,
        match_id=match_id,
        match_finished=match_state == Match.State.FINISHED,
    )

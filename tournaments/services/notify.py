"""What happens after a workflow commits: events for live pages and the standings recompute.

Each function schedules work with `transaction.on_commit`, so nothing is announced or computed
for a transaction that rolls back. Listeners (`subscribe`) receive `(kind, payload)` after
commit; they are subscribed in `TournamentsConfig.ready()` (the live standings cache, the
standings and ratings scheduling, the live announcements).

A transaction that reports several results changes (confirming the hand that finishes a match
is two: the hand and the match) counts and recomputes each: the counter only has to move
forward, and a recompute that finds its snapshot current writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

Listener = Callable[[str, dict[str, Any]], None]
_listeners: list[Listener] = []


def subscribe(listener: Listener) -> Callable[[], None]:
    """Call `listener(kind, payload)` after every commit that announces something; returns a
    function that unsubscribes it."""
    if listener not in _listeners:
        _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def _announce(kind: str, payload: dict[str, Any]) -> None:
    def run() -> None:
        for listener in list(_listeners):
            listener(kind, payload)

    transaction.on_commit(run)


def results_changed(tournament: Any) -> None:
    """Results changed: count it now (in the transaction), recompute after commit."""
    _results(tournament.pk)


def _results(tournament_id: int, match_id: int | None = None) -> None:
    """Count a change to results (about one match when `match_id` is given: the recompute
    then reads that match again, not the whole event) and recompute after commit."""
    from .standings import bump

    bump(tournament_id, match_id=match_id)
    _announce("results", {"tournament": tournament_id})


def round_published(round_: Any) -> None:
    _announce("round", {"tournament": round_.tournament_id, "round": round_.number})


def board_changed(match: Any) -> None:
    """A duplicate board's result at a table was entered, confirmed or rejected: the table's
    phone shows it (the other pair's answer, the next board) without a reload."""
    _announce(
        "board",
        {
            "tournament": match.round.tournament_id,
            "round": match.round.number,
            "table": match.table.number,
        },
    )


def bracket_changed(tournament: Any) -> None:
    """The knockout's bracket was made (the cut confirmed): bracket pages redraw."""
    _announce("bracket", {"tournament": tournament.pk})


def hand_submitted(submission: Any) -> None:
    _announce("hand-submitted", _hand(submission))
    tournament = submission.hand.match.round.tournament
    if tournament.show_provisional:  # the standings show running scores of unconfirmed hands
        _results(tournament.pk, submission.hand.match_id)


def hand_confirmed(submission: Any) -> None:
    # Results first: its listener refreshes the standings cache before anyone hears the hand.
    _results(submission.hand.match.round.tournament_id, submission.hand.match_id)
    _announce("hand-confirmed", _hand(submission))


def hand_rejected(submission: Any) -> None:
    _announce("hand-rejected", _hand(submission))


def match_finished(match: Any) -> None:
    _announce("match-finished", {"tournament": match.round.tournament_id, "match": match.pk})
    _results(match.round.tournament_id, match.pk)


def _hand(submission: Any) -> dict[str, Any]:
    match = submission.hand.match
    return {
        "tournament": match.round.tournament_id,
        "match": match.pk,
        "hand": submission.hand.number,
        "version": submission.version,
        "status": submission.status,
    }


def clock_changed(round_: Any, state: dict[str, Any]) -> None:
    """A round's clock was set, started, paused, resumed or extended."""
    _announce("clock", {"tournament": round_.tournament_id, "round": round_.number, "clock": state})


def call_changed(call: Any, round_: Any) -> None:
    """A table called the director, or a director acknowledged the call."""
    _announce(
        "call",
        {
            "tournament": round_.tournament_id,
            "round": round_.number,
            "table": call.table_id,
            "open": call.acknowledged_at is None,
        },
    )

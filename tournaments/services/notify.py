"""What happens after a workflow commits: events for live pages and the standings recompute.

Each function schedules work with `transaction.on_commit`, so nothing is announced or computed
for a transaction that rolls back. Listeners (`subscribe`) receive `(kind, payload)` after
commit; the standings and live-event modules register themselves here.
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
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def _announce(kind: str, payload: dict[str, Any]) -> None:
    def run() -> None:
        for listener in list(_listeners):
            listener(kind, payload)

    run.announces = (kind, payload.get("tournament"))  # type: ignore[attr-defined]
    transaction.on_commit(run)


def _pending(kind: str, tournament_id: int) -> bool:
    """Is `kind` for this tournament already announced inside the current atomic block?

    Django keeps (savepoint ids, callback) pairs until commit and drops those of a savepoint
    that rolls back, so this never goes stale. Requiring the callback's savepoints to include
    every savepoint open now confines the match to this block (in a test, several workflows
    share one outer transaction, each in its own savepoint)."""
    connection = transaction.get_connection()
    open_now = set(connection.savepoint_ids)
    return any(
        getattr(entry[1], "announces", None) == (kind, tournament_id) and open_now <= entry[0]
        for entry in getattr(connection, "run_on_commit", ())
        if isinstance(entry, tuple) and len(entry) == 3
    )


def results_changed(tournament: Any) -> None:
    """Results changed: count it now (in the transaction), recompute after commit."""
    _results(tournament.pk)


def _results(tournament_id: int) -> None:
    """Count one change to results per transaction: confirming the hand that finishes a match
    is one change, not two."""
    from .standings import bump

    if _pending("results", tournament_id):
        return
    bump(tournament_id)
    _announce("results", {"tournament": tournament_id})


def round_published(round_: Any) -> None:
    _announce("round", {"tournament": round_.tournament_id, "round": round_.number})


def hand_submitted(submission: Any) -> None:
    _announce("hand-submitted", _hand(submission))
    tournament = submission.hand.match.round.tournament
    if tournament.show_provisional:  # the standings show running scores of unconfirmed hands
        _results(tournament.pk)


def hand_confirmed(submission: Any) -> None:
    # Results first: its listener refreshes the standings cache before anyone hears the hand.
    _results(submission.hand.match.round.tournament_id)
    _announce("hand-confirmed", _hand(submission))


def hand_rejected(submission: Any) -> None:
    _announce("hand-rejected", _hand(submission))


def match_finished(match: Any) -> None:
    _announce("match-finished", {"tournament": match.round.tournament_id, "match": match.pk})
    _results(match.round.tournament_id)


def _hand(submission: Any) -> dict[str, Any]:
    match = submission.hand.match
    return {
        "tournament": match.round.tournament_id,
        "match": match.pk,
        "hand": submission.hand.number,
        "version": submission.version,
        "status": submission.status,
    }

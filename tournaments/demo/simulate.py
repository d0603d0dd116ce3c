"""Play matches through the real workflows with simulated legal hands.

The demo command, the tests and the benchmarks use this: each hand is a full `hand/1` record
dealt and played at random but legally (`games.simulate`), submitted by one side's scorer and
confirmed by the other's, exactly as at a club table.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from games.records import get_game
from tournaments import gameplay, services
from tournaments.models import HandSubmission, Match
from tournaments.services import Actor

SIMULATORS = {
    "spades": "games.simulate.spades",
    "whist": "games.simulate.whist",
    "solo-whist": "games.simulate.solo_whist",
    "german-whist": "games.simulate.german_whist",
}


def simulator(game: str) -> Any:
    return importlib.import_module(SIMULATORS[game])


def scorers(match: Match) -> list[Actor]:
    """One scorer per side of the match, as their table token would identify them, with the
    side's PIN from its entry's card (what confirming the other side's hand asks for)."""
    pins: dict[str, str] = {}
    for side, pin in match.seats.values_list("side", "entry__pin").order_by("side", "entry_id"):
        pins.setdefault(side, pin)
    return [
        Actor(table=match.table_id, side=side, pin=pin, label=f"table {side}")
        for side, pin in sorted(pins.items())
    ]


def answerer(match: Match, submission: HandSubmission) -> Actor:
    """The first scorer who may confirm or reject the hand: not the side that entered it nor,
    at an individual table, the hand's declarer or the declarer's partner."""
    seat_sides = {
        letter: side for seats, side in match.seats.values_list("seats", "side") for letter in seats
    }
    barred = gameplay.answer_barred(submission.submitted_side, submission.result, seat_sides)
    return next(a for a in scorers(match) if a.side not in barred)


def next_hand(match: Match, rng: random.Random, *, summary: bool = False) -> dict:
    """A legal record for the match's next hand (dealer by rotation, state from earlier hands)."""
    tournament = match.round.tournament
    g = get_game(tournament.game)
    compiled = g.book.resolve(tournament.rules)[0]
    versions = services.current_versions(match)
    if versions:
        dealer = g.next_dealer(compiled, versions[-1].record["dealer"])
        before = versions[-1].result["after"]
    else:
        dealer, before = rng.choice(g.seats(compiled)), None
    sim = simulator(tournament.game)
    record = sim.random_hand(rng, tournament.rules, dealer=dealer, before=before)
    if summary:
        record = sim.to_summary(record)
    for key in ("format", "game", "rules", "before"):
        record.pop(key, None)
    return record


def play_hand(
    match: Match, rng: random.Random, *, confirm: bool = True, summary: bool = False
) -> HandSubmission:
    """Submit the next hand as one side's scorer and (by default) confirm it as another's."""
    sides = scorers(match)
    submitter = sides[rng.randrange(len(sides))]
    submitted = services.submit_hand(
        match=match,
        actor=submitter,
        record=next_hand(match, rng, summary=summary),
        idempotency_key=f"sim-{match.pk}-{rng.getrandbits(64):016x}",
    ).submission
    if confirm:
        answer = answerer(match, submitted)
        submitted = services.confirm_hand(
            submission=submitted, expected_version=submitted.version, actor=answer
        )
    return submitted


def play_match(
    match: Match,
    rng: random.Random,
    *,
    hands: int | None = None,
    summary: bool = False,
    director: Actor | None = None,
    limit: int = 80,
) -> Match:
    """Play hands until the match ends by its rules or length, or `hands` have been played
    (then a director, when given, closes the match)."""
    played = 0
    while True:
        match.refresh_from_db()
        if match.state == Match.State.FINISHED:
            return match
        if (hands is not None and played >= hands) or played >= limit:
            break
        play_hand(match, rng, summary=summary)
        played += 1
    if director is not None:
        return services.finish_match(match=match, actor=director)
    return match

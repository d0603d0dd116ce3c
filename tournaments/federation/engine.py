"""The federation ranking's engine (plain Python, no Django): the opted-in clubs' finished
events, in the order they ended, rated with the club ratings' engine (`tournaments.ratings`).

Who is rated is a `Subject`: a person (`("person", id)`, member records linked across clubs
count once) or a member record of no person (`("player", id)`). Every match of an event is
rated as one game at the event's end time, the events in (end time, event id) order and the
matches of an event in (finished at, match id) order; a subject's history keeps the rating
after each event they played in.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from tournaments.ratings import RatedGame, rate

#: ("person", id) or ("player", id).
Subject = tuple[str, int]


@dataclass(frozen=True, slots=True)
class FederationMatch:
    """One rated game of an event: the subjects of each side and the sides' places (1 = best)."""

    sides: tuple[tuple[Subject, ...], ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FederationEvent:
    """A finished event of an opted-in club, its matches in the order they were played."""

    id: int
    club: int
    ended_at: datetime
    matches: tuple[FederationMatch, ...]


@dataclass(frozen=True, slots=True)
class EventPoint:
    """A subject's rating right after one event."""

    event: int
    club: int
    ended_at: datetime
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class FederationStanding:
    subject: Subject
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    draws: int
    last_played: datetime | None
    clubs: tuple[int, ...]  # the clubs of the events counted, by id
    history: tuple[EventPoint, ...]  # one point per event, in rating order

    @property
    def events(self) -> int:
        return len(self.history)


@dataclass(frozen=True, slots=True)
class Result:
    standings: dict[Subject, FederationStanding]
    skipped: int  # matches left out: a subject on two sides (records of one person met)


def ordered(events: Iterable[FederationEvent]) -> list[FederationEvent]:
    """The events in the order they count: end time, then id."""
    return sorted(events, key=lambda e: (e.ended_at, e.id))


@dataclass(frozen=True, slots=True)
class Games:
    """The engine's input for some events: `games` with ids counting up from 1 in rating
    order, each at its event's end time; the event of each game id; the engine's number of
    each subject; the matches left out."""

    games: list[RatedGame]
    event_of: dict[int, FederationEvent]
    numbers: dict[Subject, int]
    skipped: int


def games(events: Sequence[FederationEvent]) -> Games:
    """The engine's games for `events`, already `ordered`."""
    out: list[RatedGame] = []
    event_of: dict[int, FederationEvent] = {}
    numbers: dict[Subject, int] = {}
    skipped = 0
    for event in events:
        for match in event.matches:
            flat = [s for side in match.sides for s in side]
            if len(set(flat)) != len(flat) or len(match.sides) < 2:
                skipped += 1
                continue
            gid = len(out) + 1
            sides = tuple(
                tuple(numbers.setdefault(s, len(numbers) + 1) for s in side) for side in match.sides
            )
            out.append(RatedGame(gid, event.ended_at, sides, match.places, tournament=event.id))
            event_of[gid] = event
    return Games(out, event_of, numbers, skipped)


def federation_ratings(events: Iterable[FederationEvent]) -> Result:
    """Rate the events (any order given: they are put in (end time, id) order)."""
    given = games(ordered(events))
    event_of = given.event_of
    subject_of = {n: s for s, n in given.numbers.items()}
    ratings = rate(given.games)
    standings: dict[Subject, FederationStanding] = {}
    for number, r in ratings.items():
        points: dict[int, EventPoint] = {}
        for h in r.history:  # the last point of each event is the rating after it
            event = event_of[h.game]
            points[event.id] = EventPoint(
                event.id, event.club, event.ended_at, h.mu, h.sigma, h.ordinal
            )
        subject = subject_of[number]
        standings[subject] = FederationStanding(
            subject=subject,
            mu=r.mu,
            sigma=r.sigma,
            ordinal=r.ordinal,
            games=r.games,
            wins=r.wins,
            draws=r.draws,
            last_played=r.last_played,
            clubs=tuple(sorted({p.club for p in points.values()})),
            history=tuple(points.values()),
        )
    return Result(standings, given.skipped)


def digest(events: Iterable[FederationEvent]) -> str:
    """A hash of everything the ratings depend on: equal digests, equal ratings."""
    canonical = [
        [
            e.id,
            e.club,
            e.ended_at.isoformat(),
            [[[list(s) for s in side] for side in m.sides] + [list(m.places)] for m in e.matches],
        ]
        for e in ordered(events)
    ]
    return hashlib.sha256(json.dumps(canonical, separators=(",", ":")).encode()).hexdigest()

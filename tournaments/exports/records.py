"""Hand records out of a tournament, in the interchange format (docs/exports.md,
hand-records.md): a match as one `match/1` record, and every confirmed hand of a tournament as
`hand/1` JSON Lines. Both pass `manage.py check_hands` as they are.

The records are the canonical ones the rules engine wrote when each hand was accepted (the
current, confirmed version of each hand); a hand still awaiting confirmation, or disputed, is
not published.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from tournaments import gameplay
from tournaments.models import HandSubmission, Match, Tournament
from tournaments.selectors import exports as selectors

CONTEXT_KEYS = ("format", "game", "rules")  # a hand inside a match takes these from the match
JSONL_TYPE = "application/x-ndjson"
#: A line's first fields after where it was played, in the format's order (the stored record's
#: own order depends on how the hand was entered).
LEADING_KEYS = ("format", "game", "rules", "before")


def seat_names(match: Match, tournament: Tournament) -> dict[str, str]:
    """Who sat where, seat letter -> player name, in the table's clockwise order. A team's two
    players are given in registration order across the team's seats (first at N, partner at S):
    which partner sat where is not recorded."""
    names: dict[str, str] = {}
    for seat in match.seats.all():
        entry = seat.entry
        players = entry.players
        letters = [ch for ch in seat.seats if ch.isalpha()]
        if len(letters) == len(players):
            names.update(zip(letters, (p.name for p in players), strict=True))
    order = gameplay.layout(tournament.game, tournament.rules).seats
    return {letter: names[letter] for letter in order if letter in names}


def published_hands(versions: list[HandSubmission]) -> list[dict]:
    """The confirmed hands from the first on, up to the first one that is not confirmed: a match
    record is scored in order, so a confirmed hand after a pending one waits for it."""
    out = []
    for version in versions:
        if version.status != HandSubmission.Status.CONFIRMED:
            break
        out.append({k: v for k, v in version.record.items() if k not in CONTEXT_KEYS})
    return out


def match_record(match: Match) -> dict[str, Any]:
    """The match as a `match/1` record: game, rules, seats and its confirmed hands in order."""
    tournament = match.round.tournament
    return {
        "format": "match/1",
        "game": tournament.game,
        "rules": tournament.rules,
        "seats": seat_names(match, tournament),
        "hands": published_hands(selectors.current_versions(match)),
    }


def dumps(record: Any) -> str:
    """Compact UTF-8 JSON (names in Japanese stay readable)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def hand_lines(tournament: Tournament) -> Iterator[str]:
    """Every confirmed hand of the tournament as one `hand/1` line, by round, table and hand
    number. Each line starts with where the hand was played (`round`, `table`, `hand`: fields
    the rules engine ignores, and what the hand import reads to find the match), and carries
    `game`, `rules` and `before`, so it checks on its own and goes back in through the import."""
    for row in selectors.confirmed_records(tournament):
        record = row["record"]
        head = {"round": row["round"], "table": row["table"], "hand": row["hand"]}
        head |= {key: record[key] for key in LEADING_KEYS if key in record}
        yield dumps(head | {k: v for k, v in record.items() if k not in head}) + "\n"

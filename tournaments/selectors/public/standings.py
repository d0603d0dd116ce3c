"""The standings page (and the projector's): the latest snapshot as rows, with the matches
still in play counted provisionally."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from tournaments.models import (
    Entry,
    StandingsSnapshot,
    Tournament,
)
from tournaments.services import standings as standings_service
from tournaments.words.formatting import number
from tournaments.words.labels import (
    SUMMARY_METRICS,
    column_label,
    ranked_by,
    standings_columns,
    summary_metrics,
)


@dataclass
class Column:
    name: str
    label: str
    key: bool = False  # shown on a phone at once; the others behind "All columns"


@dataclass
class StandingsRow:
    rank: int
    tied: bool
    entry: int
    name: str
    players: list[str]
    withdrawn: bool
    values: list[str]
    playing: dict | None = None  # the provisional match this entry is in, if shown
    brief: list[str] = field(default_factory=list)  # the projector's few columns
    more: list[bool] = field(default_factory=list)  # per value: behind the phone's toggle
    people: list[tuple[int, str]] = field(default_factory=list)  # (player id, name), linked

    @property
    def cells(self) -> list[tuple[str, bool]]:
        return list(zip(self.values, self.more or [False] * len(self.values), strict=True))

    @property
    def player_line(self) -> str:
        """A team's players under its name ("Ann & Bo"); empty for a player, and for a team
        named after its players, which would say the same twice."""
        line = " & ".join(self.players) if len(self.players) > 1 else ""
        return "" if line == self.name else line

    @property
    def named_after_players(self) -> bool:
        """The entry's name is its players' (a team named "Ann & Bo", or a player): the name
        itself is shown as the links to their pages."""
        return bool(self.people) and " & ".join(n for _, n in self.people) == self.name


@dataclass
class ProvisionalMatch:
    round: int
    table: int
    hands: int
    confirmed: bool
    # (side, entries, points): the entries' ids as stored, then their names (standings_view).
    sides: list[tuple[str, list[Any], str]]


@dataclass
class StandingsView:
    snapshot: StandingsSnapshot | None
    stale: bool
    age: float | None
    columns: list[Column]
    rows: list[StandingsRow]
    provisional: list[ProvisionalMatch] | None
    rounds_closed: int = 0
    brief_columns: list[Column] = field(default_factory=list)
    ranked_by: str = ""  # the ranking in a sentence (labels.ranked_by)

    @property
    def version(self) -> int:
        return self.snapshot.version if self.snapshot else 0

    @property
    def computed_at(self) -> datetime | None:
        return self.snapshot.computed_at if self.snapshot else None

    @property
    def just_now(self) -> bool:
        """Computed within the last minute: the page says "just now", not "0 minutes ago"."""
        at = self.computed_at
        return at is not None and (timezone.now() - at).total_seconds() < 60


def _people(entries: list[int]) -> dict[int, list[tuple[int, str]]]:
    """Each entry's players as (id, current name), for the links to their pages: one query."""
    out: dict[int, list[tuple[int, str]]] = {}
    for pk, first, first_name, second, second_name, player, player_name in Entry.objects.filter(
        pk__in=entries
    ).values_list(
        "pk",
        "team__first_id",
        "team__first__name",
        "team__second_id",
        "team__second__name",
        "player_id",
        "player__name",
    ):
        out[pk] = [(first, first_name), (second, second_name)] if first else [(player, player_name)]
    return out


def key_columns(names: list[str], chain: list[str]) -> set[str]:
    """What a phone shows beside rank and entry: what ranks first (match points, or a
    player's own total at tables and in a whist drive) and the point difference beside match
    points, or where there is none, the chain's next metric."""
    first = chain[0] if chain else "match_points"
    key = {first}
    if first == "match_points" and "point_difference" in names:
        key.add("point_difference")
    else:
        key.update([n for n in chain if n != first][:1])
    return key


def standings_view(tournament: Tournament) -> StandingsView:
    """The latest standings snapshot as table rows: the format's summary (`labels.
    summary_metrics`), then the tournament's ranking chain in its order, with its age and
    staleness."""
    latest = standings_service.latest(tournament=tournament)
    payload = latest.snapshot.payload if latest.snapshot else {}
    chain = list(payload.get("tiebreaks") or tournament.tiebreaks or ["match_points"])
    summary = summary_metrics(tournament.format)
    names = standings_columns(tournament.format, chain)
    key = key_columns(names, chain)
    columns = [Column(n, column_label(n, tournament.format), key=n in key) for n in names]
    provisional = _provisional(payload.get("provisional"))
    playing = {}
    for item in payload.get("provisional") or []:
        for side in item["sides"].values():
            for entry_id in side["entries"]:
                playing[entry_id] = {
                    "table": item["table"],
                    "points": number(side["points"]),
                    "confirmed": item["confirmed"],
                }
    brief = _brief(names, chain, summary)
    people = _people([row["entry"] for row in payload.get("rows", [])])
    rows = [
        StandingsRow(
            rank=row["rank"],
            tied=row.get("tied", False),
            entry=row["entry"],
            name=row["name"],
            players=row.get("players", []),
            withdrawn=row.get("withdrawn", False),
            values=[number(row["values"].get(n)) for n in names],
            more=[n not in key for n in names],
            playing=playing.get(row["entry"]),
            brief=[number(row["values"].get(n)) for n in brief],
            people=people.get(row["entry"], []),
        )
        for row in payload.get("rows", [])
    ]
    names_by_entry = {row.entry: row.name for row in rows}
    for match in provisional or []:
        match.sides = [
            (side, [names_by_entry.get(e, "?") for e in ids], points)
            for side, ids, points in match.sides
        ]
    return StandingsView(
        snapshot=latest.snapshot,
        stale=latest.stale,
        age=latest.age,
        columns=columns,
        rows=rows,
        provisional=provisional,
        rounds_closed=payload.get("rounds_closed", 0),
        brief_columns=[c for c in columns if c.name in brief],
        ranked_by=ranked_by(tournament.format, chain),
    )


def _brief(names: list[str], chain: list[str], summary: tuple[str, ...]) -> list[str]:
    """What a room reads from across it: matches played, the first two keys of the ranking
    (a player's own total at tables and in a whist drive, always)."""
    keys = [n for n in chain if n not in SUMMARY_METRICS][:2]
    if "points_for" in summary and "points_for" not in keys:
        keys = ["points_for", *keys[:1]]
    return [n for n in names if n == "played" or n in keys]


def _provisional(items: list[dict] | None) -> list[ProvisionalMatch] | None:
    if items is None:
        return None
    return [
        ProvisionalMatch(
            round=item["round"],
            table=item["table"],
            hands=item["hands"],
            confirmed=item["confirmed"],
            sides=[
                (side, data["entries"], number(data["points"]))
                for side, data in item["sides"].items()
            ],
        )
        for item in items
    ]

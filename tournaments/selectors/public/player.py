"""A player's page: the tournaments entered with place and points, and the rating in each game
with a chart of its history."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils.dateparse import parse_datetime

from tournaments.models import (
    Entry,
    Player,
    Rating,
    StandingsSnapshot,
    Tournament,
)
from tournaments.presentation import game_name
from tournaments.selectors.public.home import shown
from tournaments.words.formatting import number


@dataclass
class EventRow:
    tournament: Tournament
    entry: Entry
    rank: int | None
    tied: bool
    field_size: int
    match_points: str
    points_for: str


@dataclass
class ChartPoint:
    x: float
    y: float
    when: datetime | None
    ordinal: float
    mu: float
    sigma: float


@dataclass
class RatingChart:
    width: int
    height: int
    points: list[ChartPoint]
    polyline: str
    low: float
    high: float
    y_low: float
    y_high: float
    zero_y: float | None
    left: int = 0  # the plotting area, in the SVG's own units
    right: int = 0
    top: int = 0
    bottom: int = 0


@dataclass
class PlayerRating:
    rating: Rating
    rank: int
    of: int
    chart: RatingChart | None

    @property
    def win_rate(self) -> float | None:
        return self.rating.wins / self.rating.games if self.rating.games else None

    @property
    def game_name(self) -> str:
        return game_name(self.rating.game)


def player_entries(player: Player) -> list[Entry]:
    return list(
        Entry.objects.filter(Q(player=player) | Q(team__first=player) | Q(team__second=player))
        .select_related("tournament", "team__first", "team__second", "player")
        .order_by("-tournament__starts_at", "-tournament_id")
    )


def player_events(player: Player) -> list[EventRow]:
    """The tournaments the player entered (alone or in a team) with the place and points from
    each tournament's latest standings."""
    found = player_entries(player)
    latest: dict[int, dict] = {}
    snapshots = StandingsSnapshot.objects.filter(
        tournament_id__in={e.tournament_id for e in found}
    ).order_by("tournament_id", "-version")
    for snapshot in snapshots.iterator():
        latest.setdefault(snapshot.tournament_id, snapshot.payload)
    out = []
    for entry in found:
        payload = latest.get(entry.tournament_id, {})
        rows = payload.get("rows", [])
        mine = next((r for r in rows if r["entry"] == entry.pk), None)
        values = mine["values"] if mine else {}
        out.append(
            EventRow(
                tournament=entry.tournament,
                entry=entry,
                rank=mine["rank"] if mine else None,
                tied=bool(mine and mine.get("tied")),
                field_size=len(rows),
                match_points=number(values.get("match_points")) if mine else "—",
                points_for=number(values.get("points_for")) if mine else "—",
            )
        )
    return out


def player_ratings(player: Player) -> list[PlayerRating]:
    """The player's rating in each game with their place on that game's leaderboard (their
    club's)."""
    out = []
    for rating in Rating.objects.filter(player=player).order_by("game"):
        board = Rating.objects.filter(game=rating.game, player__club=player.club)
        others = list(board.values_list("ordinal", flat=True))
        ahead = sum(1 for ordinal in others if shown(ordinal) > shown(rating.ordinal))
        total = len(others)
        out.append(PlayerRating(rating, ahead + 1, total, rating_chart(rating.history)))
    return out


CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600, 240, 56


def rating_chart(history: list) -> RatingChart | None:
    """Points for an inline SVG line of the ordinal over the rated matches (left to right in
    the order played); None for no history."""
    points = []
    for item in history or []:
        try:
            when, _match, mu, sigma, ordinal = item
        except (TypeError, ValueError):
            continue
        points.append(
            (
                parse_datetime(when) if isinstance(when, str) else None,
                float(mu),
                float(sigma),
                float(ordinal),
            )
        )
    if not points:
        return None
    low = min(p[3] for p in points)
    high = max(p[3] for p in points)
    y_low, y_high = _nice_range(low, high)
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / max(1, len(points) - 1)

    def y_of(value: float) -> float:
        return round(CHART_PAD + inner_h * (y_high - value) / (y_high - y_low), 1)

    chart_points = [
        ChartPoint(
            x=round(CHART_PAD + (i * step if len(points) > 1 else inner_w / 2), 1),
            y=y_of(ordinal),
            when=when,
            ordinal=ordinal,
            mu=mu,
            sigma=sigma,
        )
        for i, (when, mu, sigma, ordinal) in enumerate(points)
    ]
    return RatingChart(
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        points=chart_points,
        polyline=" ".join(f"{p.x},{p.y}" for p in chart_points),
        low=low,
        high=high,
        y_low=y_low,
        y_high=y_high,
        zero_y=y_of(0.0) if y_low < 0 < y_high else None,
        left=CHART_PAD,
        right=CHART_WIDTH - CHART_PAD,
        top=CHART_PAD,
        bottom=CHART_HEIGHT - CHART_PAD,
    )


def _nice_range(low: float, high: float) -> tuple[float, float]:
    """Axis ends on whole numbers a little outside the data (never an empty range)."""
    return float(math.floor(low) - 1), float(math.ceil(high) + 1)

"""The season page (and its projector and exports): the latest season snapshot as rows, one
column per evening, each result marked counted or dropped."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.models import Club, Series, SeriesSnapshot, home_club
from tournaments.seasons import services as season_service
from tournaments.words.formatting import number
from tournaments.words.labels import column_label

#: The evenings the projector shows (the latest ones): forty columns do not fit a room's screen.
PROJECTOR_EVENINGS = 6


@dataclass
class EveningColumn:
    number: int
    slug: str
    name: str
    state: str
    starts_at: str | None
    counted_by: str = ""  # how the season counts it, in words (`counted_by`)

    @property
    def finished(self) -> bool:
        return self.state == "finished"


@dataclass
class EveningCell:
    score: str  # as people write it ("—" when not played)
    counted: bool
    played: bool
    place: int | None


@dataclass
class SeasonRow:
    rank: int
    tied: bool
    name: str
    players: list[str]
    score: str
    wins: int
    best: str
    total: str
    played: int
    cells: list[EveningCell] = field(default_factory=list)
    recent: list[EveningCell] = field(default_factory=list)  # the projector's last evenings

    @property
    def player_line(self) -> str:
        line = " & ".join(self.players) if len(self.players) > 1 else ""
        return "" if line == self.name else line


@dataclass
class SeasonView:
    series: Series
    snapshot: SeriesSnapshot | None
    stale: bool
    evenings: list[EveningColumn]
    rows: list[SeasonRow]
    rule: str
    points: list[str]
    best: int | None

    @property
    def version(self) -> int:
        return self.snapshot.version if self.snapshot else 0

    @property
    def computed_at(self) -> datetime | None:
        return self.snapshot.computed_at if self.snapshot else None

    @property
    def just_now(self) -> bool:
        at = self.computed_at
        return at is not None and (timezone.now() - at).total_seconds() < 60

    @property
    def recent_evenings(self) -> list[EveningColumn]:
        return self.evenings[-PROJECTOR_EVENINGS:]

    @property
    def dropping(self) -> bool:
        """Some results are dropped (more evenings played than count)."""
        return any(c.played and not c.counted for r in self.rows for c in r.cells)


def counted_by(rule: str, fmt: str, ranked: str) -> str:
    """How a season counts one evening, in words: its match points, or its places, which
    rank by what the evening played for (match points, a player's own total, a duplicate
    night's percentage or IMPs)."""
    if rule == Series.Rule.MATCH_POINTS:
        return gettext("its match points")
    if ranked == "percentage":
        what = gettext("percentage")
    elif ranked == "imps":
        what = gettext("IMPs")
    else:
        what = column_label(ranked, fmt)
    return gettext("its places, ranked by %(what)s") % {"what": what}


def series_by_slug(slug: str, *, club: Club | None = None) -> Series | None:
    """The club's season of this slug (None for another club's)."""
    return Series.objects.filter(club=club or home_club(), slug=slug).first()


def season_list(game: str | None = None, *, club: Club | None = None) -> list[Series]:
    """The club's seasons."""
    queryset = Series.objects.filter(club=club or home_club()).annotate(
        evening_count=Count("members")
    )
    if game:
        queryset = queryset.filter(game=game)
    return list(queryset)


def season_view(series: Series) -> SeasonView:
    latest = season_service.latest(series=series)
    payload = latest.snapshot.payload if latest.snapshot else {}
    rule = payload.get("rule", series.rule)
    evenings = [
        EveningColumn(
            i,
            e["tournament"],
            e["name"],
            e.get("state", ""),
            e.get("starts_at"),
            counted_by(rule, e.get("format", ""), e.get("ranked_by", "match_points")),
        )
        for i, e in enumerate(payload.get("evenings", []), 1)
    ]
    rows = [
        SeasonRow(
            rank=r["rank"],
            tied=r["tied"],
            name=r["name"],
            players=r.get("players", []),
            score=number(r["score"]),
            wins=r["wins"],
            best=number(r["best"]),
            total=number(r["total"]),
            played=r["played"],
            cells=[
                EveningCell(
                    score=number(c["score"]),
                    counted=c["counted"],
                    played=c["score"] is not None,
                    place=c.get("place"),
                )
                for c in r["evenings"]
            ],
        )
        for r in payload.get("rows", [])
    ]
    for row in rows:
        row.recent = row.cells[-PROJECTOR_EVENINGS:]
    return SeasonView(
        series=series,
        snapshot=latest.snapshot,
        stale=latest.stale,
        evenings=evenings,
        rows=rows,
        rule=rule,
        points=[number(p) for p in payload.get("points", series.points)],
        best=payload.get("best", series.best) if payload else series.best,
    )

"""Season championships: a series of a club's tournaments of one game, added up by the club's
rule (`tournaments.seasons.engine`), as immutable versioned snapshots like the standings.

Writes (create, edit, add or remove a tournament) are one transaction each and refuse bad input
with a stable code, changing nothing. Anything that may change the table (a member tournament's
new standings snapshot, a member added or removed, the rule edited) bumps the series'
`inputs_version` in the same transaction; after commit the recompute is scheduled through
`scheduling.run_or_send`: in-process without Redis, a coalesced Celery task with it. The
recompute reads each member's latest standings snapshot, writes a new snapshot only for inputs it
has not seen (compare-and-set under the series' row lock) and announces "season version N" on
every member tournament's live stream (the season page listens to one of them).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify

from tournaments.live import events
from tournaments.models import (
    DEFAULT_SEASON_POINTS,
    GAMES,
    Entry,
    Series,
    SeriesMember,
    SeriesSnapshot,
    StandingsSnapshot,
    Tournament,
    max_length,
)
from tournaments.seasons import engine
from tournaments.services import scheduling
from tournaments.services.actors import Actor, acting_club, is_director, require_club_director
from tournaments.services.errors import Conflict, Invalid, NotAllowed, ServiceError
from tournaments.words.formatting import timestamp

PENDING_KEY = "tricktable:season-pending:{}"
PENDING_SECONDS = 30
MAX_NAME = max_length(Series, "name")
MAX_SLUG = max_length(Series, "slug")
SLUG = re.compile(r"[-a-zA-Z0-9_]+")
MAX_PLACES = 200
MAX_POINT = 10_000
MAX_BEST = 366


# -- who may ----------------------------------------------------------------------------------


def directs_series(actor: Actor, series: Series) -> bool:
    """A series' directors (and superusers, and the system) manage it."""
    if actor.system:
        return True
    user = actor.user_or_none()
    if user is None:
        return False
    return user.is_superuser or series.directors.filter(pk=user.pk).exists()


def require_series_director(actor: Actor, series: Series) -> None:
    """Refused (403 `not-series-director`) unless the actor directs the season."""
    if not directs_series(actor, series):
        raise NotAllowed("not-series-director", "only this season's directors may do that")


# -- checking input ---------------------------------------------------------------------------


def _name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ServiceError("bad-name", "a season needs a name")
    if len(name.strip()) > MAX_NAME:
        raise ServiceError("bad-name", f"a season's name is at most {MAX_NAME} characters")
    return name.strip()


def _rule(rule: Any) -> str:
    if rule not in Series.Rule.values:
        raise ServiceError("bad-rule", f"the rule is one of {Series.Rule.values}")
    return rule


def _points(points: Any) -> list[int | str]:
    """Placing points as stored: whole numbers as ints, exact fractions as "a/b" strings."""
    if not isinstance(points, list | tuple) or not 1 <= len(points) <= MAX_PLACES:
        raise ServiceError("bad-points", f"placing points are a list of 1 to {MAX_PLACES} numbers")
    out: list[int | str] = []
    for value in points:
        try:
            if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
                raise ValueError
            exact = Fraction(str(value).strip()) if not isinstance(value, int) else Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise ServiceError("bad-points", f"{value!r} is not a number of points") from None
        if not 0 <= exact <= MAX_POINT:
            raise ServiceError("bad-points", f"placing points are from 0 to {MAX_POINT}")
        out.append(exact.numerator if exact.denominator == 1 else str(exact))
    return out


def _best(best: Any) -> int | None:
    if best is None:
        return None
    if not isinstance(best, int) or isinstance(best, bool) or not 1 <= best <= MAX_BEST:
        raise ServiceError("bad-best", f"best K is a whole number from 1 to {MAX_BEST}, or none")
    return best


def _unique_slug(name: str) -> str:
    base = slugify(name, allow_unicode=False)[:60] or "season"
    taken = set(Series.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug


# -- workflows --------------------------------------------------------------------------------


@transaction.atomic
def create_series(
    *,
    actor: Actor,
    name: str,
    game: str,
    rule: str = Series.Rule.PLACING,
    points: list | None = None,
    best: int | None = None,
    slug: str = "",
) -> Series:
    """A new season of one game; a signed-in user only (it becomes the season's director)."""
    user = actor.user_or_none()
    if user is None and not actor.system:
        raise NotAllowed("sign-in-required", "sign in to create a season")
    name = _name(name)
    if game not in {g for g, _ in GAMES}:
        raise ServiceError("bad-game", f"game must be one of {[g for g, _ in GAMES]}")
    rule = _rule(rule)
    stored = _points(DEFAULT_SEASON_POINTS if points is None else points)
    best = _best(best)
    if slug:
        if not isinstance(slug, str) or len(slug) > MAX_SLUG or not SLUG.fullmatch(slug):
            raise ServiceError("bad-slug", f"a slug is 1 to {MAX_SLUG} of a-z, 0-9, '-' and '_'")
        if Series.objects.filter(slug=slug).exists():
            raise Conflict("slug-taken", f"the slug {slug!r} is taken")
    club = acting_club(actor)
    require_club_director(actor, club)
    series = Series.objects.create(
        club=club,
        name=name,
        slug=slug or _unique_slug(name),
        game=game,
        rule=rule,
        points=stored,
        best=best,
    )
    if user is not None:
        series.directors.add(user)
    return series


_UNSET: Any = object()


@transaction.atomic
def update_series(
    *,
    actor: Actor,
    series: Series,
    name: str | None = None,
    rule: str | None = None,
    points: list | None = None,
    best: Any = _UNSET,
) -> Series:
    """Rename a season or set its rule, points and best K (`best=None`: every evening). The
    table is recomputed after commit when the rule changed."""
    require_series_director(actor, series)
    series = Series.objects.select_for_update().get(pk=series.pk)
    changed: list[str] = []
    if name is not None and _name(name) != series.name:
        series.name, changed = _name(name), [*changed, "name"]
    if rule is not None and _rule(rule) != series.rule:
        duplicate = series.members.filter(tournament__format=Tournament.Format.DUPLICATE)
        if rule == Series.Rule.MATCH_POINTS and duplicate.exists():
            raise Invalid(
                "season-rule-duplicate",
                "this season counts a duplicate night, which ranks pairs by their "
                "percentages and has no match points: remove it before counting match points",
                details={"tournaments": [m.tournament.slug for m in duplicate]},
            )
        series.rule, changed = rule, [*changed, "rule"]
    if points is not None and _points(points) != series.points:
        series.points, changed = _points(points), [*changed, "points"]
    if best is not _UNSET and _best(best) != series.best:
        series.best, changed = _best(best), [*changed, "best"]
    if changed:
        series.save(update_fields=changed)
        _bump(series.pk)
    return series


@transaction.atomic
def add_tournament(*, actor: Actor, series: Series, tournament: Tournament) -> SeriesMember:
    """Count a tournament in the season: the season's directors and the tournament's may; its
    game must be the season's. Adding it again changes nothing."""
    require_series_director(actor, series)
    if not is_director(actor, tournament):
        raise NotAllowed("not-director", "only this tournament's directors may add it")
    series = Series.objects.select_for_update().get(pk=series.pk)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.club_id != series.club_id:
        raise Invalid(
            "season-other-club",
            f"{tournament.slug} is another club's event: a season counts its own club's only",
        )
    if tournament.game != series.game:
        raise Invalid(
            "game-mismatch",
            f"{tournament.slug} plays {tournament.game}, this season {series.game}",
            details={"season": series.game, "tournament": tournament.game},
        )
    if tournament.format == Tournament.Format.DUPLICATE and series.rule == Series.Rule.MATCH_POINTS:
        raise Invalid(
            "season-rule-duplicate",
            f"{tournament.slug} is a duplicate night: it ranks pairs by their percentages and "
            "has no match points. A season counting match points cannot add it up; count "
            "this season by placing points to include it",
            details={"season": series.rule, "tournament": tournament.format},
        )
    member, created = SeriesMember.objects.get_or_create(series=series, tournament=tournament)
    if created:
        _bump(series.pk)
    return member


@transaction.atomic
def remove_tournament(*, actor: Actor, series: Series, tournament: Tournament) -> bool:
    """Stop counting a tournament in the season; True if it was a member."""
    require_series_director(actor, series)
    Series.objects.select_for_update().filter(pk=series.pk).first()
    deleted, _ = SeriesMember.objects.filter(series=series, tournament=tournament).delete()
    if deleted:
        _bump(series.pk)
    return bool(deleted)


# -- recomputing ------------------------------------------------------------------------------


def _bump(series_id: int) -> None:
    """Count a change to the season's inputs and have the table recomputed after commit."""
    Series.objects.filter(pk=series_id).update(inputs_version=F("inputs_version") + 1)
    transaction.on_commit(lambda: schedule(series_id))


def member_changed(tournament_id: int) -> None:
    """A tournament's standings changed (inside the transaction that wrote them): every season
    counting it is behind until recomputed."""
    for series_id in SeriesMember.objects.filter(tournament_id=tournament_id).values_list(
        "series_id", flat=True
    ):
        _bump(series_id)


def schedule(series_id: int) -> None:
    """Recompute the season soon; never raises when sending (the sweep catches up)."""
    scheduling.run_or_send(
        "tournaments.recompute_season",
        series_id,
        pending=PENDING_KEY.format(series_id),
        seconds=PENDING_SECONDS,
    )


def claim(series_id: int) -> None:
    scheduling.release(PENDING_KEY.format(series_id))


def _value(value: Fraction | int) -> int | str:
    return value.numerator if value.denominator == 1 else str(value)


def _entrant_keys(tournament_ids: list[int]) -> dict[int, tuple[str, str, list[str]]]:
    """entry -> (the entrant's key across evenings, its name, its players), for every entry of
    these tournaments. A team is the same entrant whenever the same two players play together,
    whatever the team is called. Plain values, no model instances: a season has thousands."""
    out = {}
    for (
        pk,
        team,
        team_name,
        first,
        first_name,
        second,
        second_name,
        player,
        player_name,
    ) in Entry.objects.filter(tournament_id__in=tournament_ids).values_list(
        "pk",
        "team_id",
        "team__name",
        "team__first_id",
        "team__first__name",
        "team__second_id",
        "team__second__name",
        "player_id",
        "player__name",
    ):
        if team:
            (a, a_name), (b, b_name) = sorted(((first, first_name), (second, second_name)))
            out[pk] = (f"t{a}-{b}", team_name, [a_name, b_name])
        else:
            out[pk] = (f"p{player}", player_name, [player_name])
    return out


def evenings(series: Series) -> list[tuple[Tournament, StandingsSnapshot | None]]:
    """The season's tournaments in the order they were played, each with its latest standings."""
    members = list(
        Tournament.objects.filter(series_members__series=series).order_by(
            F("starts_at").asc(nulls_last=True), "id"
        )
    )
    # One indexed query per evening (tournament_id, -version): a season has tens of evenings.
    return [(t, StandingsSnapshot.objects.filter(tournament_id=t.pk).first()) for t in members]


def ranked_by(payload: dict[str, Any]) -> str:
    """What an evening's standings rank by (the first of its chain; a duplicate night's
    percentage or IMPs): what its places mean when a season counts them."""
    return payload.get("ranked_by") or (payload.get("tiebreaks") or ["match_points"])[0]


def compute_payload(series: Series) -> dict[str, Any]:
    """The season's table from its members' latest standings (plain JSON, exact numbers as
    ints or "a/b" strings)."""
    played = [(t, s) for t, s in evenings(series) if s is not None and s.payload.get("rows")]
    rule = series.rule
    if rule == engine.MATCH_POINTS:  # a duplicate night has no match points to add up
        played = [(t, s) for t, s in played if t.format != Tournament.Format.DUPLICATE]
    keys = _entrant_keys([t.pk for t, _s in played])
    names: dict[Hashable, tuple[str, list[str]]] = {}
    games = []
    for tournament, snapshot in played:
        results: dict[Hashable, tuple[int, Fraction | int]] = {}
        fields: dict[Hashable, Hashable] = {}
        for row in snapshot.payload["rows"]:
            if row["entry"] not in keys:
                continue
            key, name, players = keys[row["entry"]]
            names[key] = (name, players)  # the latest evening's name
            mp: Fraction | int = Fraction(str(row.get("values", {}).get("match_points", 0)))
            mp = mp.numerator if mp.denominator == 1 else mp
            results[key] = (row["rank"], mp)
            if "field" in row:  # a duplicate night's field: its places are shared within it
                fields[key] = row["field"]
        games.append(engine.Evening(tournament.slug, results, fields or None))
    points = [Fraction(str(p)) for p in series.points]
    rows = engine.season_table(
        games, rule=rule, points=points if rule == engine.PLACING else (), best=series.best
    )
    # Entrants sharing a place are listed by name (the engine's own order among them follows
    # their keys, which are ids).
    rows = sorted(rows, key=lambda row: (row.rank, names[row.entrant][0].casefold()))
    return {
        "series": series.slug,
        "game": series.game,
        "rule": rule,
        "points": list(series.points),
        "best": series.best,
        "chain": list(engine.CHAIN),
        "evenings": [
            {
                "tournament": t.slug,
                "name": t.name,
                "state": t.state,
                "starts_at": timestamp(t.starts_at),
                "standings_version": s.version,
                "format": t.format,
                "ranked_by": ranked_by(s.payload),
            }
            for t, s in played
        ],
        "rows": [
            {
                "rank": row.rank,
                "tied": row.tied,
                "entrant": row.entrant,
                "name": names[row.entrant][0],
                "players": names[row.entrant][1],
                "score": _value(row.score),
                "wins": row.wins,
                "best": _value(row.best),
                "total": _value(row.total),
                "played": row.played,
                "evenings": [
                    {
                        "score": None if score is None else _value(score),
                        "counted": counted,
                        "place": games[i].results.get(row.entrant, (None, 0))[0],
                    }
                    for i, (score, counted) in enumerate(row.evenings)
                ],
            }
            for row in rows
        ],
    }


def recompute(*, series_id: int) -> SeriesSnapshot | None:
    """Write a snapshot of the season's table for its current inputs, unless one exists
    already (then None)."""
    series = Series.objects.filter(pk=series_id).first()
    if series is None:
        return None
    inputs = series.inputs_version
    latest = SeriesSnapshot.objects.filter(series_id=series_id).first()
    if latest is not None and latest.inputs_version >= inputs:
        return None
    payload = compute_payload(series)
    with transaction.atomic():
        Series.objects.select_for_update().filter(pk=series_id).first()
        latest = SeriesSnapshot.objects.filter(series_id=series_id).first()
        if latest is not None and latest.inputs_version >= inputs:
            return None
        version = (latest.version if latest else 0) + 1
        snapshot = SeriesSnapshot.objects.create(
            series_id=series_id, version=version, inputs_version=inputs, payload=payload
        )
        members = list(
            SeriesMember.objects.filter(series_id=series_id).values_list("tournament_id", flat=True)
        )
        event = {"event": "season", "series": series.slug, "version": version}
        transaction.on_commit(lambda: [events.publish(tid, event) for tid in members])
    return snapshot


def stale_series() -> list[int]:
    out = []
    for sid, version in Series.objects.filter(inputs_version__gt=0).values_list(
        "pk", "inputs_version"
    ):
        seen = (
            SeriesSnapshot.objects.filter(series_id=sid)
            .values_list("inputs_version", flat=True)
            .first()
        )
        if seen is None or seen < version:
            out.append(sid)
    return out


def sweep() -> list[int]:
    """Recompute every season behind its inputs now (what was missed while no worker ran)."""
    done = stale_series()
    for sid in done:
        recompute(series_id=sid)
    return done


@dataclass(frozen=True, slots=True)
class Latest:
    snapshot: SeriesSnapshot | None
    stale: bool
    age: float | None


def latest(*, series: Series) -> Latest:
    snapshot = SeriesSnapshot.objects.filter(series=series).first()
    if snapshot is None:
        return Latest(None, series.inputs_version > 0, None)
    age = (timezone.now() - snapshot.computed_at).total_seconds()
    return Latest(snapshot, snapshot.inputs_version < series.inputs_version, age)

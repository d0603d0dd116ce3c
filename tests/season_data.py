"""A season built straight from standings snapshots (what the season table reads), for page,
API and browser tests that need a table fast: no hands are played."""

from __future__ import annotations

from datetime import UTC, datetime

from tournaments import services
from tournaments.models import Entry, Player, Series, StandingsSnapshot, Tournament
from tournaments.seasons import services as seasons
from tournaments.services import Actor

#: Four evenings of five players (Eve misses the second): (name, place, match points).
NIGHTS = [
    [
        ("Aiko Sato", 1, 4),
        ("Ben Smith", 2, 3),
        ("Chika Ito", 3, 2),
        ("Dan Kato", 4, 1),
        ("Eve Brown", 5, 0),
    ],
    [("Ben Smith", 1, 4), ("Aiko Sato", 2, 3), ("Dan Kato", 3, 2), ("Chika Ito", 4, 1)],
    [
        ("Chika Ito", 1, 4),
        ("Eve Brown", 2, 3),
        ("Aiko Sato", 3, 2),
        ("Ben Smith", 3, 2),
        ("Dan Kato", 5, 0),
    ],
    [
        ("Aiko Sato", 1, 4),
        ("Chika Ito", 2, 3),
        ("Ben Smith", 3, 2),
        ("Eve Brown", 4, 1),
        ("Dan Kato", 5, 0),
    ],
]


def evening(
    director: Actor, name: str, *, game: str = "german-whist", day: int = 1, state: str = "finished"
) -> Tournament:
    tournament = services.create_tournament(
        actor=director,
        name=name,
        game=game,
        rules="standard",
        format="swiss",
        rounds=1,
        starts_at=datetime(2026, 1, day, 19, tzinfo=UTC),
    )
    Tournament.objects.filter(pk=tournament.pk).update(state=state)
    tournament.refresh_from_db()
    return tournament


def played(tournament: Tournament, results: list[tuple[str, int, int]]) -> None:
    """Final standings for an evening, as its standings snapshot records them."""
    rows = []
    for name, rank, mp in results:
        player = Player.objects.filter(name=name).first() or Player.objects.create(name=name)
        entry = Entry.objects.create(tournament=tournament, player=player)
        rows.append(
            {
                "rank": rank,
                "tied": False,
                "entry": entry.pk,
                "name": name,
                "players": [name],
                "withdrawn": False,
                "values": {"match_points": mp},
            }
        )
    version = tournament.results_version + 1
    Tournament.objects.filter(pk=tournament.pk).update(results_version=version)
    tournament.results_version = version
    latest = StandingsSnapshot.objects.filter(tournament=tournament).first()
    StandingsSnapshot.objects.create(
        tournament=tournament,
        version=(latest.version if latest else 0) + 1,
        inputs_version=version,
        payload={"tournament": tournament.slug, "rows": rows},
    )


def winter_season(director: Actor, *, best: int = 3, rule: str = "placing") -> Series:
    """Four evenings, the best three counted; its table computed."""
    series = seasons.create_series(
        actor=director,
        name="Winter season",
        game="german-whist",
        rule=rule,
        points=[10, 8, 6, 5, 4],
        best=best,
    )
    for n, results in enumerate(NIGHTS, 1):
        night = evening(director, f"Night {n}", day=7 * n)
        played(night, results)
        seasons.add_tournament(actor=director, series=series, tournament=night)
    seasons.recompute(series_id=series.pk)
    return series

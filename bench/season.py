"""Season benchmark: the season table of 40 evenings x 100 entrants (each entrant plays about
80 % of the evenings), best 30 counted.

Run from the repository root:

    .venv/bin/python bench/season.py                 # engine, both rules; service on SQLite
    .venv/bin/python bench/season.py --database-url postgres://postgres@127.0.0.1:5432/tt_bench_season
    .venv/bin/python bench/season.py --quick         # fewer runs
    .venv/bin/python bench/season.py --json

Two measurements, each the best and the median of several runs (time.perf_counter after a
gc.collect(); building the data is not timed):

- **engine**: `tournaments.seasons.engine.season_table` on plain data (placing points with
  shared places, and match points as exact Fractions);
- **service**: `tournaments.seasons.services.recompute` with the database — read the 40 member
  tournaments' latest standings snapshots and the 100 x 40 entries behind them, compute, write
  the season snapshot (a fresh inputs version each run, so every run really writes). The
  database is `--database-url` (default: a SQLite file in a temporary folder, the embedded
  default), migrated on first use; the season is written with bulk inserts.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tournaments.seasons.engine import (  # noqa: E402  (needs ROOT on sys.path)
    MATCH_POINTS,
    PLACING,
    Evening,
    season_table,
)

POINTS = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


def synthetic_season(evenings: int, entrants: int, seed: int) -> list[Evening]:
    """Each evening: about 80 % of the entrants, ranked at random, with ties for a place now
    and then, and match points in halves (exact)."""
    rng = random.Random(seed)
    out = []
    for n in range(evenings):
        present = [e for e in range(entrants) if rng.random() < 0.8]
        rng.shuffle(present)
        results = {}
        for i, entrant in enumerate(present):
            tied = i and rng.random() < 0.1  # tied with the one before
            place = results[f"p{present[i - 1]}"][0] if tied else i + 1
            results[f"p{entrant}"] = (place, Fraction(rng.randint(0, 18), 2))
        out.append(Evening(f"E{n + 1}", results))
    return out


def timed(function, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def bench_engine(evenings: int, entrants: int, best: int, runs: int, seed: int) -> list[dict]:
    data = synthetic_season(evenings, entrants, seed)
    out = []
    for rule in (PLACING, MATCH_POINTS):
        kwargs = {"points": POINTS} if rule == PLACING else {}
        rows = season_table(data, rule=rule, best=best, **kwargs)
        assert len(rows) == entrants
        low, mid = timed(
            lambda rule=rule, kwargs=kwargs: season_table(data, rule=rule, best=best, **kwargs),
            runs,
        )
        out.append(
            {
                "name": f"engine, {rule}",
                "size": f"{evenings} x {entrants}, best {best}",
                "best": low,
                "median": mid,
                "runs": runs,
            }
        )
    return out


def setup_django(database_url: str | None) -> None:
    if database_url:
        os.environ["DATABASE_URL"] = database_url
        if database_url.startswith("postgres"):
            import psycopg

            base, name = database_url.rsplit("/", 1)
            with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
                if not conn.execute(
                    "select 1 from pg_database where datname = %s", (name,)
                ).fetchone():
                    conn.execute(f'create database "{name}"')
    else:
        folder = Path(tempfile.gettempdir()) / "tricktable-bench"
        folder.mkdir(exist_ok=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'season.sqlite3'}"
    os.environ.pop("REDIS_URL", None)  # the recompute is called directly, no task sent
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_season_in_db(evenings: int, entrants: int, seed: int):
    """The synthetic season as 40 tournaments with one standings snapshot each, bulk-written."""
    from django.db import transaction

    from tournaments.models import (
        Entry,
        Player,
        Series,
        SeriesMember,
        StandingsSnapshot,
        Tournament,
    )

    data = synthetic_season(evenings, entrants, seed)
    slug = f"bench-season-{evenings}x{entrants}-{seed}"
    Series.objects.filter(slug=slug).delete()
    Tournament.objects.filter(slug__startswith=f"{slug}-e").delete()
    with transaction.atomic():
        players = Player.objects.bulk_create(
            Player(name=f"Season player {slug} {k}") for k in range(entrants)
        )
        series = Series.objects.create(
            name=slug, slug=slug, game="german-whist", rule="placing", points=list(POINTS), best=30
        )
        for n, evening in enumerate(data):
            tournament = Tournament.objects.create(
                name=f"Night {n + 1}",
                slug=f"{slug}-e{n + 1}",
                game="german-whist",
                rules="standard",
                format="swiss",
                rounds=4,
                state="finished",
                results_version=1,
            )
            keys = list(evening.results)
            entries = Entry.objects.bulk_create(
                Entry(tournament=tournament, player=players[int(k[1:])], pin=f"{i:04d}")
                for i, k in enumerate(keys)
            )
            rows = [
                {
                    "rank": evening.results[k][0],
                    "tied": False,
                    "entry": e.pk,
                    "name": players[int(k[1:])].name,
                    "players": [],
                    "withdrawn": False,
                    "values": {"match_points": str(evening.results[k][1])},
                }
                for k, e in zip(keys, entries, strict=True)
            ]
            StandingsSnapshot.objects.create(
                tournament=tournament,
                version=1,
                inputs_version=1,
                payload={"tournament": tournament.slug, "rows": rows},
            )
            SeriesMember.objects.create(series=series, tournament=tournament)
    return series


def bench_service(
    evenings: int, entrants: int, runs: int, seed: int, database_url: str | None
) -> list[dict]:
    setup_django(database_url)
    from django.db import connection
    from django.db.models import F

    from tournaments.models import Series
    from tournaments.seasons import services as seasons

    series = build_season_in_db(evenings, entrants, seed)

    def once():
        Series.objects.filter(pk=series.pk).update(inputs_version=F("inputs_version") + 1)
        assert seasons.recompute(series_id=series.pk) is not None

    once()  # warm the connection and the caches of Django's query compiler
    low, mid = timed(once, runs)
    return [
        {
            "name": f"service recompute ({connection.vendor})",
            "size": f"{evenings} x {entrants}, best 30",
            "best": low,
            "median": mid,
            "runs": runs,
        }
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--entrants", type=int, default=100)
    parser.add_argument("--best", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--no-service", action="store_true", help="the pure engine only")
    args = parser.parse_args()
    runs = 3 if args.quick else 15
    figures = bench_engine(args.evenings, args.entrants, args.best, runs * 2, args.seed)
    if not args.no_service:
        figures += bench_service(args.evenings, args.entrants, runs, args.seed, args.database_url)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{'measurement':42} {'size':24} {'best ms':>9} {'median ms':>10} runs")
    for f in figures:
        print(
            f"{f['name']:42} {f['size']:24} {f['best'] * 1000:9.2f} "
            f"{f['median'] * 1000:10.2f} {f['runs']:4}"
        )


if __name__ == "__main__":
    main()

"""Federation ranking benchmark (issue 33): recompute the federation's Spades rating over 100
clubs x 50 finished events, and publish events to the site while it runs.

Run from the repository root (PostgreSQL, the hosted site's database):

    .venv/bin/python bench/federation.py
    .venv/bin/python bench/federation.py --database-url postgres://postgres@127.0.0.1:5432/tt_federation_bench
    .venv/bin/python bench/federation.py --clubs 10 --events 10      # smoke sizes
    .venv/bin/python bench/federation.py --rebuild                    # build the data again
    .venv/bin/python bench/federation.py --redis-url redis://127.0.0.1:6379/10   # as deployed

The data (built once, kept in the database for later runs; not timed): --clubs clubs in the
federation, --members member records each, --events finished one-night Spades Swiss events each
(4 teams of the club's members, 3 rounds, 2 tables a round, so 6 matches an event), ending at
random moments of one year; a tenth of the members are one person with a record in the next club
too (`Person`). Rows are written with `bulk_create` of plain rows, a level at a time.

What is timed (time.perf_counter, after a gc.collect()):

1. **Recompute, cold**: `tournaments.federation.services.recompute(game="spades")` after its
   inputs digest is cleared (so it reads, rates and writes everything): the whole call, and how
   it splits into reading and rating (outside any transaction) and the one write transaction.
2. **Recompute, nothing changed**: the same call again (it reads and finds the digest equal).
3. **Publishing while it recomputes**: the site receiving a room's event
   (`tournaments.publishing.services.receive` of the first bench event's document under a new
   slug each time: one transaction writing the event's tournament, as a publish's PUT does)
   --publishes times alone, then as many times as fit while a cold recompute runs in another
   process (as on a worker): each publish's time, median and max, both ways, and of the
   publishes that overlapped the recompute's write transaction. A recompute that blocked
   publishing would show as publishes as long as its write transaction (or the recompute).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/tt_federation_bench"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
PREFIX = "bench-fed"


#: The queue the tasks a publish sets off go to (no worker takes it; purged at the end).
QUEUE = "bench-federation"


def setup_django(database_url: str, redis_url: str | None) -> None:
    os.environ["DATABASE_URL"] = database_url
    if database_url.startswith("postgres"):
        import psycopg

        base, name = database_url.rsplit("/", 1)
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
                conn.execute(f'create database "{name}"')
    os.environ.pop("REDIS_URL", None)  # the recompute is called directly, no task sent
    if redis_url:  # as deployed: what a publish sets off goes to a queue, not into its time
        os.environ["REDIS_URL"] = redis_url
        for name in ("TASK_QUEUE", "STANDINGS_QUEUE", "IMPORTS_QUEUE", "FEDERATION_QUEUE"):
            os.environ[name] = QUEUE
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def built(clubs: int, events: int) -> bool:
    from tournaments.models import Club, Tournament

    return (
        Club.objects.filter(slug__startswith=PREFIX, federation=True).count() == clubs
        and Tournament.objects.filter(club__slug__startswith=PREFIX).count() == clubs * events
    )


def remove() -> None:
    from tournaments.models import Club, Entry, FederationRating, Person, Player, Team, Tournament

    FederationRating.objects.all().delete()
    mine = {"club__slug__startswith": PREFIX}
    Tournament.objects.filter(**mine).delete()  # rounds, tables, matches, seats, entries
    Entry.objects.filter(tournament__club__slug__startswith=PREFIX).delete()
    Team.objects.filter(**mine).delete()
    Player.objects.filter(**mine).delete()
    Person.objects.filter(records__isnull=True).delete()
    Club.objects.filter(slug__startswith=PREFIX).delete()


def build(clubs: int, members: int, events: int, seed: int) -> None:
    """The federation, a level of rows at a time with bulk_create (plain rows)."""
    from django.db import transaction

    from tournaments.models import (
        Club,
        Entry,
        EventTable,
        Match,
        Person,
        Player,
        Round,
        Seat,
        Table,
        Team,
        Tournament,
        home_club,
    )
    from tournaments.services.tournaments import default_tiebreaks

    rng = random.Random(seed)
    home_club()
    batch = 2000
    with transaction.atomic():
        made = Club.objects.bulk_create(
            Club(name=f"Bench club {c:03d}", slug=f"{PREFIX}-{c:03d}", federation=True)
            for c in range(clubs)
        )
        shared = max(1, members // 10)  # members 0..shared-1 of club c are club c+1's too
        people = Person.objects.bulk_create(Person() for _ in range(clubs * shared))
        person_of = {}
        for c in range(clubs):
            for k in range(shared):
                person_of[(c, k)] = people[c * shared + k].pk
                if c + 1 < clubs:
                    person_of[(c + 1, shared + k)] = people[c * shared + k].pk
        players = Player.objects.bulk_create(
            (
                Player(
                    club=made[c],
                    name=f"Member {c:03d}-{k:02d}",
                    person_id=person_of.get((c, k)),
                )
                for c in range(clubs)
                for k in range(members)
            ),
            batch_size=batch,
        )
        roster = [players[c * members : (c + 1) * members] for c in range(clubs)]
        tournaments = Tournament.objects.bulk_create(
            (
                Tournament(
                    club=made[c],
                    name=f"Night {e + 1}",
                    slug=f"{PREFIX}-{c:03d}-{e:03d}",
                    game="spades",
                    rules="standard",
                    format="swiss",
                    rounds=3,
                    state="finished",
                    tiebreaks=default_tiebreaks("swiss"),
                )
                for c in range(clubs)
                for e in range(events)
            ),
            batch_size=batch,
        )
        ends = [T0 + timedelta(seconds=rng.randrange(365 * 86400)) for _ in tournaments]
        teams = Team.objects.bulk_create(
            (
                Team(club=made[i // events], name=f"T{t}", first=pair[0], second=pair[1])
                for i in range(len(tournaments))
                for t, pair in enumerate(
                    zip(*[iter(rng.sample(roster[i // events], 8))] * 2, strict=True)
                )
            ),
            batch_size=batch,
        )
        entries = Entry.objects.bulk_create(
            (Entry(tournament=tournaments[j // 4], team=team) for j, team in enumerate(teams)),
            batch_size=batch,
        )
        tables = EventTable.objects.bulk_create(
            (EventTable(tournament=t, number=n) for t in tournaments for n in (1, 2)),
            batch_size=batch,
        )
        rounds = Round.objects.bulk_create(
            (
                Round(
                    tournament=t,
                    number=r,
                    state="closed",
                    closed_at=ends[i] - timedelta(hours=3 - r),
                )
                for i, t in enumerate(tournaments)
                for r in (1, 2, 3)
            ),
            batch_size=batch,
        )
        round_tables = Table.objects.bulk_create(
            (
                Table(round=r, number=n, event_table=tables[(i // 3) * 2 + n - 1])
                for i, r in enumerate(rounds)
                for n in (1, 2)
            ),
            batch_size=batch,
        )
        matches = Match.objects.bulk_create(
            (
                Match(
                    round=rounds[i // 2],
                    table=table,
                    state="finished",
                    finished_at=rounds[i // 2].closed_at - timedelta(minutes=5 + i % 2),
                )
                for i, table in enumerate(round_tables)
            ),
            batch_size=batch,
        )
        seats = []
        for i, match in enumerate(matches):
            event = i // 6
            four = entries[event * 4 : event * 4 + 4]
            order = rng.sample(four, 4)
            pair = order[:2] if i % 2 == 0 else order[2:]
            winner = rng.randrange(2)
            for s, (entry, side) in enumerate(zip(pair, ("NS", "EW"), strict=True)):
                won = s == winner
                seats.append(
                    Seat(
                        match=match,
                        entry=entry,
                        side=side,
                        seats=side,
                        place=1 if won else 2,
                        outcome="win" if won else "loss",
                    )
                )
        Seat.objects.bulk_create(seats, batch_size=batch)


def timed(fn):
    gc.collect()
    started = time.perf_counter()
    value = fn()
    return time.perf_counter() - started, value


def cold() -> None:
    from tournaments.models import FederationRun

    FederationRun.objects.filter(game="spades").update(inputs="")


def publisher():
    """What the site needs to receive a room's publish: a key and one event's document (the
    first bench club's first event: 4 teams, 3 rounds), sent each time under a new slug."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Tournament
    from tournaments.publishing import payload
    from tournaments.publishing import services as publishing
    from tournaments.services import Actor
    from tournaments.services.tournaments import default_tiebreaks

    slug = f"{PREFIX}-published"
    tournament = Tournament.objects.get(slug=f"{PREFIX}-000-000")
    if not tournament.tiebreaks:  # data built by an earlier version of this bench
        Tournament.objects.filter(club__slug__startswith=PREFIX).update(
            tiebreaks=default_tiebreaks("swiss")
        )
        tournament.refresh_from_db()
    document = payload.build(tournament)
    user, _made = get_user_model().objects.get_or_create(
        username=f"{PREFIX}-operator", defaults={"is_superuser": True}
    )
    key, _secret = publishing.create_key(actor=Actor(user=user), label="bench")
    counter = iter(range(1, 10**9))
    stamp = int(time.time())  # each run publishes new events

    def publish() -> tuple[float, float]:
        """One publish: when it started and ended (time.time(), comparable across processes)."""
        n = next(counter)
        name = f"{slug}-{stamp}-{n}"
        sent = dict(document, tournament=dict(document["tournament"], slug=name))
        started = time.time()
        publishing.receive(key=key, slug=name, document=sent)
        return started, time.time()

    return publish


def figures(spans: list[tuple[float, float]]) -> str:
    times = [end - start for start, end in spans]
    if not times:
        return "no publish"
    return (
        f"{len(times)} publishes, median {statistics.median(times) * 1e3:.1f} ms, "
        f"max {max(times) * 1e3:.1f} ms"
    )


def recompute_only() -> None:
    """The child's part: one recompute; prints when it started and ended and how long it read
    and rated before its write transaction (one JSON line)."""
    from tournaments.federation import services as federation
    from tournaments.models import FederationRun

    started = time.time()
    federation.recompute(game="spades")
    ended = time.time()
    run = FederationRun.objects.get(game="spades")
    print(json.dumps({"started": started, "ended": ended, "reading_and_rating": run.seconds}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--publishes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--recompute-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--redis-url",
        help="Redis as deployed: the standings and club ratings a publish sets off are sent to "
        "a queue (purged at the end) instead of running inside the publish's time",
    )
    args = parser.parse_args()

    setup_django(args.database_url, args.redis_url)
    if args.recompute_only:
        recompute_only()
        return
    from django.db import connection

    from tournaments.federation import engine
    from tournaments.federation import services as federation
    from tournaments.models import FederationRun, Match, Seat

    if args.rebuild or not built(args.clubs, args.events):
        remove()
        seconds, _ = timed(lambda: build(args.clubs, args.members, args.events, args.seed))
        print(f"# built in {seconds:.1f} s (not part of the figures)", flush=True)
    if connection.vendor == "postgresql":  # the planner's statistics, as autovacuum keeps them
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    matches = Match.objects.filter(round__tournament__club__slug__startswith=PREFIX).count()
    seats = Seat.objects.filter(match__round__tournament__club__slug__startswith=PREFIX).count()
    print(
        f"# {connection.vendor}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; "
        f"{args.clubs} clubs x {args.events} events, {args.members} members a club, "
        f"{matches:,} matches, {seats:,} seats"
    )

    read, events = timed(lambda: federation.federation_events("spades"))
    rate, result = timed(lambda: engine.federation_ratings(events))
    print(f"reading the events: {read:.2f} s; rating them (engine): {rate:.2f} s")
    cold()
    total, outcome = timed(lambda: federation.recompute(game="spades"))
    run = FederationRun.objects.get(game="spades")
    print(
        f"recompute, cold: {total:.2f} s ({run.seconds:.2f} s reading and rating outside any "
        f"transaction, {total - run.seconds:.2f} s writing in one), {outcome.events:,} events, "
        f"{outcome.people:,} people rated"
    )
    again, outcome = timed(lambda: federation.recompute(game="spades"))
    print(f"recompute, nothing changed: {again:.2f} s (written: {outcome.written})")

    publish = publisher()
    alone = [publish() for _ in range(args.publishes)]
    print(f"publishing alone: {figures(alone)}")

    # The recompute in a process of its own, as on a worker; publishes here until it ends.
    cold()
    child = subprocess.Popen(
        [sys.executable, __file__, "--recompute-only", "--database-url", args.database_url],
        stdout=subprocess.PIPE,
        text=True,
    )
    during = []
    while child.poll() is None:
        during.append(publish())
    report = json.loads(child.communicate()[0].strip().splitlines()[-1])
    writing = (report["started"] + report["reading_and_rating"], report["ended"])
    overlapping = [(a, b) for a, b in during if a < writing[1] and b > writing[0]]
    during = [(a, b) for a, b in during if a < report["ended"] and b > report["started"]]
    print(
        f"publishing while the recompute ran in another process "
        f"({report['ended'] - report['started']:.2f} s, its write transaction "
        f"{writing[1] - writing[0]:.2f} s): {figures(during)}; of which during its write "
        f"transaction: {figures(overlapping)}; run version "
        f"{FederationRun.objects.get(game='spades').version}"
    )
    if args.redis_url:
        from config.celery import app

        with app.connection_for_write() as conn:
            purged = conn.default_channel.queue_purge(QUEUE)
        print(f"# {purged} tasks the publishes set off, left queued, purged")


if __name__ == "__main__":
    main()

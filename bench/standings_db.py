"""Standings measurements that need the database (and a worker): imported by bench/standings.py.

- **service recompute**: the whole service on PostgreSQL — load every finished match of a
  1,000-team × 9-round Swiss from the database, compute, write the snapshot (target ≤ 1 s).
- **confirm → snapshot**: with Redis and a real Celery worker, the time from a hand's
  confirmation (commit) until the worker announces the new snapshot, published after its
  commit (target ≤ 1 s; issue 18 judges the median, ≤ 0.3 s); `--poll` polls the database
  every 5 ms instead. The note gives the worker's CPU a snapshot (median, from /proc).

The event is `synthetic_swiss` from bench/standings.py, written with bulk inserts (teams,
entries, nine closed rounds, matches and seats with their outcomes) into a database of its own
(`--database-url`, default postgres://postgres@127.0.0.1:5432/tricktable_bench_standings, created
if missing). Each measurement runs in a process of its own (`python -m bench.standings_db
service|confirm`, which bench/standings.py starts), because Django's settings (database, Redis,
queue) are fixed once it is set up.
"""

from __future__ import annotations

import os
import secrets
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

from bench.standings import DEFAULT_DB

ROOT = Path(__file__).resolve().parent.parent
QUEUE = f"bench-standings-{os.getpid()}"


def setup_django(database_url: str, redis_url: str | None) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["STANDINGS_QUEUE"] = QUEUE
    # as deployed: DEBUG off (with it on, Django's debug cursor renders every statement, the
    # snapshot's half megabyte of JSON included, a second time); the worker inherits this
    if os.environ.get("BENCH_DEBUG", "") not in ("1", "true"):
        os.environ["DEBUG"] = "0"
        os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
        os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    if redis_url:
        os.environ["REDIS_URL"] = redis_url
    else:
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    import psycopg

    base, name = database_url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_event(entrants: int, rounds: int, seed: int):
    """Write the synthetic Swiss into the database; returns the tournament."""
    from decimal import Decimal

    from django.db import transaction

    from bench.standings import synthetic_swiss
    from tournaments.models import (
        Entry,
        EventTable,
        Match,
        Player,
        Round,
        Seat,
        Table,
        Team,
        Tournament,
    )

    people, results = synthetic_swiss(entrants, rounds, seed)
    slug = f"bench-{entrants}x{rounds}-{seed}"
    Tournament.objects.filter(slug=slug).delete()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Bench {entrants} x {rounds}",
            slug=slug,
            game="spades",
            rules="standard",
            format="swiss",
            rounds=rounds + 1,
            tiebreaks=["match_points", "point_difference", "buchholz", "head_to_head", "wins"],
            state="running",
        )
        players = Player.objects.bulk_create(
            Player(name=f"Bench player {slug} {k}") for k in range(2 * entrants)
        )
        teams = Team.objects.bulk_create(
            Team(name=f"Team {k}", first=players[2 * k], second=players[2 * k + 1])
            for k in range(entrants)
        )
        entries = Entry.objects.bulk_create(
            Entry(
                tournament=tournament,
                team=teams[k],
                seed=e.seed,
                joined_round=(max(e.missed) + 1) if e.missed else 1,
                status="withdrawn" if e.withdrawn else "checked-in",
            )
            for k, e in enumerate(people)
        )
        entry_of = {e.id: entries[k].pk for k, e in enumerate(people)}
        round_objs = {
            r: Round.objects.create(tournament=tournament, number=r, state="closed")
            for r in range(1, rounds + 1)
        }
        by_match: dict[int, list] = {}
        for result in results:
            by_match.setdefault(result.match, []).append(result)
        tables, matches = [], []
        counters: dict[int, int] = {}
        for _, group in sorted(by_match.items()):
            rnd = round_objs[group[0].round]
            if group[0].outcome == "bye":
                matches.append(Match(round=rnd, is_bye=True, state="finished"))
                tables.append(None)
            else:
                counters[rnd.number] = counters.get(rnd.number, 0) + 1
                tables.append(Table(round=rnd, number=counters[rnd.number]))
                matches.append(Match(round=rnd, state="finished"))
        numbers = {t.number for t in tables if t is not None}
        event_tables = EventTable.objects.numbered(tournament.pk, numbers)
        for table in tables:
            if table is not None:
                table.event_table = event_tables[table.number]
        made = iter(Table.objects.bulk_create(t for t in tables if t is not None))
        for match, table in zip(matches, tables, strict=True):
            match.table = next(made) if table is not None else None
        Match.objects.bulk_create(matches)
        seats = []
        for match, (_, group) in zip(matches, sorted(by_match.items()), strict=True):
            for index, r in enumerate(group):
                side = "-" if r.outcome == "bye" else ("NS", "EW")[index]
                seats.append(
                    Seat(
                        match=match,
                        entry_id=entry_of[r.entrant],
                        side=side,
                        seats=side,
                        outcome=r.outcome,
                        match_points=Decimal(str(float(r.match_points))),
                        points_for=str(r.points_for),
                        points_against=str(r.points_against),
                    )
                )
        Seat.objects.bulk_create(seats)
    return tournament, len(results)


def service_recompute(args, measurement_cls, time_runs) -> list:
    setup_django(args.database_url, None)
    from tournaments.services import standings

    tournament, count = build_event(1_000, 9, args.seed)

    def once() -> None:
        standings.bump(tournament.pk)
        assert standings.recompute(tournament_id=tournament.pk) is not None

    runs = 3 if args.quick else 7
    timing = time_runs(once, runs)
    return [
        measurement_cls(
            "service recompute",
            "1,000 x 9",
            runs=runs,
            target=1.0,
            note=f"PostgreSQL: load {count:,} results, compute, write the snapshot",
            **timing,
        )
    ]


def confirm_to_snapshot(args, measurement_cls, time_runs) -> list:
    """Needs REDIS_URL (or --redis-url): starts a worker of its own on a private queue."""
    redis_url = args.redis_url or os.environ.get("REDIS_URL")
    if not redis_url:
        return [
            measurement_cls(
                "confirm -> snapshot",
                "1,000 x 9",
                best=None,
                median=None,
                runs=0,
                target=1.0,
                note="skipped: no REDIS_URL",
            )
        ]
    setup_django(args.database_url, redis_url)
    import random

    from tournaments import services
    from tournaments.demo import simulate
    from tournaments.models import (
        Entry,
        Match,
        Round,
        Seat,
        StandingsSnapshot,
        Table,
        new_pin,
    )

    tournament, _ = build_event(1_000, 9, args.seed)
    confirmations = 3 if args.quick else 10
    tables = confirmations if args.finish else 1
    if args.finish:  # each confirmed hand is its match's last: the match finishes
        tournament.match_length, tournament.match_hands = "hands", 1
        tournament.save(update_fields=["match_length", "match_hands"])
    entries = list(Entry.objects.filter(tournament=tournament, status="checked-in")[: 2 * tables])
    for entry in entries:  # bulk-written entries have no PIN yet: confirming asks for one
        if not entry.pin:
            entry.pin = new_pin()
            entry.save(update_fields=["pin"])
    rnd = Round.objects.create(tournament=tournament, number=10, state="published")
    matches = []
    for k in range(tables):
        match = Match.objects.create(round=rnd, table=Table.objects.create(round=rnd, number=k + 1))
        for entry, side in zip(entries[2 * k : 2 * k + 2], ("NS", "EW"), strict=True):
            Seat.objects.create(match=match, entry=entry, side=side, seats=side)
        matches.append(match)
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"tricktable-{QUEUE}.log"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "-Q",
            QUEUE,
            "-n",
            f"{QUEUE}@%h",
            "-l",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "--logfile",
            str(log),
        ],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    latencies, worker_cpu = [], []
    try:
        from config.celery import app
        from tournaments.live import event_log
        from tournaments.redis_client import client

        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=0.5) and time.monotonic() < deadline:
            pass
        rng = random.Random(args.seed)
        announcements = client().pubsub(ignore_subscribe_messages=True)
        announcements.subscribe(event_log.channel(tournament.pk))
        for k in range(confirmations):
            match = matches[k % tables]
            ew, ns = simulate.scorers(match)  # each side with its PIN
            version = StandingsSnapshot.objects.filter(tournament=tournament).count()
            record = simulate.next_hand(match, rng, summary=True)
            submitted = services.submit_hand(
                match=match, actor=ns, record=record, idempotency_key=uuid.uuid4().hex
            ).submission
            while announcements.get_message(timeout=0):  # what the submission announced
                pass
            cpu = _cpu_seconds(worker.pid)
            services.confirm_hand(
                submission=submitted, expected_version=submitted.version, actor=ew
            )
            start = time.perf_counter()
            if args.poll:
                while not StandingsSnapshot.objects.filter(
                    tournament=tournament, version__gt=version
                ).exists():
                    if time.perf_counter() - start > 30:
                        raise RuntimeError(f"no snapshot after 30 s; see {log}")
                    time.sleep(0.005)
            else:  # the worker's announcement, sent after its commit: no polling
                _announced(announcements, version, start, log)
            latencies.append(time.perf_counter() - start)
            time.sleep(0.05)  # the worker's own bookkeeping after the task, before reading CPU
            worker_cpu.append(_cpu_seconds(worker.pid) - cpu)
            if not StandingsSnapshot.objects.filter(
                tournament=tournament, version__gt=version
            ).exists():
                raise RuntimeError("announced, but no new snapshot in the database")
        announcements.close()
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    how = "polled every 5 ms" if args.poll else "announcement awaited"
    if args.finish:
        how += "; each hand finishes its match"
    return [
        measurement_cls(
            "confirm -> snapshot",
            "1,000 x 9",
            best=min(latencies),
            median=statistics.median(latencies),
            runs=len(latencies),
            target=1.0,
            note=f"real worker via Redis; worst {max(latencies) * 1000:.0f} ms; worker CPU "
            f"{statistics.median(worker_cpu) * 1000:.0f} ms a snapshot (median); {how}",
        )
    ]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of process `pid` so far (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _announced(announcements, version: int, start: float, log: Path) -> None:
    """Block until the worker announces a standings version above `version` (it announces
    after its transaction commits, so the snapshot is in the database by then)."""
    import json

    while True:
        left = 30 - (time.perf_counter() - start)
        if left <= 0:
            raise RuntimeError(f"no snapshot announced after 30 s; see {log}")
        message = announcements.get_message(timeout=left)
        if message is None:
            continue
        event = json.loads(message["data"])["data"]
        if event.get("event") == "standings" and event.get("version", 0) > version:
            return


def main() -> None:
    import argparse
    import json
    from dataclasses import asdict

    sys.path.insert(0, str(ROOT))
    from bench.standings import Measurement, time_runs

    parser = argparse.ArgumentParser()
    parser.add_argument("which", choices=["service", "confirm"])
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--poll",
        action="store_true",
        help="confirm: poll the database every 5 ms for the snapshot instead of "
        "awaiting the worker's announcement (the figure before 24 November)",
    )
    parser.add_argument(
        "--finish",
        action="store_true",
        help="confirm: each confirmed hand finishes its match (matches of one hand), so "
        "every snapshot ranks changed results; by default the ten hands are of one match "
        "still being played",
    )
    args = parser.parse_args()
    measure = service_recompute if args.which == "service" else confirm_to_snapshot
    print(json.dumps([asdict(m) for m in measure(args, Measurement, time_runs)]))


if __name__ == "__main__":
    main()

"""Knockout benchmark: the seeded bracket for 1,024 entries, made and played out, a top cut drawn
from 1,000 standings rows, and a 1,024-entry knockout through the services on SQLite (the cut
confirmed, the first round drawn, the second drawn from the first's 512 results).

Run from the repository root:

    .venv/bin/python bench/knockout.py            # 1,024 entries, 30 repeats of the engine
    .venv/bin/python bench/knockout.py --quick    # 256 entries, 5 repeats: a smoke run
    .venv/bin/python bench/knockout.py --json     # the same figures as JSON

(a) The engine (tournaments.knockout.engine, no Django): `bracket(ids)` for N entries (the
seed lines, byes to the top seeds, the empty rounds), a whole bracket filled by `advance` round
by round (N - 1 results, the better seed winning), `placings` of the finished bracket, and
`cut(rows, 8, chain)` over 1,000 standings rows with a tie at the line.
(b) The services on a fresh SQLite file (migrated first, not timed): N team entries, the
director confirms the whole field as the bracket (`confirm_cut`), `generate_round` draws the
first round (N/2 tables written), every match is given a result, the round is closed, and
`generate_round` draws the second round (the bracket read back from the 512 results).

Pinned to one core when the OS allows; time.perf_counter (wall) and time.process_time (CPU).
The bar for the engine (issue 17 asks for figures; 50 ms for a 1,024 bracket made and played,
as the pairing engines' "instant" round robin) is judged on the worst repeat's CPU time and the
median wall time; the service figures are one run each, for the record.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402
from tournaments.knockout.engine import Standing, advance, bracket, cut, placings  # noqa: E402

TARGET_SECONDS = 0.05
CHAIN = ["match_points", "point_difference", "buchholz", "head_to_head"]

#: The rows bench/all.py's table shows, by their name here, and the figure's name there.
REPORTED = {
    "bracket made": "Knockout: bracket of 1,024 entries made (engine)",
    "bracket played": "Knockout: bracket of 1,024 entries filled from 1,023 results (engine)",
    "service round 1": "Knockout: first round of 1,024 drawn through the service (SQLite)",
    "service round 2": "Knockout: second round drawn from 512 results (service, SQLite)",
}


def play_out(board):
    """Every match won by the better seed, one bracket round at a time (the way results come
    in): one `advance` per round."""
    results: dict[tuple[int, int], int] = {}
    for number in range(1, len(board.rounds) + 1):
        for match in board.rounds[number - 1]:
            if match.ready:
                results[(match.round, match.index)] = min(
                    (match.top, match.bottom), key=board.seeds.__getitem__
                )
        board = advance(board, results)
    return board


def standings_rows(count: int) -> list[Standing]:
    """1,000 rows, best first, where places 7 to 10 share match points (a tie at the line)."""
    rows = []
    for k in range(count):
        points = Fraction(max(0, 18 - 2 * (k // 3))) if not 6 <= k <= 9 else Fraction(14)
        rows.append(
            Standing(
                k + 1,
                k + 1,
                {
                    "match_points": points,
                    "point_difference": Fraction(500 - k),
                    "buchholz": Fraction(k % 7),
                    "head_to_head": 0,
                },
            )
        )
    return rows


def engine_rows(size: int, repeat: int) -> list[dict]:
    ids = list(range(1, size + 1))
    out = []
    print(f"... bracket({size}) x {repeat}", file=sys.stderr, flush=True)
    wall, cpu = report.timed(lambda: bracket(ids, third_place=True), repeat)
    out.append(
        report.timing_row(
            "bracket made", wall, cpu, TARGET_SECONDS, f"{size} entries, third-place match"
        )
    )
    empty = bracket(ids, third_place=True)
    print(f"... {size - 1} results through advance x {repeat}", file=sys.stderr, flush=True)
    wall, cpu = report.timed(lambda: play_out(empty), repeat)
    out.append(
        report.timing_row(
            "bracket played",
            wall,
            cpu,
            TARGET_SECONDS,
            f"{len(empty.rounds)} rounds, one advance per round",
        )
    )
    done = play_out(empty)
    assert done.champion == 1
    wall, cpu = report.timed(lambda: placings(done), repeat)
    out.append(report.timing_row("placings", wall, cpu, None, "every entrant placed"))
    rows = standings_rows(1000)
    wall, cpu = report.timed(lambda: cut(rows, 8, CHAIN), repeat)
    drawn = cut(rows, 8, CHAIN)
    out.append(
        report.timing_row(
            "cut of 8 from 1,000",
            wall,
            cpu,
            None,
            f"tie at the line of {len(drawn.line)}, decided by {drawn.decided_by}",
        )
    )
    return out


# -- the services on SQLite -------------------------------------------------------------------


def setup_django(path: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def service_rows(size: int) -> list[dict]:
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tournaments import services
    from tournaments.models import Entry, Match, Player, Seat, Team
    from tournaments.services import Actor

    user = get_user_model().objects.create_superuser("bench", password="x")
    td = Actor(user=user)
    cup = services.create_tournament(
        actor=td, name="Bench cup", game="spades", rules="standard", format="knockout", rounds=1
    )
    services.set_knockout(tournament=cup, actor=td, length="hands", count=4)
    services.open_registration(tournament=cup, actor=td)
    with transaction.atomic():
        players = Player.objects.bulk_create(Player(name=f"P{k}") for k in range(2 * size))
        teams = Team.objects.bulk_create(
            Team(name=f"Team {k}", first=players[2 * k], second=players[2 * k + 1])
            for k in range(size)
        )
        Entry.objects.bulk_create(
            Entry(tournament=cup, team=t, seed=k + 1, pin=f"{k:04d}"[-4:])
            for k, t in enumerate(teams)
        )
    cup.refresh_from_db()
    out = []

    def one(name: str, fn: Callable[[], object], extra: str) -> object:
        w0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        out.append(
            report.timing_row(
                name, [time.perf_counter() - w0], [time.process_time() - c0], None, extra
            )
        )
        return result

    print(f"... services: cut list of {size} and confirm", file=sys.stderr, flush=True)
    listed = one(
        "service cut list", lambda: services.cut_list(tournament=cup), f"{size} entries by seed"
    )
    one(
        "service confirm",
        lambda: services.confirm_cut(tournament=cup, actor=td, entries=listed.ids),
        "bracket made",
    )
    cup.refresh_from_db()
    print("... services: round 1", file=sys.stderr, flush=True)
    first = one(
        "service round 1",
        lambda: services.generate_round(tournament=cup, actor=td),
        f"{size // 2} tables written",
    )
    services.publish_round(round=first, actor=td)
    with transaction.atomic():  # every match won by the top seed's side (no hands: a result)
        matches = list(Match.objects.filter(round=first, is_bye=False))
        seats = list(Seat.objects.filter(match__in=matches))
        for seat in seats:
            seat.outcome = "win" if seat.side == "NS" else "loss"
            seat.match_points = Decimal(2) if seat.outcome == "win" else Decimal(0)
            seat.points_for, seat.points_against = "100", "50"
        Seat.objects.bulk_update(
            seats, ["outcome", "match_points", "points_for", "points_against"], batch_size=500
        )
        Match.objects.filter(pk__in=[m.pk for m in matches]).update(state="finished")
    services.close_round(round=first, actor=td)
    print("... services: round 2", file=sys.stderr, flush=True)
    second = one(
        "service round 2",
        lambda: services.generate_round(tournament=cup, actor=td),
        f"bracket read from {len(matches)} results, {size // 4} tables written",
    )
    assert second.matches.count() == size // 4
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="256 entries, 5 repeats")
    parser.add_argument("--size", type=int, default=None, help="entries (default 1,024)")
    parser.add_argument("--no-services", action="store_true", help="the engine only")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    size = args.size or (256 if args.quick else 1024)
    repeat = 5 if args.quick else 30
    pinned = report.pin_to_one_core()
    rows = engine_rows(size, repeat)
    if not args.no_services:
        with tempfile.TemporaryDirectory(prefix="tt-bench-knockout-") as folder:
            setup_django(Path(folder) / "bench.sqlite3")
            rows += service_rows(size)
    if size == 1024:  # bench/all.py's bars are for 1,024 entries
        report.emit_timings(rows, REPORTED)
    report.print_timings(
        f"TrickTable knockout benchmark ({size} entries{', quick' if args.quick else ''})",
        rows,
        pinned=pinned,
        facts={"size": size, "quick": args.quick},
        as_json=args.json,
    )


if __name__ == "__main__":
    main()

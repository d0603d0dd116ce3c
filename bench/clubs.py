"""Many clubs on one site (issue 33, scale): a quiet club's pages while another club runs a
large event, on the deployed stack (deploy/stack.py: nginx with HTTPS and its micro-cache, two
uvicorn processes, a Celery worker and beat, PostgreSQL, Redis). The bar: p99 <= 250 ms at 64
clients on each of the quiet club's pages, its reference measured alone in the same run.

    .venv/bin/python bench/clubs.py                  # 200 clubs, 64 busy tables, 20 s a run
    .venv/bin/python bench/clubs.py --quick          # smoke sizes
    .venv/bin/python bench/clubs.py --ports 20000-20099 --redis-url redis://127.0.0.1:6379/11

1. **The site**: --clubs clubs, each made through the services as a club's director would
   (its director, a finished evening of four pairs, two tables, two hands a match: the
   members are its players, plus --members more each, bulk-created plain rows), and one busy
   club with a large event: --tables tables (2 x tables pairs) with round 1 in play, a table
   token each, the hands each table will enter planned beforehand by the rules engine.
2. **Alone** (the reference): wrk, --clients connections each asking again as soon as
   answered, on each of a quiet club's pages in turn: its home page, its event's page, its
   event's standings; p50/p99 and answers a second.
3. **With the busy club busy**: the busy club's tables each post their hands over the API
   through the proxy (HTTPS, keep-alive, the table's token), as fast as answered: the hand,
   then its confirmation by the other side (the PINs); and --clients more readers ask for its
   standings page. Meanwhile the same wrk runs on the quiet club's pages. The busy club's
   submissions a second and their p99 are printed beside.

With `--cache-pages N` (an experiment, not the deployment): the proxy keeps every club's home,
event and standings pages (the busy club's standings too) N seconds whatever the application
says (their cookie and `Vary` ignored, the cookie not passed on), to measure what a micro-cache
of the public pages would give.

Every line says the machine's load. Needs nginx, openssl, wrk, PostgreSQL and Redis. The
database (--database-url, `clubs_bench` by default) is dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402
from bench.api import _cpu_seconds  # noqa: E402
from bench.publishing import percentile, wrk  # noqa: E402
from deploy import stack  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"
BAR_MS = 250

#: In the site's environment (standings written in-process: no worker yet): the clubs, their
#: evenings and members, the busy club's event in play with its tables' tokens and planned
#: hands. Prints one JSON line.
POPULATE = """
import json, os, random, sys
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from tournaments import services
from tournaments.demo import simulate
from tournaments.models import Club, Match, Player, Round
from tournaments.services import Actor, PlayerSpec
from tests.room import planned_hands

CLUBS, MEMBERS = int(os.environ["CLUBS"]), int(os.environ["MEMBERS"])
TABLES, HANDS = int(os.environ["TABLES"]), int(os.environ["HANDS"])
rng = random.Random(33)
users = get_user_model().objects


def club_and_director(n, name):
    club = Club.objects.create(name=name, slug=f"club-{n}")
    user = users.create_user(f"td-{n}", password=None)
    club.directors.add(user)
    return club, Actor(user=user, club=club)


def event(director, name, pairs, **options):
    tournament = services.create_tournament(
        actor=director, name=name, game="spades", rules="standard", format="swiss",
        starts_at=timezone.now() - timedelta(days=1), **options)
    services.open_registration(tournament=tournament, actor=director)
    for p in range(pairs):
        services.register_entry(
            tournament=tournament, actor=director, name=f"{name} pair {p + 1}",
            players=[PlayerSpec(f"{name} player {2 * p + 1}"),
                     PlayerSpec(f"{name} player {2 * p + 2}")])
    services.check_in_entries(
        tournament=tournament, actor=director,
        entries=list(tournament.entries.values_list("pk", flat=True)))
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    return tournament, round_


quiet = []
for n in range(CLUBS):
    with transaction.atomic():
        club, director = club_and_director(n, f"Club {n}")
        tournament, round_ = event(
            director, f"Club {n} evening", 4, rounds=1, match_length="hands", match_hands=2)
        for match in Match.objects.filter(round=round_, is_bye=False):
            simulate.play_match(match, rng, hands=2, director=director, summary=True)
        services.close_round(round=round_, actor=director)
        services.finish_tournament(tournament=tournament, actor=director)
        Player.objects.bulk_create(
            [Player(club=club, name=f"Club {n} member {m}") for m in range(MEMBERS)])
        quiet.append((club.slug, tournament.slug))
    if n % 20 == 0:
        print(f"club {n}", file=sys.stderr, flush=True)

with transaction.atomic():
    club, director = club_and_director(CLUBS, "The busy club")
    tournament, round_ = event(
        director, "The busy club's open", 2 * TABLES, rounds=3, match_length="director")
tables = []
for match in Match.objects.filter(round=round_, is_bye=False).select_related("table"):
    _token, secret = services.issue_table_token(table=match.table, actor=director)
    pins = {seat.side: seat.entry.pin for seat in match.seats.select_related("entry")}
    tables.append({"match": match.pk, "token": secret, "ns": pins["NS"], "ew": pins["EW"],
                   "records": planned_hands(match, rng, HANDS)})
print(json.dumps({"quiet": quiet[len(quiet) // 2], "busy": [club.slug, tournament.slug],
                  "tables": tables}))
"""


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} load {os.getloadavg()[0]:.1f}] {message}", flush=True)


class Tables:
    """The busy club's tables posting their hands through the proxy (HTTPS, keep-alive), each
    hand then confirmed by the other side, until stopped or out of planned hands."""

    def __init__(self, site: stack.Stack, club: str, tables: list[dict]) -> None:
        self.site, self.club, self.tables = site, club, tables
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self.retried = 0  # 503s (no database connection within the pool's timeout), waited out
        self.reconnected = 0  # keep-alive connections the proxy closed, opened again
        self.stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self.run()), daemon=True)
        self.started = self.ended = 0.0

    async def table(self, table: dict, context: ssl.SSLContext) -> None:
        host, port = stack.LOOPBACK, int(self.site.url.rsplit(":", 1)[1])
        base = f"/c/{self.club}/api/v1/matches/{table['match']}/hands"
        streams: list = []  # the table's keep-alive connection, opened again if closed

        async def post(path: str, body: dict, key: str = "") -> tuple[int, dict]:
            """The answer, after waiting out 503s (Retry-After) as the scorer's page does, and
            sent again on a new connection when the proxy closed the kept one."""
            again = False
            while True:
                if not streams:
                    streams.extend(await asyncio.open_connection(host, port, ssl=context))
                try:
                    status, answer, wait = await once(*streams, path, body, key)
                except (ConnectionError, asyncio.IncompleteReadError, IndexError):
                    streams[1].close()
                    streams.clear()
                    self.reconnected += 1
                    again = True
                    continue
                if status == 409 and again and path.endswith("/confirm"):
                    return 200, answer  # the first try was confirmed before the line closed
                if status != 503 or self.stop.is_set():
                    return status, answer
                self.retried += 1
                await asyncio.sleep(wait)

        async def once(reader, writer, path: str, body: dict, key: str):
            data = json.dumps(body).encode()
            head = (
                f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Authorization: Table {table['token']}\r\nContent-Length: {len(data)}\r\n"
                + (f"Idempotency-Key: {key}\r\n" if key else "")
                + "\r\n"
            )
            sent = time.perf_counter()
            writer.write(head.encode() + data)
            await writer.drain()
            status = int((await reader.readline()).split()[1])
            length, wait = 0, 1.0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                elif name.lower() == "retry-after":
                    wait = float(value)
            answer = await reader.readexactly(length)
            self.latencies.append(time.perf_counter() - sent)
            return status, json.loads(answer or b"{}"), wait

        try:
            for record in table["records"]:
                if self.stop.is_set():
                    return
                body = {"record": record, "side": "NS", "pin": table["ns"]}
                status, hand = await post(base, body, uuid.uuid4().hex)
                if status not in (200, 201):
                    if not self.stop.is_set():  # (a 503 answered as the run ends: not refused)
                        self.failures.append(f"submit {status} {str(hand)[:160]}")
                    return
                body = {"version": hand["version"], "side": "EW", "pin": table["ew"]}
                status, done = await post(f"{base}/{hand['number']}/confirm", body)
                if status != 200:
                    if not self.stop.is_set():
                        self.failures.append(f"confirm {status} {str(done)[:160]}")
                    return
        except Exception as error:  # noqa: BLE001 - one table's end, said in the figures
            self.failures.append(f"{type(error).__name__} {error}")
        finally:
            if streams:
                streams[1].close()

    async def run(self) -> None:
        context = self.site.tls()
        self.started = time.perf_counter()
        await asyncio.gather(*(self.table(t, context) for t in self.tables))
        self.ended = time.perf_counter()

    def __enter__(self) -> Tables:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=60)

    def mark(self) -> tuple[int, float]:
        return len(self.latencies), time.perf_counter()

    def figures(self, since: tuple[int, float] | None = None) -> str:
        """The busy tables' requests answered since `mark()` (None: all)."""
        first, start = since or (0, self.started)
        took = (self.ended or time.perf_counter()) - start
        ms = [1000 * t for t in self.latencies[first:]]
        if not ms:
            return f"busy tables: no requests answered {self.failures[:1]}"
        out = "out of planned hands or stopped before the end; " if self.ended else ""
        return (
            f"{out}busy tables: {len(ms) / took:.0f} requests/s (submit + confirm), p50 "
            f"{percentile(ms, 0.5):.0f} ms, p99 {percentile(ms, 0.99):.0f} ms; in all: 503s "
            f"waited out {self.retried}, connections opened again {self.reconnected}, "
            f"refused {len(self.failures)} {self.failures[:1]}"
        )


#: `--cache-pages`: a club's home, event and standings pages kept by the proxy (an experiment).
KEEP_PAGES = """
        location ~ ^/c/[^/]+/(t/[^/]+/(standings/)?)?$ {
            proxy_pass http://tricktable;
            proxy_ignore_headers Set-Cookie Cache-Control Expires Vary;
            proxy_hide_header Set-Cookie;
            proxy_cache_valid 200 %ds;
        }
"""


def keep_pages(site: stack.Stack, seconds: int) -> None:
    """The stack's nginx.conf with KEEP_PAGES before the shared proxy rules (a regular
    expression location listed first is matched first)."""
    conf = site.folder / "nginx.conf"
    text = conf.read_text()
    include = next(line for line in text.splitlines() if "tricktable-proxy.conf" in line)
    conf.write_text(text.replace(include, KEEP_PAGES % seconds + include))


def listening(ports: list[int]) -> list[int]:
    """The processes listening on `ports` on this machine (the two uvicorn processes)."""
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, check=False).stdout
    found = set()
    for line in out.splitlines():
        if any(f":{port} " in line for port in ports):
            found.update(int(pid) for pid in re.findall(r"pid=(\d+)", line))
    return sorted(found)


def measured(url: str, seconds: int, clients: int, servers: list[int]) -> dict:
    """wrk's figures, with the CPU the servers (uvicorn) spent an answer, in ms."""
    before = sum(map(_cpu_seconds, servers))
    result = wrk(url, seconds, clients)
    spent = sum(map(_cpu_seconds, servers)) - before
    result["cpu_ms"] = 1000 * spent / max(1.0, result["rps"] * seconds)
    return result


def readers(url: str, seconds: int, clients: int) -> threading.Thread:
    """wrk on `url` in the background (its figures are not the measurement)."""
    thread = threading.Thread(target=wrk, args=(url, seconds, clients), daemon=True)
    thread.start()
    return thread


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # the finally blocks run
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke sizes")
    parser.add_argument("--ports", default="", help="a range for the servers' ports: 20000-20099")
    parser.add_argument("--database-url", default=f"{PG}/clubs_bench")
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    )
    parser.add_argument("--clubs", type=int, default=200)
    parser.add_argument("--members", type=int, default=40, help="more members a club")
    parser.add_argument("--tables", type=int, default=64, help="the busy club's tables")
    parser.add_argument("--hands", type=int, default=200, help="hands planned a busy table")
    parser.add_argument("--clients", type=int, default=64, help="wrk connections a page")
    parser.add_argument("--seconds", type=int, default=20, help="seconds a wrk run")
    parser.add_argument(
        "--cache-pages",
        type=int,
        default=0,
        help="an experiment: the proxy keeps a club's home, event and standings pages this many "
        "seconds whatever the application says (0: the deployment as it is)",
    )
    args = parser.parse_args()
    if args.quick:
        args.clubs, args.members, args.tables, args.hands, args.seconds = 10, 10, 8, 30, 5
    missing = [t for t in ("wrk", "openssl") if shutil.which(t) is None]
    if stack.nginx() is None:
        missing.append("nginx")
    if missing:
        why = f"needs {', '.join(missing)}"
        for page in ("home", "event", "standings"):
            report.skipped(
                bar=f"Clubs: a quiet club's {page} page while another is busy, p99", why=why
            )
        raise SystemExit(why)

    folder = Path(tempfile.mkdtemp(prefix="tricktable-bench-clubs-"))
    port, first, second = stack.free_ports(3, args.ports)
    try:
        log(f"preparing the site (nginx :{port}, uvicorn :{first} :{second})")
        site = stack.prepare(
            folder,
            database_url=args.database_url,
            redis_url=args.redis_url,
            port=port,
            asgi_ports=[first, second],
            queue=f"clubs-bench-{os.getpid()}",
        )
        if args.cache_pages:
            keep_pages(site, args.cache_pages)
        env = {k: v for k, v in site.env.items() if k != "REDIS_URL"}
        env.update(
            CLUBS=str(args.clubs),
            MEMBERS=str(args.members),
            TABLES=str(args.tables),
            HANDS=str(args.hands),
        )
        started = time.monotonic()
        log(f"{args.clubs} clubs, each an evening played, and the busy club's {args.tables} tables")
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", POPULATE],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=7200,
        )
        data = json.loads(made.stdout.strip().splitlines()[-1])
        log(f"made in {time.monotonic() - started:.0f} s")
        with stack.running(site):
            run(args, site, data)
    finally:
        stack.drop_database(args.database_url)
        log(f"logs: {folder}")


def run(args, site: stack.Stack, data: dict) -> None:
    quiet_club, quiet_event = data["quiet"]
    busy_club, busy_event = data["busy"]
    pages = {
        "home": f"{site.url}/c/{quiet_club}/",
        "event": f"{site.url}/c/{quiet_club}/t/{quiet_event}/",
        "standings": f"{site.url}/c/{quiet_club}/t/{quiet_event}/standings/",
    }
    busy_standings = f"{site.url}/c/{busy_club}/t/{busy_event}/standings/"
    ca = str(site.ca_file)
    os.environ["SSL_CERT_FILE"] = ca  # (wrk does not check certificates; urllib here does)
    import urllib.request

    for name, url in [*pages.items(), ("busy standings", busy_standings)]:
        with urllib.request.urlopen(url, timeout=30, context=site.tls()) as answer:
            log(
                f"{name}: {answer.status}, {len(answer.read()):,} bytes, Cache-Control "
                f"'{answer.headers.get('Cache-Control', '')}', Vary "
                f"'{answer.headers.get('Vary', '')}', cookie set: "
                f"{'yes' if answer.headers.get('Set-Cookie') else 'no'}, proxy "
                f"{answer.headers.get('X-Cache-Status', '-')}"
            )
        wrk(url, 2, args.clients)  # warm both processes
    servers = listening(site.asgi_ports)
    results: dict[str, dict[str, dict]] = {"alone": {}, "busy": {}}
    for name, url in pages.items():
        results["alone"][name] = measured(url, args.seconds, args.clients, servers)
        show("alone", name, results["alone"][name])
    with Tables(site, busy_club, data["tables"]) as tables:
        background = readers(busy_standings, args.seconds * (len(pages) + 1) + 5, args.clients)
        time.sleep(2)  # the busy club under way
        for name, url in pages.items():
            since = tables.mark()
            results["busy"][name] = measured(url, args.seconds, args.clients, servers)
            show("busy club busy", name, results["busy"][name])
            log(tables.figures(since))
    background.join(timeout=args.seconds * 5)
    load = os.getloadavg()
    print(
        f"\nTrickTable, many clubs: {args.clubs} clubs on one PostgreSQL database; a quiet "
        f"club's pages at {args.clients} clients, alone and while the busy club's "
        f"{args.tables} tables submit and confirm and {args.clients} clients read its "
        f"standings{f'; pages kept {args.cache_pages} s by the proxy' if args.cache_pages else ''}"
        f"; {os.cpu_count()} cores, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    print(
        "| page | alone: p50 / p99, req/s, uvicorn CPU an answer | busy club busy: p50 / p99, "
        "req/s | p99 <= 250 ms |"
    )
    print("|---|---|---|---|")
    for name in pages:
        a, b = results["alone"][name], results["busy"][name]
        ok = b["p99"] <= BAR_MS
        print(
            f"| {name} | {a['p50']:.0f} / {a['p99']:.0f} ms, {a['rps']:.0f}/s, "
            f"{a['cpu_ms']:.1f} ms | "
            f"{b['p50']:.0f} / {b['p99']:.0f} ms, {b['rps']:.0f}/s | {'yes' if ok else 'NO'} |"
        )
        report.figure(
            bar=f"Clubs: a quiet club's {name} page while another is busy, p99",
            value=b["p99"],
            unit="ms",
            target=f"<= {BAR_MS} ms",
            ok=ok,
            note=f"{args.clubs} clubs, {args.tables} busy tables; alone p99 {a['p99']:.0f} ms",
            command="bench/clubs.py",
        )
    print(tables.figures())


def show(label: str, name: str, result: dict) -> None:
    log(
        f"{label}, {name}: {result['rps']:.0f}/s, p50 {result['p50']:.1f} ms, p99 "
        f"{result['p99']:.1f} ms (answered within wrk's 10 s), non-2xx/3xx {result['non2xx']} "
        f"{result['errors']}; uvicorn "
        f"CPU an answer {result['cpu_ms']:.1f} ms (the servers' whole CPU, busy club's too)"
    )


if __name__ == "__main__":
    main()

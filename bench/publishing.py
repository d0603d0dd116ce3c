"""Publishing benchmark (issue 32): the room's events reaching the club's site, and the site
serving them, on the deployed stack (deploy/stack.py: nginx with HTTPS, two uvicorn processes,
a Celery worker and beat, PostgreSQL, Redis). Every figure is printed beside a reference
measured in the same run, with the machine's load.

    .venv/bin/python bench/publishing.py                  # full size
    .venv/bin/python bench/publishing.py --quick          # smoke sizes
    .venv/bin/python bench/publishing.py --ports 8400-8449 --redis-url redis://127.0.0.1:6379/6

1. **An evening's publish, end to end.** The laptop runs `manage.py serve` in a network
   namespace of its own (the club's LAN, as tests/evening/ makes it) with PUBLISH_URL set to the
   site's HTTPS address and PUBLISH_CA_FILE to its local authority. The director closes a round
   (the API, as the director's pages do); the figure is the time until the site's public API
   through the proxy shows the round closed. Then the laptop goes offline (its link down), the
   director closes the next round, the link comes back after --offline seconds: the figures are
   the time from the link's return to the round on the site, and from the close. The laptop's
   retry schedule is the default (PUBLISH_RETRY_BASE 5 s, doubling). Reference: one PUT of the
   same event's document straight from this machine to the site.
2. **50 clubs publishing at once**: 50 publishing keys of 50 directors, 50 events (the laptop's
   document under 50 slugs), each club from its own address (127.0.1.N: the site throttles
   publishing per address), all PUT together through the proxy: the wall time for all and each
   PUT's p50/p99; then the same 50 again at once (answered "unchanged"). Reference: one club
   publishing alone, the median of three.
3. **1,000 readers of a published event's standings** through the proxy over HTTPS (wrk, 1,000
   connections each asking again as soon as answered), with the ETag they last read
   (If-None-Match: 304s): p50/p99 and answers a second; without the ETag (full answers); and
   the reference: one reader alone. The answers' Cache-Control and the proxy's X-Cache-Status
   are printed: the proxy keeps only what the application says it may.

Needs root (a network namespace; iproute2), nginx, openssl, wrk, PostgreSQL and Redis. The
database (--database-url, `site_bench` by default) is dropped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402
from bench.api import to_ms  # noqa: E402
from deploy import stack  # noqa: E402
from tests.evening.conftest import free_link, laptop_environment  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"

KEYS = """
from django.contrib.auth import get_user_model
from tournaments.publishing import services
from tournaments.services import Actor
for n in range({count}):
    user = get_user_model().objects.create_user(f"club-{{n}}", password=None)
    print("KEY", services.create_key(actor=Actor(user=user), label=f"club {{n}}")[1])
"""

#: On the laptop: its director, and an event with its first round played, not closed.
EVENT = """
import os, random
from django.contrib.auth import get_user_model
from tournaments import services
from tournaments.services import Actor, PlayerSpec
director = Actor(user=get_user_model().objects.create_superuser(
    "steward", password=os.environ["LAPTOP_PASSWORD"]))
event = services.create_tournament(
    actor=director, name="Thursday Spades", game="spades", rules="standard", format="swiss",
    rounds=4, match_length="target", seed=7)
services.open_registration(tournament=event, actor=director)
for n in range(int(os.environ["TEAMS"])):
    services.register_entry(tournament=event, actor=director, name=f"Team {n + 1}",
        players=[PlayerSpec(f"Player {2 * n + 1}"), PlayerSpec(f"Player {2 * n + 2}")])
for entry in event.entries.all():
    services.check_in(entry=entry, actor=director)
print(event.slug)
"""

#: On the laptop: the next round drawn, published and played to the end (not closed).
PLAY = """
import os, random
from django.contrib.auth import get_user_model
from tournaments import services
from tournaments.demo import simulate
from tournaments.models import Match, Tournament
from tournaments.services import Actor
director = Actor(user=get_user_model().objects.get(username="steward"))
event = Tournament.objects.get(slug=os.environ["SLUG"])
round_ = services.generate_round(tournament=event, actor=director)
services.publish_round(round=round_, actor=director)
rng = random.Random(round_.number)
for match in Match.objects.filter(round=round_, is_bye=False):
    simulate.play_match(match, rng, director=director, hands=event.match_hands or 24)
print(round_.pk, round_.number)
"""

DOCUMENT = """
import json, os
from tournaments.models import Tournament
from tournaments.publishing import payload
print(json.dumps(payload.build(Tournament.objects.get(slug=os.environ["SLUG"]))))
"""


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} load {os.getloadavg()[0]:.1f}] {message}", flush=True)


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


class Lan:
    """The club's LAN: a namespace holding the laptop, a veth pair to this machine."""

    def __init__(self) -> None:
        tag = f"{os.getpid() % 100000}"
        self.namespace, self.outside, self.inside = f"tt-bench-{tag}", f"ttb{tag}a", f"ttb{tag}b"
        self.host, self.address = free_link()
        ip("netns", "add", self.namespace)
        ip("link", "add", self.outside, "type", "veth", "peer", "name", self.inside)
        ip("link", "set", self.inside, "netns", self.namespace)
        ip("addr", "add", f"{self.host}/30", "dev", self.outside)
        ip("link", "set", self.outside, "up")
        ip("-n", self.namespace, "addr", "add", f"{self.address}/30", "dev", self.inside)
        ip("-n", self.namespace, "link", "set", self.inside, "up")
        ip("-n", self.namespace, "link", "set", "lo", "up")

    def run(self, *argv: str) -> list[str]:
        return ["ip", "netns", "exec", self.namespace, *argv]

    def link(self, up: bool) -> None:
        ip("-n", self.namespace, "link", "set", self.inside, "up" if up else "down")

    def remove(self) -> None:
        subprocess.run(["ip", "link", "del", self.outside], capture_output=True, timeout=10)
        subprocess.run(["ip", "netns", "del", self.namespace], capture_output=True, timeout=10)


class Laptop:
    """The evening server in the LAN: its club folder, its director, its process."""

    def __init__(self, lan: Lan, folder: Path, port: int) -> None:
        self.lan, self.club, self.port = lan, folder, port
        self.password = secrets.token_urlsafe(16)
        self.process: subprocess.Popen | None = None
        self.token = ""

    def env(self, **extra: str) -> dict[str, str]:
        return laptop_environment(
            self.club, TRICKTABLE_SERVER="evening", LAPTOP_PASSWORD=self.password, **extra
        )

    def manage(self, *args: str, **extra: str) -> str:
        done = subprocess.run(
            self.lan.run(sys.executable, "manage.py", *args),
            cwd=ROOT,
            env=self.env(**extra),
            check=True,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        return done.stdout

    def start(self, **extra: str) -> None:
        self.log = open(self.club / "serve.log", "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            self.lan.run(sys.executable, "manage.py", "serve", "--port", str(self.port)),
            cwd=ROOT,
            env=self.env(**extra),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 300
        while not stack.answers(f"{self.url}/api/v1/"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(
                    f"the laptop did not start: {(self.club / 'serve.log').read_text()}"
                )
            time.sleep(0.2)
        self.token = self.call("auth/tokens", {"username": "steward", "password": self.password})[
            "secret"
        ]

    @property
    def url(self) -> str:
        return f"http://{self.lan.address}:{self.port}"

    def call(self, path: str, body: dict, *, inside: bool = False) -> dict:
        """A POST to the laptop's API: from this machine over the LAN, or (`inside`) from the
        laptop itself (its link may be down)."""
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if inside:
            script = (
                "import json, sys, urllib.request; "
                f"r = urllib.request.Request('http://127.0.0.1:{self.port}/api/v1/{path}', "
                f"data=sys.stdin.buffer.read(), method='POST', headers={headers!r}); "
                "print(urllib.request.urlopen(r, timeout=60).read().decode())"
            )
            done = subprocess.run(
                self.lan.run(sys.executable, "-c", script),
                input=json.dumps(body).encode(),
                capture_output=True,
                check=True,
                timeout=120,
            )
            return json.loads(done.stdout or b"{}")
        request = urllib.request.Request(
            f"{self.url}/api/v1/{path}", data=json.dumps(body).encode(), headers=headers
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read() or b"{}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.log.close()


def round_closed_on_site(site: stack.Stack, slug: str, number: int) -> bool:
    try:
        with urllib.request.urlopen(
            f"{site.url}/api/v1/tournaments/{slug}/rounds", timeout=10, context=site.tls()
        ) as answer:
            rounds = json.loads(answer.read())
    except (urllib.error.URLError, OSError, ValueError):
        return False
    rows = rounds.get("results", rounds) if isinstance(rounds, dict) else rounds
    return any(r.get("number") == number and r.get("state") == "closed" for r in rows)


def wait_for(probe, limit: float) -> float:
    """Seconds until `probe()` is true (polled every 50 ms)."""
    start = time.monotonic()
    while not probe():
        if time.monotonic() - start > limit:
            raise SystemExit(f"not seen within {limit:.0f} s")
        time.sleep(0.05)
    return time.monotonic() - start


def put(site: stack.Stack, slug: str, key: str, body: bytes, source: str) -> tuple[float, int, str]:
    """One publish from `source` (a loopback address of its own): seconds, status, outcome."""
    host, port = stack.LOOPBACK, int(site.url.rsplit(":", 1)[1])
    connection = http.client.HTTPSConnection(
        host, port, context=site.tls(), timeout=120, source_address=(source, 0)
    )
    start = time.perf_counter()
    try:
        connection.request(
            "PUT",
            f"/api/v1/publish/{slug}",
            body=body,
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        )
        answer = connection.getresponse()
        data = answer.read()
        took = time.perf_counter() - start
        try:
            outcome = str(json.loads(data).get("outcome") or json.loads(data).get("code"))
        except ValueError:
            outcome = data[:80].decode(errors="replace")
        return took, answer.status, outcome
    finally:
        connection.close()


def wrk(url: str, seconds: int, connections: int, script: str | None = None) -> dict:
    """wrk's figures for `connections` readers, each asking again as soon as answered."""
    threads = min(2, connections)
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    command += ["--timeout", "10s", *(["-s", script] if script else []), url]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": to_ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1)),
        "p99": to_ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1)),
        "non2xx": int(bad.group(1)) if bad else 0,
        "errors": errors.group(1) if errors else "",
    }


def as_slug(document: dict, slug: str) -> bytes:
    copy = json.loads(json.dumps(document))
    copy["tournament"]["slug"] = slug
    return json.dumps(copy).encode()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # the finally blocks run
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke sizes")
    parser.add_argument("--ports", default="", help="a range for the servers' ports: 8400-8449")
    parser.add_argument("--database-url", default=f"{PG}/site_bench")
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    )
    parser.add_argument("--clubs", type=int, default=50)
    parser.add_argument("--readers", type=int, default=1000)
    parser.add_argument("--teams", type=int, default=16)
    parser.add_argument("--offline", type=float, default=20.0, help="seconds the laptop is off")
    parser.add_argument("--seconds", type=int, default=20, help="seconds per wrk run")
    args = parser.parse_args()
    if args.quick:
        args.clubs, args.readers, args.teams, args.offline, args.seconds = 5, 100, 4, 3.0, 5
    missing = [t for t in ("wrk", "openssl", "ip") if shutil.which(t) is None]
    if stack.nginx() is None:
        missing.append("nginx")
    if missing or os.geteuid() != 0:
        why = f"needs {', '.join(missing) or 'root'} (a network namespace, the proxy, wrk)"
        for bar in (
            "Publishing: round closed on the laptop -> on the site (online)",
            "Publishing: clubs publishing at once, all done (first publish)",
            "Publishing: readers of the standings through the proxy (ETag), p99",
        ):
            report.skipped(bar=bar, why=why)
        raise SystemExit(why)

    folder = Path(tempfile.mkdtemp(prefix="tricktable-bench-site-"))
    port, first, second, laptop_port = stack.free_ports(4, args.ports)
    lan = Lan()
    laptop = Laptop(lan, folder / "club", laptop_port)
    laptop.club.mkdir()
    try:
        log(f"preparing the site (nginx :{port}, uvicorn :{first} :{second}) and the laptop")
        with ThreadPoolExecutor(1) as pool:
            room = pool.submit(
                lambda: (
                    laptop.manage("migrate", "--noinput", "-v0"),
                    laptop.manage("shell", "-c", EVENT, TEAMS=str(args.teams)).split()[-1],
                )[1]
            )
            site = stack.prepare(
                folder / "site",
                database_url=args.database_url,
                redis_url=args.redis_url,
                port=port,
                addresses=[lan.host, stack.LOOPBACK],
                asgi_ports=[first, second],
                queue=f"site-bench-{os.getpid()}",
            )
            made = site.manage("shell", "-c", KEYS.format(count=args.clubs + 2))
            keys = [line.split()[1] for line in made.splitlines() if line.startswith("KEY ")]
            slug = room.result()
        with stack.running(site):
            run(args, site, keys, lan, laptop, slug)
    finally:
        laptop.stop() if laptop.process else None
        lan.remove()
        stack.drop_database(args.database_url)
        log(f"logs: {folder}")


def run(args, site: stack.Stack, keys: list[str], lan: Lan, laptop: Laptop, slug: str) -> None:
    room_key, solo_key, club_keys = keys[0], keys[1], keys[2:]
    log(f"site up: {site.url}; the laptop plays round 1 ({args.teams} teams)")
    round_id, number = laptop.manage("shell", "-c", PLAY, SLUG=slug).split()[-2:]
    laptop.start(
        PUBLISH_URL=f"https://{lan.host}:{site.url.rsplit(':', 1)[1]}",
        PUBLISH_KEY=room_key,
        PUBLISH_CA_FILE=str(site.ca_file),
    )
    # 1. Online: round closed on the laptop -> on the site.
    laptop.call(f"rounds/{round_id}/close", {})
    online = wait_for(lambda: round_closed_on_site(site, slug, int(number)), 120)
    document = json.loads(laptop.manage("shell", "-c", DOCUMENT, SLUG=slug).splitlines()[-1])
    body = json.dumps(document).encode()
    log(f"round {number} closed -> on the site: {online:.2f} s; document {len(body):,} bytes")

    # 1b. Offline, then back.
    round_id, number = laptop.manage("shell", "-c", PLAY, SLUG=slug).split()[-2:]
    lan.link(up=False)
    closed = time.monotonic()
    laptop.call(f"rounds/{round_id}/close", {}, inside=True)
    time.sleep(max(0.0, args.offline - (time.monotonic() - closed)))
    assert not round_closed_on_site(site, slug, int(number))
    lan.link(up=True)
    back = time.monotonic()
    wait_for(lambda: round_closed_on_site(site, slug, int(number)), 900)
    seen = time.monotonic()
    log(
        f"offline {back - closed:.1f} s: link back -> on the site {seen - back:.2f} s, "
        f"closed -> on the site {seen - closed:.2f} s"
    )
    laptop.stop()

    # Reference: one PUT of the same document, straight from here.
    solo = [
        put(site, f"solo-{n}", solo_key, as_slug(document, f"solo-{n}"), "127.0.2.1")
        for n in range(3)
    ]
    reference = statistics.median(t for t, _, _ in solo)
    log(f"reference: one PUT of the event ({[o for _, _, o in solo]}), median {reference:.2f} s")
    report.figure(
        bar="Publishing: round closed on the laptop -> on the site (online)",
        value=online,
        unit="s",
        note=f"{args.teams} teams; one PUT alone {reference:.2f} s",
    )
    report.figure(
        bar="Publishing: laptop back online -> round on the site",
        value=seen - back,
        unit="s",
        note=f"offline {back - closed:.0f} s, closed -> on the site {seen - closed:.1f} s, "
        "retries 5 s doubling",
    )

    # 2. Many clubs at once.
    bodies = [as_slug(document, f"club-{n}-thursday") for n in range(args.clubs)]

    def together() -> tuple[float, list[tuple[float, int, str]]]:
        barrier = threading.Barrier(args.clubs)

        def one(n: int) -> tuple[float, int, str]:
            barrier.wait()
            return put(site, f"club-{n}-thursday", club_keys[n], bodies[n], f"127.0.1.{n + 1}")

        started = time.perf_counter()
        with ThreadPoolExecutor(args.clubs) as pool:
            results = list(pool.map(one, range(args.clubs)))
        return time.perf_counter() - started, results

    for label in ("first publish", "again, unchanged"):
        wall, results = together()
        times = [t for t, _, _ in results]
        outcomes = sorted({f"{s} {o}" for _, s, o in results})
        log(
            f"{args.clubs} clubs at once, {label}: all in {wall:.2f} s; each p50 "
            f"{percentile(times, 0.5):.2f} s, p99 {percentile(times, 0.99):.2f} s {outcomes}; "
            f"reference one club alone {reference:.2f} s"
        )
        report.figure(
            bar=f"Publishing: clubs publishing at once, all done ({label})",
            value=wall,
            unit="s",
            note=f"{args.clubs} clubs; each p99 {percentile(times, 0.99):.2f} s; one alone "
            f"{reference:.2f} s; {outcomes}",
        )

    # 3. Readers.
    standings = f"{site.url}/api/v1/tournaments/{slug}/standings"
    with urllib.request.urlopen(standings, timeout=30, context=site.tls()) as answer:
        etag, cache_control = answer.headers["ETag"], answer.headers.get("Cache-Control", "")
        size = len(answer.read())
    with urllib.request.urlopen(standings, timeout=30, context=site.tls()) as answer:
        cache_status = answer.headers.get("X-Cache-Status", "")
    log(f"standings: {size:,} bytes, Cache-Control '{cache_control}', proxy says {cache_status}")
    script = Path(site.folder) / "etag.lua"
    script.write_text(f"wrk.headers[\"If-None-Match\"] = '{etag}'\n")
    alone = wrk(standings, args.seconds, 1, script=str(script))
    with_etag = wrk(standings, args.seconds, args.readers, script=str(script))
    without = wrk(standings, args.seconds, args.readers)
    for label, result in (
        ("1 reader, If-None-Match (reference)", alone),
        (f"{args.readers} readers, If-None-Match", with_etag),
        (f"{args.readers} readers, no ETag", without),
    ):
        log(
            f"{label}: {result['rps']:.0f}/s, p50 {result['p50']:.1f} ms, p99 "
            f"{result['p99']:.1f} ms, non-2xx/3xx {result['non2xx']} {result['errors']}"
        )
    report.figure(
        bar="Publishing: readers of the standings through the proxy (ETag), p99",
        value=with_etag["p99"] / 1000,
        unit="s",
        note=f"{args.readers} readers; {with_etag['rps']:.0f}/s, p50 {with_etag['p50']:.0f} ms; "
        f"one reader p99 {alone['p99']:.1f} ms; no ETag p99 {without['p99']:.0f} ms; Cache-Control "
        f"'{cache_control}' ({cache_status})",
    )


if __name__ == "__main__":
    main()

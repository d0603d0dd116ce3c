"""The club's site as it is deployed (docs/deployment.md), and the evening laptop publishing to
it across the test LAN.

The site is the stack `make site` runs (deploy/stack.py, deploy/Procfile under honcho): nginx
serving HTTPS with a certificate of a local certificate authority made for this test, two
uvicorn processes behind it, a Celery worker and Celery beat, on a PostgreSQL database of its
own and the suite's Redis (its own queue and cache keys). The laptop is `manage.py serve` inside
a network namespace of its own (tests/evening/conftest.py), told the site's HTTPS address, its
publishing key and the authority to trust (PUBLISH_CA_FILE). The director closes a round on the
laptop; the event appears on the site, read back over HTTPS through the proxy.

Skipped, with the reason, where nginx, openssl, PostgreSQL, Redis or network namespaces are
missing (a failure in CI, which has them all). Its ports: TRICKTABLE_PORTS=8400-8449 to choose
them within a range, else the system's free ports.
"""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
import shutil
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from deploy import stack
from tests import waiting
from tests.conftest import require
from tests.evening import conftest as evening
from tests.evening.conftest import Lan, laptop_environment, migrated_club, start, wait_until_up

pytestmark = pytest.mark.postgres

#: The evening tests' LAN (their fixture `lan`, here as `the_lan`): the laptop in a network
#: namespace of its own.
the_lan = evening.lan

SYSTEMD = stack.DEPLOY / "systemd"

#: The site's director and a publishing key of theirs (the key printed, last line).
MAKE_KEY = """
from django.contrib.auth import get_user_model
from tournaments.publishing import services
from tournaments.services import Actor
user = get_user_model().objects.create_user("site-director", password="not-the-room's")
print(services.create_key(actor=Actor(user=user), label="room")[1])
"""

#: On the laptop, by a director of its own: a small Spades Swiss whose first round is played
#: to the end but not closed. Prints the event's slug and the round's id.
PLAY_A_ROUND = """
import os, random
from django.contrib.auth import get_user_model
from tournaments import services
from tournaments.demo import simulate
from tournaments.models import Match
from tournaments.services import Actor, PlayerSpec
director = Actor(user=get_user_model().objects.create_superuser(
    "steward", password=os.environ["LAPTOP_PASSWORD"]
))
rng = random.Random(7)
event = services.create_tournament(
    actor=director, name="Thursday Spades", game="spades", rules="standard", format="swiss",
    rounds=3, match_length="target", seed=7,
)
services.open_registration(tournament=event, actor=director)
for number in range(4):
    services.register_entry(
        tournament=event, actor=director, name=f"Team {number + 1}",
        players=[PlayerSpec(f"Player {2 * number + 1}"), PlayerSpec(f"Player {2 * number + 2}")],
    )
for entry in event.entries.all():
    services.check_in(entry=entry, actor=director)
round_ = services.generate_round(tournament=event, actor=director)
services.publish_round(round=round_, actor=director)
for match in Match.objects.filter(round=round_, is_bye=False):
    simulate.play_match(match, rng, director=director, hands=event.match_hands or 24)
print(event.slug, round_.pk)
"""


def _postgres_url(name: str) -> str:
    url = os.environ.get("DATABASE_URL", "")
    require(
        url.startswith(("postgres://", "postgresql://")),
        "needs PostgreSQL for the site: DATABASE_URL is not postgres://",
    )
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", "", ""))


def _tools() -> None:
    require(stack.nginx() is not None, "needs nginx for the site's proxy (apt-get install nginx)")
    require(shutil.which("openssl") is not None, "needs openssl for the site's certificates")
    require(stack.honcho() is not None, "needs honcho (make venv: requirements-dev.txt)")
    require(bool(os.environ.get("REDIS_URL")), "needs Redis for the site: REDIS_URL is not set")


def get(url: str, context, headers: dict[str, str] | None = None) -> tuple[int, Message, bytes]:
    """(status, headers (names in any case), body)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30, context=context) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read()


def post(url: str, body: dict, headers: dict[str, str] | None = None) -> dict:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"{}")


def shared_cache_may_keep(cache_control: str) -> bool:
    """What nginx's documented rules say of an answer's Cache-Control: kept when it gives a
    positive max-age or s-maxage and says none of private, no-cache, no-store."""
    words = [w.strip().lower() for w in cache_control.split(",") if w.strip()]
    if any(w in ("private", "no-cache", "no-store") for w in words):
        return False
    ages = [w.split("=", 1)[1] for w in words if w.startswith(("max-age=", "s-maxage="))]
    return any(a.isdigit() and int(a) > 0 for a in ages)


@dataclass
class Laptop:
    club: Path
    slug: str
    round_id: str
    password: str


def prepare_laptop(lan: Lan, club: Path) -> Laptop:
    """The laptop's club folder, migrated, with an event whose first round is played and open
    (on the laptop, in its namespace, before its server starts). Its database starts as a copy
    of one migrated once per worker (`servers.migrated_sqlite`): the laptop's `migrate` then
    checks it, with nothing left to do."""
    password = secrets.token_urlsafe(16)
    env = laptop_environment(club, TRICKTABLE_SERVER="evening", LAPTOP_PASSWORD=password)
    manage = [*lan.run(), sys.executable, "manage.py"]
    migrated_club(club)
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=stack.ROOT, env=env, check=True)
    played = subprocess.run(
        [*manage, "shell", "-c", PLAY_A_ROUND],
        cwd=stack.ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    slug, round_id = played.stdout.split()[-2:]
    return Laptop(club=club, slug=slug, round_id=round_id, password=password)


@pytest.fixture(scope="module")
def site(the_lan: Lan, tmp_path_factory):
    """The site's stack, listening on the host's side of the test LAN (and loopback); and,
    prepared meanwhile, the laptop's club folder."""
    _tools()
    database_url = _postgres_url(f"site_stack_{os.getpid()}_{uuid.uuid4().hex[:6]}")
    host = str(ipaddress.ip_address(the_lan.address) - 1)  # the /30's other end: this machine
    port, first, second = stack.free_ports(3, os.environ.get("TRICKTABLE_PORTS", ""))
    with ThreadPoolExecutor(1) as pool:
        laptop = pool.submit(prepare_laptop, the_lan, tmp_path_factory.mktemp("club"))
        prepared = stack.prepare(
            tmp_path_factory.mktemp("club-site"),
            database_url=database_url,
            redis_url=os.environ["REDIS_URL"],
            port=port,
            addresses=[host, stack.LOOPBACK],
            asgi_ports=[first, second],
            queue=f"site-test-{uuid.uuid4().hex[:8]}",
        )
        try:
            key = prepared.manage("shell", "-c", MAKE_KEY).strip().splitlines()[-1]
            with stack.running(prepared) as running:
                try:
                    yield running, key, laptop.result()
                except BaseException:
                    print(f"----- the site's processes -----\n{running.log()}", file=sys.stderr)
                    raise
        finally:
            stack.drop_database(database_url)


def test_a_round_closed_on_the_laptop_appears_on_the_site_over_https(site, the_lan):
    running, key, room = site
    tls = running.tls()
    assert running.url.startswith("https://")

    laptop = start(
        the_lan.run(),
        room.club,
        stack.free_ports(1, os.environ.get("TRICKTABLE_PORTS", ""))[0],
        PUBLISH_URL=running.url,
        PUBLISH_KEY=key,
        PUBLISH_CA_FILE=str(running.ca_file),
        PUBLISH_RETRY_BASE="1",
    )
    slug = room.slug
    try:
        wait_until_up(f"{laptop.public_url}/", laptop)
        # The director closes the round on the laptop, as the API's clients do.
        token = post(
            f"{laptop.public_url}/api/v1/auth/tokens",
            {"username": "steward", "password": room.password, "label": "test"},
        )["secret"]
        post(
            f"{laptop.public_url}/api/v1/rounds/{room.round_id}/close",
            {},
            {"Authorization": f"Token {token}"},
        )

        # On the site, through nginx, over HTTPS checked against the local authority.
        def published() -> bytes | None:
            status, _, body = get(f"{running.url}/t/{slug}/", tls)
            return body if status == 200 else None

        page = waiting.until(published, "the event on the site", seconds=60).decode()
        assert "Thursday Spades" in page
        assert "Published from the room" in page
    finally:
        laptop.stop()

    # The live standings through the proxy: an ETag, and 304 for a reader who has it (once the
    # site's worker has computed them for the event just received: the ETag then holds).
    standings = f"{running.url}/api/v1/tournaments/{slug}/standings"

    def conditional():
        status, headers, body = get(standings, tls)
        assert status == 200, body[:300]
        status, again, _ = get(standings, tls, {"If-None-Match": headers["ETag"]})
        return (body, headers["ETag"], again) if status == 304 else None

    body, etag, again = waiting.until(conditional, "a 304 for the standings' ETag", seconds=30)
    assert "Team 1" in body.decode()
    assert again.get("ETag") == etag

    # The micro-cache follows Cache-Control: kept where the answer allows it, never otherwise.
    status, first, _ = get(standings, tls)
    status, second, _ = get(standings, tls)
    keeps = shared_cache_may_keep(first.get("Cache-Control", ""))
    assert (second.get("X-Cache-Status") == "HIT") is keeps, (first, second)
    page_headers = get(f"{running.url}/t/{slug}/", tls)[1]
    assert page_headers.get("X-Cache-Status") != "HIT" or shared_cache_may_keep(
        page_headers.get("Cache-Control", "")
    )

    # A public page, read by visitors who are not signed in, says it may be kept a few seconds
    # (PUBLIC_PAGE_MAX_AGE) and sets no cookie: the next reader within them is answered by the
    # proxy, without Django.
    page = f"{running.url}/t/{slug}/standings/"

    def kept_page():
        status, first, _ = get(page, tls)
        assert status == 200 and "Set-Cookie" not in first, first
        assert shared_cache_may_keep(first.get("Cache-Control", "")), first
        return get(page, tls)[1].get("X-Cache-Status") == "HIT" or None

    waiting.until(kept_page, "the public page answered from the proxy's cache", seconds=30)

    # Static files say `public, max-age=…`: the second reader is answered from the cache.
    manifest = json.loads((stack.ROOT / "staticfiles" / "staticfiles.json").read_text())
    static = f"{running.url}/static/{sorted(manifest['paths'].values())[0]}"
    status, headers, _ = get(static, tls)
    assert status == 200 and shared_cache_may_keep(headers["Cache-Control"])
    kept = get(static, tls)[1]
    assert kept.get("X-Cache-Status") == "HIT"
    if kept.get("ETag"):  # a reader who has it: 304 from the proxy's copy
        status, again, _ = get(static, tls, {"If-None-Match": kept["ETag"]})
        assert (status, again.get("X-Cache-Status")) == (304, "HIT")

    # The site's worker took the site's tasks from its own queue (its start-up sweep), and
    # beat runs.
    log = running.log()
    assert "Task tournaments.sweep_standings" in log and "succeeded" in log
    assert "beat: Starting" in log

    # A client that does not trust the local authority refuses the certificate.
    with pytest.raises(urllib.error.URLError) as refused:
        urllib.request.urlopen(f"{running.url}/api/v1/", timeout=10)
    assert isinstance(refused.value.reason, ssl.SSLCertVerificationError)


def test_the_systemd_units_verify(tmp_path):
    """`systemd-analyze verify` on the units, with this checkout in place of /srv/tricktable
    (the programs they start must exist) and one instance of the ASGI template."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (systemd)")
    root = str(stack.ROOT)
    units = []
    for unit in sorted(SYSTEMD.glob("tricktable*")):
        text = unit.read_text().replace("/srv/tricktable", root)
        name = unit.name.replace("@.service", "@8001.service")
        (tmp_path / name).write_text(text)
        units.append(str(tmp_path / name))
    assert len(units) == 5
    done = subprocess.run(
        [analyze, "verify", "--man=no", *units],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if str(tmp_path) in line] == []


def test_the_units_and_the_procfile_run_the_same_processes():
    """What systemd runs in production is what `make site` runs: uvicorn on config.asgi, a
    Celery worker and Celery beat, on the same settings' names."""
    procfile = (stack.DEPLOY / "Procfile").read_text()
    units = {p.name: p.read_text() for p in SYSTEMD.glob("tricktable*")}
    assert "uvicorn config.asgi:application" in units["tricktable-web@.service"]
    assert procfile.count("uvicorn config.asgi:application") >= 2
    for word in ("celery -A config worker", "celery -A config beat"):
        assert word in procfile
        assert any(word in text for text in units.values())
    assert "--forwarded-allow-ips" in units["tricktable-web@.service"]
    assert (
        Path(stack.DEPLOY / "nginx" / "tricktable.conf")
        .read_text()
        .count("include /srv/tricktable/deploy/nginx/tricktable-proxy.conf")
        == 1
    )

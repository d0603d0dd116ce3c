"""The room publishes to a real second server: the same codebase under uvicorn, in production
mode, on an SQLite file of its own (the club's site). The laptop starts offline (the site not
running): the try fails and waits; the site comes up: the event goes through, again unchanged,
then a correction in the room replaces it; the site's public page shows it, published from the
room, and the site's database holds no idempotency key nor account of the room's."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone

from tests import servers
from tournaments import services as workflows
from tournaments.models import HandSubmission, Publication
from tournaments.publishing import services

pytestmark = pytest.mark.django_db

#: The club site's port: one free when the module is loaded (it was a fixed 18830, which two
#: test runs on one machine would both have used).
PORT = servers.free_port()


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=servers.ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return done.stdout


MAKE_KEY = """
from django.contrib.auth import get_user_model
from tournaments.publishing import services
from tournaments.services import Actor
user = get_user_model().objects.create_user("site-director", password="not-the-room's")
print(services.create_key(actor=Actor(user=user), label="room")[1])
"""


@pytest.fixture(scope="module")
def site_env(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("club-site")
    env = servers.production_env(
        DATABASE_URL=f"sqlite:///{folder / 'site.sqlite3'}", LOG_LEVEL="WARNING"
    )
    servers.migrated_sqlite(folder / "site.sqlite3")
    servers.collect_static(env)
    env["SITE_KEY"] = manage(env, "shell", "-c", MAKE_KEY).strip().splitlines()[-1]
    env["SITE_DATABASE"] = str(folder / "site.sqlite3")
    return env


def test_the_room_publishes_to_the_club_site_once_it_is_online(room_event, site_env, settings):
    settings.PUBLISH_URL = f"http://127.0.0.1:{PORT}"
    settings.PUBLISH_KEY = site_env["SITE_KEY"]
    settings.PUBLISH_TIMEOUT = 30
    slug = room_event.slug
    start = timezone.now()
    services.request_publish(tournament_id=room_event.pk, reason="now", now=start)
    offline = services.send(tournament_id=room_event.pk, now=start)
    assert (offline.state, offline.error_code) == (Publication.State.RETRYING, "site-unreachable")

    with servers.uvicorn(site_env, port=PORT) as site:
        assert services.due(now=offline.next_attempt_at) == [room_event.pk]
        sent = services.send(tournament_id=room_event.pk, now=offline.next_attempt_at)
        assert (sent.state, sent.last_outcome) == (Publication.State.SENT, "created"), (
            sent.error_code,
            sent.error_detail,
        )
        assert sent.site_url == f"{site.url}/t/{slug}/" or slug in sent.site_url

        services.request_publish(tournament_id=room_event.pk, reason="now")
        assert services.send(tournament_id=room_event.pk).last_outcome == "unchanged"

        # A correction in the room, carried to the site by the next publish.
        director = workflows.Actor(user=room_event.directors.get())
        confirmed = (
            HandSubmission.objects.filter(
                hand__match__round__tournament=room_event, status="confirmed", is_current=True
            )
            .order_by("hand_id")
            .first()
        )
        record = {
            k: v
            for k, v in confirmed.record.items()
            if k not in ("format", "game", "rules", "before")
        }
        workflows.correct_hand(
            hand=confirmed.hand,
            actor=director,
            record=record,
            expected_version=confirmed.version,
            reason="late correction",
        )
        services.request_publish(tournament_id=room_event.pk, reason="round-closed:round 2")
        assert services.send(tournament_id=room_event.pk).last_outcome == "updated"

        request = urllib.request.Request(f"{site.url}/t/{slug}/", headers={"Accept-Language": "ja"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            page = answer.read().decode()
        assert "会場から公開" in page
        assert room_event.name in page
        assert services.due(now=timezone.now() + timedelta(days=1)) == []

    with sqlite3.connect(site_env["SITE_DATABASE"]) as db:
        tournaments = db.execute("select slug from tournaments_tournament").fetchall()
        reasons = db.execute(
            "select count(*) from tournaments_handsubmission where reason = 'late correction'"
        ).fetchone()[0]
        keys = db.execute(
            "select count(*) from tournaments_handsubmission where idempotency_key is not null"
        ).fetchone()[0]
        users = {row[0] for row in db.execute("select username from auth_user")}
    assert tournaments == [(slug,)]
    assert reasons == 1 and keys == 0
    assert users == {"site-director"}  # no account of the room's came along

"""The director's zip from a real server: uvicorn in production mode on an SQLite file of its
own, the director signed in through the sign-in page. The server makes the zip by running
`manage.py export_site` as a child process with its own environment, so the child reads the
server's database (a test database inside this pytest process would be out of the child's
sight); the zip is read back here and checked like any static site (tests/staticsite/checks.py).
"""

from __future__ import annotations

import http.cookiejar
import io
import re
import subprocess
import sys
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests import servers
from tests.staticsite.checks import problems

#: This helper's port range is 8500-8549 (tests/servers.py picks a free one otherwise).
PORT = 8501
PASSWORD = "a-long-director-password-7"

#: Run by `manage.py shell` in the server's database: a director, a Swiss of four teams with one
#: round played and closed through the real services; prints the event's slug.
MAKE_EVENT = f"""
from django.contrib.auth import get_user_model
from tests.tournaments.conftest import play_round
from tournaments import services
from tournaments.services import Actor
user = get_user_model().objects.create_user("td", password={PASSWORD!r})
director = Actor(user=user)
event = services.create_tournament(
    actor=director, name="Zip Night Spades", game="spades", rules="standard", format="swiss",
    rounds=3,
)
event = services.open_registration(tournament=event, actor=director)
for n in range(1, 5):
    services.register_entry(
        tournament=event, actor=director, players=[f"Zip{{n}} North", f"Zip{{n}} South"],
        name=f"Zip Team {{n}}",
    )
play_round(event, director)
print(event.slug)
"""


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


@pytest.fixture(scope="module")
def server_env(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("zip-server")
    # Quick password hashing: the director's password is made and checked once each, and this
    # test is about the zip, not about hashing.
    env = servers.production_env(
        DATABASE_URL=f"sqlite:///{folder / 'club.sqlite3'}",
        LOG_LEVEL="WARNING",
        HTTPS="false",
        DJANGO_SETTINGS_MODULE=servers.QUICK_PASSWORDS_SETTINGS,
    )
    # A copy of a database migrated once per worker: this test is not about a migrate from
    # nothing, which costs seconds of CPU.
    servers.migrated_sqlite(folder / "club.sqlite3")
    servers.collect_static(env)
    env["EVENT_SLUG"] = manage(env, "shell", "-c", MAKE_EVENT).strip().splitlines()[-1]
    return env


def signed_in(server: servers.Server) -> urllib.request.OpenerDirector:
    """An opener holding the director's session, signed in as a browser does (the sign-in
    page's CSRF cookie and token)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login = f"{server.url}/accounts/login/"
    with opener.open(login, timeout=30) as response:
        page = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": "td", "password": PASSWORD}
    ).encode()
    request = urllib.request.Request(login, data=body, headers={"Referer": login})
    with opener.open(request, timeout=30) as response:
        assert "/accounts/login/" not in response.url, "the director was not signed in"
    return opener


def test_the_director_downloads_the_site_made_by_a_child_process(server_env, tmp_path):
    slug = server_env["EVENT_SLUG"]
    with servers.uvicorn(server_env, port=PORT) as server:
        opener = signed_in(server)
        with opener.open(f"{server.url}/director/{slug}/static-site.zip", timeout=300) as answer:
            assert answer.status == 200
            assert answer.headers["Content-Disposition"].startswith("attachment")
            assert answer.headers["Content-Type"] == "application/zip"
            body = answer.read()
        # The server answers others meanwhile and after, unchanged.
        with urllib.request.urlopen(f"{server.url}/t/{slug}/", timeout=30) as page:
            assert page.status == 200
        log = server.log()

    archive = zipfile.ZipFile(io.BytesIO(body))
    top = f"{slug}-site"
    names = archive.namelist()
    assert all(name.startswith(f"{top}/") for name in names)
    for name in ("index.html", "ja/index.html", f"t/{slug}/standings/index.html"):
        assert f"{top}/{name}" in names, name
    assert f"{top}/t/{slug}/rounds/1/index.html" in names
    archive.extractall(tmp_path)
    site = Path(tmp_path) / top
    assert problems(site) == []
    standings = (site / f"t/{slug}/standings/index.html").read_text(encoding="utf-8")
    for n in range(1, 5):
        assert f"Zip Team {n}" in standings
    assert '<html lang="ja">' in (site / "ja/index.html").read_text(encoding="utf-8")
    assert "Traceback" not in log

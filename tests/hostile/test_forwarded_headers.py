"""X-Forwarded-For under uvicorn run exactly as the README says (issue 30, item 1).

uvicorn's own default believes proxy headers from 127.0.0.1 and rewrites the client's address
from them: a client reaching the server through a local proxy or tunnel chose a new address
with every guess, and neither the sign-in lockout nor the API's login throttle ever held (14
wrong passwords then the right one → 201; 7 wrong then right on /accounts/login/ → signed
in). The README's production line is read from the README and run as written (the interpreter
of this test run for `.venv/bin/uvicorn`, this machine's loopback and a free port for
`--host 0.0.0.0 --port 8000`), through the shell, so `"$TRUSTED_PROXIES"` is expanded as on a
server: unset, no proxy is trusted; set, only the proxy it names is, and only the address that
proxy appended counts.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import shlex
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2SHA1PasswordHasher

from tests import servers

README = (Path(__file__).parents[2] / "README.md").read_text()
PASSWORD = "the-right-pass-42"
LIMIT = 5  # AXES_FAILURE_LIMIT's default


def readme_uvicorn_line() -> str:
    """The README's production uvicorn command, continuation lines joined, comment dropped."""
    found = re.search(r"^\.venv/bin/uvicorn config\.asgi:application(?:.*\\\n)*.*$", README, re.M)
    assert found, "the README has no `.venv/bin/uvicorn config.asgi:application` line"
    line = found.group(0).replace("\\\n", " ")
    return line.split("#", 1)[0].strip()


def server_command(line: str) -> list[str]:
    """The README's line as this test runs it: same flags, on loopback and a free port."""
    assert "--host 0.0.0.0 --port 8000" in line, line
    line = line.replace("--host 0.0.0.0 --port 8000", f"--host {servers.HOST} --port {{port}}")
    line = line.replace(".venv/bin/uvicorn", f"exec {shlex.quote(sys.executable)} -m uvicorn", 1)
    return ["bash", "-c", line]


def test_the_readme_line_names_the_trusted_proxies():
    line = readme_uvicorn_line()
    assert '--forwarded-allow-ips "$TRUSTED_PROXIES"' in line
    assert "--workers 2" in line


class QuickHasher(PBKDF2SHA1PasswordHasher):
    """PBKDF2-SHA1 (a hasher the server's settings accept) at a thousand rounds.

    The server checks a wrong password against the stored hash at the rounds that hash names;
    stored with the default's, each of the tests' wrong guesses before the lockout cost the
    server as much CPU as signing in does in use. The lockout counts failures whatever the
    hash costs, so these tests store a cheap one. (The stored hash being another algorithm than
    the server's first hasher, Django does not pad a failure's time to the default's rounds; a
    right password is stored again with the default's, as in use.)"""

    iterations = 1000


def quick_hash(password: str) -> str:
    hasher = QuickHasher()
    return hasher.encode(password, hasher.salt())


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> dict[str, str]:
    """A migrated SQLite database with a director (`td`) and a superuser (`boss`)."""
    path = tmp_path_factory.mktemp("forwarded") / "db.sqlite3"
    env = servers.production_env(
        DATABASE_URL=f"sqlite:///{path}", LOG_LEVEL="WARNING", HTTPS="false"
    )
    manage = [sys.executable, "manage.py"]
    servers.migrated_sqlite(path)
    servers.collect_static(env)  # the sign-in page needs the static files' manifest
    code = (
        "from django.contrib.auth import get_user_model as g\n"
        "g().objects.create_user('td', password=None, is_staff=True)\n"
        "g().objects.create_superuser('boss', password=None)\n"
        f"g().objects.update(password={quick_hash(PASSWORD)!r})\n"
    )
    subprocess.run([*manage, "shell", "-c", code], cwd=servers.ROOT, env=env, check=True)
    return env


def api_sign_in(server, username: str, password: str, forwarded: str) -> int:
    request = urllib.request.Request(
        f"{server.url}/api/v1/auth/tokens",
        data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def page_sign_in(server, username: str, password: str, forwarded: str) -> int:
    """The director's sign-in page as a browser fills it (its CSRF cookie and token); 302 is
    signed in."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    headers = {"X-Forwarded-For": forwarded, "Referer": f"{server.url}/accounts/login/"}
    with opener.open(
        urllib.request.Request(f"{server.url}/accounts/login/", headers=headers), timeout=30
    ) as response:
        page = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": password}
    ).encode()
    try:
        with opener.open(
            urllib.request.Request(f"{server.url}/accounts/login/", data=body, headers=headers),
            timeout=30,
        ) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_rotating_header_from_loopback_escapes_no_lockout(database):
    env = {k: v for k, v in database.items() if k != "TRUSTED_PROXIES"}
    with servers.running(server_command(readme_uvicorn_line()), env=env) as server:
        api = [api_sign_in(server, "td", "guess", f"203.0.113.{n}") for n in range(14)]
        assert api[LIMIT - 1 :] == [429] * (14 - LIMIT + 1), api
        assert api_sign_in(server, "td", PASSWORD, "198.51.100.1") == 429

        page = [page_sign_in(server, "boss", "guess", f"192.0.2.{n}") for n in range(7)]
        assert 302 not in page and page[LIMIT - 1 :] == [429] * (7 - LIMIT + 1), page
        assert page_sign_in(server, "boss", PASSWORD, "198.51.100.2") == 429


def test_behind_a_named_proxy_only_the_address_it_appended_counts(database):
    """TRUSTED_PROXIES=127.0.0.1: this test is the proxy, appending the address it saw; what a
    client wrote to the left of it still changes nothing, while another client (another
    appended address) signs in."""
    env = {**database, "TRUSTED_PROXIES": servers.HOST}
    with servers.running(server_command(readme_uvicorn_line()), env=env) as server:
        for n in range(LIMIT):
            api_sign_in(server, "td", "guess", f"203.0.113.{n}, 198.51.100.7")
        assert api_sign_in(server, "td", PASSWORD, "6.6.6.6, 198.51.100.7") == 429
        assert api_sign_in(server, "td", PASSWORD, "198.51.100.8") == 201


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"TRUSTED_PROXIES": "10.0.0.5,not-an-address"}, "TRUSTED_PROXIES: 'not-an-address'"),
        ({"NUM_PROXIES": "1"}, "NUM_PROXIES is gone: name the proxies"),
    ],
)
def test_a_proxy_setting_that_would_not_do_what_it_says_stops_the_start(env, said):
    """A typo in TRUSTED_PROXIES, or the old NUM_PROXIES (which believed the header from any
    connection), is refused at start with a plain message, never silently ignored."""
    from tests.test_settings import manage

    done = manage("check", **env)
    assert done.returncode != 0 and said in done.stderr, done.stderr[-500:]

"""`make serve` on a club laptop: production mode over plain HTTP on the club's network, the
club's own database and key, a director account nobody else knows, phones reaching it at the
LAN address that table cards carry."""

from __future__ import annotations

import gzip
import sqlite3
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from email.message import Message

import pytest

from tests.evening.conftest import (
    ROOT,
    EveningServer,
    free_port,
    laptop_environment,
    make_serve,
    migrated_club,
    start,
    wait_until_up,
)
from tests.waiting import SECONDS


def fetch(url: str) -> tuple[int, Message, str]:
    request = urllib.request.Request(url, headers={"Accept-Language": "en"})
    try:
        with urllib.request.urlopen(request, timeout=SECONDS) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def test_phones_reach_it_at_the_laptops_lan_address(evening_server, lan):
    assert evening_server.public_url == f"http://{lan.address}:{evening_server.port}"
    status, headers, body = fetch(f"{evening_server.public_url}/")
    assert status == 200
    assert "TrickTable" in body
    assert headers.get("Server") is None


def test_it_runs_in_production_mode_over_plain_http(evening_server):
    status, headers, _ = fetch(f"{evening_server.public_url}/accounts/login/")
    assert status == 200  # no redirect to https://
    cookies = headers.get_all("Set-Cookie") or []
    assert cookies and all("secure" not in cookie.lower() for cookie in cookies)
    assert headers.get("Strict-Transport-Security") is None
    status, _, body = fetch(f"{evening_server.public_url}/no-such-page/")
    assert status == 404
    assert "URLconf" not in body and "Traceback" not in body  # DEBUG is off


def test_static_files_are_served_with_no_collectstatic_step(evening_server):
    status, headers, body = fetch(f"{evening_server.public_url}/static/css/public.css")
    assert status == 200
    assert "text/css" in headers.get("Content-Type", "")
    assert body.strip()


def test_static_files_go_gzipped_to_a_browser_that_asks(evening_server):
    request = urllib.request.Request(
        f"{evening_server.public_url}/static/css/public.css",
        headers={"Accept-Encoding": "gzip, deflate, br"},
    )
    with urllib.request.urlopen(request, timeout=SECONDS) as response:
        assert response.headers.get("Content-Encoding") == "gzip"  # no Brotli copy over HTTP
        assert gzip.decompress(response.read()).strip()


def test_the_first_start_makes_the_director_with_a_password_shown_once(evening_server):
    username, password = evening_server.credentials
    assert username == "director"
    assert password != "tricktable" and len(password) >= 12
    assert evening_server.text.count(password) == 1


def test_the_secret_key_is_made_on_first_start_and_kept_in_the_club_folder(evening_server):
    key = evening_server.club / "secret_key"
    assert len(key.read_text().strip()) >= 50
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    tracked = subprocess.run(["git", "ls-files", "club"], cwd=ROOT, capture_output=True, text=True)
    assert tracked.stdout == ""  # the club's folder stays out of git (.gitignore)


def in_namespace(laptop, club, code: str) -> str:
    done = subprocess.run(
        laptop.run(sys.executable, "-c", code),
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=laptop_environment(club),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def authenticates(club, username: str, password: str) -> bool:
    """Does the club's database take this password for an active account? Read from the club's
    own SQLite file and checked by Django's password hashers, as `authenticate` checks it."""
    from django.contrib.auth.hashers import check_password

    with sqlite3.connect(club / "tricktable.sqlite3") as database:
        row = database.execute(
            "SELECT password, is_active FROM auth_user WHERE username = ?", (username,)
        ).fetchone()
    return row is not None and bool(row[1]) and check_password(password, row[0])


def test_a_laptop_on_no_network_says_phones_cannot_reach_it(offline_laptop, tmp_path):
    port = free_port()
    server = start(
        offline_laptop.run(),
        migrated_club(tmp_path),
        port,
        as_make_serve=True,
        quick_passwords=True,
    )
    try:
        assert "Phones cannot reach this laptop" in server.text
        assert "Phones:" not in server.text
        code = (
            "import time, urllib.request\n"
            # The banner comes just before uvicorn listens: asked every twentieth of a second,
            # for as long as before.
            "for _ in range(600):\n"
            "    try:\n"
            f"        print(urllib.request.urlopen('http://127.0.0.1:{port}/').status); break\n"
            "    except OSError:\n"
            "        time.sleep(0.05)\n"
        )
        assert in_namespace(offline_laptop, tmp_path, code).strip() == "200"
    finally:
        server.stop()


def test_a_restart_keeps_the_key_and_the_account_and_a_command_resets_the_password(
    offline_laptop, tmp_path
):
    first = start(
        offline_laptop.run(),
        migrated_club(tmp_path),
        free_port(),
        as_make_serve=True,
        quick_passwords=True,
    )
    first.stop()
    username, password = first.credentials
    key = (tmp_path / "secret_key").read_text()
    second = start(
        offline_laptop.run(), tmp_path, free_port(), as_make_serve=True, quick_passwords=True
    )
    second.stop()
    assert "Director sign-in" not in second.text  # shown once, on the first start only
    assert (tmp_path / "secret_key").read_text() == key
    assert authenticates(tmp_path, username, password)

    reset = subprocess.run(
        [sys.executable, "manage.py", "director_password"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        # As typed by hand: it starts itself again under the evening server's settings.
        env=laptop_environment(tmp_path, quick_passwords=True),
    )
    assert reset.returncode == 0, reset.stderr
    new_password = reset.stdout.split("director / ")[1].split()[0]
    assert new_password != password
    assert authenticates(tmp_path, username, new_password)
    assert not authenticates(tmp_path, username, password)


def test_the_demos_published_password_is_refused_on_the_evening_server(offline_laptop, tmp_path):
    migrated_club(tmp_path)
    created = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.core.management import call_command; call_command('migrate', verbosity=0);"
            "from django.contrib.auth import get_user_model;"
            "get_user_model().objects.create_superuser('director', password='tricktable')",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=laptop_environment(tmp_path, TRICKTABLE_SERVER="evening", quick_passwords=True),
    )
    assert created.returncode == 0, created.stderr
    server = start(
        offline_laptop.run(), tmp_path, free_port(), as_make_serve=True, quick_passwords=True
    )
    server.stop()
    assert "had the demo's published password" in server.text
    assert not authenticates(tmp_path, "director", "tricktable")
    assert authenticates(tmp_path, "director", server.credentials[1])


def test_a_taken_port_is_said_plainly(offline_laptop, tmp_path):
    port = free_port()
    # Another program on the laptop holds the port (a first evening server, or anything else).
    holder = subprocess.Popen(
        offline_laptop.run(
            sys.executable,
            "-c",
            "import socket, time\n"
            "s = socket.socket()\n"
            f"s.bind(('0.0.0.0', {port})); s.listen()\n"
            # Held until the test kills it: longer than the serve below may take on a slow
            # machine (its deadline), or the port would come free under it.
            "print('listening', flush=True); time.sleep(3600)",
        ),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "listening"
        done = subprocess.run(
            offline_laptop.run(sys.executable, "manage.py", "serve", "--port", str(port)),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            # As `make serve` starts it, the command its message names (the module's shared
            # server is the one started as typed by hand).
            env=laptop_environment(tmp_path, **make_serve(port)),
        )
        assert done.returncode != 0
        assert f"port {port} is taken" in done.stderr
        assert f"PORT={port + 1} make serve" in done.stderr
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_wait_until_up_reports_a_dead_server(tmp_path):
    gone = subprocess.Popen(
        [sys.executable, "-c", "print('bye')"], stdout=subprocess.PIPE, text=True
    )
    gone.wait(timeout=30)
    server = EveningServer(process=gone, club=tmp_path, port=9)
    with pytest.raises(pytest.fail.Exception, match="stopped"):
        wait_until_up("http://127.0.0.1:9/", server, seconds=5)


def send(
    url: str,
    *,
    method: str = "GET",
    data: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, str]:
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Accept-Language": "ja", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=SECONDS) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_no_answer_of_the_evening_server_to_a_bad_request_is_a_technical_page(evening_server):
    from tests.pages.test_error_pages import TECHNICAL

    site = evening_server.public_url
    form = b"username=director&password=guess"
    requests = [
        ("a mistyped address", 404, f"{site}/standings/", {}),
        ("an unknown tournament", 404, f"{site}/t/no-such-evening/", {}),
        ("an unknown round", 404, f"{site}/t/no-such-evening/rounds/3/", {}),
        (
            "a sign-in without its form's token",
            403,
            f"{site}/accounts/login/",
            {"method": "POST", "data": form},
        ),
        ("another site's host name", 400, f"{site}/", {"headers": {"Host": "evil.example"}}),
        ("a director's page, signed out", 200, f"{site}/director/", {}),  # the sign-in page
    ]
    for what, status, url, options in requests:
        got, html = send(url, **options)
        assert got == status, what
        assert [marker for marker in TECHNICAL if marker in html] == [], what
        assert '<html lang="ja">' in html and 'href="/"' in html, what
    status, body = send(f"{site}/api/v1/no-such-thing/")
    assert status == 404 and body.startswith("{")  # the API answers in its JSON error shape


@pytest.mark.django_db
def test_the_banner_lists_every_lan_address_besides_the_public_one(settings):
    import io

    from tournaments.management.commands.serve import Command

    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    settings.LAN_ADDRESSES = ["192.168.1.20", "192.168.1.2"]
    out = io.StringIO()
    Command(stdout=out).announce(8000)
    text = out.getvalue()
    assert "Phones:     http://192.168.1.20:8000/" in text
    assert "http://192.168.1.2:8000/" in text  # not hidden inside the public address
    assert text.count("192.168.1.20:8000/\n") == 1


def test_a_server_that_waited_for_another_servers_collect_serves_its_files(settings, tmp_path):
    """Two servers started at once from one checkout: one collects the static files while the
    other waits for the lock. The one that waited serves every file by its hashed name (it
    used to keep the empty manifest it had read before waiting, and answer 500 to every page)."""
    import fcntl
    import threading

    from django.contrib.staticfiles.management.commands import collectstatic
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.management import call_command
    from django.utils.module_loading import import_string

    from tournaments.management.commands.serve import Command, static_sources_fingerprint

    backend = "config.storage.StaticFilesStorage"  # the evening server's (DEBUG off)
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": backend}}
    settings.STATIC_ROOT = tmp_path
    settings.STATIC_BROTLI = False
    # The project's own static files only (static/), not the admin's and the API docs' besides:
    # the lock and the manifest are the same for any set of files, and the others are most of
    # a collect's work.
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    with open(tmp_path / ".lock", "w") as lock:  # the other server holds the lock...
        fcntl.flock(lock, fcntl.LOCK_EX)
        waiting = threading.Thread(target=Command().collect_static)
        waiting.start()  # ...while this one starts and waits for it
        waiting.join(timeout=1)
        assert waiting.is_alive()
        other = collectstatic.Command()  # the other server's collect, with its own storage
        other.storage = import_string(backend)()
        call_command(other, interactive=False, verbosity=0)
        (tmp_path / ".sources").write_text(static_sources_fingerprint())
    waiting.join(timeout=60)

    stored = staticfiles_storage.stored_name("css/public.css")
    assert stored.startswith("css/public.") and stored != "css/public.css"
    assert staticfiles_storage.url("css/public.css") == f"/static/{stored}"

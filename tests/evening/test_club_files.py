"""The club's folder and its database are the laptop owner's only (issue 30, item 9): the
database holds every entry's PIN, the password hashes and the sessions, so neither it nor the
WAL and shared-memory files SQLite keeps beside it may be readable by another account on the
laptop. The folder is 0700, the files 0600 — on a first start, and on a start over a folder an
older version left readable."""

from __future__ import annotations

import os
import stat
import urllib.request
from pathlib import Path

from config import evening
from tests.evening.conftest import free_port, migrated_club, start, wait_until_up

DATABASE = "tricktable.sqlite3"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def modes(club: Path) -> dict[str, int]:
    """The folder's mode and every database file's, by name."""
    found = {".": mode(club)}
    for suffix in ("", "-wal", "-shm"):
        path = club / f"{DATABASE}{suffix}"
        if path.exists():
            found[path.name] = mode(path)
    return found


def serve_and_look(club: Path) -> dict[str, int]:
    """Start the evening server on `club` (it migrates and makes the director: it writes), have
    it read the database (the home page, the sign-in page) and read the modes while it runs."""
    port = free_port()
    server = start([], club, port, as_make_serve=True, quick_passwords=True)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/", server)
        urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=30).read()
        return modes(club)
    finally:
        server.stop()


def test_the_club_folder_and_database_files_are_the_owners_only(tmp_path):
    club = tmp_path / "club"
    old = os.umask(0o022)  # a laptop's usual umask: files 0644 unless the server says otherwise
    try:
        first = serve_and_look(club)
    finally:
        os.umask(old)
    assert first[DATABASE] == 0o600, first
    assert f"{DATABASE}-wal" in first and f"{DATABASE}-shm" in first, first  # WAL mode
    assert first == {name: 0o600 for name in first} | {".": 0o700}, first


def test_a_club_folder_an_older_version_left_readable_is_made_private(tmp_path):
    # The folder a server of an older version ran on: migrated (a copy, as this test is not
    # about a migrate from nothing: the test above is), then served once.
    club = migrated_club(tmp_path / "club")
    serve_and_look(club)
    club.chmod(0o755)
    for path in club.glob(f"{DATABASE}*"):
        path.chmod(0o644)
    again = serve_and_look(club)
    assert again == {name: 0o600 for name in again} | {".": 0o700}, again


def test_private_database_sets_the_companions_that_exist(tmp_path):
    database = tmp_path / "x.sqlite3"
    for path in (database, tmp_path / "x.sqlite3-wal"):
        path.write_bytes(b"")
        path.chmod(0o644)
    evening.private_database(database)
    assert mode(database) == mode(tmp_path / "x.sqlite3-wal") == 0o600
    assert not (tmp_path / "x.sqlite3-shm").exists()

"""SQLite holds a room: 40 tables submitting and confirming at once over HTTP, against uvicorn
in production mode on an SQLite file of its own (WAL, IMMEDIATE transactions, a busy timeout:
config/settings.py), store every hand exactly once with no "database is locked"; the backups
the server writes meanwhile (every second here) restore into an empty database.

The tests need no service: they build their own SQLite database and server whatever database
the rest of the suite runs on."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import room, servers, waiting

TABLES = 40
HANDS = 4


@dataclass
class Evening:
    built: room.Room
    played: room.Played
    database: Path
    backups: Path
    log: str


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> Evening:
    """The evening server on its SQLite file with the room built in it, played once.

    Forty writers queue for SQLite's one write lock: each waits its turn (the busy timeout)
    as long as any test waits for anything (tests/waiting.py), not the 20 s a club laptop's
    server waits. On a quiet machine the queue is gone in well under a second; on one shared
    with six other jobs the fortieth writer can wait past 20 s and give up ("database is
    locked"), which would say how busy the machine was, not that SQLite cannot hold the room."""
    folder = tmp_path_factory.mktemp("sqlite-room")
    database = folder / "club.sqlite3"
    env = servers.production_env(
        DATABASE_URL=f"sqlite:///{database}?timeout={waiting.SECONDS:.0f}",
        LOG_LEVEL="WARNING",
        BACKUP_DIR=str(folder / "backups"),
        BACKUP_INTERVAL="1",
    )
    servers.migrated_sqlite(database)
    built = room.prepare(env, tables=TABLES, hands=HANDS, migrate=False)
    with servers.uvicorn(env, workers=1) as server:
        played = room.play(server.url, built, retry_every=2)
        log = server.log()
    return Evening(built, played, database, folder / "backups", log)


def stored(database) -> dict[str, list]:
    with sqlite3.connect(database) as db:
        return {
            "versions": db.execute(
                "select h.match_id, h.number, s.status, s.idempotency_key, s.is_current "
                "from tournaments_handsubmission s "
                "join tournaments_hand h on h.id = s.hand_id"
            ).fetchall(),
            "journal": db.execute("pragma journal_mode").fetchone()[0],
        }


def test_forty_tables_submitting_and_confirming_at_once_store_every_hand_once(evening):
    built, played, database = evening.built, evening.played, evening.database
    assert len(built.tables) == TABLES

    assert played.problems == []
    assert not [code for code in played.statuses if code >= 500]
    assert played.submitted == played.confirmed == built.hands == TABLES * HANDS
    # A retry with the same idempotency key answered the stored version, and stored nothing.
    assert played.retries_answered == TABLES * (HANDS // 2)
    rows = stored(database)
    assert rows["journal"] == "wal"
    versions = rows["versions"]
    assert len(versions) == built.hands  # one version per hand: nothing stored twice
    per_hand = Counter((match, number) for match, number, *_ in versions)
    assert set(per_hand.values()) == {1}
    assert {(t["match"], n) for t in built.tables for n in range(1, len(t["records"]) + 1)} == set(
        per_hand
    )
    assert {status for _m, _n, status, _k, _c in versions} == {"confirmed"}
    assert all(current for *_, current in versions)
    assert len({key for *_, key, _c in versions}) == built.hands
    assert "database is locked" not in evening.log
    assert "Traceback" not in evening.log


def test_the_backups_written_while_hands_arrived_restore_into_an_empty_database(evening, tmp_path):
    files = sorted((evening.backups / evening.built.slug).glob("*.json"))
    assert files, "the server wrote no backup while hands arrived"
    newest = json.loads(files[-1].read_text("utf-8"))
    in_backup = {
        (v["idempotency_key"], v["status"]) for h in newest["hands"] for v in h["versions"]
    }
    assert in_backup
    env = servers.production_env(DATABASE_URL=f"sqlite:///{tmp_path / 'new.sqlite3'}")
    servers.migrated_sqlite(tmp_path / "new.sqlite3")

    done = subprocess.run(
        [sys.executable, "manage.py", "restore_backup", str(evening.backups)],
        cwd=servers.ROOT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert done.returncode == 0, done.stderr
    assert f"Restored {evening.built.slug!r}" in done.stdout
    with sqlite3.connect(tmp_path / "new.sqlite3") as db:
        restored = set(
            db.execute("select idempotency_key, status from tournaments_handsubmission").fetchall()
        )
    assert restored == in_backup
    # What the backup holds is what the evening's database held: every hand it names is there.
    keys = {k for *_, k, _c in stored(evening.database)["versions"]}
    assert {key for key, _ in in_backup} <= keys

"""SQLite holds a room: 40 tables submitting and confirming at once over HTTP, against uvicorn
in production mode on an SQLite file of its own (WAL, IMMEDIATE transactions, a busy timeout:
config/settings.py), store every hand exactly once with no "database is locked".

The test needs no service: it builds its own SQLite database and server whatever database the
rest of the suite runs on."""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from tests import room, servers

TABLES = 40
HANDS = 4


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """The evening server on its SQLite file, with the room built in it."""
    folder = tmp_path_factory.mktemp("sqlite-room")
    database = folder / "club.sqlite3"
    env = servers.production_env(DATABASE_URL=f"sqlite:///{database}", LOG_LEVEL="WARNING")
    built = room.prepare(env, tables=TABLES, hands=HANDS)
    with servers.uvicorn(env, workers=1) as server:
        yield server, built, database


def stored(database) -> dict[str, list]:
    with sqlite3.connect(database) as db:
        return {
            "versions": db.execute(
                "select h.match_id, h.number, s.status, s.idempotency_key, s.is_current "
                "from tournaments_handsubmission s "
                "join tournaments_hand h on h.id = s.hand_id").fetchall(),
            "journal": db.execute("pragma journal_mode").fetchone()[0],
        }


def test_forty_tables_submitting_and_confirming_at_once_store_every_hand_once(evening):
    server, built, database = evening
    assert len(built.tables) == TABLES

    played = room.play(server.url, built, retry_every=2)

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
    assert {(t["match"], n) for t in built.tables
            for n in range(1, len(t["records"]) + 1)} == set(per_hand)
    assert {status for _m, _n, status, _k, _c in versions} == {"confirmed"}
    assert all(current for *_, current in versions)
    assert len({key for *_, key, _c in versions}) == built.hands
    log = server.log()
    assert "database is locked" not in log
    assert "Traceback" not in log

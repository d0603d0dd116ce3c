"""A club room at once: every table of a round submits its hands over HTTP and the other side
confirms each, concurrently, as the scorers' phones would. Used by tests/test_sqlite_room.py
and bench/sqlite_room.py.

`prepare(env, tables=40, hands=5)` migrates the database the environment names and builds in
it (in a subprocess, through the services) a Spades Swiss of 2 x `tables` teams with round 1
published, a table token per table and `hands` legal hands planned per table by the rules
engine. `play(url, room)` runs one thread per table, each on its own keep-alive connection.

    python -m tests.room --tables 40 --hands 5   # (DATABASE_URL set) prints the room as JSON
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests import waiting

ROOT = Path(__file__).resolve().parent.parent


# -- building the room (in the subprocess) ------------------------------------------------------


def planned_hands(match: Any, rng: Any, count: int) -> list[dict]:
    """Legal summary records for the match's next `count` hands, planned with the rules engine
    alone (dealer by rotation, state carried forward); stops where the rules end the match."""
    from games.records import check_hand, get_game
    from tournaments.demo.simulate import simulator

    tournament = match.round.tournament
    g = get_game(tournament.game)
    compiled = g.book.resolve(tournament.rules)[0]
    sim = simulator(tournament.game)
    dealer, before, records = rng.choice(g.seats(compiled)), None, []
    while len(records) < count:
        record = sim.to_summary(
            sim.random_hand(rng, tournament.rules, dealer=dealer, before=before)
        )
        for key in ("format", "game", "rules", "before"):
            record.pop(key, None)
        state = before if before is not None else g.initial_state(compiled)
        result = check_hand(
            {**record, "format": "hand/1", "before": state},
            rules=tournament.rules,
            game=tournament.game,
        )
        assert result["ok"], result
        records.append(record)
        before, dealer = result["after"], g.next_dealer(compiled, dealer)
        if g.match_end(compiled, before)[0]:
            break
    return records


def build(tables: int, hands: int, seed: int = 40) -> dict:
    """The room in the configured database (Django set up): JSON-ready."""
    import random

    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Match
    from tournaments.services import Actor, PlayerSpec

    rng = random.Random(seed)
    user = get_user_model().objects.create_user(f"room-{uuid.uuid4().hex[:8]}")
    director = Actor(user=user, label="room director")
    tournament = services.create_tournament(
        actor=director,
        name="Room night",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=3,
        match_length="director",
        seed=seed,
    )
    for n in range(2 * tables):
        services.register_entry(
            tournament=tournament,
            actor=director,
            name=f"Team {n + 1}",
            players=[PlayerSpec(f"Player {n + 1}a"), PlayerSpec(f"Player {n + 1}b")],
        )
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    secrets_ = services.issue_round_tokens(round=round_, actor=director)
    room = []
    for match in (
        Match.objects.filter(round=round_, is_bye=False)
        .select_related("round__tournament")
        .order_by("table__number")
    ):
        sides = sorted(set(match.seats.values_list("side", flat=True)))
        pins = dict(match.seats.values_list("side", "entry__pin"))
        room.append(
            {
                "match": match.pk,
                "secret": secrets_[match.table_id],
                "sides": sides,
                "pins": pins,
                "records": planned_hands(match, rng, hands),
            }
        )
    return {"slug": tournament.slug, "tables": room}


@dataclass
class Room:
    slug: str
    tables: list[dict]

    @property
    def hands(self) -> int:
        return sum(len(t["records"]) for t in self.tables)


def prepare(
    env: Mapping[str, str], *, tables: int = 40, hands: int = 5, migrate: bool = True
) -> Room:
    """Migrate the database `env` names (unless `migrate` is false: migrated already) and build
    the room in it (subprocesses)."""
    if migrate:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=dict(env),
            check=True,
        )
    done = subprocess.run(
        [sys.executable, "-m", "tests.room", "--tables", str(tables), "--hands", str(hands)],
        cwd=ROOT,
        env=dict(env, LOG_LEVEL="WARNING"),
        check=True,
        capture_output=True,
        text=True,
    )
    data = json.loads(done.stdout)
    return Room(slug=data["slug"], tables=data["tables"])


# -- playing it over HTTP ---------------------------------------------------------------------


@dataclass
class Played:
    submitted: int = 0
    confirmed: int = 0
    retries_answered: int = 0
    seconds: float = 0.0
    submit_latencies: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # unexpected answers: "status path body"
    statuses: list[int] = field(default_factory=list)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.submit_latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else 0.0


def _post(
    conn: http.client.HTTPConnection, path: str, body: dict, headers: dict
) -> tuple[int, Any]:
    conn.request(
        "POST",
        path,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
    )
    response = conn.getresponse()
    raw = response.read()
    try:
        return response.status, json.loads(raw) if raw else None
    except ValueError:
        return response.status, raw[:200]


def play(
    url: str,
    room: Room,
    *,
    confirm: bool = True,
    retry_every: int = 0,
    timeout: float = waiting.SECONDS,
) -> Played:
    """Every table at once: submit each planned hand (NS side), the other side confirms it.
    With `retry_every` n, every n-th submission is sent twice with the same idempotency key
    (a phone that lost the answer): the second must be a 200 with the same version."""
    parts = urlsplit(url)
    played = Played()
    lock = threading.Lock()
    start = threading.Barrier(len(room.tables) + 1)

    def table(t: dict) -> None:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        auth = {"Authorization": f"Table {t['secret']}"}
        submitter, answerer = t["sides"][-1], t["sides"][0]  # NS submits, EW confirms
        base = f"/api/v1/matches/{t['match']}/hands"
        start.wait()
        try:
            for n, record in enumerate(t["records"], 1):
                key = uuid.uuid4().hex
                sent = time.perf_counter()
                code, answer = _post(
                    conn,
                    base,
                    {"record": record, "side": submitter, "pin": t["pins"][submitter]},
                    {**auth, "Idempotency-Key": key},
                )
                took = time.perf_counter() - sent
                with lock:
                    played.statuses.append(code)
                    played.submit_latencies.append(took)
                if code != 201:
                    with lock:
                        played.problems.append(f"{code} POST {base} {answer!r}"[:300])
                    return
                with lock:
                    played.submitted += 1
                if retry_every and n % retry_every == 0:
                    again, repeat = _post(
                        conn,
                        base,
                        {"record": record, "side": submitter, "pin": t["pins"][submitter]},
                        {**auth, "Idempotency-Key": key},
                    )
                    with lock:
                        played.statuses.append(again)
                        if again == 200 and repeat["id"] == answer["id"]:
                            played.retries_answered += 1
                        else:
                            played.problems.append(f"{again} retry {base} {repeat!r}"[:300])
                if not confirm:
                    continue
                path = f"{base}/{answer['number']}/confirm"
                code, decided = _post(
                    conn,
                    path,
                    {"side": answerer, "pin": t["pins"][answerer], "version": answer["version"]},
                    auth,
                )
                with lock:
                    played.statuses.append(code)
                    if code == 200 and decided["status"] == "confirmed":
                        played.confirmed += 1
                    else:
                        played.problems.append(f"{code} POST {path} {decided!r}"[:300])
                        return
        except Exception as error:  # a dropped connection, a timeout: say so, do not hang
            with lock:
                played.problems.append(f"{type(error).__name__}: {error}")
        finally:
            conn.close()

    threads = [threading.Thread(target=table, args=(t,), daemon=True) for t in room.tables]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    played.seconds = time.perf_counter() - began
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description="Build a room; print it as JSON.")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--hands", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    print(json.dumps(build(args.tables, args.hands)))


if __name__ == "__main__":
    main()

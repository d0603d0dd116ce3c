"""Hand submissions served on the submission threads (`api/threaded.py`, as config/asgi.py runs
them) give Django's ASGI handler's answers, answer for answer: status, body, headers, the rows
stored, an idempotent replay, refused authentication, throttling, a bad host, bad input, the
request's language — and they do run on the pool's threads.

Each case plays the same requests on two matches built alike, one through Django's ASGI handler
and one through config/asgi.py's order (fast path, then the threads, then Django), and compares
the answers with the ids and times that necessarily differ masked. The threads use their own
database connections, so these tests commit (transactional database)."""

from __future__ import annotations

import json
import re
import threading

import pytest

from api import threaded
from tests.live import asgi
from tests.tournaments.builders import HAND_1, HAND_2
from tournaments.models import HandSubmission, Match

from .conftest import AS_NS, AsgiPaths, with_pins

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _threads(settings):
    settings.SUBMIT_THREADS = 2
    settings.SUBMIT_FAST_PATH = False  # Django's handler on the threads (fastsubmit: its own)
    settings.ALLOWED_HOSTS = ["testserver"]


def request(app, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict, bytes]:
    """One POST through an ASGI app, as uvicorn sends it: (status, headers, body)."""
    return asgi.request(app, "POST", path, headers, timeout=30, body=body)


class Both(AsgiPaths):
    """Django's ASGI handler alone, and config/asgi.py's order with the submission threads."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[str] = []
        respond = threaded.respond

        def counted(*args):
            self.threads.append(threading.current_thread().name)
            return respond(*args)

        self._respond = counted


@pytest.fixture
def both(monkeypatch) -> Both:
    apps = Both()
    monkeypatch.setattr(threaded, "respond", apps._respond)
    return apps


def masked(content: bytes, match: Match) -> object:
    """The answer with what differs between two alike matches masked (ids, times)."""
    try:
        data = json.loads(content)
    except ValueError:
        return content
    text = json.dumps(data, sort_keys=True)
    text = re.sub(r'"(id|submitted_at|decided_at)": ("[^"]*"|\d+)', r'"\1": "-"', text)
    return json.loads(text.replace(f"/matches/{match.pk}/", "/matches/-/"))


def play(both: Both, tables, steps) -> list[tuple]:
    """Each step (headers, body) on both matches: Django's answer, then ours; every pair is
    compared, and the answers are returned."""
    answers = []
    (mine, secret), (theirs, other_secret) = tables
    for make_headers, body in steps:
        got = []
        for app, (match, token), tag in (
            (both.django, (theirs, other_secret), "-d"),
            (both.ours, (mine, secret), "-t"),
        ):
            headers = {
                "host": "testserver",
                "content-type": "application/json",
                **make_headers(token),
            }
            if "idempotency-key" in headers:  # a key is unique across matches
                headers["idempotency-key"] += tag
            status, found, content = request(
                app,
                f"/api/v1/matches/{match.pk}/hands",
                headers,
                json.dumps(with_pins(body, match)).encode()
                if not isinstance(body, bytes)
                else body,
            )
            found.pop("content-length", None)
            got.append((status, found, masked(content, match)))
        assert got[1] == got[0]
        answers.append(got[1])
    return answers


def scorer(key: str, **extra: str):
    return lambda secret: {"authorization": f"Table {secret}", "idempotency-key": key, **extra}


def stored(match: Match) -> list[tuple]:
    """The match's stored versions (the idempotency key without its "-d"/"-t" tag)."""
    rows = HandSubmission.objects.filter(hand__match=match).order_by("hand__number", "version")
    return [
        (*row[:-1], row[-1][:-2])
        for row in rows.values_list(
            "hand__number",
            "version",
            "is_current",
            "status",
            "source",
            "raw",
            "record",
            "result",
            "submitted_side",
            "submitted_label",
            "decided_side",
            "reason",
            "idempotency_key",
        )
    ]


def test_a_submission_and_its_replay_are_djangos_answers_and_rows(both, tables):
    answers = play(
        both,
        tables,
        [
            (scorer("key-0001-abcdef"), {"record": HAND_1, **AS_NS}),
            (
                scorer("key-0001-abcdef"),
                {"record": HAND_1, **AS_NS},
            ),  # the retry
            (
                scorer("key-0002-abcdef"),
                {"record": HAND_2, **AS_NS, "number": 2},
            ),
        ],
    )
    assert [status for status, _, _ in answers] == [201, 200, 201]
    assert answers[1][2] == answers[0][2]
    headers = answers[0][1]
    assert headers["content-type"] == "application/json"
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    assert stored(tables[0][0]) == stored(tables[1][0]) and len(stored(tables[0][0])) == 2
    assert both.threads and all(name.startswith("submit") for name in both.threads)


def test_refusals_are_djangos_answers_and_change_nothing(both, tables):
    answers = play(
        both,
        tables,
        [
            (
                lambda secret: {"authorization": "Table not-a-token", "idempotency-key": "k" * 10},
                {"record": HAND_1, **AS_NS},
            ),  # unknown token
            (
                lambda secret: {"authorization": "Table", "idempotency-key": "k" * 10},
                {"record": HAND_1, **AS_NS},
            ),  # malformed header
            (
                lambda secret: {"idempotency-key": "k" * 10},
                {"record": HAND_1, **AS_NS},
            ),
            (
                scorer("short"),
                {"record": HAND_1, **AS_NS},
            ),  # the key too short
            (
                lambda secret: {"authorization": f"Table {secret}"},
                {"record": HAND_1, **AS_NS},
            ),  # no key
            (scorer("key-0003-abcdef"), b"{not json"),
            (scorer("key-0004-abcdef"), {"record": "nope", **AS_NS}),
            (
                scorer("key-0005-abcdef"),
                {
                    "record": {**HAND_1, "tricks": {"N": 13, "E": 4, "S": 3, "W": 3}},
                    **AS_NS,
                },
            ),
            (scorer("key-0006-abcdef"), {"record": HAND_1, "side": "EW"}),  # no PIN
            (
                scorer("key-0007-abcdef", **{"accept-language": "ja"}),
                {"record": HAND_1, "side": "EW", "pin": AS_NS["pin"]},
            ),  # the refusal (the PIN is NS's) in Japanese
        ],
    )
    assert [status for status, _, _ in answers] == [
        401,
        401,
        401,
        400,
        400,
        400,
        400,
        422,
        403,
        403,
    ]
    assert [body["code"] for _, _, body in answers[-2:]] == [
        "side-pin-required",
        "side-pin-mismatch",
    ]
    assert answers[0][1]["www-authenticate"] == "Token"
    assert answers[-1][1]["content-language"] == "ja"
    assert stored(tables[0][0]) == stored(tables[1][0]) == []


def test_another_tables_token_is_refused_alike(both, tables):
    (mine, secret), (theirs, other_secret) = tables
    swapped = [(mine, other_secret), (theirs, secret)]  # each token at the other's table
    answers = play(
        both,
        swapped,
        [(scorer("key-0008-abcdef"), {"record": HAND_1, **AS_NS})],
    )
    assert answers[0][0] == 403 and answers[0][2]["code"] == "wrong-table"


def test_a_bad_host_is_refused_alike(both, tables):
    answers = play(
        both,
        tables,
        [
            (
                scorer("key-0009-abcdef", host="evil.example"),
                {"record": HAND_1, **AS_NS},
            ),
        ],
    )
    assert answers[0][0] == 400
    assert stored(tables[0][0]) == []


def test_throttling_is_djangos(both, tables, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "hand-submit": "2/minute",
        },
    }
    answers = play(
        both,
        tables,
        [
            (scorer("key-0010-abcdef"), {"record": HAND_1, **AS_NS}),
            (scorer("key-0011-abcdef"), {"record": HAND_2, **AS_NS}),
            (scorer("key-0012-abcdef"), {"record": HAND_1, **AS_NS}),
        ],
    )
    assert [status for status, _, _ in answers] == [201, 201, 429]
    assert answers[2][2]["code"] == "throttled" and "retry-after" in answers[2][1]


def test_with_no_threads_django_serves_submissions(settings, tables):
    settings.SUBMIT_THREADS = 0
    match, _ = tables[0]
    scope = {"type": "http", "method": "POST", "path": f"/api/v1/matches/{match.pk}/hands"}
    assert not threaded.wanted(scope)
    assert not threaded.wanted({**scope, "method": "GET"})
    settings.SUBMIT_THREADS = 2
    assert threaded.wanted(scope)
    assert not threaded.wanted({**scope, "path": f"/api/v1/matches/{match.pk}/hands/1/confirm"})

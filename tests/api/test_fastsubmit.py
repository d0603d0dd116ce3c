"""A scorer's hand submission answered before Django (`api/fastsubmit.py`) gives Django's
answer, case by case: status, every header, the body, and the rows stored — for what it answers
itself (a submission, its replay, the workflow's refusals in either language, an unknown match,
a server error) and for what it leaves to Django (bad tokens, bad bodies, throttling, a bad
host, cookies of a browser's session, an Accept it does not serve). Each case also states who
answered, so a fast path that stood aside everywhere, or answered what it must leave, fails.

Each case plays the same requests on two matches built alike, one through Django's ASGI handler
and one through config/asgi.py's order, with the ids and times that necessarily differ masked
(`tests/api/test_threaded.py`'s way)."""

from __future__ import annotations

import json
import re
import uuid
from datetime import timedelta

import pytest
from django.core.handlers.asgi import ASGIHandler
from django.db import OperationalError
from django.utils import timezone

from api import fastsubmit
from tests.live import asgi
from tests.tournaments.builders import HAND_1, HAND_2, make_director, make_match
from tournaments import services

from .conftest import AS_NS, AsgiPaths, PinOf, table_token, with_pins
from .test_threaded import masked, scorer, stored

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.SUBMIT_THREADS = 2
    settings.SUBMIT_FAST_PATH = True
    settings.ALLOWED_HOSTS = ["testserver"]


class Both(AsgiPaths):
    """Django's ASGI handler alone, and config/asgi.py's order; `answered` says, for each
    request through the latter, whether api/fastsubmit.py answered it."""

    def __init__(self) -> None:
        super().__init__()
        self.answered: list[bool] = []
        answer = fastsubmit.answer

        def counted(*args):
            found = answer(*args)
            self.answered.append(found is not None)
            return found

        self._answer = counted


@pytest.fixture
def both(monkeypatch) -> Both:
    apps = Both()
    monkeypatch.setattr(fastsubmit, "answer", apps._answer)
    return apps


def play(
    both: Both,
    tables,
    steps,
    path=lambda match: f"/api/v1/matches/{match.pk}/hands",
    scheme: str = "http",
) -> list[tuple]:
    """Each step (headers, body) on both matches, Django first; every pair compared."""
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
            if "idempotency-key" in headers:
                headers["idempotency-key"] += tag
            status, found, content = asgi.request(
                app,
                "POST",
                path(match),
                headers,
                scheme=scheme,
                timeout=30,
                body=body
                if isinstance(body, bytes)
                else json.dumps(with_pins(body, match)).encode(),
            )
            if "content-length" in found:  # ids differ in length: the length is checked here
                assert found["content-length"] == str(len(content))
                found["content-length"] = "-"
            if "location" in found:  # a redirect names the match
                found["location"] = found["location"].replace(f"/{match.pk}/", "/-/")
            if "set-cookie" in found:  # a new CSRF secret: random, masked
                found["set-cookie"] = re.sub(
                    r"csrftoken=\w+; expires=[^;]+", "csrftoken=-; expires=-", found["set-cookie"]
                )
            got.append((status, found, masked(content, match)))
        assert got[1] == got[0]
        answers.append(got[1])
    return answers


def test_a_submission_its_replay_and_the_next_are_answered_here_as_django_does(both, tables):
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
                scorer(
                    "key-0002-abcdef",
                    **{
                        "content-type": "application/json; charset=utf-8",
                        "accept": "application/json",
                    },
                ),
                {"record": HAND_2, **AS_NS, "number": 2},
            ),
        ],
    )
    assert [status for status, _, _ in answers] == [201, 200, 201]
    assert both.answered == [True, True, True]
    headers = answers[0][1]
    assert headers["allow"] == "GET, POST, HEAD, OPTIONS"
    assert headers["x-frame-options"] == "DENY" and headers["content-language"] == "en"
    assert answers[1][2] == answers[0][2]
    assert stored(tables[0][0]) == stored(tables[1][0]) and len(stored(tables[0][0])) == 2


def test_the_workflows_refusals_are_answered_here_in_the_requests_language(both, tables):
    bad = {**HAND_1, "tricks": {"N": 13, "E": 4, "S": 3, "W": 3}}
    answers = play(
        both,
        tables,
        [
            (scorer("key-0003-abcdef"), {"record": bad, **AS_NS}),
            (
                scorer("key-0004-abcdef", **{"accept-language": "ja"}),
                {"record": bad, **AS_NS},
            ),
            (
                scorer("key-0005-abcdef", **{"accept-language": "ja"}),
                {"record": HAND_1, **AS_NS},
            ),  # stored, answered in Japanese
            (
                scorer("key-0005-abcdef"),
                {"record": HAND_2, **AS_NS},
            ),  # the key reused
            (scorer("key-0006-abcdef"), {"record": HAND_2, "side": "EW"}),
        ],
    )
    assert [status for status, _, _ in answers] == [422, 422, 201, 409, 403]
    assert answers[4][2]["code"] == "side-pin-required"
    assert answers[1][1]["content-language"] == "ja" and answers[1][2] != answers[0][2]
    assert answers[2][1]["content-language"] == "ja"
    assert answers[3][2]["code"] == "idempotency-key-reused"
    assert both.answered == [True, True, True, True, True]
    assert stored(tables[0][0]) == stored(tables[1][0]) and len(stored(tables[0][0])) == 1


def test_the_side_is_the_pins_and_pin_refusals_are_answered_here_alike(both, tables):
    """Issue 28's side swap through the fast path: NS's PIN with `side` EW is refused exactly
    as Django refuses it; the side stored is the PIN's (EW's PIN, no side: EW); no PIN, a
    wrong PIN and a PIN with spaces round it: the same answers and the same rows."""
    answers = play(
        both,
        tables,
        [
            (scorer("key-0040-abcdef"), {"record": HAND_1}),  # no PIN
            (scorer("key-0041-abcdef"), {"record": HAND_1, "pin": "no-pin"}),  # no entry's
            (scorer("key-0042-abcdef"), {"record": HAND_1, "side": "EW", "pin": PinOf("NS")}),
            (scorer("key-0043-abcdef"), {"record": HAND_1, "pin": PinOf("EW")}),
            (scorer("key-0044-abcdef"), {"record": HAND_2, "side": "NS", "pin": PinOf(" NS")}),
        ],
    )
    assert [(status, body.get("code")) for status, _, body in answers] == [
        (403, "side-pin-required"),
        (403, "side-pin-wrong"),
        (403, "side-pin-mismatch"),
        (201, None),
        (201, None),
    ]
    assert [body.get("submitted_side") for _, _, body in answers[3:]] == ["EW", "NS"]
    assert both.answered == [True] * 5
    assert stored(tables[0][0]) == stored(tables[1][0]) and len(stored(tables[0][0])) == 2


def test_another_tables_token_and_an_unknown_match_are_answered_here_alike(both, tables):
    (mine, secret), (theirs, other_secret) = tables
    answers = play(
        both,
        [(mine, other_secret), (theirs, secret)],
        [(scorer("key-0007-abcdef"), {"record": HAND_1, **AS_NS})],
    )
    answers += play(
        both,
        tables,
        [(scorer("key-0008-abcdef"), {"record": HAND_1, **AS_NS})],
        path=lambda match: "/api/v1/matches/999999/hands",
    )
    assert [(status, body["code"]) for status, _, body in answers] == [
        (403, "wrong-table"),
        (404, "not-found"),
    ]
    assert both.answered == [True, True]
    assert stored(mine) == stored(theirs) == []


def test_what_django_must_refuse_is_left_to_django(both, tables):
    (mine, _), (theirs, _) = tables
    expired = [
        (mine, table_token(mine.table, expires_at=timezone.now() - timedelta(1))[1]),
        (theirs, table_token(theirs.table, expires_at=timezone.now() - timedelta(1))[1]),
    ]
    answers = play(
        both,
        expired,
        [(scorer("key-0009-abcdef"), {"record": HAND_1, **AS_NS})],
    )
    answers += play(
        both,
        tables,
        [
            (
                lambda secret: {"authorization": "Table not-a-token", "idempotency-key": "k" * 10},
                {"record": HAND_1, **AS_NS},
            ),
            (
                lambda secret: {"authorization": "Table", "idempotency-key": "k" * 10},
                {"record": HAND_1, **AS_NS},
            ),
            (
                lambda secret: {"idempotency-key": "k" * 10},
                {"record": HAND_1, **AS_NS},
            ),
            (
                scorer("short"),
                {"record": HAND_1, **AS_NS},
            ),  # the workflow's refusal: here
            (
                lambda secret: {"authorization": f"Table {secret}"},
                {"record": HAND_1, **AS_NS},
            ),
            (scorer("key-0010-abcdef"), b"{not json"),
            (scorer("key-0011-abcdef"), {"record": "nope", **AS_NS}),
            (
                scorer("key-0012-abcdef", **{"content-type": "text/plain"}),
                {"record": HAND_1, **AS_NS},
            ),
            (
                scorer("key-0013-abcdef", accept="text/html"),
                {"record": HAND_1, **AS_NS},
            ),
            (
                scorer("key-0014-abcdef", host="evil.example"),
                {"record": HAND_1, **AS_NS},
            ),
        ],
    )
    assert [status for status, _, _ in answers] == [
        401,
        401,
        401,
        401,
        400,
        400,
        400,
        400,
        415,
        406,
        400,
    ]
    assert answers[0][2]["code"] == "token-expired"
    assert answers[4][2]["code"] == "bad-idempotency-key"
    assert both.answered == [False] * 4 + [True] + [False] * 6
    assert stored(mine) == stored(theirs) == []


def test_a_browsers_session_and_an_asked_for_indent_are_left_to_django(both, tables):
    answers = play(
        both,
        tables,
        [
            (
                scorer("key-0015-abcdef", cookie="sessionid=abcdefghijkl; csrftoken=x"),
                {"record": HAND_1, **AS_NS},
            ),
            (
                scorer("key-0016-abcdef", accept="application/json; indent=4"),
                {"record": HAND_2, **AS_NS},
            ),
        ],
    )
    assert [status for status, _, _ in answers] == [201, 201]
    assert answers[0][1]["set-cookie"].startswith("csrftoken=-")  # Django renewed the cookie
    assert both.answered == [False, False]
    assert stored(tables[0][0]) == stored(tables[1][0]) and len(stored(tables[0][0])) == 2


def test_https_gets_hsts_here_and_plain_http_djangos_redirect(both, tables, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    both.django = ASGIHandler()  # its middleware reads these settings when loaded
    answers = play(
        both,
        tables,
        [(scorer("key-0022-abcdef"), {"record": HAND_1, **AS_NS})],
    )
    answers += play(
        both,
        tables,
        [(scorer("key-0023-abcdef"), {"record": HAND_1, **AS_NS})],
        scheme="https",
    )
    assert [status for status, _, _ in answers] == [301, 201]
    assert answers[1][1]["strict-transport-security"] == "max-age=3600"
    assert both.answered == [False, True]
    assert stored(tables[0][0]) == stored(tables[1][0]) and len(stored(tables[0][0])) == 1


def test_throttling_counts_once_and_its_refusal_is_djangos(both, tables, settings):
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
            (scorer("key-0017-abcdef"), {"record": HAND_1, **AS_NS}),
            (scorer("key-0018-abcdef"), b"{not json"),  # refused after the throttle counted it
            (scorer("key-0019-abcdef"), {"record": HAND_2, **AS_NS}),
        ],
    )
    assert [status for status, _, _ in answers] == [201, 400, 429]
    assert answers[2][2]["code"] == "throttled" and "retry-after" in answers[2][1]
    assert both.answered == [True, False, False]


def test_a_database_failure_in_the_workflow_is_the_same_503(both, tables, monkeypatch):
    def down(**kwargs):
        raise OperationalError("the server closed the connection")

    monkeypatch.setattr(services, "submit_hand", down)
    answers = play(
        both,
        tables,
        [(scorer("key-0020-abcdef"), {"record": HAND_1, **AS_NS})],
    )
    assert answers[0][0] == 503 and answers[0][1]["retry-after"] == "1"
    assert answers[0][2]["code"] == "database-unavailable"
    assert both.answered == [True]


def test_switched_off_django_answers_every_submission(both, tables, settings):
    settings.SUBMIT_FAST_PATH = False
    answers = play(
        both,
        tables,
        [(scorer("key-0021-abcdef"), {"record": HAND_1, **AS_NS})],
    )
    assert answers[0][0] == 201 and both.answered == []  # never asked
    assert stored(tables[0][0]) == stored(tables[1][0]) and len(stored(tables[0][0])) == 1


def test_the_answers_representation_is_the_view_serializers_byte_for_byte():
    from rest_framework.renderers import JSONRenderer

    from api import serializers as s
    from tests.tournaments.builders import scorer as table_scorer
    from tournaments.models import HandSubmission

    director = make_director(f"td-{uuid.uuid4().hex[:6]}")
    match = make_match(director)
    pending = services.submit_hand(match=match, actor=table_scorer(match, "NS"), record=HAND_1)
    services.reject_hand(
        submission=pending.submission,
        actor=table_scorer(match, "EW"),
        expected_version=1,
        reason="wrong tricks — 違う",
    )
    again = services.submit_hand(
        match=match, actor=table_scorer(match, "NS"), record=HAND_1, number=1
    )  # version 2
    services.confirm_hand(submission=again.submission, actor=director, expected_version=2)
    services.submit_hand(match=match, actor=table_scorer(match, "NS"), record=HAND_2)  # pending
    versions = list(HandSubmission.objects.filter(hand__match=match).select_related("hand"))
    assert len({v.status for v in versions}) == 3  # rejected, confirmed, pending
    render = JSONRenderer().render
    for version in versions:
        assert render(fastsubmit._representation(version)) == render(
            s.HandVersionSerializer(version).data
        )


@pytest.mark.parametrize(
    "body",
    [
        {"record": HAND_1, "side": "NS"},
        {"record": HAND_1, "side": "NS", "number": 2, "idempotency_key": "key-0030-abcdef"},
        {"record": HAND_1, "side": "", "number": None},
        {"record": HAND_1},
        {"record": HAND_1, "side": "NORTH"},
        {"record": HAND_1, "number": 0},
        {"record": HAND_1, "idempotency_key": "short"},
        {"record": "nope", "side": "NS"},
        {"record": [], "side": "NS"},
        {"side": "NS"},
        [HAND_1],
        None,
        "text",
    ],
)
def test_the_body_is_validated_as_the_views_serializer_validates_it(body):
    from api import serializers as s

    view = s.SubmitSerializer(data=body)
    if view.is_valid():
        assert fastsubmit._validated(body) == view.validated_data
    else:
        assert fastsubmit._validated(body) is None  # Django answers it

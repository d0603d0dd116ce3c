"""Nothing rejected changes any state: a property test sends random bad requests — bodies of
the wrong shape, illegal hand records, wrong, revoked or missing tokens, wrong sides, stale or
wrong hand numbers and versions, reused idempotency keys, oversized bodies — to the hand
endpoints of a match in play, and checks after each that every table's row count, every
tournament's `results_version` and every hand version are exactly as before (and that each
got a 4xx in the API's one error shape; a replay of a stored submission gets it back, 200)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests import sizes
from tests.api.conftest import api_token, client_with, table_token
from tests.tournaments.builders import (
    HAND_1,
    HAND_2,
    make_director,
    make_match,
    side_pin,
    spades_hand,
)
from tournaments.models import HandSubmission, Match, Round, Tournament

from .conftest import decide, row_counts, scorer_client, submit

pytestmark = pytest.mark.django_db

HAND_3 = spades_hand("S", ["3", "4", "6", "7"], {"N": 3, "E": 4, "S": 3, "W": 3})  # legal next
SEATS = "NESW"
HANDS = "/api/v1/matches/{match}/hands"


@dataclass(frozen=True)
class Attempt:
    who: str  # which client sends it (see `table`)
    path: str  # with {match} for the match in play
    body: Any  # a JSON value, or bytes sent as they are
    key: str | None = None
    replay: bool = False  # a replay of a stored submission: 200 with the stored version
    pin_of: str | None = None  # the side whose PIN the body carries (the match's, when sent)

    def send(self, clients: dict, match: Match):
        headers = {"HTTP_IDEMPOTENCY_KEY": self.key} if self.key is not None else {}
        body = self.body
        if self.pin_of is not None and isinstance(body, dict):
            body = {**body, "pin": side_pin(match, self.pin_of)}
        data = body if isinstance(body, bytes) else json.dumps(body)
        return clients[self.who].post(
            self.path.format(match=match.pk), data=data, content_type="application/json", **headers
        )


@dataclass
class Table:
    match: Match
    clients: dict


@pytest.fixture
def table(settings) -> Table:
    """A match in play: hand 1 confirmed, hand 2 submitted by EW and pending; the clients of
    its scorer and director, and of callers who may not score it."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "hand-submit": None},
    }
    director = make_director("td")
    match = make_match(director)
    scorer = scorer_client(match)
    assert submit(scorer, match, HAND_1, key="setup-hand-1").status_code == 201
    assert decide(scorer, match, 1, "confirm", "EW").status_code == 200
    assert submit(scorer, match, HAND_2, key="setup-hand-2", side="EW").status_code == 201
    revoked, revoked_secret = table_token(match.table)
    revoked.revoke()
    _, expired = table_token(match.table, expires_at=timezone.now() - timedelta(minutes=1))
    clients = {
        "scorer": scorer,
        "director": client_with(f"Token {api_token(director.user)}"),
        "other-table": scorer_client(make_match(make_director("other-td"))),
        "other-director": client_with(f"Token {api_token(make_director('td-2').user)}"),
        "revoked": client_with(f"Table {revoked_secret}"),
        "expired": client_with(f"Table {expired}"),
        "garbage": client_with("Table not-a-token"),
        "anonymous": client_with(),
    }
    return Table(match, clients)


@contextmanager
def rolled_back() -> Iterator[None]:
    """Whatever the block writes is undone when it ends (a savepoint inside the test's
    transaction): one generated example never sees another's rows, and when an attempt is
    wrongly accepted, Hypothesis shrinks and replays it on the same untouched match."""
    with transaction.atomic():
        try:
            yield
        finally:
            transaction.set_rollback(True)


def state() -> tuple:
    """Everything a rejected request must leave alone."""
    return (
        row_counts(),
        sorted(Tournament.objects.values_list("pk", "results_version", "state")),
        sorted(HandSubmission.objects.values_list("pk", "version", "status", "is_current")),
        sorted(Match.objects.values_list("pk", "state")),
        sorted(Round.objects.values_list("pk", "state")),
    )


# -- strategies ----------------------------------------------------------------------------------

keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=8, max_size=40).map(
    lambda k: f"h-{k}"
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# The API trims a side as it trims any text field (" NS" is NS), so those are not bad sides.
bad_sides = st.text(max_size=6).filter(lambda s: s.strip() not in {"NS", "EW"})


def bad_shapes() -> st.SearchStrategy[Attempt]:
    """Bodies that are not a submission: any JSON, a record that is not an object, bytes."""
    not_a_record = json_values.filter(lambda v: not isinstance(v, dict))
    return st.one_of(
        st.builds(Attempt, st.just("scorer"), st.just(HANDS), json_values, keys),
        st.builds(
            Attempt,
            st.just("scorer"),
            st.just(HANDS),
            st.fixed_dictionaries({"record": not_a_record, "side": st.just("NS")}),
            keys,
        ),
        st.builds(Attempt, st.just("scorer"), st.just(HANDS), st.binary(max_size=64), keys),
    )


def _sum_not_13(tricks: dict) -> bool:
    return sum(tricks.values()) != 13


@st.composite
def illegal_records(draw) -> dict:
    """HAND_3 (legal as the match's next hand) with one thing made illegal."""
    record = json.loads(json.dumps(HAND_3))
    how = draw(st.sampled_from(["tricks", "dealer", "bid", "missing", "seat", "extra-seat"]))
    if how == "tricks":
        record["tricks"] = draw(
            st.fixed_dictionaries({seat: st.integers(0, 13) for seat in SEATS}).filter(_sum_not_13)
        )
    elif how == "dealer":
        record["dealer"] = draw(st.sampled_from(["N", "E", "W", "", "X", 3]))
    elif how == "bid":
        # A JSON number is read as the bid it spells (4 is "4", a legal bid): only numbers out
        # of range, non-bids and booleans are illegal.
        index = draw(st.integers(0, 3))
        record["calls"][index]["call"] = draw(
            st.sampled_from(["14", "-1", "x", "", "4.5", 14, -1, 4.5, True])
        )
    elif how == "missing":
        del record[draw(st.sampled_from(["dealer", "calls", "tricks"]))]
    elif how == "seat":
        record["calls"][draw(st.integers(0, 3))]["seat"] = draw(st.sampled_from(["X", "", "NS"]))
    else:
        record["tricks"]["Z"] = 0
    return record


def illegal_hands() -> st.SearchStrategy[Attempt]:
    body = st.fixed_dictionaries({"record": illegal_records(), "side": st.just("NS")})
    return st.builds(
        Attempt,
        st.sampled_from(["scorer", "director"]),
        st.just(HANDS),
        body,
        keys,
        pin_of=st.just("NS"),
    )


def wrong_callers() -> st.SearchStrategy[Attempt]:
    """A legal next hand, sent by someone who may not score this match."""
    who = st.sampled_from(
        ["other-table", "other-director", "revoked", "expired", "garbage", "anonymous"]
    )
    hand = st.just({"record": HAND_3, "side": "NS"})
    return st.builds(Attempt, who, st.just(HANDS), hand, keys, pin_of=st.just("NS"))


def wrong_sides_and_numbers() -> st.SearchStrategy[Attempt]:
    """A legal next hand from the right device, but for no side, or for the wrong hand."""
    side = st.builds(lambda s: {"record": HAND_3, "side": s}, bad_sides)
    number = st.builds(
        lambda n: {"record": HAND_3, "side": "NS", "number": n},
        st.integers(1, 2) | st.integers(4, 40000) | st.integers(-5, 0),
    )
    return st.one_of(
        st.builds(Attempt, st.just("scorer"), st.just(HANDS), side, keys),  # no PIN either
        st.builds(Attempt, st.just("scorer"), st.just(HANDS), number, keys, pin_of=st.just("NS")),
    )


def bad_keys() -> st.SearchStrategy[Attempt]:
    """No key, a key too short, a key that differs from the body's, a key already used."""
    hand = {"record": HAND_3, "side": "NS"}
    return st.one_of(
        st.just(Attempt("scorer", HANDS, hand, None, pin_of="NS")),
        st.builds(
            Attempt,
            st.just("scorer"),
            st.just(HANDS),
            st.just(hand),
            st.text(alphabet="abc", min_size=1, max_size=7),
            pin_of=st.just("NS"),
        ),
        st.builds(
            lambda k: Attempt(
                "scorer", HANDS, {**hand, "idempotency_key": k + "x"}, k, pin_of="NS"
            ),
            keys,
        ),
        st.just(Attempt("scorer", HANDS, hand, "setup-hand-2", pin_of="NS")),
    )


def bad_decisions() -> st.SearchStrategy[Attempt]:
    """Confirm or reject what may not be: the submitting side, no side, another device, a
    stale version, a confirmed hand, a hand that does not exist."""
    verb = st.sampled_from(["confirm", "reject"])

    def path(number: int, v: str) -> str:
        return f"/api/v1/matches/{{match}}/hands/{number}/{v}"

    return st.one_of(
        st.builds(lambda v: Attempt("scorer", path(2, v), {"side": "EW"}, pin_of="EW"), verb),
        st.builds(lambda v: Attempt("scorer", path(2, v), {}, pin_of="EW"), verb),  # own side
        st.builds(
            lambda v, s: Attempt("scorer", path(2, v), {"side": s}),
            verb,
            bad_sides.filter(lambda s: len(s) <= 4),
        ),
        st.builds(
            lambda v, w: Attempt(w, path(2, v), {"side": "NS"}),
            verb,
            st.sampled_from(["other-table", "revoked", "expired", "anonymous"]),
        ),
        st.builds(
            lambda v, n: Attempt("scorer", path(2, v), {"side": "NS", "version": n}, pin_of="NS"),
            verb,
            st.integers(2, 50),
        ),
        st.builds(
            lambda v, n: Attempt("scorer", path(n, v), {"side": "NS"}, pin_of="NS"),
            verb,
            st.just(1) | st.integers(3, 99),
        ),
    )


def bad_corrections() -> st.SearchStrategy[Attempt]:
    """Corrections from a scorer or another director, without a reason, or illegal."""
    legal = {"record": HAND_2, "reason": "slip", "version": 1}
    path = "/api/v1/matches/{match}/hands/2/correct"
    return st.one_of(
        st.builds(
            Attempt,
            st.sampled_from(["scorer", "other-director", "anonymous"]),
            st.just(path),
            st.just(legal),
        ),
        st.just(Attempt("director", path, {"record": HAND_2, "version": 1})),
        st.just(Attempt("director", path, {"record": HAND_2, "reason": "  ", "version": 1})),
        st.just(Attempt("director", "/api/v1/matches/{match}/hands/9/correct", legal)),
    )


def oversized() -> st.SearchStrategy[Attempt]:
    return st.builds(
        lambda n, k: Attempt(
            "scorer", HANDS, {"record": {**HAND_3, "pad": "x" * n}, "side": "NS"}, k, pin_of="NS"
        ),
        st.integers(65 * 1024, 70 * 1024),
        keys,
    )


def replays() -> st.SearchStrategy[Attempt]:
    """The scorer's retry of hand 2 exactly as first sent: 200, nothing new."""
    return st.just(
        Attempt(
            "scorer",
            HANDS,
            {"record": HAND_2, "side": "EW"},
            "setup-hand-2",
            replay=True,
            pin_of="EW",
        )
    )


attempts = st.one_of(
    bad_shapes(),
    illegal_hands(),
    wrong_callers(),
    wrong_sides_and_numbers(),
    bad_keys(),
    bad_decisions(),
    bad_corrections(),
    oversized(),
    replays(),
)


def test_nothing_rejected_changes_any_state(table):
    match, clients = table.match, table.clients

    @hypothesis_settings(
        max_examples=sizes.examples(80),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(attempt=attempts)
    def check(attempt: Attempt) -> None:
        with rolled_back():
            before = state()
            response = attempt.send(clients, match)
            body = response.json()
            if attempt.replay:
                assert response.status_code == 200 and body["version"] == 1, body
            else:
                assert 400 <= response.status_code < 500, (attempt, response.status_code, body)
                assert set(body) == {"code", "message", "details"}, body
            assert state() == before, attempt

    check()
    # The control: the legal hand the attempts spoiled is accepted from the right device.
    accepted = submit(clients["scorer"], match, HAND_3, key="control-hand-3")
    assert accepted.status_code == 201, accepted.content
    assert accepted.json()["number"] == 3

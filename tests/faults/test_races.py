"""Concurrent writers on one hand, on PostgreSQL, through the API: the match row lock, the
partial unique indexes (one current, one confirmed version per hand; an idempotency key once)
and the workflows' re-reads under the lock leave exactly one outcome, whoever wins."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from tests.api.conftest import api_token, client_with
from tests.tournaments.builders import HAND_1, make_director, make_match
from tournaments.models import HandSubmission, Tournament

from .conftest import (
    MATCH_TABLE,
    Pg,
    close_thread_connection,
    decide,
    scorer_client,
    submit,
    table_of,
    wait_until,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 8
SUBMISSIONS = table_of(HandSubmission)
FIXED = {**HAND_1, "tricks": {"N": 3, "E": 5, "S": 3, "W": 2}}  # the director's correction


def run_threads(calls: list[Callable[[], object]], barrier: bool = True) -> list:
    """Run each call in its own thread (released together by a barrier); their results in
    the order of `calls`. Each thread closes the database connection Django opened for it."""
    results: list = [None] * len(calls)
    gate = threading.Barrier(len(calls)) if barrier else None

    def run(index: int) -> None:
        try:
            if gate is not None:
                gate.wait()
            results[index] = calls[index]()
        except BaseException as error:  # reported by the test, not lost in the thread
            results[index] = error
        finally:
            close_thread_connection()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def outcome(response) -> tuple[int, str]:
    if isinstance(response, BaseException):
        raise response
    return response.status_code, (
        response.json().get("code", "") if response.status_code >= 400 else ""
    )


def assert_hand_invariants(pg: Pg) -> None:
    """What the database promises for every hand, checked with SQL on the stored rows, and the
    partial unique indexes that enforce it present."""
    assert (
        pg.rows(
            f"SELECT hand_id FROM {SUBMISSIONS} GROUP BY hand_id "
            "HAVING count(*) FILTER (WHERE is_current) <> 1 "
            "OR count(*) FILTER (WHERE status = 'confirmed') > 1"
        )
        == []
    )
    assert (
        pg.rows(
            f"SELECT id FROM {SUBMISSIONS} WHERE (status = 'pending' AND NOT is_current) "
            "OR (status = 'superseded' AND is_current)"
        )
        == []
    )
    indexes = {
        name
        for (name,) in pg.rows(
            "SELECT indexname FROM pg_indexes WHERE tablename = %s", (SUBMISSIONS,)
        )
    }
    assert {
        "submission_one_current",
        "submission_one_confirmed",
        "submission_idempotency_key_once",
    } <= indexes


def test_eight_scorers_racing_on_one_hand_get_one_201_and_seven_409s(postgres_db, pg):
    match = make_match(make_director())
    clients = [scorer_client(match) for _ in range(RACERS)]  # a device (token) each
    responses = run_threads(
        [
            (
                lambda c=c, i=i: submit(
                    c, match, HAND_1, key=f"racer-{i}-key", side=("NS", "EW")[i % 2], number=1
                )
            )
            for i, c in enumerate(clients)
        ]
    )
    outcomes = sorted(outcome(r) for r in responses)
    assert outcomes[0] == (201, "")
    assert all(
        status == 409 and code in {"hand-already-submitted", "hand-conflict"}
        for status, code in outcomes[1:]
    ), outcomes
    [current] = HandSubmission.objects.filter(is_current=True)
    assert HandSubmission.objects.count() == 1 and current.version == 1
    winner = next(r for r in responses if r.status_code == 201)
    assert winner.json()["id"] == current.pk
    assert_hand_invariants(pg)


def test_eight_retries_of_one_submission_racing_store_one_version_and_all_get_its_id(
    postgres_db, pg
):
    match = make_match(make_director())
    client = scorer_client(match)
    responses = run_threads(
        [lambda: submit(client, match, HAND_1, key="one-key-for-all") for _ in range(RACERS)]
    )
    statuses = sorted(outcome(r)[0] for r in responses)
    assert statuses == [200] * (RACERS - 1) + [201]
    assert len({r.json()["id"] for r in responses}) == 1
    assert HandSubmission.objects.count() == 1
    assert_hand_invariants(pg)


# -- a director's correction racing the other side's confirmation ----------------------------


def pending_hand(name: str):
    """A match with hand 1 submitted by NS (pending), the scorer's and the director's clients."""
    director = make_director(name)
    match = make_match(director)
    scorer = scorer_client(match)
    assert submit(scorer, match, HAND_1, key=f"{name}-hand-1").status_code == 201
    td = client_with(f"Token {api_token(director.user)}")
    return match, scorer, td


def race_correction_and_confirmation(pg: Pg, name: str, first: str | None) -> str:
    """Run the confirmation and the correction concurrently; `first` queues that one first at
    the match's row lock (None: a barrier lets them go and PostgreSQL decides). Checks the
    outcome is one of the two consistent ones and returns which request won."""
    match, scorer, td = pending_hand(name)
    calls = {
        "confirm": lambda: decide(scorer, match, 1, "confirm", "EW"),
        "correct": lambda: td.post(
            f"/api/v1/matches/{match.pk}/hands/1/correct",
            {"record": FIXED, "reason": "scorer slip", "version": 1},
            format="json",
        ),
    }
    if first is None:
        confirm, correct = run_threads([calls["confirm"], calls["correct"]])
    else:
        order = [first, "correct" if first == "confirm" else "confirm"]
        found: dict[str, object] = {}
        threads = []
        with pg.row_lock(MATCH_TABLE, match.pk):  # both requests queue up behind this lock
            for count, which in enumerate(order, start=1):
                threads.append(
                    threading.Thread(
                        target=lambda w=which: found.setdefault(w, _run_closing(calls[w]))
                    )
                )
                threads[-1].start()
                wait_until(
                    lambda c=count: len(pg.waiting_on_locks()) == c,
                    f"{which} to wait for the match's lock",
                )
        for thread in threads:
            thread.join(30)
        confirm, correct = found["confirm"], found["correct"]

    versions = list(HandSubmission.objects.filter(hand__match=match).order_by("version"))
    assert [(v.version, v.status, v.is_current) for v in versions] == [
        (1, "superseded", False),
        (2, "confirmed", True),
    ]
    assert versions[0].superseded_by_id == versions[1].pk
    assert outcome(correct) == (201, "")
    results_version = Tournament.objects.get(pk=match.round.tournament_id).results_version
    if outcome(confirm) == (200, ""):  # the confirmation came first, the correction replaced it
        winner = "confirm"
        assert versions[0].decided_side == "EW" and results_version == 2
    else:  # the correction came first: the version the confirmer saw is no longer the hand's
        winner = "correct"
        assert outcome(confirm) == (409, "stale-version")
        assert not versions[0].decided_side and results_version == 1
    assert_hand_invariants(pg)
    return winner


def _run_closing(call: Callable[[], object]) -> object:
    try:
        return call()
    finally:
        close_thread_connection()


@pytest.mark.parametrize("first", ["confirm", "correct"])
def test_a_correction_racing_a_confirmation_ends_consistent_whichever_goes_first(
    postgres_db, pg, first
):
    assert race_correction_and_confirmation(pg, f"td-{first}", first) == first


def test_corrections_and_confirmations_released_together_always_end_consistent(postgres_db, pg):
    for i in range(6):  # both outcomes occur over a few rounds; each must be consistent
        race_correction_and_confirmation(pg, f"td-{i}", None)


def test_guesses_racing_on_one_hand_never_take_more_than_the_budget(postgres_db, pg):
    """Thirty wrong PINs sent at once from thirty addresses (issue 28: no more than 20 an hour
    against an entry's PIN, whatever phones or addresses): the seated entries' rows are locked
    while a PIN is tested, so exactly 20 are tried and the others refused as locked."""
    from tournaments.models import Entry
    from tournaments.services import side_pins

    match = make_match(make_director("td"))
    scorer = scorer_client(match)
    assert submit(scorer, match, HAND_1, key="race-pin-hand-1").status_code == 201
    taken = set(Entry.objects.values_list("pin", flat=True))
    guesses = [f"{n:04d}" for n in range(10_000) if f"{n:04d}" not in taken][:30]
    url = f"/api/v1/matches/{match.pk}/hands/1/confirm"

    def guess(n: int, pin: str) -> object:
        # Thirty at once can outrun the connection pool: a 503 (database unavailable) changed
        # nothing and says to retry, which is what the phone does, so the guesser retries.
        for _ in range(50):
            response = scorer.post(
                url, {"pin": pin, "version": 1}, format="json", REMOTE_ADDR=f"10.3.0.{n + 1}"
            )
            if response.status_code != 503:
                return response
            close_thread_connection()
            time.sleep(0.05)
        return response

    calls = [lambda n=n, pin=pin: guess(n, pin) for n, pin in enumerate(guesses)]
    outcomes = [outcome(response) for response in run_threads(calls)]
    assert outcomes.count((403, "side-pin-wrong")) == side_pins.BUDGET
    assert outcomes.count((429, "side-pin-locked")) == len(guesses) - side_pins.BUDGET
    assert HandSubmission.objects.get().status == "pending"

"""The duplicate phone (`…/duplicate/<slug>/table/<n>/act/`) and the duplicate API under hostile
input (issue 30, finding 7): every bad input is refused with a stable code — in the panel's
notice (`data-code`) for the phone, in the one error shape for a client that asks for JSON —
and changes nothing; no record over the hand limit of every way in (64 KiB) is stored."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import sizes
from tests.duplicate.builders import make_event, played
from tests.hostile.conftest import refused, state, unchanged
from tests.tournaments.builders import make_director
from tournaments.duplicate import services as dup
from tournaments.models import BoardResult
from tournaments.services import Invalid
from tournaments.services.hands import MAX_HAND_BYTES
from tournaments.services.table_access import issue_round_tokens

pytestmark = pytest.mark.django_db
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture
def table():
    """Round 1 in play; table 1's phone with its code, its first board and its act address."""
    td = make_director()
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secrets = issue_round_tokens(round=round_, actor=td)
    secret = secrets[round_.tables.get(number=1).pk]
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    return {
        "tournament": tournament,
        "board": board,
        "auth": {"HTTP_AUTHORIZATION": f"Table {secret}"},
        "act": reverse("tournaments:duplicate-table-act", args=[tournament.slug, 1]),
        "api": f"/api/v1/duplicate/{tournament.slug}/tables/{round_.tables.get(number=1).pk}"
        "/results",
        "ns_pin": round_.tables.get(number=1).match.seats.get(side="NS").entry.pin,
    }


def phone(language: str = "en") -> Client:
    made = Client(raise_request_exception=False)  # a server error comes back as a response
    made.cookies["django_language"] = language
    return made


def notice_code(response) -> str:
    found = re.search(r'role="alert" data-code="([^"]+)"', response.content.decode())
    assert found, response.content.decode()[:500]
    return found.group(1)


def padded(record: dict, size: int) -> str:
    """The record as compact JSON text of exactly `size` bytes (an unknown field fills it)."""
    text = json.dumps({**record, "pad": ""}, separators=(",", ":"))
    return text.replace('"pad":""', '"pad":"' + "x" * (size - len(text)) + '"')


NESTED = "[" * 30_000 + "]" * 30_000  # under 64 KiB, deeper than Python's parser goes


def bad_inputs(table) -> list[tuple[str, dict, int, str]]:
    board, tournament = table["board"], table["tournament"]
    record = json.dumps(played(tournament, board))
    submit = {"action": "submit", "side": "NS"}
    bids = {f"call_{seat}": "3" for seat in "NESW"}  # every bid given: the counts are what fail
    return [
        ("board=abc", {**submit, "board": "abc", "record": record}, 400, "bad-board"),
        ("5,000-digit board", {**submit, "board": "9" * 5000, "record": record}, 400, "bad-board"),
        ("board 0", {**submit, "board": "0", "record": record}, 400, "bad-board"),
        ("board -1", {**submit, "board": "-1", "record": record}, 400, "bad-board"),
        ("full-width digit", {**submit, "board": "１", "record": record}, 400, "bad-board"),
        ("no board", {**submit, "record": record}, 400, "bad-board"),
        ("board 99", {**submit, "board": "99", "record": record}, 400, "no-board"),
        ("nested record", {**submit, "board": board, "record": NESTED}, 400, "bad-record"),
        (
            "2 MiB record",
            {**submit, "board": board, "record": padded(played(tournament, board), 2 << 20)},
            413,
            "too-large",
        ),
        (
            "64 KiB + 1 record",
            {
                **submit,
                "board": board,
                "record": padded(played(tournament, board), MAX_HAND_BYTES + 1),
            },
            413,
            "too-large",
        ),
        ("result=abc", {"action": "confirm", "result": "abc", "side": "EW"}, 404, "no-result"),
        (
            "5,000-digit result",
            {"action": "confirm", "result": "9" * 5000, "side": "EW"},
            404,
            "no-result",
        ),
        (
            "no such result",
            {"action": "reject", "result": "999999", "side": "EW"},
            404,
            "no-result",
        ),
        ("count abc", {**submit, **bids, "board": board, "tricks_N": "abc"}, 400, "bad-record"),
        (
            "5,000-digit count",
            {**submit, **bids, "board": board, "tricks_N": "9" * 5000},
            400,
            "bad-record",
        ),
    ]


def test_every_bad_input_is_refused_on_the_panel_with_its_code_and_changes_nothing(table):
    for name, data, status, code in bad_inputs(table):
        with unchanged():
            response = phone().post(table["act"], data, **table["auth"])
        assert response.status_code == status, (name, response.status_code)
        assert response["Content-Type"].startswith("text/html"), name
        assert notice_code(response) == code, name
    assert not BoardResult.objects.exists()


def test_a_client_that_asks_for_json_gets_the_one_error_shape(table):
    for name, data, status, code in bad_inputs(table):
        with unchanged():
            response = phone().post(
                table["act"], data, HTTP_ACCEPT="application/json", **table["auth"]
            )
        body = refused(response, status, code)
        assert body["message"], name


def test_the_refusals_read_in_japanese(table):
    for name, data, _status, code in bad_inputs(table):
        response = phone("ja").post(table["act"], data, **table["auth"])
        notice = re.search(r'role="alert"[^>]*>([^<]+)<', response.content.decode()).group(1)
        assert JAPANESE.search(notice), (name, notice)
        assert code not in notice, name


def test_a_record_of_exactly_the_hand_limit_is_taken(table):
    record = padded(played(table["tournament"], table["board"]), MAX_HAND_BYTES)
    response = phone().post(
        table["act"],
        {"action": "submit", "pin": table["ns_pin"], "board": table["board"], "record": record},
        **table["auth"],
    )
    assert response.status_code == 200, response.content.decode()[:300]
    assert len(json.dumps(BoardResult.objects.get().record, separators=(",", ":"))) <= (
        MAX_HAND_BYTES
    )


def test_the_api_refuses_a_record_over_the_hand_limit_as_a_hand_submission_is(table):
    record = json.loads(padded(played(table["tournament"], table["board"]), MAX_HAND_BYTES + 1))
    body = {"board": table["board"], "side": "NS", "record": record, "idempotency_key": "k-000001"}
    with unchanged():
        response = Client().post(
            table["api"], json.dumps(body), content_type="application/json", **table["auth"]
        )
    assert refused(response, 413, "too-large")["details"] == {"limit": MAX_HAND_BYTES}


def test_the_service_refuses_a_record_over_the_hand_limit_whoever_calls_it(table):
    tournament = table["tournament"]
    match = tournament.round_set.get(number=1).matches.get(table__number=1)
    record = json.loads(padded(played(tournament, table["board"]), MAX_HAND_BYTES + 1))
    director = make_director("another")
    tournament.directors.add(director.user)
    with unchanged(), pytest.raises(Invalid) as error:
        dup.submit_board_result(match=match, board=table["board"], record=record, actor=director)
    assert (error.value.code, error.value.status) == ("too-large", 413)
    assert error.value.details == {"bytes": MAX_HAND_BYTES + 1, "limit": MAX_HAND_BYTES}


FIELDS = ("action", "board", "record", "result", "version", "side", "pin", "key", "tricks_N")
ODD_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", "0", "-1", "1", "2", "1e400", "9" * 5000, "[" * 3000, "{}", "null"]),
    st.integers(-(10**30), 10**30).map(str),
)


@settings(
    max_examples=sizes.examples(60),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    form=st.dictionaries(st.sampled_from(FIELDS), ODD_TEXT, max_size=len(FIELDS)),
    action=st.sampled_from(["submit", "confirm", "reject", "nope"]),
)
def test_no_form_the_phone_can_send_is_a_server_error_and_a_refusal_changes_nothing(
    table, form, action
):
    data = {**form, "action": form.get("action", action)}
    data = {k: v.replace("\x00", "") for k, v in data.items()}  # a form field holds no NUL
    before = state()
    response = phone().post(table["act"], data, **table["auth"])
    assert response.status_code < 500, (data, response.content[:300])
    if response.status_code != 200:
        assert state() == before, data
        notice_code(response)  # every refusal names its code

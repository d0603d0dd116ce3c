"""Hostile JSON bodies on every API endpoint that reads one: each is refused in the one error
shape with a stable code — never a server error, never an HTML page — and the database is
exactly as it was (every row count, every tournament's results_version, every status).

What the API does with unknown fields is decided here: a request's unknown top-level fields
are ignored (never stored, never an error); an unknown rules option is refused (`bad-rules`);
an unknown field inside a hand record is the scorer's data and is kept in `raw` as sent
(see docs/hostile-input.md).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import rest_framework.views  # noqa: F401  (before api.parsers: DRF's settings import it)

from api.parsers import HAND_LIMIT, JSON_LIMIT
from tests.tournaments.builders import HAND_1
from tournaments.models import Entry, HandSubmission, Tournament

from .conftest import Play, post_json, refused, submit, the_shared_play, unchanged

pytestmark = pytest.mark.django_db


#: The module's match in play, built once (conftest.SharedPlay).
play, pending = the_shared_play()


#: Stands for the value under test in a body template (see `Endpoint.number_body`).
MARK = 987654321


@dataclass(frozen=True)
class Endpoint:
    """An API endpoint that reads a JSON body, who calls it, its size limit, and its fields
    a hostile value can go into (None: it has no such field)."""

    name: str
    path: Callable[[Play], str]
    who: str = "td"
    limit: int = JSON_LIMIT
    method: str = "post"
    number_body: dict | None = None  # MARK where a number goes
    text_field: tuple[dict, str] | None = None  # (a valid body, the text field in it)
    headers: dict = field(default_factory=dict)

    def send(self, play: Play, body: Any, content_type: str = "application/json"):
        caller = getattr(play, self.who)
        data = body if isinstance(body, bytes) else json.dumps(body)
        return getattr(caller, self.method)(
            self.path(play), data=data, content_type=content_type, **self.headers
        )

    def __str__(self) -> str:
        return self.name


def _entry(play: Play) -> int:
    return play.match.seats.order_by("pk").first().entry_id


def _second_entry(play: Play) -> int:
    return play.match.seats.order_by("pk").last().entry_id


PLAYERS = [{"name": "Aoi"}, {"name": "Bunta"}]
TOURNAMENT = {"name": "Cup", "game": "spades", "rules": "standard", "format": "swiss", "rounds": 3}

ENDPOINTS = [
    Endpoint(
        "hand-submit",
        lambda p: f"/api/v1/matches/{p.match.pk}/hands",
        who="scorer",
        limit=HAND_LIMIT,
        number_body={"record": HAND_1, "side": "NS", "number": MARK},
        text_field=({"record": HAND_1, "side": "NS"}, "side"),
        headers={"HTTP_IDEMPOTENCY_KEY": "hostile-body-1"},
    ),
    Endpoint(
        "hand-confirm",
        lambda p: p.hand_url(1, "confirm"),
        who="scorer",
        number_body={"side": "EW", "version": MARK},
        text_field=({"side": "EW"}, "side"),
    ),
    Endpoint(
        "hand-reject",
        lambda p: p.hand_url(1, "reject"),
        who="scorer",
        number_body={"side": "EW", "version": MARK, "reason": "no"},
        text_field=({"side": "EW", "reason": "we took 4"}, "reason"),
    ),
    Endpoint(
        "hand-correct",
        lambda p: p.hand_url(1, "correct"),
        limit=HAND_LIMIT,
        number_body={
            "record": {**HAND_1, "tricks": {"N": MARK, "E": 4, "S": 3, "W": 3}},
            "reason": "slip",
        },
        text_field=({"record": HAND_1, "reason": "slip"}, "reason"),
    ),
    Endpoint("hands-check", lambda p: "/api/v1/hands/check", who="anon", limit=HAND_LIMIT),
    Endpoint(
        "entries-register",
        lambda p: f"/api/v1/tournaments/{p.slug}/entries",
        number_body={"players": PLAYERS, "seed": MARK},
        text_field=({"players": PLAYERS, "name": "Team"}, "name"),
    ),
    Endpoint(
        "tournament-create",
        lambda p: "/api/v1/tournaments",
        number_body={**TOURNAMENT, "rounds": MARK},
        text_field=(TOURNAMENT, "name"),
    ),
    Endpoint(
        "tournament-patch",
        lambda p: f"/api/v1/tournaments/{p.slug}",
        method="patch",
        number_body={"rounds": MARK},
        text_field=({"venue": "Hall"}, "venue"),
    ),
    Endpoint(
        "table-tokens",
        lambda p: f"/api/v1/tables/{p.match.table_id}/tokens",
        number_body={"expires_in": MARK},
        text_field=({"label": "spare"}, "label"),
    ),
    Endpoint(
        "api-tokens",
        lambda p: "/api/v1/auth/tokens",
        who="anon",
        number_body={"username": "hostile-td", "password": "x", "expires_in": MARK},
        text_field=({"username": "hostile-td", "password": "x", "label": "l"}, "label"),
    ),
    Endpoint(
        "entry-withdraw",
        lambda p: f"/api/v1/entries/{_entry(p)}/withdraw",
        text_field=({"reason": "ill"}, "reason"),
    ),
    Endpoint(
        "entry-seed", lambda p: f"/api/v1/entries/{_entry(p)}/seed", number_body={"seed": MARK}
    ),
    Endpoint(
        "entry-fix-table",
        lambda p: f"/api/v1/entries/{_entry(p)}/fix-table",
        number_body={"table": MARK},
        text_field=({"table": 1, "reason": "r"}, "reason"),
    ),
    Endpoint("round-generate", lambda p: f"/api/v1/tournaments/{p.slug}/rounds/generate"),
    Endpoint(
        "round-swap",
        lambda p: f"/api/v1/rounds/{p.match.round_id}/swap",
        text_field=({"first": 1, "second": 2, "reason": "r"}, "reason"),
    ),
]
BY_NAME = {e.name: e for e in ENDPOINTS}
WITH_NUMBERS = [e for e in ENDPOINTS if e.number_body is not None]
WITH_TEXT = [e for e in ENDPOINTS if e.text_field is not None]
each = pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)


def number_text(endpoint: Endpoint, literal: str) -> bytes:
    """The endpoint's number body with the number written as `literal` (JSON text)."""
    return json.dumps(endpoint.number_body).replace(str(MARK), literal).encode()


def padded(size: int) -> bytes:
    """A JSON object of exactly `size` bytes (one unknown field of padding)."""
    shell = b'{"padding":""}'
    return shell[:-2] + b"x" * (size - len(shell)) + shell[-2:]


# -- malformed and the wrong kind of JSON -------------------------------------------------------


MALFORMED = [
    b'{"record": ',
    b"{'side': 'NS'}",
    b"{,}",
    b"[1,]",
    b'{"a": 1} {"b": 2}',
    b"\x00",
    b'{"a": 01}',
    b'{"a": "\\ud800"x}',
]


@each
@pytest.mark.parametrize("body", MALFORMED, ids=repr)
def test_malformed_json_is_400_parse_error_and_changes_nothing(pending, endpoint, body):
    with unchanged():
        refused(endpoint.send(pending, body), 400, "parse-error")


@each
@pytest.mark.parametrize("body", [[], [{"side": "EW"}], 5, "side", None, True])
def test_a_json_value_that_is_not_an_object_is_400_and_changes_nothing(pending, endpoint, body):
    expected = "not-an-object" if endpoint.name == "hands-check" else "invalid"
    with unchanged():
        refused(endpoint.send(pending, body), 400, expected)


# -- nesting and size --------------------------------------------------------------------------


DEEP = 10_000
NESTED = {
    "list": b"[" * DEEP + b"]" * DEEP,
    "object": b'{"a":' * DEEP + b"1" + b"}" * DEEP,
    "in-a-record": b'{"side":"NS","record":{"x":' + b"[" * DEEP + b"]" * DEEP + b"}}",
}


@each
@pytest.mark.parametrize("shape", NESTED)
def test_deeply_nested_json_is_refused_quickly_with_400_not_a_server_error(
    pending, endpoint, shape
):
    # Quickly: in CPU seconds of this thread (where the test client runs the request), which
    # a machine busy with other work does not stretch as it stretches the wall clock.
    started = time.thread_time()
    with unchanged():
        response = endpoint.send(pending, NESTED[shape])
    assert time.thread_time() - started < 2.0
    refused(response, (400, 413), {"parse-error", "too-deep", "too-large"})


@each
def test_a_body_one_byte_over_the_limit_is_413_too_large(pending, endpoint):
    with unchanged():
        body = refused(endpoint.send(pending, padded(endpoint.limit + 1)), 413, "too-large")
    assert body["details"] == {"limit": endpoint.limit}


@each
def test_a_body_of_exactly_the_limit_is_read(pending, endpoint):
    response = endpoint.send(pending, padded(endpoint.limit))
    assert response.status_code not in (413, 500), response.content[:200]


def test_a_content_length_shorter_than_the_body_cuts_it_and_it_is_refused(pending):
    body = json.dumps({"record": HAND_1, "side": "NS"}).encode()
    with unchanged():
        response = pending.scorer.post(
            f"/api/v1/matches/{pending.match.pk}/hands",
            data=body,
            content_type="application/json",
            CONTENT_LENGTH="20",
            HTTP_IDEMPOTENCY_KEY="short-length-1",
        )
        refused(response, 400, "parse-error")


# -- numbers -----------------------------------------------------------------------------------


NUMBERS = {
    "10**400": (str(10**400), "invalid"),
    "-10**400": (str(-(10**400)), "invalid"),
    "1e400": ("1e400", "invalid"),
    "-1e400": ("-1e400", "invalid"),
    "5000 digits": ("9" * 5000, "parse-error"),
    "1.5": ("1.5", "invalid"),
}


@pytest.mark.parametrize("endpoint", WITH_NUMBERS, ids=str)
@pytest.mark.parametrize("number", NUMBERS)
def test_huge_and_overflowing_numbers_are_400_and_change_nothing(pending, endpoint, number):
    literal, code = NUMBERS[number]
    statuses: tuple[int, ...] = (400,)
    if endpoint.name == "hand-correct" and code == "invalid":
        # inside a record the number reaches the rules engine, which refuses the tricks
        code, statuses = {"invalid", "invalid-hand"}, (400, 422)
    if endpoint.name in ("hand-confirm", "hand-reject") and number == "10**400":
        # a version has no upper bound: the body is valid, and the PIN is asked first
        code, statuses = "side-pin-required", (403,)
    with unchanged():
        refused(endpoint.send(pending, number_text(endpoint, literal)), statuses, code)


@pytest.mark.parametrize("number", ["1e400", "-1", "1.5", "null", '"x"'])
def test_a_swap_naming_an_impossible_entry_is_refused_and_changes_nothing(play, number):
    play.match.round.state = "draft"
    play.match.round.save()
    body = f'{{"first": {number}, "second": 1}}'.encode()
    with unchanged():
        refused(BY_NAME["round-swap"].send(play, body), 400, {"invalid", "unknown-entry"})


def test_a_swap_naming_an_entry_id_beyond_any_integer_is_400_not_a_server_error(play):
    body = f'{{"first": {10**400}, "second": 1}}'.encode()
    with unchanged():
        refused(BY_NAME["round-swap"].send(play, body), 400, {"invalid", "unknown-entry"})


@pytest.mark.parametrize("number", ["1e400", str(10**400), "-1e400"])
def test_a_huge_number_in_a_checked_record_is_an_illegal_record_not_an_error(pending, number):
    text = json.dumps(
        {
            **HAND_1,
            "format": "hand/1",
            "game": "spades",
            "rules": "standard",
            "tricks": {"N": MARK, "E": 4, "S": 3, "W": 3},
        }
    )
    response = pending.anon.post(
        "/api/v1/hands/check", data=text.replace(str(MARK), number), content_type="application/json"
    )
    assert response.status_code == 200
    result = response.json()
    assert result["ok"] is False and result["errors"][0]["code"] in {
        "bad-format",
        "tricks-do-not-sum",
    }


@each
@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_literals_are_400_parse_error(pending, endpoint, literal):
    with unchanged():
        body = f'{{"side": "EW", "record": {{"dealer": "N"}}, "x": {literal}}}'.encode()
        refused(endpoint.send(pending, body), 400, "parse-error")


# -- bytes and characters ------------------------------------------------------------------------


@each
@pytest.mark.parametrize(
    "body",
    [b'{"side": "\xff\xfe"}', b'{"side": "\xc3"}', b'{"side": "\xed\xa0\x80"}'],
    ids=["ff", "cut", "surrogate"],
)
def test_invalid_utf8_is_400_parse_error(pending, endpoint, body):
    with unchanged():
        refused(endpoint.send(pending, body), 400, "parse-error")


@each
def test_a_utf8_byte_order_mark_is_refused_with_400_parse_error(pending, endpoint):
    """Decided: JSON over HTTP is BOM-less UTF-8 (RFC 8259 §8.1); a body that starts with a
    byte-order mark is refused, not guessed at."""
    with unchanged():
        refused(endpoint.send(pending, b"\xef\xbb\xbf" + b'{"side": "EW"}'), 400, "parse-error")


@pytest.mark.parametrize("endpoint", WITH_TEXT, ids=str)
def test_a_nul_character_in_a_text_field_is_400_invalid(pending, endpoint):
    valid, name = endpoint.text_field
    with unchanged():
        body = refused(endpoint.send(pending, {**valid, name: "a\u0000b"}), 400, "invalid")
    assert name in body["details"], body


@pytest.mark.parametrize("where", ["unknown field", "key"])
def test_a_nul_character_inside_a_hand_record_is_refused_before_the_database(play, where):
    record = (
        {**HAND_1, "note": "a\u0000b"} if where == "unknown field" else {**HAND_1, "no\u0000te": 1}
    )
    with unchanged():
        refused(submit(play.scorer, play.match, record, key="nul-in-record"), (400, 422))


LONG = {
    "team name": ("entries-register", {"players": PLAYERS, "name": "T" * 101}, "name"),
    "player name": ("entries-register", {"players": [{"name": "P" * 101}]}, "players"),
    "club number": (
        "entries-register",
        {"players": [{"name": "P", "club_number": "1" * 31}]},
        "players",
    ),
    "tournament name": ("tournament-create", {**TOURNAMENT, "name": "N" * 151}, "name"),
    "venue": ("tournament-patch", {"venue": "V" * 151}, "venue"),
    "reject reason": ("hand-reject", {"side": "EW", "reason": "R" * 1001}, "reason"),
    "correct reason": ("hand-correct", {"record": HAND_1, "reason": "R" * 1001}, "reason"),
    "side": ("hand-confirm", {"side": "NSEW!"}, "side"),
    "token label": ("table-tokens", {"label": "L" * 101}, "label"),
    "api token label": (
        "api-tokens",
        {"username": "u", "password": "p", "label": "L" * 101},
        "label",
    ),
    "username": ("api-tokens", {"username": "u" * 151, "password": "p"}, "username"),
    "password": ("api-tokens", {"username": "u", "password": "p" * 4097}, "password"),
    "idempotency key in the body": (
        "hand-submit",
        {"record": HAND_1, "side": "NS", "idempotency_key": "k" * 101},
        "idempotency_key",
    ),
    "tiebreaks": ("tournament-patch", {"tiebreaks": ["x" * 41]}, "tiebreaks"),
    "many tiebreaks": ("tournament-patch", {"tiebreaks": ["opponents"] * 21}, "tiebreaks"),
}


@pytest.mark.parametrize("case", LONG)
def test_a_string_over_its_maximum_length_is_400_invalid_naming_the_field(pending, case):
    name, body, field_name = LONG[case]
    with unchanged():
        found = refused(BY_NAME[name].send(pending, body), 400, "invalid")
    assert field_name in found["details"], found


def test_an_idempotency_key_header_over_100_characters_is_400(play):
    with unchanged():
        refused(submit(play.scorer, play.match, key="k" * 101), 400, "bad-idempotency-key")
        refused(submit(play.scorer, play.match, key="short"), 400, "bad-idempotency-key")


def test_the_public_registration_form_refuses_a_name_over_100_characters(play):
    from django.test import Client

    from tournaments import services

    services.open_registration(tournament=play.tournament, actor=play.director)
    with unchanged():
        response = Client().post(
            f"/t/{play.slug}/", {"team_name": "T" * 101, "player_1": "A", "player_2": "B"}
        )
    assert response.status_code in (200, 400)
    assert "Ensure this value has at most 100 characters" in response.content.decode()


# -- unknown fields -------------------------------------------------------------------------------


def test_unknown_top_level_fields_of_a_submission_are_ignored_and_not_stored(play):
    response = submit(
        play.scorer, play.match, key="unknown-fields-1", admin=True, status="confirmed", version=9
    )
    assert response.status_code == 201, response.content
    stored = HandSubmission.objects.get()
    assert stored.status == "pending" and stored.version == 1
    assert stored.raw == HAND_1, "the record as sent, without the body's other fields"


def test_unknown_fields_of_a_registration_are_ignored(play):
    body = {
        "players": [{"name": "Aoi", "is_director": True}, {"name": "Bunta"}],
        "name": "Team",
        "status": "withdrawn",
        "tournament": "elsewhere",
    }
    response = post_json(play.td, f"/api/v1/tournaments/{play.slug}/entries", body)
    assert response.status_code == 201, response.content
    entry = Entry.objects.get(pk=response.json()["id"])
    assert entry.tournament == play.tournament and entry.status == "registered"


def test_unknown_fields_of_a_new_tournament_are_ignored(play):
    body = {**TOURNAMENT, "state": "finished", "results_version": 99, "directors": [1]}
    response = post_json(play.td, "/api/v1/tournaments", body)
    assert response.status_code == 201, response.content
    made = Tournament.objects.get(slug=response.json()["slug"])
    assert made.state == "setup" and made.results_version == 0


def test_a_change_of_only_unknown_fields_is_400_no_changes(play):
    with unchanged():
        response = play.td.patch(
            f"/api/v1/tournaments/{play.slug}",
            data=json.dumps({"state": "finished", "slug": "x"}),
            content_type="application/json",
        )
        refused(response, 400, "no-changes")


def test_an_unknown_rules_option_is_refused_with_bad_rules(play):
    rules = {"preset": "standard", "options": {"no_such_option": True}}
    with unchanged():
        refused(
            post_json(play.td, "/api/v1/tournaments", {**TOURNAMENT, "rules": rules}),
            400,
            "bad-rules",
        )


def test_an_unknown_field_inside_a_hand_record_is_kept_as_sent_in_raw(play):
    record = {**HAND_1, "note": "<b>table 1</b>", "x": [[[1]]]}
    response = submit(play.scorer, play.match, record, key="unknown-in-record")
    assert response.status_code == 201, response.content
    assert response.json()["raw"] == record
    assert HandSubmission.objects.get().raw == record


def test_the_exported_record_of_a_hand_is_canonical_without_unknown_fields(play):
    from django.test import Client

    from games.fuzzing import legal_hand

    full = legal_hand(3, "spades", "standard")
    record = {k: v for k, v in full.items() if k not in ("format", "game", "rules")}
    record["deal"] = {seat: [c.lower() for c in cards] for seat, cards in record["deal"].items()}
    record["junk"] = "x" * 100
    response = submit(play.td, play.match, record, key="canonical-export", side="")
    assert response.status_code == 201, response.content
    lines = Client().get(f"/t/{play.slug}/export/hands.jsonl").getvalue().decode().splitlines()
    [exported] = [json.loads(line) for line in lines]
    assert "junk" not in exported
    assert all(card == card.upper() for cards in exported["deal"].values() for card in cards)


# -- content types ---------------------------------------------------------------------------------


@each
@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
        "application/xml",
        "application/jsonx",
    ],
)
def test_a_body_that_is_not_declared_json_is_415_unsupported_media_type(
    pending, endpoint, content_type
):
    with unchanged():
        response = endpoint.send(pending, json.dumps({"side": "EW"}).encode(), content_type)
        refused(response, 415, "unsupported-media-type")


# -- addresses and methods -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nope",
        "/api/v1/matches/abc/hands",
        "/api/v1/matches/" + "9" * 30 + "/hands",
        "/api/v1/entries/" + "9" * 30 + "/withdraw",
    ],
)
def test_an_unknown_or_impossible_api_address_is_a_json_404(play, path):
    with unchanged():
        refused(play.td.post(path, data="{}", content_type="application/json"), 404, "not-found")


@pytest.mark.parametrize("path", ["/api/", "/api/v2/tournaments", "/api/nope"])
def test_every_address_under_api_answers_in_the_error_shape(play, path):
    refused(play.anon.get(path), 404, "not-found")


@pytest.mark.parametrize("method", ["put", "delete"])
def test_a_method_an_endpoint_does_not_take_is_a_json_405(pending, method):
    with unchanged():
        response = getattr(pending.td, method)(
            f"/api/v1/matches/{pending.match.pk}/hands", data="{}", content_type="application/json"
        )
        refused(response, 405, "method-not-allowed")

"""Hostile credentials: a table's token at another table, expired and revoked tokens of both
kinds, a director's API token passed off as a table token and the other way round, and
Authorization headers that are malformed, of another scheme, garbage or huge. Each is refused
in the one error shape (401 with the token's code, or 403), never a server error, and changes
nothing. The basics (other table on submit and confirm, expired/revoked/unknown table token on
submit) are in tests/api/test_hands.py; here every scoring action and both token kinds."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.tournaments.builders import HAND_1

from .conftest import (
    Play,
    api_token,
    client,
    refused,
    submit,
    table_token,
    the_shared_play,
    unchanged,
)

pytestmark = pytest.mark.django_db


#: The module's match in play, built once (conftest.SharedPlay).
play, pending = the_shared_play()


#: Every scoring action, as (name, path for hand 1 of `match`, body).
ACTIONS = {
    "submit": (
        lambda p, m: f"/api/v1/matches/{m.pk}/hands",
        {"record": HAND_1, "side": "NS", "idempotency_key": "hostile-token-1"},
    ),
    "confirm": (lambda p, m: p.hand_url(1, "confirm", m), {"side": "EW", "version": 1}),
    "reject": (
        lambda p, m: p.hand_url(1, "reject", m),
        {"side": "EW", "reason": "no", "version": 1},
    ),
    "finish": (lambda p, m: f"/api/v1/matches/{m.pk}/finish", {}),
}
each_action = pytest.mark.parametrize("action", ACTIONS)


def act(who, play: Play, action: str, match=None):
    path, body = ACTIONS[action]
    return who.post(
        path(play, match or play.match), data=json.dumps(body), content_type="application/json"
    )


@pytest.mark.parametrize("action", ["submit", "confirm", "reject"])
def test_a_table_token_used_at_another_table_is_403_wrong_table(pending, action):
    with unchanged():
        refused(act(pending.other_scorer, pending, action), 403, "wrong-table")


def test_another_table_s_token_cannot_finish_this_match(play):
    """No hands: finishing now is a director's early close (by its rules or length the match
    is not over). With hands awaiting confirmation the answer is 422 `unconfirmed-hands`
    first, which tells nothing the public match page does not."""
    with unchanged():
        refused(act(play.other_scorer, play, "finish"), 403, "not-director")


@each_action
@pytest.mark.parametrize("kind", ["expired", "revoked"])
def test_an_expired_or_revoked_table_token_is_401_with_its_code(pending, action, kind):
    token, secret = table_token(pending.match.table)
    if kind == "expired":
        token.expires_at = timezone.now() - timedelta(seconds=1)
        token.save()
    else:
        token.revoke()
    with unchanged():
        refused(act(client(f"Table {secret}"), pending, action), 401, f"token-{kind}")


@pytest.mark.parametrize("kind", ["expired", "revoked"])
def test_an_expired_or_revoked_director_api_token_is_401_with_its_code(play, kind):
    token, secret = api_token(play.director.user)
    if kind == "expired":
        token.expires_at = timezone.now() - timedelta(seconds=1)
        token.save()
    else:
        token.revoke()
    director = client(f"Token {secret}")
    with unchanged():
        refused(
            director.patch(
                f"/api/v1/tournaments/{play.slug}",
                data=json.dumps({"venue": "elsewhere"}),
                content_type="application/json",
            ),
            401,
            f"token-{kind}",
        )
        refused(submit(director, play.match, side=""), 401, f"token-{kind}")


def test_a_token_of_a_user_no_longer_active_is_401_user_inactive(play):
    play.director.user.is_active = False
    play.director.user.save()
    with unchanged():
        refused(submit(play.td, play.match, side=""), 401, "user-inactive")


def test_a_revoked_table_token_cannot_even_read(pending):
    """Credentials are checked whatever the request: a withdrawn card's token is refused on
    the public reads too, so the scorer's phone learns at once that it was withdrawn."""
    token, secret = table_token(pending.match.table)
    token.revoke()
    refused(
        client(f"Table {secret}").get(f"/api/v1/matches/{pending.match.pk}"), 401, "token-revoked"
    )


@each_action
def test_a_director_api_token_sent_as_a_table_token_is_401_bad_token(pending, action):
    with unchanged():
        refused(act(client(f"Table {pending.director_secret}"), pending, action), 401, "bad-token")


@each_action
def test_a_table_token_sent_as_a_director_api_token_is_401_bad_token(pending, action):
    with unchanged():
        refused(act(client(f"Token {pending.scorer_secret}"), pending, action), 401, "bad-token")


@pytest.mark.parametrize(
    "request_",
    [
        ("patch", "/api/v1/tournaments/{slug}", {"venue": "x"}),
        ("post", "/api/v1/tournaments/{slug}/rounds/generate", {}),
        ("post", "/api/v1/tables/{table}/tokens", {}),
        ("post", "/api/v1/auth/tokens", {}),
        (
            "post",
            "/api/v1/matches/{match}/hands/1/correct",
            {"record": HAND_1, "reason": "x", "version": 1},
        ),
    ],
    ids=["patch", "generate", "table-token", "api-token", "correct"],
)
def test_a_table_token_cannot_do_what_only_a_director_does(pending, request_):
    method, path, body = request_
    path = path.format(slug=pending.slug, table=pending.match.table_id, match=pending.match.pk)
    with unchanged():
        response = getattr(pending.scorer, method)(
            path, data=json.dumps(body), content_type="application/json"
        )
        refused(response, 403, "scorer-not-allowed")


def test_a_director_of_another_tournament_cannot_change_this_one(pending):
    with unchanged():
        refused(
            pending.other_td.patch(
                f"/api/v1/tournaments/{pending.slug}",
                data=json.dumps({"venue": "x"}),
                content_type="application/json",
            ),
            403,
            "not-director",
        )
        refused(act(pending.other_td, pending, "confirm"), 403, "wrong-table")


# -- malformed Authorization headers ---------------------------------------------------------------


HEADERS = {
    "keyword alone": ("Table", 401, "bad-token"),
    "three words": ("Table abc def", 401, "bad-token"),
    "unknown secret": ("Table " + "A" * 43, 401, "bad-token"),
    "not ASCII": ("Table s\u00e9cret", 401, "bad-token"),
    "control characters": ("Table \x01\x02\x7f", 401, "bad-token"),
    "100 KB": ("Table " + "x" * 100_000, 401, "bad-token"),
    "1 MB token": ("Token " + "x" * 1_000_000, 401, "bad-token"),
    "bearer": ("Bearer abc", 401, "not-authenticated"),
    "basic": ("Basic Zm9vOmJhcg==", 401, "not-authenticated"),
    "empty": ("", 401, "not-authenticated"),
    "spaces": ("   ", 401, "not-authenticated"),
    "keyword glued to the secret": ("Tablexyz", 401, "not-authenticated"),
}


@pytest.mark.parametrize("case", HEADERS)
def test_a_malformed_authorization_header_is_401_quickly_and_changes_nothing(play, case):
    header, status, code = HEADERS[case]
    # Quickly: in CPU seconds of this thread (where the test client runs the request), which
    # a machine busy with other work does not stretch as it stretches the wall clock.
    started = time.thread_time()
    with unchanged():
        refused(submit(client(header), play.match, key="hostile-header"), status, code)
    assert time.thread_time() - started < 2.0


@pytest.mark.parametrize(
    "shape", ["Table  {s}", "Table {s}  ", "  Table {s}", "Table\t{s}", "table {s}", "TABLE {s}"]
)
def test_whitespace_and_the_keyword_s_case_around_a_valid_token_are_tolerated(play, shape):
    """Decided (DRF's reading of the header): the keyword is case-insensitive and the two
    words may be separated or surrounded by any whitespace; the secret itself is exact."""
    response = submit(client(shape.format(s=play.scorer_secret)), play.match, key="hostile-ws")
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("shape", ["Table {s}x", "Table {s_upper}", "Table x{s}"])
def test_a_secret_with_a_character_changed_or_added_is_401(play, shape):
    secret = play.scorer_secret
    header = shape.format(s=secret, s_upper=secret.swapcase())
    with unchanged():
        refused(submit(client(header), play.match, key="hostile-near"), 401, "bad-token")


@pytest.mark.parametrize("case", HEADERS)
def test_the_scoring_page_s_token_probe_answers_any_header_with_a_state(play, case):
    header = HEADERS[case][0]
    response = Client(raise_request_exception=False, HTTP_AUTHORIZATION=header).get(
        f"/table/{play.match.table_id}/token/"
    )
    assert response.status_code == 200
    assert response.json()["state"] in {"missing", "unknown"}


def test_the_token_probe_names_another_table_s_token_without_saying_which(play):
    response = Client(HTTP_AUTHORIZATION=f"Table {play.scorer_secret}").get(
        f"/table/{play.other_match.table_id}/token/"
    )
    assert response.json() == {"state": "other-table"}

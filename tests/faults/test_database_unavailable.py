"""The database out of reach, as pages and the API answer it (issue 30, item 2): one answer,
`tournaments.views.errors.database_unavailable` — 503 with Retry-After, the friendly page in
the reader's language (English or Japanese) or the API's error shape — never the 500 page.

Here the fault is a query failing with the error a lost connection or an empty pool raises
(Django's OperationalError), on any database; tests/faults/test_database_kills.py does it for
real, killing PostgreSQL's backends under a running server.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client

from tests.tournaments.builders import make_director, make_match

pytestmark = pytest.mark.django_db


def refuse(execute, sql, params, many, context):
    raise OperationalError("couldn't get a connection after 0.50 sec")


@pytest.fixture
def slug(db) -> str:
    return make_match(make_director()).round.tournament.slug


@pytest.mark.parametrize(
    ("language", "heading", "again"),
    [
        ("en", "Back in a moment", "Try again in 5 seconds."),
        ("ja", "少々お待ちください", "5 秒後にもう一度お試しください。"),
    ],
)
def test_a_page_without_its_database_is_the_friendly_503(slug, language, heading, again):
    with connection.execute_wrapper(refuse):
        answer = Client(raise_request_exception=False).get(
            f"/t/{slug}/", HTTP_ACCEPT_LANGUAGE=language
        )
    assert answer.status_code == 503
    assert answer["Retry-After"] == "5"
    assert answer["Content-Language"] == language
    assert answer["Content-Type"].startswith("text/html")
    page = answer.content.decode()
    assert 'data-error="503"' in page and heading in page and again in page
    assert f'href="/t/{slug}/"' in page  # try the page again
    assert "Server Error" not in page and "Traceback" not in page


def test_a_form_sent_without_the_database_is_a_503_that_does_not_send_it_again(slug):
    """A form sent is not offered again (that would send it again): the page says to look
    before sending again."""
    with connection.execute_wrapper(refuse):
        answer = Client(raise_request_exception=False).post(
            f"/t/{slug}/", {"first": "Ann", "second": "Bob"}, HTTP_ACCEPT_LANGUAGE="en"
        )
    assert answer.status_code == 503
    page = answer.content.decode()
    assert "Try this page again" not in page
    assert "open the match page first to see whether it arrived" in page


def test_the_api_without_its_database_is_the_json_503_from_the_same_place(slug):
    with connection.execute_wrapper(refuse):
        answer = Client(raise_request_exception=False).get(f"/api/v1/tournaments/{slug}")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "1"
    body = answer.json()
    assert (body["code"], body["message"]) == (
        "database-unavailable",
        "the database is unavailable; retry shortly",
    )


def test_any_other_failure_is_still_the_500_page(slug, monkeypatch):
    def broken(execute, sql, params, many, context):
        raise ZeroDivisionError

    with connection.execute_wrapper(broken):
        answer = Client(raise_request_exception=False).get(f"/t/{slug}/")
    assert answer.status_code == 500
    assert "Retry-After" not in answer


def test_an_events_stream_without_its_database_is_the_json_503_not_a_server_error(
    slug, monkeypatch
):
    """Through Django's ASGI handler, as uvicorn runs it: the stream's tournament is looked up
    in the database when the cache does not have it."""
    from api import live
    from tests.live.asgi import Apps, request, transaction_kept

    def unreachable(*args, **kwargs):
        raise OperationalError("couldn't get a connection after 0.50 sec")

    monkeypatch.setattr(live, "_tournament_id", unreachable)
    with transaction_kept():
        status, headers, body = request(
            Apps().django, "GET", f"/api/v1/tournaments/{slug}/events", {"host": "testserver"}
        )
    assert status == 503
    assert headers["retry-after"] == "1" and b'"database-unavailable"' in body

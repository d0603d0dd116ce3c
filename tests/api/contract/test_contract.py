"""The API as a club's own developer meets it: the live OpenAPI document validates, a client
generated from it builds with no warning, and that client alone runs an event against the
server. A status the document does not list for an operation makes the generated client raise
(`raise_on_unexpected_status`), and every body is parsed into the generated models: the test
fails whenever the document and the server disagree."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from openapi_spec_validator import validate

from tests.tournaments.builders import spades_hand

from .generated import generate, live_document

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def document(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        return live_document()


@pytest.fixture(scope="module")
def generated(document, tmp_path_factory):
    return generate(document, tmp_path_factory.mktemp("client"))


def test_the_document_validates(document):
    validate(document)


def test_the_client_generates_every_operation_and_model_without_a_warning(generated, document):
    assert "Warning" not in generated.output and "WARNING" not in generated.output, generated.output
    operations = {
        operation["operationId"]
        for operations in document["paths"].values()
        for operation in operations.values()
    }
    api = generated.package.__path__[0] + "/api"
    from pathlib import Path

    made = {path.stem for path in Path(api).rglob("*.py") if path.stem != "__init__"}
    assert operations == made


class Event:
    """The generated client's calls, each checked for the status it must answer."""

    def __init__(self, generated) -> None:
        self.g = generated

    def call(self, operation: str, status: int, client, **kwargs):
        tag, name = operation.split(".")
        response = self.g.module(f"api.{tag}.{name}").sync_detailed(client=client, **kwargs)
        assert response.status_code == status, (operation, response.status_code, response.content)
        return response.parsed

    def model(self, name: str):
        return getattr(self.g.module("models"), name)


@pytest.mark.django_db(transaction=True)  # commits, so the standings are recomputed
def test_a_partnership_spades_swiss_runs_through_the_generated_client(generated, in_process_tasks):
    event = Event(generated)
    m = event.model
    password = uuid.uuid4().hex
    get_user_model().objects.create_user("contract-td", password=password)
    anonymous = generated.client()
    made = event.call(
        "auth.auth_tokens_create",
        201,
        anonymous,
        body=m("LoginRequest")(username="contract-td", password=password, label="contract"),
    )
    td = generated.client(f"Token {made.secret}")

    tournament = event.call(
        "tournaments.tournaments_create",
        201,
        td,
        body=m("TournamentCreateRequest")(
            name="Contract night",
            game=m("GameEnum")("spades"),
            rules="standard",
            format_=m("FormatEnum")("swiss"),
            rounds=2,
            match_length=m("MatchLengthEnum")("hands"),
            match_hands=1,
        ),
    )
    slug = tournament.slug
    assert tournament.rounds == 2 and tournament.points_win == 2
    event.call("tournaments.tournaments_open_registration", 200, td, slug=slug)
    entries = [
        event.call(
            "entries.tournaments_entries_create",
            201,
            anonymous,
            slug=slug,
            body=m("RegisterRequest")(
                name=f"Team {i}",
                players=[
                    m("PlayerSpecRequest")(name=f"P{i}a"),
                    m("PlayerSpecRequest")(name=f"P{i}b"),
                ],
            ),
        )
        for i in range(1, 5)
    ]
    event.call(
        "entries.tournaments_entries_check_in",
        200,
        td,
        slug=slug,
        body=m("CheckInManyRequest")(entries=[e.id for e in entries]),
    )
    pins = {
        row.id: row.pin
        for row in event.call("entries.tournaments_pins_list", 200, td, slug=slug).results
    }
    assert set(pins) == {e.id for e in entries}

    round_ = event.call("rounds.tournaments_rounds_generate", 201, td, slug=slug)
    round_ = event.call("rounds.rounds_publish", 200, td, id=round_.id)
    first, second = round_.matches
    standings = event.call("tournaments.tournaments_standings_retrieve", 200, anonymous, slug=slug)

    for number, match in enumerate((first, second)):
        token = event.call(
            "tables.tables_tokens_create",
            201,
            td,
            id=match.table.id,
            body=m("TableTokenCreateRequest")(),
        )
        scorer = generated.client(f"Table {token.secret}")
        sides = {seat.side: seat.entry for seat in match.seats}
        record = m("HandRecordsHand").from_dict(
            {
                "game": "spades",
                **spades_hand("N", ["4", "3", "7", "6"], {"N": 3, "E": 4, "S": 3, "W": 3}),
            }
        )
        hand = event.call(
            "hands.matches_hands_create",
            201,
            scorer,
            id=match.id,
            body=m("SubmitRequest")(record=record, pin=pins[sides["NS"]]),
            idempotency_key=f"contract-{number}",
        )
        assert hand.status.value == "pending" and hand.result.ok is True
        assert hand.submitted_side == "NS"  # the side whose PIN it is, not a word of the phone
        if number == 0:
            event.call(
                "hands.matches_hands_confirm",
                200,
                scorer,
                id=match.id,
                number=hand.number,
                body=m("DecideRequest")(version=hand.version, pin=pins[sides["EW"]]),
            )
        else:
            rejected = event.call(
                "hands.matches_hands_reject",
                200,
                scorer,
                id=match.id,
                number=hand.number,
                body=m("RejectRequest")(
                    version=hand.version, pin=pins[sides["EW"]], reason="EW took 5"
                ),
            )
            event.call(
                "hands.matches_hands_correct",
                201,
                td,
                id=match.id,
                number=hand.number,
                body=m("CorrectRequest")(
                    record=m("HandRecordsHand").from_dict(
                        {
                            "game": "spades",
                            **spades_hand(
                                "N", ["4", "3", "7", "6"], {"N": 3, "E": 5, "S": 3, "W": 2}
                            ),
                        }
                    ),
                    reason="EW took 5",
                    version=rejected.version,
                ),
            )

    event.call("rounds.rounds_close", 200, td, id=round_.id)
    fresh = event.call("tournaments.tournaments_standings_retrieve", 200, anonymous, slug=slug)
    assert fresh.version > standings.version
    assert len(fresh.rows) == 4
    csv = event.call(
        "exports.tournaments_exports_table",
        200,
        anonymous,
        slug=slug,
        subject=m("TournamentsExportsTableSubject")("standings"),
        fmt=m("TournamentsExportsTableFmt")("csv"),
    )
    assert b"Team 1" in csv.payload.read()
    archive = event.call("exports.tournaments_archive", 200, td, slug=slug)
    assert archive["format"] == "tricktable-archive/1"

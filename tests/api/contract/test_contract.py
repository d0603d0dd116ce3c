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
from tournaments.duplicate.engine import Board as EngineBoard
from tournaments.duplicate.engine.simulate import play_board

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

    def director(self, name: str):
        """A director's user, and the generated client carrying the API token they make."""
        password = uuid.uuid4().hex
        get_user_model().objects.create_user(name, password=password)
        made = self.call(
            "auth.auth_tokens_create",
            201,
            self.g.client(),
            body=self.model("LoginRequest")(username=name, password=password, label="contract"),
        )
        return self.g.client(f"Token {made.secret}")

    def register(self, client, slug: str, count: int) -> list:
        return [
            self.call(
                "entries.tournaments_entries_create",
                201,
                client,
                slug=slug,
                body=self.model("RegisterRequest")(
                    name=f"Pair {i}",
                    players=[
                        self.model("PlayerSpecRequest")(name=f"P{i}a"),
                        self.model("PlayerSpecRequest")(name=f"P{i}b"),
                    ],
                ),
            )
            for i in range(1, count + 1)
        ]

    def pins(self, client, slug: str) -> dict[int, str]:
        listed = self.call("entries.tournaments_pins_list", 200, client, slug=slug, page_size=200)
        return {row.id: row.pin for row in listed.results}


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


def _board(dealt) -> EngineBoard:
    """A board as the director reads it from `GET /duplicate/{slug}/boards`."""
    deal = dealt.deal.to_dict()
    return EngineBoard(
        number=dealt.number,
        dealer=dealt.dealer,
        hands={seat: tuple(cards) for seat, cards in deal.items()},
        turned=dealt.turned or None,
    )


@pytest.mark.django_db(transaction=True)
def test_a_duplicate_pairs_event_runs_through_the_generated_client(generated, in_process_tasks):
    """Create, register, number the pairs and fix the movement, seat each round, a table card
    per table, every board's result entered by NS and confirmed (one rejected first and
    entered again) by EW with its PIN, close and release each round, travellers and rankings,
    finish: the generated client alone, its records played on the deals the director reads."""
    event = Event(generated)
    m = event.model
    td = event.director("duplicate-td")
    anonymous = generated.client()
    made = event.call(
        "duplicate.duplicate_create",
        201,
        td,
        body=m("DuplicateCreateRequest")(
            name="Contract pairs",
            game=m("DuplicateCreateGameEnum")("spades"),
            rules="standard",
            movement=m("MovementEnum")("mitchell"),
            tables=2,
            boards_per_round=2,
            deal_seed="contract",
        ),
    )
    slug = made.slug
    event.call("tournaments.tournaments_open_registration", 200, td, slug=slug)
    entries = event.register(anonymous, slug, 4)
    state = event.call("duplicate.duplicate_start", 200, td, slug=slug)
    assert [p.entry for p in state.pairs] == [e.id for e in entries]
    entry_of = {p.number: p.entry for p in state.pairs}
    pins = event.pins(td, slug)
    movement = event.call("duplicate.duplicate_movement_retrieve", 200, anonymous, slug=slug)
    boards = {
        b.number: _board(b)
        for b in event.call("duplicate.duplicate_boards_list", 200, td, slug=slug).results
    }
    assert len(boards) == made.boards
    cards: dict[int, object] = {}  # a table card per table number, valid all evening
    rejected = False
    for number, seating in enumerate(movement.rounds, start=1):
        seated = event.call("duplicate.duplicate_rounds_create", 201, td, slug=slug)
        assert seated.rounds_seated == number
        round_ = next(
            r
            for r in event.call("rounds.tournaments_rounds_list", 200, td, slug=slug).results
            if r.number == number
        )
        tables = {match.table.number: match.table.id for match in round_.matches}
        for seat in seating:
            if seat.table_number not in cards:
                token = event.call(
                    "tables.tables_tokens_create",
                    201,
                    td,
                    id=tables[seat.table_number],
                    body=m("TableTokenCreateRequest")(),
                )
                cards[seat.table_number] = generated.client(f"Table {token.secret}")
            scorer = cards[seat.table_number]
            ns, ew = pins[entry_of[seat.ns]], pins[entry_of[seat.ew]]
            for board in seat.boards:
                record = play_board(boards[board], "spades", "standard", seed=board)
                body = m("DuplicateResultSubmitRequest")(
                    board=board,
                    pin=ns,
                    record=record,
                    idempotency_key=f"contract-{number}-{board}",
                )
                result = event.call(
                    "duplicate.duplicate_tables_results_create",
                    201,
                    scorer,
                    slug=slug,
                    id=tables[seat.table_number],
                    body=body,
                )
                assert (result.ns, result.ew, result.status) == (seat.ns, seat.ew, "pending")
                assert (result.round_.id, result.table.id) == (round_.id, tables[seat.table_number])
                if not rejected:
                    rejected = True
                    event.call(
                        "duplicate.duplicate_results_reject",
                        200,
                        scorer,
                        slug=slug,
                        id=result.id,
                        body=m("DuplicateDecideRequest")(
                            pin=ew, version=result.version, reason="we took 8"
                        ),
                    )
                    body.idempotency_key += "-again"
                    result = event.call(
                        "duplicate.duplicate_tables_results_create",
                        201,
                        scorer,
                        slug=slug,
                        id=tables[seat.table_number],
                        body=body,
                    )
                confirmed = event.call(
                    "duplicate.duplicate_results_confirm",
                    200,
                    scorer,
                    slug=slug,
                    id=result.id,
                    body=m("DuplicateDecideRequest")(pin=ew, version=result.version),
                )
                assert confirmed.status == "confirmed"
        event.call("duplicate.duplicate_rounds_close", 200, td, slug=slug, id=round_.id)
        released = event.call(
            "duplicate.duplicate_release",
            200,
            td,
            slug=slug,
            body=m("DuplicateReleaseRequest")(through_round=number),
        )
        assert released.released_round == number

    travellers = event.call("duplicate.duplicate_travellers_list", 200, anonymous, slug=slug)
    assert sorted(t.board for t in travellers.results) == sorted(boards)
    assert all(len(t.lines) == 1 for t in travellers.results)
    rankings = event.call("duplicate.duplicate_rankings_retrieve", 200, anonymous, slug=slug)
    ranked = rankings.fields.to_dict()
    assert sorted(row["pair"] for rows in ranked.values() for row in rows) == [1, 2, 3, 4]
    finished = event.call("duplicate.duplicate_finish", 200, td, slug=slug)
    assert finished.state == "finished"


@pytest.mark.django_db(transaction=True)
def test_a_knockout_runs_through_the_generated_client(generated, in_process_tasks):
    """A knockout of four: created before its entries, seeded by registration, semi-finals
    and the final drawn, each match's one hand entered by the director, the bracket read
    after each round, the event finished."""
    event = Event(generated)
    m = event.model
    td = event.director("knockout-td")
    anonymous = generated.client()
    made = event.call(
        "tournaments.tournaments_create",
        201,
        td,
        body=m("TournamentCreateRequest")(
            name="Contract cup",
            game=m("GameEnum")("spades"),
            rules="standard",
            format_=m("FormatEnum")("knockout"),
            match_length=m("MatchLengthEnum")("hands"),
            match_hands=1,
            knockout=m("KnockoutSettingsRequest")(length=m("KnockoutLengthEnum")("hands"), count=1),
        ),
    )
    slug = made.slug
    assert made.rounds is None  # its rounds follow from the entries
    event.call("tournaments.tournaments_open_registration", 200, td, slug=slug)
    entries = event.register(anonymous, slug, 4)
    event.call(
        "entries.tournaments_entries_check_in",
        200,
        td,
        slug=slug,
        body=m("CheckInManyRequest")(entries=[e.id for e in entries]),
    )
    cut = event.call("knockout.tournaments_cut_retrieve", 200, anonymous, slug=slug)
    assert cut.can_confirm and [row.seed for row in cut.entries] == [1, 2, 3, 4]
    event.call(
        "knockout.tournaments_cut",
        200,
        td,
        slug=slug,
        body=m("ConfirmCutRequest")(entries=[row.entry for row in cut.entries]),
    )
    cup = event.call("tournaments.tournaments_retrieve", 200, anonymous, slug=slug)
    assert cup.rounds == 2  # the bracket of four
    for number, name in ((1, "Semi-final"), (2, "Final")):
        round_ = event.call("rounds.tournaments_rounds_generate", 201, td, slug=slug)
        round_ = event.call("rounds.rounds_publish", 200, td, id=round_.id)
        assert round_.number == number
        for match in round_.matches:
            record = m("HandRecordsHand").from_dict(
                {
                    "game": "spades",
                    **spades_hand("N", ["4", "3", "7", "6"], {"N": 4, "E": 3, "S": 4, "W": 2}),
                }
            )
            hand = event.call(
                "hands.matches_hands_create",
                201,
                td,
                id=match.id,
                body=m("SubmitRequest")(record=record),
                idempotency_key=f"cup-match-{match.id}",
            )
            assert hand.status.value == "confirmed"
            assert event.call("matches.matches_retrieve", 200, anonymous, id=match.id).state == (
                "finished"
            )
        event.call("rounds.rounds_close", 200, td, id=round_.id)
        bracket = event.call("knockout.tournaments_bracket_retrieve", 200, anonymous, slug=slug)
        assert bracket.rounds[number - 1].name.startswith(name)
        assert all(match.winner for match in bracket.rounds[number - 1].matches)
    assert bracket.complete is True
    finished = event.call("tournaments.tournaments_finish", 200, td, slug=slug)
    assert finished.state.value == "finished"

"""The duplicate API: boards, movement, travellers and rankings for anyone (released rounds
only), result submission with the table's token, confirmation with the other side's PIN."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.duplicate.builders import make_event, pair_pin, play_round, played
from tests.tournaments.builders import make_director
from tournaments.duplicate import services as dup
from tournaments.services.table_access import issue_round_tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return make_director()


def test_the_movement_lists_each_tables_pairs_and_boards(td):
    tournament = make_event(td)
    data = Client().get(f"/api/v1/duplicate/{tournament.slug}/movement").json()
    assert data["kind"] == "mitchell" and len(data["rounds"]) == 3
    assert data["rounds"][0][0] == {
        "table_number": 1, "ns": 1, "ew": 4, "board_set": 1, "boards": [1, 2],
    }  # fmt: skip


def test_boards_show_their_deal_only_after_the_event(td):
    tournament = make_event(td)
    boards = Client().get(f"/api/v1/duplicate/{tournament.slug}/boards").json()["results"]
    assert [b["number"] for b in boards] == [1, 2, 3, 4, 5, 6]
    assert all("deal" not in b for b in boards)


def test_a_table_submits_by_token_and_the_other_side_confirms(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secrets = issue_round_tokens(round=round_, actor=td)
    table = round_.tables.get(number=1)
    auth = {"HTTP_AUTHORIZATION": f"Table {secrets[table.pk]}"}
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    body = {
        "board": board,
        "side": "NS",
        "pin": pair_pin(round_, 1, "NS"),
        "record": played(tournament, board),
        "idempotency_key": "result-0001",
    }
    url = f"/api/v1/duplicate/{tournament.slug}/tables/{table.pk}/results"
    first = Client().post(url, body, content_type="application/json", **auth)
    assert first.status_code == 201, first.content
    again = Client().post(url, body, content_type="application/json", **auth)
    assert (again.status_code, again.json()["id"]) == (200, first.json()["id"])
    other = Client().post(
        f"/api/v1/duplicate/{tournament.slug}/tables/{round_.tables.get(number=2).pk}/results",
        body,
        content_type="application/json",
        **auth,
    )
    assert other.status_code == 403
    pin = table.match.seats.get(side="EW").entry.pin
    confirm = Client().post(
        f"/api/v1/duplicate/{tournament.slug}/results/{first.json()['id']}/confirm",
        {"side": "EW", "pin": pin, "version": 2},
        content_type="application/json",
        **auth,
    )
    assert (confirm.status_code, confirm.json()["code"]) == (409, "stale-version")
    assert confirm.json()["details"] == {"current": 1}
    confirm = Client().post(
        f"/api/v1/duplicate/{tournament.slug}/results/{first.json()['id']}/confirm",
        {"side": "EW", "pin": pin, "version": first.json()["version"]},
        content_type="application/json",
        **auth,
    )
    assert confirm.json()["status"] == "confirmed"


def test_a_stranger_cannot_submit(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    response = Client().post(
        f"/api/v1/duplicate/{tournament.slug}/tables/{round_.tables.get(number=1).pk}/results",
        {"board": 1, "side": "NS", "record": {}},
        content_type="application/json",
    )
    assert response.status_code == 403


def test_rankings_and_travellers_wait_for_the_release(td):
    tournament = make_event(td)
    play_round(tournament, td)
    assert Client().get(f"/api/v1/duplicate/{tournament.slug}/travellers").json()["results"] == []
    dup.release_results(tournament=tournament, actor=td, through_round=1)
    travellers = Client().get(f"/api/v1/duplicate/{tournament.slug}/travellers").json()["results"]
    assert len(travellers) == 6
    rankings = Client().get(f"/api/v1/duplicate/{tournament.slug}/rankings").json()
    assert set(rankings["fields"]) == {"NS", "EW"} and rankings["released_round"] == 1


def test_a_director_creates_an_event_through_the_api(td):
    client = Client()
    client.force_login(td.user)
    response = client.post(
        "/api/v1/duplicate",
        {
            "name": "API duplicate",
            "game": "whist",
            "rules": "short-whist",
            "movement": "howell",
            "tables": 3,
            "boards_per_round": 2,
            "deal_seed": "s",
        },
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["rounds"] == 5 and response.json()["boards"] == 10


def test_the_openapi_document_covers_the_duplicate_endpoints(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = set(schema["paths"])
    for suffix in ("boards", "movement", "travellers", "rankings"):
        assert f"/api/v1/duplicate/{{slug}}/{suffix}" in paths
    assert "/api/v1/duplicate/{slug}/tables/{id}/results" in paths


def test_a_director_runs_the_event_through_the_api(td):
    """Number the pairs, seat each round, close it, release it and finish: what the event
    page's buttons do, for an API client (the director's token or session)."""
    from tests.api.conftest import api_token
    from tournaments.models import Entry

    tournament = make_event(td, start=False)
    director = Client(HTTP_AUTHORIZATION=f"Token {api_token(td.user)}")
    base = f"/api/v1/duplicate/{tournament.slug}"

    def post(path: str, body: dict | None = None, client=director):
        return client.post(f"{base}{path}", body or {}, content_type="application/json")

    assert Client().get(base).json()["pairs"] == []
    assert post("/start", client=Client()).json()["code"] in (
        "sign-in-required",
        "not-authenticated",
    )
    started = post("/start")
    assert started.status_code == 200, started.content
    names = [p["name"] for p in started.json()["pairs"]]
    assert [p["number"] for p in started.json()["pairs"]] == [1, 2, 3, 4, 5, 6]
    assert names == [e.name for e in Entry.objects.filter(tournament=tournament).order_by("id")]
    assert post("/start").json()["code"] == "already-started"

    seated = post("/rounds")
    assert (seated.status_code, seated.json()["rounds_seated"]) == (201, 1)
    closing = post(f"/rounds/{tournament.round_set.get(number=1).pk}/close")
    assert (closing.status_code, closing.json()["code"]) == (422, "results-missing")
    round_ = tournament.round_set.get(number=1)
    for match in round_.matches.select_related("table", "round"):
        event = dup.event_of(tournament)
        for b in dup.boards_of(event, 1, match.table.number):
            from tests.duplicate.builders import table_scorer

            out = dup.submit_board_result(
                match=match, board=b, record=played(tournament, b), actor=table_scorer(match, "NS")
            )
            dup.confirm_board_result(
                result=out.result, actor=table_scorer(match, "EW"), expected_version=1
            )
    assert post(f"/rounds/{round_.pk}/close").status_code == 200
    released = post("/release", {"through_round": 1})
    assert (released.status_code, released.json()["released_round"]) == (200, 1)
    for _ in (2, 3):
        play_round(tournament, td)
    finished = post("/finish")
    assert (finished.status_code, finished.json()["state"]) == (200, "finished")


def test_the_side_swap_attack_is_refused_through_the_api(td):
    tournament = make_event(td)
    round_ = dup.start_round(tournament=tournament, actor=td)
    secrets = issue_round_tokens(round=round_, actor=td)
    table = round_.tables.get(number=1)
    auth = {"HTTP_AUTHORIZATION": f"Table {secrets[table.pk]}"}
    board = dup.boards_of(dup.event_of(tournament), 1, 1)[0]
    ns, ew = pair_pin(round_, 1, "NS"), pair_pin(round_, 1, "EW")
    url = f"/api/v1/duplicate/{tournament.slug}/tables/{table.pk}/results"
    body = {"board": board, "record": played(tournament, board), "idempotency_key": "swap-0001"}
    swap = Client().post(
        url, {**body, "side": "EW", "pin": ns}, content_type="application/json", **auth
    )
    assert (swap.status_code, swap.json()["code"]) == (403, "side-pin-mismatch")
    bare = Client().post(url, {**body, "side": "EW"}, content_type="application/json", **auth)
    assert (bare.status_code, bare.json()["code"]) == (403, "side-pin-required")
    stored = Client().post(url, {**body, "pin": ns}, content_type="application/json", **auth)
    assert stored.status_code == 201, stored.content
    result = stored.json()
    decide = f"/api/v1/duplicate/{tournament.slug}/results/{result['id']}/confirm"
    own = Client().post(decide, {"pin": ns, "version": 1}, content_type="application/json", **auth)
    assert (own.status_code, own.json()["code"]) == (403, "own-side")
    other = Client().post(
        decide, {"pin": ew, "version": 1}, content_type="application/json", **auth
    )
    assert other.status_code == 200 and other.json()["status"] == "confirmed"

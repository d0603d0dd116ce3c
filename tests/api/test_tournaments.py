"""Tournaments, entries, rounds and the audit trail over the API, with their permissions."""

from __future__ import annotations

import pytest

from tournaments.models import AuditEvent, Entry, Round, Tournament

from .conftest import assert_error

pytestmark = pytest.mark.django_db

NEW = {"name": "Club night", "game": "spades", "rules": "standard", "format": "swiss", "rounds": 3}


@pytest.fixture
def tournament(td) -> dict:
    response = td.post("/api/v1/tournaments", NEW, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def open_with_teams(td, anon, slug: str, n: int = 4) -> list[dict]:
    assert td.post(f"/api/v1/tournaments/{slug}/open-registration").status_code == 200
    out = []
    for i in range(1, n + 1):
        body = {"players": [{"name": f"P{i}a"}, {"name": f"P{i}b"}], "name": f"Team {i}"}
        response = anon.post(f"/api/v1/tournaments/{slug}/entries", body, format="json")
        assert response.status_code == 201, response.content
        out.append(response.json())
    return out


def test_a_signed_in_user_creates_a_tournament_and_becomes_its_director(td, director, tournament):
    assert tournament["state"] == "setup" and tournament["game"] == "spades"
    created = Tournament.objects.get(slug=tournament["slug"])
    assert list(created.directors.all()) == [director.user]


def test_anyone_lists_and_reads_tournaments_with_filters(anon, tournament):
    body = anon.get("/api/v1/tournaments?game=spades").json()
    assert body["count"] == 1 and body["results"][0]["slug"] == tournament["slug"]
    assert anon.get("/api/v1/tournaments?game=whist").json()["count"] == 0
    assert anon.get(f"/api/v1/tournaments/{tournament['slug']}").json()["name"] == "Club night"


def test_an_anonymous_client_cannot_create_or_change_a_tournament(anon, tournament):
    assert_error(anon.post("/api/v1/tournaments", NEW, format="json"), 401, "not-authenticated")
    slug = tournament["slug"]
    assert_error(anon.post(f"/api/v1/tournaments/{slug}/open-registration"), 401)


def test_a_director_of_one_tournament_cannot_change_another(other_td, tournament):
    slug = tournament["slug"]
    assert_error(
        other_td.post(f"/api/v1/tournaments/{slug}/open-registration"), 403, "not-director"
    )
    assert_error(
        other_td.post(f"/api/v1/tournaments/{slug}/rounds/generate", {}, format="json"),
        403,
        "not-director",
    )
    assert_error(other_td.get(f"/api/v1/tournaments/{slug}/audit"), 403, "not-director")


def test_bad_input_is_400_with_field_errors(td):
    body = assert_error(
        td.post("/api/v1/tournaments", {**NEW, "rounds": 0, "game": "chess"}, format="json"),
        400,
        "invalid",
    )
    assert set(body["details"]) == {"rounds", "game"}
    assert_error(
        td.post("/api/v1/tournaments", {**NEW, "rules": {"preset": "nope"}}, format="json"), 400
    )
    assert_error(td.post("/api/v1/tournaments", [1], format="json"), 400, "invalid")


def test_unknown_things_are_404_and_wrong_methods_405(anon):
    assert_error(anon.get("/api/v1/tournaments/nope"), 404, "not-found")
    assert_error(anon.get("/api/v1/rounds/999"), 404, "not-found")
    assert_error(anon.delete("/api/v1/hands/check"), 405, "method-not-allowed")


def test_a_taken_slug_is_409(td, tournament):
    response = td.post("/api/v1/tournaments", {**NEW, "slug": tournament["slug"]}, format="json")
    assert_error(response, 409, "slug-taken")


def test_public_registration_only_while_open(td, anon, tournament):
    slug = tournament["slug"]
    body = {"players": [{"name": "A"}, {"name": "B"}]}
    assert_error(
        anon.post(f"/api/v1/tournaments/{slug}/entries", body, format="json"),
        403,
        "registration-closed",
    )
    entries = open_with_teams(td, anon, slug, 2)
    assert entries[0]["kind"] == "team" and [p["name"] for p in entries[0]["players"]] == [
        "P1a",
        "P1b",
    ]
    again = anon.post(
        f"/api/v1/tournaments/{slug}/entries",
        {"players": [{"name": "P1a"}, {"name": "Z"}]},
        format="json",
    )
    assert_error(again, 409, "already-entered")


def test_entries_check_in_withdraw_seed_and_filter_by_status(td, anon, other_td, tournament):
    slug = tournament["slug"]
    first, second = open_with_teams(td, anon, slug, 2)
    assert_error(other_td.post(f"/api/v1/entries/{first['id']}/check-in"), 403, "not-director")
    assert_error(anon.post(f"/api/v1/entries/{first['id']}/check-in"), 401)
    assert td.post(f"/api/v1/entries/{first['id']}/check-in").json()["status"] == "checked-in"
    response = td.post(f"/api/v1/entries/{second['id']}/withdraw", {"reason": "ill"}, format="json")
    assert response.json()["status"] == "withdrawn"
    assert (
        td.post(f"/api/v1/entries/{first['id']}/seed", {"seed": 1}, format="json").json()["seed"]
        == 1
    )
    listed = anon.get(f"/api/v1/tournaments/{slug}/entries?status=checked-in").json()
    assert [e["id"] for e in listed["results"]] == [first["id"]]
    assert anon.get(f"/api/v1/entries/{second['id']}").json()["status"] == "withdrawn"


def test_fix_table_seats_an_entry_at_one_table_and_refuses_a_taken_table(
    td, other_td, tournament, anon
):
    slug = tournament["slug"]
    first, second = open_with_teams(td, anon, slug, 2)
    url = f"/api/v1/entries/{first['id']}/fix-table"
    assert_error(other_td.post(url, {"table": 3}, format="json"), 403, "not-director")
    assert_error(anon.post(url, {"table": 3}, format="json"), 401)
    fixed = td.post(url, {"table": 3, "reason": "wheelchair access"}, format="json")
    assert fixed.status_code == 200 and fixed.json()["fixed_table"] == 3
    taken = td.post(f"/api/v1/entries/{second['id']}/fix-table", {"table": 3}, format="json")
    assert_error(taken, 409, "table-taken")
    assert anon.get(f"/api/v1/entries/{second['id']}").json()["fixed_table"] is None
    assert_error(td.post(url, {"table": 0}, format="json"), 400)
    freed = td.post(url, {"table": None}, format="json")
    assert freed.json()["fixed_table"] is None


def test_bulk_import_previews_row_errors_and_imports_all_or_nothing(td, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    slug = tournament["slug"]
    url = f"/api/v1/tournaments/{slug}/entries/import"
    bad = b"team,player1,player2\nA,Ann,Bob\nB,Cid,\n"
    response = td.post(
        url, {"file": SimpleUploadedFile("e.csv", bad), "dry_run": "true"}, format="multipart"
    )
    assert response.status_code == 200, response.content
    preview = response.json()
    assert preview["ok"] is False and preview["rows"][1]["errors"][0]["code"] == "missing-player"
    good = b"team,player1,player2\nA,Ann,Bob\nB,Cid,Dee\n"
    dry = td.post(
        url, {"file": SimpleUploadedFile("e.csv", good), "dry_run": "true"}, format="multipart"
    ).json()
    assert dry["ok"] and not dry["imported"] and not Entry.objects.exists()
    done = td.post(url, {"file": SimpleUploadedFile("e.csv", good)}, format="multipart").json()
    assert done["imported"] and Entry.objects.count() == 2


def test_bulk_import_needs_a_director_and_a_file(td, other_td, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = f"/api/v1/tournaments/{tournament['slug']}/entries/import"
    upload = SimpleUploadedFile("e.csv", b"team,player1,player2\nA,Ann,Bob\n")
    assert_error(other_td.post(url, {"file": upload}, format="multipart"), 403, "not-director")
    body = assert_error(td.post(url, {}, format="multipart"), 400, "invalid")
    assert "file" in body["details"]


def test_an_oversized_import_file_is_413(td, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournaments.services.imports import MAX_BYTES

    url = f"/api/v1/tournaments/{tournament['slug']}/entries/import"
    upload = SimpleUploadedFile("e.csv", b"x" * (MAX_BYTES + 1))
    assert_error(td.post(url, {"file": upload}, format="multipart"), 413, "too-large")


def test_a_round_is_generated_as_a_hidden_draft_swapped_published_and_listed(td, anon, tournament):
    slug = tournament["slug"]
    teams = open_with_teams(td, anon, slug)
    response = td.post(f"/api/v1/tournaments/{slug}/rounds/generate", {}, format="json")
    assert response.status_code == 201, response.content
    draft = response.json()
    assert draft["state"] == "draft" and len(draft["matches"]) == 2
    assert anon.get(f"/api/v1/tournaments/{slug}/rounds").json()["count"] == 0
    assert_error(anon.get(f"/api/v1/rounds/{draft['id']}"), 404)
    assert_error(
        td.post(f"/api/v1/tournaments/{slug}/rounds/generate", {}, format="json"),
        409,
        "draft-exists",
    )
    again = td.post(
        f"/api/v1/tournaments/{slug}/rounds/generate", {"regenerate": True}, format="json"
    )
    assert again.status_code == 201
    round_id = again.json()["id"]
    swap = td.post(
        f"/api/v1/rounds/{round_id}/swap",
        {"first": teams[0]["id"], "second": teams[3]["id"], "reason": "travel"},
        format="json",
    )
    assert swap.status_code == 200, swap.content
    assert_error(
        td.post(
            f"/api/v1/rounds/{round_id}/swap",
            {"first": teams[0]["id"], "second": 99999},
            format="json",
        ),
        400,
        "unknown-entry",
    )
    published = td.post(f"/api/v1/rounds/{round_id}/publish")
    assert published.json()["state"] == "published"
    listed = anon.get(f"/api/v1/tournaments/{slug}/rounds").json()["results"]
    assert [r["number"] for r in listed] == [1]
    match = listed[0]["matches"][0]
    assert {s["side"] for s in match["seats"]} == {"NS", "EW"} and match["table"]["number"]
    matches = anon.get(f"/api/v1/matches?tournament={slug}&round=1&state=pending").json()
    assert matches["count"] == 2
    assert_error(td.post(f"/api/v1/rounds/{round_id}/close"), 422, "matches-unfinished")
    assert Round.objects.get(pk=round_id).state == "published"


def test_finishing_a_tournament_with_open_rounds_is_422(td, tournament):
    assert_error(td.post(f"/api/v1/tournaments/{tournament['slug']}/finish"), 422, "no-rounds")


def test_the_audit_trail_is_for_directors(td, anon, tournament):
    slug = tournament["slug"]
    td.post(f"/api/v1/tournaments/{slug}/open-registration")
    body = td.get(f"/api/v1/tournaments/{slug}/audit").json()
    assert [e["action"] for e in body["results"]] == ["registration-opened", "tournament-created"]
    assert (
        td.get(f"/api/v1/tournaments/{slug}/audit?action=tournament-created").json()["count"] == 1
    )
    assert_error(anon.get(f"/api/v1/tournaments/{slug}/audit"), 401, "not-authenticated")
    assert AuditEvent.objects.count() == 2


def test_pagination_pages_and_bounds(anon, td):
    for i in range(3):
        td.post("/api/v1/tournaments", {**NEW, "name": f"T{i}"}, format="json")
    body = anon.get("/api/v1/tournaments?page_size=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2 and body["next"]
    assert_error(anon.get("/api/v1/tournaments?page=9"), 404, "not-found")


def test_directors_change_the_setup_and_nobody_else_can(td, other_td, anon, tournament):
    slug = tournament["slug"]
    url = f"/api/v1/tournaments/{slug}"
    assert_error(anon.patch(url, {"rounds": 6}, format="json"), 401)
    assert_error(other_td.patch(url, {"rounds": 6}, format="json"), 403, "not-director")
    changed = td.patch(
        url,
        {"rounds": 6, "venue": "Club room", "points_draw": "1.5", "points_win": "3"},
        format="json",
    )
    assert changed.status_code == 200, changed.content
    body = changed.json()
    assert (body["rounds"], body["venue"], body["points_draw"]) == (6, "Club room", "3/2")
    assert anon.get(url).json()["rounds"] == 6


def test_a_refused_setup_change_changes_nothing(td, tournament):
    url = f"/api/v1/tournaments/{tournament['slug']}"
    before = td.get(url).json()
    assert_error(td.patch(url, {"rounds": 0}, format="json"), 400)
    assert_error(
        td.patch(url, {"points_win": "0", "points_loss": "1"}, format="json"), 422, "bad-points"
    )
    assert_error(td.patch(url, {}, format="json"), 400, "no-changes")
    assert td.get(url).json() == before


def test_a_director_reads_every_entrys_pin_and_nobody_else_does(td, anon, other_td, tournament):
    """An API client confirming in PIN mode (the default) needs the PINs the slips carry."""
    slug = tournament["slug"]
    teams = open_with_teams(td, anon, slug, n=2)
    response = td.get(f"/api/v1/tournaments/{slug}/pins")
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
    pins = {row["id"]: row["pin"] for row in response.json()["results"]}
    assert pins == {e.pk: e.pin for e in Entry.objects.filter(pk__in=[t["id"] for t in teams])}
    assert all(len(pin) == 4 and pin.isdigit() for pin in pins.values())
    assert_error(other_td.get(f"/api/v1/tournaments/{slug}/pins"), 403, "not-director")
    assert_error(anon.get(f"/api/v1/tournaments/{slug}/pins"), 401, "not-authenticated")


@pytest.mark.parametrize("size", ["0", "201", "500", "abc", "-1"])
def test_a_page_size_outside_the_documented_cap_is_refused(anon, size):
    body = assert_error(anon.get(f"/api/v1/tournaments?page_size={size}"), 400, "invalid")
    assert "page_size" in body["details"]


def test_the_cap_is_in_the_document(anon):
    document = anon.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    parameters = document["paths"]["/api/v1/tournaments"]["get"]["parameters"]
    size = next(p for p in parameters if p["name"] == "page_size")
    assert (size["schema"]["minimum"], size["schema"]["maximum"]) == (1, 200)

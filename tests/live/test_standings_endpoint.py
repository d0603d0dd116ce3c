"""`GET /api/v1/tournaments/{slug}/standings`: the latest snapshot with ETag and Last-Modified,
304 for a current If-None-Match, and a hot poll (304 or 200) that costs no SQL."""

from __future__ import annotations

import pytest

from tournaments.models import Tournament
from tournaments.services import notify, standings

from ..tournaments.builders import make_director, make_match

pytestmark = pytest.mark.django_db


def url(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/standings"


def test_the_latest_snapshot_with_version_stale_flag_and_age(client, tournament):
    response = client.get(url(tournament))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["ETag"] == f'"{tournament.pk}-1-0"'
    assert response["Last-Modified"].endswith("GMT")
    body = response.json()
    assert body["version"] == 1 and body["stale"] is False
    assert body["age_seconds"] >= 0 and body["computed_at"]
    assert body["tournament"] == tournament.slug
    assert {row["name"] for row in body["rows"]} == {"Aiko & Ben", "Chika & Dan"}


def test_a_current_etag_gets_a_304_without_sql(client, tournament, django_assert_num_queries):
    etag = client.get(url(tournament))["ETag"]
    with django_assert_num_queries(0):
        response = client.get(url(tournament), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response["ETag"] == etag and response.content == b""
    with django_assert_num_queries(0):
        assert client.get(url(tournament), HTTP_IF_NONE_MATCH=f'"x", {etag}').status_code == 304


def test_a_cached_200_costs_no_sql(client, tournament, django_assert_num_queries):
    first = client.get(url(tournament))
    with django_assert_num_queries(0):
        again = client.get(url(tournament))
    assert again.status_code == 200
    assert again["ETag"] == first["ETag"]
    assert again.json()["rows"] == first.json()["rows"]


def test_the_body_is_served_from_the_shared_cache_when_this_process_lost_it(
    client, tournament, django_assert_num_queries
):
    from api import live as api_live

    client.get(url(tournament))
    api_live._bodies.clear()  # as another web process would be
    with django_assert_num_queries(0):
        assert client.get(url(tournament)).json()["version"] == 1


def test_if_modified_since(client, tournament):
    last_modified = client.get(url(tournament))["Last-Modified"]
    assert client.get(url(tournament), HTTP_IF_MODIFIED_SINCE=last_modified).status_code == 304
    old = "Mon, 01 Jan 2001 00:00:00 GMT"
    assert client.get(url(tournament), HTTP_IF_MODIFIED_SINCE=old).status_code == 200


def test_the_stale_flag_flips_when_results_change_without_a_new_snapshot(
    client, tournament, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(standings, "schedule", lambda tid: None)  # the worker is down
    fresh = client.get(url(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        notify.results_changed(tournament)
    behind = client.get(url(tournament), HTTP_IF_NONE_MATCH=fresh["ETag"])
    assert behind.status_code == 200
    assert behind["ETag"] == f'"{tournament.pk}-1-1"'
    assert behind.json()["stale"] is True and behind.json()["version"] == 1
    # and once the snapshot catches up (its announcement invalidates the cache): fresh again
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute(tournament_id=tournament.pk)
    caught_up = client.get(url(tournament), HTTP_IF_NONE_MATCH=behind["ETag"])
    assert caught_up.status_code == 200
    assert caught_up["ETag"] == f'"{tournament.pk}-2-0"' and not caught_up.json()["stale"]


def test_a_new_snapshot_changes_the_etag(client, tournament, django_capture_on_commit_callbacks):
    first = client.get(url(tournament))["ETag"]
    standings.bump(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        standings.recompute(tournament_id=tournament.pk)
    response = client.get(url(tournament), HTTP_IF_NONE_MATCH=first)
    assert response.status_code == 200 and response.json()["version"] == 2


def test_no_snapshot_yet(client):
    match = make_match(make_director())
    tournament = match.round.tournament
    response = client.get(url(tournament))
    assert response.status_code == 200
    assert response["ETag"] == f'"{tournament.pk}-0-0"'
    assert "Last-Modified" not in response
    body = response.json()
    assert body["version"] == 0 and body["rows"] == [] and body["age_seconds"] is None


def test_an_unknown_tournament_is_a_404_in_the_api_error_shape(client, db):
    response = client.get("/api/v1/tournaments/no-such-event/standings")
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "not-found" and "no-such-event" in body["message"]


def test_a_renamed_slug_is_not_served_from_the_old_cache(
    client, tournament, django_capture_on_commit_callbacks
):
    old = url(tournament)
    assert client.get(old).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        tournament.slug = "renamed-night"
        tournament.save()
    assert client.get(old).status_code == 404
    assert client.get(url(tournament)).status_code == 200


def test_a_slug_taken_over_after_a_rename_names_the_new_tournament(
    client, tournament, django_capture_on_commit_callbacks
):
    """The events stream finds its tournament by slug: after a rename, a second tournament
    with the old slug is the one found, not the one the old cache entry names."""
    from api.live import _tournament_id

    old_slug = tournament.slug
    assert client.get(url(tournament)).status_code == 200  # caches the state under the slug
    with django_capture_on_commit_callbacks(execute=True):
        tournament.slug = "renamed-night"
        tournament.save()
    newcomer = make_match(make_director("td-new")).round.tournament
    with django_capture_on_commit_callbacks(execute=True):
        newcomer.slug = old_slug
        newcomer.save()
    assert _tournament_id(old_slug) == newcomer.pk
    assert _tournament_id(old_slug, cached=False) == newcomer.pk
    assert _tournament_id("renamed-night") == tournament.pk


def test_writes_are_refused(client, tournament):
    assert client.post(url(tournament)).status_code == 405
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_the_answer_is_what_the_openapi_document_says(client, tournament):
    """The live standings are documented (a plain Django view, added to the document by a
    postprocessing hook) and a real answer validates against the documented schema."""
    from jsonschema import Draft202012Validator

    document = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operation = document["paths"]["/api/v1/tournaments/{slug}/standings"]["get"]
    assert {"200", "304", "404"} <= set(operation["responses"])
    schema = {
        "$ref": "#/components/schemas/LiveStandings",
        "components": document["components"],
    }
    Draft202012Validator(schema).validate(client.get(url(tournament)).json())
    stream = document["paths"]["/api/v1/tournaments/{slug}/events"]["get"]["responses"]["200"]
    assert "text/event-stream" in stream["content"]

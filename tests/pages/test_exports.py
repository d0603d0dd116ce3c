"""The download URLs: public standings, results and hand records (published rounds, confirmed
hands only) with their types and file names, and the archive for the tournament's directors
only."""

from __future__ import annotations

import io
import json

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse
from openpyxl import load_workbook

from games.records import check_record
from tournaments.demo import club as demo
from tournaments.exports import tabular
from tournaments.models import HandSubmission, Match, Player, Rating, Round, Tournament

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture(scope="module")
def solo_id(django_db_setup, django_db_blocker):
    """The demo's Solo Whist evening with its standings, built once for this module (each
    test's changes roll back with its transaction) and removed afterwards."""
    with django_db_blocker.unblock(), override_settings(REDIS_URL=None):
        tournament = demo.build_solo_whist(5, players=8, rounds=2)
        try:
            yield tournament.pk
        finally:
            Tournament.objects.all().delete()
            Player.objects.all().delete()
            Rating.objects.all().delete()
            get_user_model().objects.all().delete()


@pytest.fixture
def solo(solo_id, settings) -> Tournament:
    settings.REDIS_URL = None
    return Tournament.objects.get(pk=solo_id)


def url(name: str, tournament, **kwargs) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": tournament.slug, **kwargs})


def table_url(tournament, subject: str, fmt: str) -> str:
    return url("export-table", tournament, subject=subject, fmt=fmt)


def test_download_urls_are_under_the_tournament(solo):
    assert table_url(solo, "standings", "csv") == f"/t/{solo.slug}/export/standings.csv"
    assert table_url(solo, "results", "pdf") == f"/t/{solo.slug}/export/results.pdf"
    assert url("export-hands", solo) == f"/t/{solo.slug}/export/hands.jsonl"
    assert url("export-archive", solo) == f"/t/{solo.slug}/export/archive.json"
    assert url("export-match", solo, match_id=7) == f"/t/{solo.slug}/export/matches/7.json"


@pytest.mark.parametrize("subject", ["standings", "results"])
@pytest.mark.parametrize(
    "fmt, content_type, disposition",
    [
        ("csv", "text/csv; charset=utf-8", "attachment"),
        ("xlsx", XLSX, "attachment"),
        ("pdf", "application/pdf", "inline"),
    ],
)
def test_tables_download_with_their_type_and_a_slug_named_file(
    client, solo, subject, fmt, content_type, disposition
):
    response = client.get(table_url(solo, subject, fmt))
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == (
        f'{disposition}; filename="solo-whist-evening-{subject}.{fmt}"'
    )
    body = response.content
    if fmt == "csv":
        expected = tabular.to_csv(getattr(tabular, f"{subject}_sheet")(solo))
        assert body == expected and body.startswith(b"\xef\xbb\xbf")
    elif fmt == "xlsx":
        sheet = load_workbook(io.BytesIO(body)).active
        assert sheet.max_row == 1 + len(getattr(tabular, f"{subject}_sheet")(solo).rows)
    else:
        assert body.startswith(b"%PDF-")


def test_headings_and_words_follow_the_visitors_language(client, solo):
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "ja"
    text = client.get(table_url(solo, "results", "csv")).content.decode("utf-8-sig")
    assert "終了" in text  # a finished match, in Japanese
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Finished" in client.get(table_url(solo, "results", "csv")).content.decode()


def test_a_match_downloads_as_a_match_record_the_engine_accepts(client, solo):
    match = Match.objects.filter(round__tournament=solo, is_bye=False).first()
    response = client.get(url("export-match", solo, match_id=match.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    name = f"solo-whist-evening-round-{match.round.number}-table-{match.table.number}.json"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    record = json.loads(response.content)
    assert record["format"] == "match/1" and len(record["hands"]) == 8
    result = check_record(record)
    assert result["ok"] and result["after"] == match.result["after"]


def test_the_hands_file_streams_every_confirmed_hand(client, solo):
    response = client.get(url("export-hands", solo))
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "application/x-ndjson"
    assert response["Content-Disposition"] == (
        'attachment; filename="solo-whist-evening-hands.jsonl"'
    )
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert (
        len(lines)
        == HandSubmission.objects.filter(
            hand__match__round__tournament=solo, status="confirmed"
        ).count()
        == 32
    )
    assert all(check_record(json.loads(line))["ok"] for line in lines)


def test_a_draft_round_and_unconfirmed_hands_stay_out_of_public_downloads(client, solo):
    draft = Round.objects.get(tournament=solo, number=2)
    Round.objects.filter(pk=draft.pk).update(state=Round.State.DRAFT)
    hidden = Match.objects.filter(round=draft, is_bye=False).first()
    assert client.get(url("export-match", solo, match_id=hidden.pk)).status_code == 404
    text = client.get(table_url(solo, "results", "csv")).content.decode("utf-8-sig")
    assert {line.split(",")[0] for line in text.splitlines()[1:]} == {"1"}
    first = Match.objects.filter(round__number=1, round__tournament=solo, is_bye=False).first()
    HandSubmission.objects.filter(hand__match=first, hand__number=8).update(status="pending")
    record = json.loads(client.get(url("export-match", solo, match_id=first.pk)).content)
    assert len(record["hands"]) == 7
    lines = b"".join(client.get(url("export-hands", solo)).streaming_content).splitlines()
    assert len(lines) == 8 + 7  # round 1's two tables, the pending hand left out


def test_unknown_tournaments_and_matches_are_not_found(client, solo):
    other = demo.build_solo_whist(6, players=4, rounds=1)
    foreign = Match.objects.filter(round__tournament=other, is_bye=False).first()
    assert client.get(url("export-match", solo, match_id=foreign.pk)).status_code == 404
    assert client.get("/t/no-such-event/export/standings.csv").status_code == 404
    assert client.get(f"/t/{solo.slug}/export/standings.docx").status_code == 404
    assert client.post(table_url(solo, "standings", "csv")).status_code == 405


def test_the_archive_is_for_the_tournaments_directors_only(client, solo):
    archive_url = url("export-archive", solo)
    anonymous = client.get(archive_url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    users = get_user_model().objects
    client.force_login(users.create_user("stranger"))
    assert client.get(archive_url).status_code == 403
    other = demo.build_solo_whist(6, players=4, rounds=1)
    elsewhere = users.create_user("elsewhere")
    other.directors.add(elsewhere)
    client.force_login(elsewhere)
    assert client.get(archive_url).status_code == 403, "a director of another tournament"
    director = users.create_user("td")
    solo.directors.add(director)
    client.force_login(director)
    response = client.get(archive_url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        'attachment; filename="solo-whist-evening-archive.json"'
    )
    assert response["Cache-Control"] == "private, no-store"
    document = json.loads(response.content)
    assert document["format"] == "tricktable-archive/1"
    assert set(document["directors"]) == {"director", "td"}
    assert document["audit"], "the audit trail is in it"

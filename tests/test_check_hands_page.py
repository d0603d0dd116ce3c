"""The hand checker page: records pasted or uploaded are checked by the rules engine."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tournaments.checker import MAX_BYTES, demo_records

EXAMPLE = {
    "format": "hand/1", "game": "spades", "rules": "standard", "dealer": "N",
    "calls": [{"seat": "E", "call": "4"}, {"seat": "S", "call": "nil"},
              {"seat": "W", "call": "6"}, {"seat": "N", "call": "5"}],
    "tricks": {"N": 3, "E": 4, "S": 0, "W": 6},
}


def test_a_pasted_hand_shows_its_score_and_notes(client):
    response = client.post("/check/", {"records": json.dumps(EXAMPLE)})
    assert response.status_code == 200
    page = response.content.decode()
    assert "1 of 1 record is valid" in page
    assert "NS 50 · EW 64" in page
    assert "S made nil (+100)" in page


def test_an_illegal_hand_shows_its_error_code_and_place(client):
    bad = dict(EXAMPLE, tricks={"N": 3, "E": 4, "S": 0, "W": 5})
    page = client.post("/check/", {"records": json.dumps(bad)}).content.decode()
    assert "0 of 1 record is valid" in page
    assert "<code>tricks-do-not-sum</code>" in page


def test_json_lines_in_a_file_are_checked_record_by_record(client):
    lines = "\n".join([json.dumps(EXAMPLE), "{broken", json.dumps(EXAMPLE)]).encode()
    upload = SimpleUploadedFile("hands.jsonl", lines, content_type="application/x-ndjson")
    page = client.post("/check/", {"file": upload}).content.decode()
    assert "2 of 2 records are valid" in page
    assert "Not JSON: line 2" in page


@pytest.mark.parametrize("game", ["spades", "whist", "solo-whist", "german-whist"])
def test_every_demo_is_legal_play_the_engine_accepts(client, game):
    form = client.get("/check/", {"demo": game})
    assert form.status_code == 200
    page = client.post("/check/", {"records": demo_records(game)}).content.decode()
    assert "not valid" not in page
    assert "valid" in page


def test_an_empty_or_oversized_submission_is_refused_with_a_reason(client):
    empty = client.post("/check/", {"records": "  "})
    assert empty.status_code == 400
    assert "Paste a hand record or choose a file." in empty.content.decode()
    big = SimpleUploadedFile("big.json", b" " * (MAX_BYTES + 1))
    response = client.post("/check/", {"file": big})
    assert response.status_code == 400
    assert "manage.py check_hands" in response.content.decode()


def test_the_page_speaks_japanese(client):
    client.cookies["django_language"] = "ja"
    page = client.post("/check/", {"records": json.dumps(EXAMPLE)}).content.decode()
    assert "ハンド記録のチェック" in page
    assert "1 件中 1 件が有効です" in page

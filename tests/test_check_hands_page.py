"""The hand checker page: records pasted or uploaded are checked by the rules engine."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tournaments.checker.records import MAX_BYTES, demo_records

#: The page checks hands without storing anything; its header names the club (a query).
pytestmark = pytest.mark.django_db

EXAMPLE = {
    "format": "hand/1",
    "game": "spades",
    "rules": "standard",
    "dealer": "N",
    "calls": [
        {"seat": "E", "call": "4"},
        {"seat": "S", "call": "nil"},
        {"seat": "W", "call": "6"},
        {"seat": "N", "call": "5"},
    ],
    "tricks": {"N": 3, "E": 4, "S": 0, "W": 6},
}


def test_a_pasted_hand_shows_its_score_and_notes(client):
    response = client.post("/check/", {"records": json.dumps(EXAMPLE)})
    assert response.status_code == 200
    page = response.content.decode()
    assert "1 of 1 record is valid" in page
    assert "NS 50 · EW 64" in page
    assert "S made nil (+100)" in page


def test_an_illegal_hand_shows_its_error_as_a_sentence_and_keeps_the_code_in_its_data(client):
    bad = dict(EXAMPLE, tricks={"N": 3, "E": 4, "S": 0, "W": 5})
    page = client.post("/check/", {"records": json.dumps(bad)}).content.decode()
    assert "0 of 1 record is valid" in page
    assert "The tricks do not add up to the tricks in the hand." in page
    assert 'data-code="tricks-do-not-sum"' in page
    assert "<code" not in page.split('id="results"')[1]  # no bracketed code for a player


@pytest.mark.django_db
def test_a_signed_in_director_also_sees_the_code_and_the_engines_english(client):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_user("td", password="x"))
    bad = dict(EXAMPLE, tricks={"N": 3, "E": 4, "S": 0, "W": 5})
    client.cookies["django_language"] = "ja"
    page = client.post("/check/", {"records": json.dumps(bad)}).content.decode()
    assert '<code class="error-code">tricks-do-not-sum</code>' in page
    assert '<span class="error-detail muted" lang="en">the tricks add up to 12' in page


def test_json_lines_in_a_file_are_checked_record_by_record(client):
    lines = "\n".join([json.dumps(EXAMPLE), "{broken", json.dumps(EXAMPLE)]).encode()
    upload = SimpleUploadedFile("hands.jsonl", lines, content_type="application/x-ndjson")
    page = client.post("/check/", {"file": upload}).content.decode()
    assert "2 of 2 records are valid" in page
    assert "Not JSON at line 2, column 2:" in page


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


def test_in_japanese_the_notes_errors_game_and_rules_are_japanese_words(client):
    """A Japanese reader sees the engine's notes and errors, the game and the rules in Japanese:
    no English note, no raw preset id or option value."""
    client.cookies["django_language"] = "ja"
    house = dict(
        EXAMPLE,
        rules={
            "preset": "standard",
            "options": {"double_nil": "when-behind", "nil": True, "ten_for_200": "off"},
        },
    )
    bad = dict(EXAMPLE, tricks={"N": 3, "E": 4, "S": 0, "W": 5})
    records = "\n".join(json.dumps(r) for r in (house, bad))
    page = client.post("/check/", {"records": records}).content.decode()
    results = page.split('id="results"')[1]
    assert "Sがニル成功（+100）" in results  # spades-nil-made
    assert "S made nil" not in results and "NS bid 5" not in results
    assert "トリック数の合計が、1ハンドのトリック数と合いません。" in results
    assert "The tricks do not add up" not in results
    assert "スペード" in results and "· spades ·" not in results
    assert "負けているときだけ" in results  # double_nil: when-behind
    for raw in ("when-behind", "standard", "double_nil", "ten_for_200", "(nil ", " off"):
        assert raw not in results, raw


def test_a_match_in_japanese_gives_each_hands_notes_in_japanese(client):
    client.cookies["django_language"] = "ja"
    page = client.post("/check/", {"records": demo_records("whist")}).content.decode()
    results = page.split('id="results"')[1]
    assert "ホイスト · ショートホイスト" in results  # the game and the preset by name
    assert "NSが8トリック獲得（+2）" in results  # whist-odd-tricks, hand 1
    assert "took" not in results and "honours" not in results and "short-whist" not in results

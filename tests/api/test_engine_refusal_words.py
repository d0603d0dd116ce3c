"""The API says a rules engine refusal in the request's language: `message` (and each engine
error's `message`) in Japanese for `Accept-Language: ja`, the same `code`s, the engine's English
kept as `detail`."""

from __future__ import annotations

import re

import pytest

from tests.tournaments.builders import HAND_1, side_pin

from .conftest import assert_error

pytestmark = pytest.mark.django_db

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
BAD = {**HAND_1, "tricks": {"N": 13, "E": 4, "S": 3, "W": 3}}


def submit(client, match, record, language, key="key-0001-abcdef"):
    return client.post(
        f"/api/v1/matches/{match.pk}/hands",
        {"record": record, "side": "NS", "pin": side_pin(match, "NS")},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
        HTTP_ACCEPT_LANGUAGE=language,
    )


def test_a_refused_hand_is_refused_in_japanese_with_the_same_codes(scorer, match):
    body = assert_error(submit(scorer, match, BAD, "ja"), 422, "invalid-hand")
    assert body["message"].startswith("ルールエンジンはこのハンドを受け付けませんでした。")
    assert "トリック数の合計" in body["message"]
    [error] = body["details"]
    assert error["code"] == "tricks-do-not-sum"
    assert error["message"] == "トリック数の合計が、1ハンドのトリック数と合いません。"
    assert error["detail"] == "the tricks add up to 23, not 13"  # the engine's English
    assert "[" not in body["message"]


def test_in_english_the_refusal_reads_as_english_sentences(scorer, match):
    body = assert_error(submit(scorer, match, BAD, "en"), 422, "invalid-hand")
    assert body["message"] == (
        "The rules engine refused the hand. The tricks do not add up to the tricks in the hand."
    )
    assert body["details"][0]["message"] == "The tricks do not add up to the tricks in the hand."
    assert not JAPANESE.search(str(body))


def test_every_refusal_carrying_engine_errors_reads_in_japanese():
    """`later-hand-invalid` (a correction that makes a later hand illegal, or ends the match
    before it) and duplicate's `bad-record` as the exception handler words them."""
    from django.utils import translation

    from tournaments.words.engine import refusal_words

    engine = {"code": "wrong-dealer", "message": "the dealer should be E", "hand": None}
    with translation.override("ja"):
        later, details = refusal_words(
            "later-hand-invalid", "hand 2 is no longer legal", {"hand": 2, "errors": [engine]}
        )
        ended, _ = refusal_words(
            "later-hand-invalid",
            "the match would end",
            {"hand": 3, "errors": [{"code": "match-over"}]},
        )
        board, detail = refusal_words("bad-record", "the dealer should be E", engine)
        other = refusal_words("round-not-in-play", "round 1 is draft", None)
    assert "ハンド2" in later and JAPANESE.search(later) and "[" not in later
    assert details["hand"] == 2 and details["errors"][0]["code"] == "wrong-dealer"
    assert details["errors"][0]["detail"] == "the dealer should be E"
    assert "ハンド3" in ended and "match-over" not in ended
    assert JAPANESE.search(board) and detail["code"] == "wrong-dealer"
    assert other == ("round 1 is draft", None)  # not the engine's: as the service said it


def test_the_check_endpoint_answers_in_the_requests_language(anon):
    bad = {**BAD, "format": "hand/1", "game": "spades", "rules": "standard"}
    body = anon.post("/api/v1/hands/check", bad, format="json", HTTP_ACCEPT_LANGUAGE="ja").json()
    assert body["ok"] is False
    assert body["errors"][0]["code"] == "tricks-do-not-sum"
    assert JAPANESE.search(body["errors"][0]["message"])
    good = {**HAND_1, "format": "hand/1", "game": "spades", "rules": "standard"}
    ja = anon.post("/api/v1/hands/check", good, format="json", HTTP_ACCEPT_LANGUAGE="ja").json()
    en = anon.post("/api/v1/hands/check", good, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    assert ja["ok"] and all(JAPANESE.search(n) for n in ja["notes"])
    assert en["notes"] and not any(JAPANESE.search(n) for n in en["notes"])
    assert ja["score"] == en["score"]

"""A table of two players (German Whist: each player a side) speaks of the player, never of a
side (the evening walk: the Japanese phone's PIN prompt said サイド, "side")."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.builders import make_director, make_match

pytestmark = pytest.mark.django_db


def _page(match, language: str) -> tuple[str, dict]:
    client = Client()
    client.cookies["django_language"] = language
    text = client.get(reverse("tournaments:scoring-table", args=[match.table_id])).content.decode()
    found = re.search(r'<script id="scoring-strings" type="application/json">(.*?)</script>', text)
    assert found
    return text, json.loads(found.group(1))


@pytest.fixture
def german(db):
    return make_match(make_director(), game="german-whist", rules="standard")


def test_a_german_whist_phone_asks_the_players_pin_in_english(german):
    text, strings = _page(german, "en")
    assert "PIN of the player entering the hand" in text
    assert "the other player confirms or rejects it with their own PIN" in text
    assert "side" not in strings["whoSends"] and "player" in strings["whoSends"]
    assert "entry's" not in strings["pinOnce"]
    assert "by the other player" in strings["stored"]
    assert "other player" in strings["codes"]["own-side"]
    assert "other side" not in text


def test_a_german_whist_phone_asks_the_players_pin_in_japanese(german):
    text, strings = _page(german, "ja")
    for said in (strings["whoSends"], strings["pinOnce"], strings["codes"]["own-side"]):
        assert "サイド" not in said and "プレイヤー" in said
    pin_rules = re.search(r'<p class="muted small" id="pin-rules">(.*?)</p>', text, re.S)
    assert pin_rules and "サイド" not in pin_rules.group(1)
    label = re.search(r'<label for="entry-pin" id="entry-pin-label">(.*?)</label>', text)
    assert label and "サイド" not in label.group(1)


def test_a_partnership_phone_still_asks_the_sides_pin():
    match = make_match(make_director())
    text, strings = _page(match, "en")
    assert strings["whoSends"] == "Which side is sending this hand?"
    assert "PIN of the side entering the hand" in text

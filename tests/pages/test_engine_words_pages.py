"""The pages say the engine's notes, its errors and the option values in the reader's language:
the scoring page, the public match page and the scoring script's error words."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from games.errors import CODES
from tests.pages.test_scoring import script_json, text
from tests.tournaments.builders import HAND_1, make_director, make_match, scorer
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(client):
    match = make_match(make_director("td"))
    services.submit_hand(
        match=match, actor=scorer(match, "NS"), record=HAND_1, idempotency_key="engine-words-1"
    )
    return match


def scoring_page(client, match, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client.get(reverse("tournaments:scoring-table", args=[match.table_id]))


def test_the_scoring_page_gives_the_engines_notes_in_japanese(client, played):
    shown = text(scoring_page(client, played, "ja"))
    assert "NS：ビッド6、6トリック獲得（+60）" in shown
    assert "NS bid 6" not in shown


def test_the_scoring_page_gives_the_engines_notes_in_english(client, played):
    shown = text(scoring_page(client, played, "en"))
    assert "NS bid 6, took 6 (+60)" in shown


def test_the_scoring_page_shows_option_values_as_words(client, played):
    shown = text(scoring_page(client, played, "ja"))
    assert "各パートナーがビッドし、後のビッダーが決める" in shown  # bidding: last-bidder
    assert "when-behind" not in shown and "last-bidder" not in shown


def test_the_scoring_script_has_a_sentence_for_every_engine_error_code(client, played):
    strings = script_json(scoring_page(client, played, "ja").content.decode(), "scoring-strings")
    assert set(CODES) <= set(strings["codes"])
    assert strings["codes"]["must-follow-suit"].startswith("プレイヤーが")
    assert strings["showCodes"] is False


def test_the_public_match_page_gives_the_notes_in_japanese(client, played):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    response = client.get(
        reverse("tournaments:public-match", args=[played.round.tournament.slug, played.pk])
    )
    assert response.status_code == 200
    assert "NS：ビッド6、6トリック獲得（+60）" in text(response)

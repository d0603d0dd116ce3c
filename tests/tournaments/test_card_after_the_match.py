"""The table card once its match is over (the evening walk: in a one-round event the card
still said "playing now at this table" after the last hand was confirmed): it says the match is
finished and what comes next, or that nothing more is to be played."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.builders import HAND_1, make_director, make_match, scorer
from tournaments import services
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def _one_hand_match(rounds: int) -> Match:
    match = make_match(make_director(), match_length="hands", match_hands=1)
    Tournament.objects.filter(pk=match.round.tournament_id).update(rounds=rounds)
    return match


def _card_now(match: Match, language: str = "en") -> str:
    client = Client()
    client.cookies["django_language"] = language
    url = reverse("tournaments:scoring-card-now", args=[match.table.event_table_id])
    return client.get(url).content.decode()


def _play_the_hand(match: Match) -> None:
    sent = services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    services.confirm_hand(
        submission=sent.submission,
        actor=scorer(match, "EW"),
        expected_version=sent.submission.version,
    )
    match.refresh_from_db()
    assert match.state == Match.State.FINISHED


def test_a_one_round_events_card_says_nothing_more_is_played_once_the_match_is_over():
    match = _one_hand_match(rounds=1)
    assert "playing now at this table" in _card_now(match)
    _play_the_hand(match)
    text = _card_now(match)
    assert "playing now at this table" not in text
    assert "the match at this table is finished" in text
    assert "Nothing more is to be played at this table." in text
    japanese = _card_now(match, "ja")
    assert "このテーブルのマッチは終了しました" in japanese
    assert "これ以上プレイするものはありません" in japanese


def test_a_finished_match_before_the_last_round_points_to_the_next_round():
    match = _one_hand_match(rounds=3)
    _play_the_hand(match)
    text = _card_now(match)
    assert "playing now at this table" not in text
    assert "Round 2 starts when the director publishes it." in text
    assert "Nothing more is to be played" not in text


def test_the_card_refreshes_when_a_match_finishes():
    match = _one_hand_match(rounds=1)
    page = Client().get(reverse("tournaments:scoring-card", args=[match.table.event_table_id]))
    assert "match-finished" in page.content.decode().split('data-live-on="')[1].split('"')[0]

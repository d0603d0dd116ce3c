"""The home page renders in English and Japanese, and the language switcher works."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_in_english(client):
    response = client.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "<title>TrickTable" in html
    for game in ("Spades", "Whist", "Solo Whist", "German Whist"):
        assert f"<strong>{game}</strong>" in html
    assert "日本語" in html  # the switcher offers Japanese


def test_home_in_japanese_from_accept_language(client):
    response = client.get(reverse("tournaments:home"), HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="ja">' in html
    for game in ("スペード", "ホイスト", "ソロホイスト", "ジャーマン ホイスト"):
        assert f"<strong>{game}</strong>" in html
    assert "トリックテイキングゲームの大会運営システムです" in html


def test_language_switcher_sets_japanese(client):
    response = client.post(
        reverse("set_language"), {"language": "ja", "next": "/"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302
    assert response["Location"] == "/"
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<strong>スペード</strong>" in html

    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client.get("/").content.decode()
    assert "<strong>Spades</strong>" in html

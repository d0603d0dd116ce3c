"""English left on Japanese pages (issue 28): who acted ("table 2 scorer", stored in English as
every recorded fact is) reads in the reader's language on the audit trail and the hand page,
Django's own empty choice reads in Japanese, and a new duplicate event's rules are named as
players name them, never by the engine's preset ids."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.builders import HAND_1, make_director, make_match, side_pin
from tournaments import services
from tournaments.room.services import call_director
from tournaments.services import Actor
from tournaments.words.audit import actor_words

pytestmark = pytest.mark.django_db


def japanese(user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = "ja"
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("label", "ja"),
    [
        ("table 4 scorer", "テーブル4の記録係"),
        ("table scorer", "テーブルの記録係"),
        ("NS scorer", "NSの記録係"),
        ("system", "TrickTable（自動）"),
        ("Aiko", "Aiko"),  # a person's name stays as it is
        ("", ""),
    ],
)
def test_a_stored_actor_label_reads_in_japanese(label, ja):
    with translation.override("ja"):
        assert actor_words(label) == ja
    with translation.override("en"):
        assert actor_words(label) == (label if label != "system" else "TrickTable (automatic)")


def test_the_audit_trail_and_the_hand_page_say_who_in_japanese():
    director = make_director("td")
    match = make_match(director)
    table_4 = Actor(
        table=match.table_id, side="NS", pin=side_pin(match, "NS"), label="table 4 scorer"
    )
    services.submit_hand(match=match, actor=table_4, record=HAND_1)
    call_director(table=match.table, actor=table_4)  # an audited act of the table
    client = japanese(director.user)
    slug = match.round.tournament.slug
    audit = client.get(reverse("tournaments:director-audit", args=[slug])).content.decode()
    assert "テーブル4の記録係" in audit and "table 4 scorer" not in audit
    hand = client.get(
        reverse("tournaments:director-hand", args=[slug, match.pk, 1])
    ).content.decode()
    assert "入力:テーブル4の記録係" in hand and "table 4 scorer" not in hand


def test_the_entries_page_has_no_english_empty_choice_in_japanese():
    director = make_director("td")
    match = make_match(director)
    page = japanese(director.user).get(
        reverse("tournaments:director-entries", args=[match.round.tournament.slug])
    )
    text = page.content.decode()
    assert page.status_code == 200 and "<select" in text
    assert "Select an option" not in text
    assert "- 選択してください -" in text


def test_a_new_duplicate_events_rules_are_named_not_ids():
    director = make_director("td")
    for client, hoyle in (
        (japanese(director.user), "スペード — "),
        (Client(), "Spades — "),
    ):
        if client.cookies.get("django_language") is None:
            client.force_login(director.user)
        page = client.get(reverse("tournaments:duplicate-new")).content.decode()
        options = re.findall(r'<option value="(spades|whist):([\w-]+)"[^>]*>([^<]*)<', page)
        assert options
        for _game, preset, label in options:
            assert not label.endswith(f"— {preset}"), label
        assert any(label.startswith(hoyle) for *_x, label in options)


def _new_event_post(game: str, **changes) -> dict:
    """The new-tournament form as a director sends it: every field at its shown value."""
    from tournaments.views.director_forms import SetupForm

    form = SetupForm(game=game)
    data = {name: form[name].value() for name in form.fields}
    data.update(name="Evening", options_for=f"{form.game}:{form.preset}", **changes)
    return {name: str(value) for name, value in data.items() if value is not None}


def test_a_refused_setup_reads_in_japanese():
    """The evening walk: German Whist with the individual movement was refused in English on
    the Japanese page."""
    director = make_director("td")
    post = _new_event_post("german-whist", format="individual")
    page = japanese(director.user).post(reverse("tournaments:director-home"), post)
    text = page.content.decode()
    assert page.status_code == 400
    assert "個人戦のムーブメントは1卓3人か4人です" in text
    assert "individual movement seats tables" not in text
    client = Client()
    client.force_login(director.user)
    english = client.post(reverse("tournaments:director-home"), post).content.decode()
    assert "The individual movement seats tables of 3 or 4, not 2" in english


def test_setup_refusals_for_bad_points_read_in_japanese():
    director = make_director("td")
    post = _new_event_post("spades", points_win="0", points_draw="1", points_loss="2")
    text = japanese(director.user).post(reverse("tournaments:director-home"), post)
    assert "ポイントは勝ち ≥ 引き分け ≥ 負け でなければなりません" in text.content.decode()


def test_a_matchs_scoring_links_name_the_table_scorer_in_japanese():
    """The evening walk: the match page's list of scoring links showed "table 1 scorer"."""
    director = make_director("td")
    match = make_match(director)
    services.issue_table_token(table=match.table, actor=director)  # "table 1 scorer"
    url = reverse("tournaments:director-match", args=[match.round.tournament.slug, match.pk])
    text = japanese(director.user).get(url).content.decode()
    assert "テーブル1の記録係" in text and "table 1 scorer" not in text

"""A member's page on the club's site: every event they played across the events rooms publish
(the same person by the room's record, never by name), the results, the personal score card of
each duplicate evening, the rating with its history chart (an SVG in the page, no script); and
finding oneself by name. In English and Japanese; linkable pages (ordinary URLs)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from tournaments.duplicate import selectors as duplicate
from tournaments.members import selectors
from tournaments.models import DuplicatePair
from tournaments.services import ratings

from .conftest import players_of, read

pytestmark = pytest.mark.django_db

HEADINGS = {
    "en": ("Tournaments", "Club ratings", "Rating history"),
    "ja": ("大会", "クラブ・レーティング", "レーティングの推移"),
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_members_page_has_every_event_they_played_and_their_rating(evenings, client, language):
    first, second = evenings
    both = {p.pk for p in players_of(first)} & {p.pk for p in players_of(second)}
    assert both  # the same people, the same players, across the room's events
    member = next(p for p in players_of(first) if p.pk in both)
    ratings.recompute(game=first.game)
    url = reverse("tournaments:public-player", args=[member.pk])
    assert url == f"/players/{member.pk}/"  # linkable
    page = read(client, url, language)
    assert member.name in page
    for event in evenings:
        assert reverse("tournaments:public-tournament", args=[event.slug]) in page
    for words in HEADINGS[language]:
        assert words in page, words
    assert "<svg" in page and "<polyline" in page and "<script" not in page.split("<main", 1)[1]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_duplicate_players_page_has_their_personal_score_card(
    duplicate_evening, client, language
):
    pair = DuplicatePair.objects.filter(tournament=duplicate_evening).order_by("number").first()
    member = pair.entry.team.first
    rows = duplicate.card_rows(duplicate.scored(duplicate_evening), pair.number)
    assert rows
    page = read(client, reverse("tournaments:public-player", args=[member.pk]), language)
    assert {"en": "Personal score cards", "ja": "個人スコアカード"}[language] in page
    card = page.split('class="data score-card"', 1)[1].split("</table>", 1)[0]
    for row in rows:
        traveller = reverse(
            "tournaments:duplicate-traveller", args=[duplicate_evening.slug, row["board"]]
        )
        assert traveller in card
        assert escape(row["opponents_name"]) in card
    assert card.count("<tr>") == len(rows) + 1  # a row a board, and the heading
    link = reverse("tournaments:duplicate-card", args=[duplicate_evening.slug, pair.number])
    assert link in page


@pytest.mark.parametrize(
    ("language", "none_found"), [("en", "has played here yet"), ("ja", "出場記録はまだありません")]
)
def test_find_yourself_by_name(evenings, client, language, none_found):
    member = players_of(evenings[0])[0]
    part = member.name.split()[-1][:4]
    page = read(client, reverse("tournaments:members-search") + f"?q={part}", language)
    assert reverse("tournaments:public-player", args=[member.pk]) in page
    assert {"en": "Find a player", "ja": "選手を探す"}[language] in page
    assert [f.player for f in selectors.find(part.upper())]  # not minding case
    page = read(client, reverse("tournaments:members-search") + "?q=Zzyzx", language)
    assert none_found in page
    page = read(client, reverse("tournaments:members-search") + "?q=Z", language)
    assert "Zzyzx" not in page and '<ul class="member-list">' not in page
    # Without a name: everyone who played, each linking to their page (a static copy of the
    # site, which cannot search, has them all).
    page = read(client, reverse("tournaments:members-search"), language)
    for event in evenings:
        for player in players_of(event):
            assert reverse("tournaments:public-player", args=[player.pk]) in page

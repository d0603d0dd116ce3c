"""Every kind of event a room plays, published to the site, is the same event there: a duplicate
evening's rankings, travellers, score cards and deals; a knockout's bracket; a season's table;
a Swiss event's matches hand by hand and its exports. Read on the site's public pages in English
and Japanese, each marked as published from the room."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from tournaments.demo import club as demo
from tournaments.duplicate import selectors as duplicate_select
from tournaments.models import Match, PublishedEvent, Series, SeriesMember, Tournament
from tournaments.publishing import services
from tournaments.seasons import services as seasons

from .conftest import as_published

pytestmark = pytest.mark.django_db

NOTE = {"en": "Published from the room", "ja": "会場から公開"}


def read(client, url: str, language: str) -> str:
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(url)
    assert page.status_code == 200, url
    return page.content.decode()


def text(html: str) -> str:
    """The page's words, tags left out (names may stand in tags of their own)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def words_besides_the_note(html: str) -> str:
    """The page's words without the "published from the room" note (and the page's head)."""
    body = html.split("<main", 1)[-1]
    return text(re.sub(r'<p class="published-note[^"]*">.*?</p>', "", body, flags=re.S))


@pytest.fixture
def room(settings):
    settings.REDIS_URL = None


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_duplicate_evening_is_the_same_evening_on_the_site(room, site_key, client, language):
    key, _secret = site_key
    evening = demo.build_duplicate_spades(11, tables=3, boards_per_round=2)
    slug = "duplicate-on-the-site"
    services.receive(key=key, slug=slug, document=as_published(evening, slug))
    site = Tournament.objects.get(slug=slug)
    room_scored = duplicate_select.scored(evening)
    site_scored = duplicate_select.scored(site)
    assert site_scored.names == room_scored.names
    for field in room_scored.event.rankings:
        assert site_scored.ranking_rows(field) == room_scored.ranking_rows(field)

    results = read(client, reverse("tournaments:duplicate-results", args=[slug]), language)
    assert NOTE[language] in results
    for row in room_scored.ranking_rows(next(iter(room_scored.event.rankings))):
        assert row["name"] in text(results)
    board = min(room_scored.event.travellers)
    traveller = read(
        client, reverse("tournaments:duplicate-traveller", args=[slug, board]), language
    )
    assert NOTE[language] in traveller
    assert duplicate_select.traveller_rows(site_scored, board) == duplicate_select.traveller_rows(
        room_scored, board
    )
    pair = min(room_scored.names)
    card = read(client, reverse("tournaments:duplicate-card", args=[slug, pair]), language)
    assert room_scored.names[pair] in card and NOTE[language] in card
    assert duplicate_select.card_rows(site_scored, pair) == duplicate_select.card_rows(
        room_scored, pair
    )
    assert NOTE[language] in read(
        client, reverse("tournaments:duplicate-deals", args=[slug]), language
    )
    exported = client.get(reverse("tournaments:duplicate-export", args=[slug, "csv"]))
    assert exported.status_code == 200
    assert room_scored.names[pair] in exported.content.decode()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_knockout_is_the_same_bracket_on_the_site(room, site_key, client, language):
    key, _secret = site_key
    cup = demo.build_cup(11, teams=6, rounds=2, cut=4)
    slug = "cup-on-the-site"
    services.receive(key=key, slug=slug, document=as_published(cup, slug))
    site = Tournament.objects.get(slug=slug)
    assert site.bracket and len(site.bracket["seeds"]) == len(cup.bracket["seeds"])
    seeds = [
        site.entries.get(pk=pk).name for pk in site.bracket["seeds"]
    ]  # the seeds, as the room's, by name
    assert seeds == [cup.entries.get(pk=pk).name for pk in cup.bracket["seeds"]]
    room_page = read(client, reverse("tournaments:public-bracket", args=[cup.slug]), language)
    page = read(client, reverse("tournaments:public-bracket", args=[slug]), language)
    assert NOTE[language] in page and NOTE[language] not in room_page
    assert words_besides_the_note(page) == words_besides_the_note(room_page)
    decided_room = Match.objects.filter(round__tournament=cup, bracket_round__isnull=False)
    decided_site = Match.objects.filter(round__tournament=site, bracket_round__isnull=False)
    assert sorted(decided_site.values_list("bracket_round", "bracket_index", "state")) == sorted(
        decided_room.values_list("bracket_round", "bracket_index", "state")
    )


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_season_is_the_same_table_on_the_site(
    room, site_key, client, language, django_capture_on_commit_callbacks
):
    key, _secret = site_key
    with django_capture_on_commit_callbacks(execute=True):
        evenings = demo.build_season(11, players=4, evenings=3)
    room_season = Series.objects.get(members__tournament=evenings[0])
    with django_capture_on_commit_callbacks(execute=True):
        for number, evening in enumerate(evenings, 1):
            slug = f"season-night-{number}"
            document = as_published(evening, slug)
            assert [s["slug"] for s in document["seasons"]] == [room_season.slug]
            document["seasons"][0]["slug"] = "winter-on-the-site"  # room and site share a db
            services.receive(key=key, slug=slug, document=document)
    site_season = Series.objects.get(slug="winter-on-the-site")
    assert site_season.directors.filter(pk=key.owner_id).exists()
    assert (site_season.name, site_season.rule, site_season.points, site_season.best) == (
        room_season.name,
        room_season.rule,
        room_season.points,
        room_season.best,
    )
    assert SeriesMember.objects.filter(series=site_season).count() == len(evenings)

    def table(series: Series) -> list[tuple]:
        return [
            (r["rank"], r["name"], r["total"], r["played"])
            for r in seasons.compute_payload(series)["rows"]
        ]

    assert table(site_season) == table(room_season)
    page = read(client, reverse("tournaments:season", args=["winter-on-the-site"]), language)
    assert NOTE[language] in page
    for row in table(room_season):
        assert row[1] in text(page)
    exported = client.get(reverse("tournaments:season-export", args=["winter-on-the-site", "csv"]))
    assert exported.status_code == 200
    assert table(room_season)[0][1] in exported.content.decode()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_swiss_events_matches_and_exports_are_the_same_on_the_site(
    room_event, site_key, client, language
):
    key, _secret = site_key
    slug = "friday-at-the-club"
    services.receive(key=key, slug=slug, document=as_published(room_event, slug))
    site = Tournament.objects.get(slug=slug)
    room_matches = Match.objects.filter(round__tournament=room_event, hands__isnull=False)
    room_match = room_matches.distinct().order_by("round__number", "table__number").first()
    site_match = Match.objects.get(
        round__tournament=site,
        round__number=room_match.round.number,
        table__number=room_match.table.number,
    )
    room_page = read(
        client, reverse("tournaments:public-match", args=[room_event.slug, room_match.pk]), language
    )
    page = read(client, reverse("tournaments:public-match", args=[slug, site_match.pk]), language)
    assert NOTE[language] in page and NOTE[language] not in room_page
    # Hand by hand (the play where recorded), as in the room: the same words.
    assert words_besides_the_note(page) == words_besides_the_note(room_page)
    for url in (
        reverse("tournaments:public-standings", args=[slug]),
        reverse("tournaments:public-round", args=[slug, 1]),
    ):
        assert NOTE[language] in read(client, url, language)
    for subject in ("standings", "results"):
        room_csv = client.get(
            reverse("tournaments:export-table", args=[room_event.slug, subject, "csv"])
        )
        site_csv = client.get(reverse("tournaments:export-table", args=[slug, subject, "csv"]))
        assert site_csv.status_code == room_csv.status_code == 200
        assert site_csv.content == room_csv.content
    room_hands = client.get(reverse("tournaments:export-hands", args=[room_event.slug]))
    site_hands = client.get(reverse("tournaments:export-hands", args=[slug]))
    assert len(b"".join(site_hands.streaming_content).splitlines()) == len(
        b"".join(room_hands.streaming_content).splitlines()
    )
    assert PublishedEvent.objects.get(slug=slug).tournament == site

"""`manage.py export_site` and the director's zip: a static website of an event, a season or the
club, read back from its files alone (tests/staticsite/checks.py)."""

from __future__ import annotations

import logging
import random
import re
import sys
from html import escape
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from tests.staticsite.checks import problems
from tests.tournaments.conftest import finish_round, play_round
from tournaments import services
from tournaments.demo import club, simulate
from tournaments.models import Entry, Match, Round
from tournaments.services.table_access import issue_round_tokens
from tournaments.staticsite import download

pytestmark = pytest.mark.django_db

#: PINs no page shows by chance (the test gives each entry one of these).
PINS = ["9731", "8642", "7520", "6419", "5308", "4297"]


def export(*args: str) -> None:
    call_command("export_site", *args)


def text_of(folder: Path) -> str:
    """Every file of the site as text (downloads decoded leniently)."""
    return "\n".join(
        path.read_bytes().decode("utf-8", "replace") for path in folder.rglob("*") if path.is_file()
    )


def page(folder: Path, name: str) -> str:
    return (folder / name).read_text(encoding="utf-8")


@pytest.fixture
def evening(swiss, director) -> dict:
    """A Swiss of four teams: round 1 closed, round 2 played with printed table cards and
    closed, round 3 generated but still a draft."""
    tournament = swiss(4, rounds=4)
    for entry, pin in zip(
        Entry.objects.filter(tournament=tournament).order_by("pk"), PINS[:4], strict=True
    ):
        Entry.objects.filter(pk=entry.pk).update(pin=pin)
    play_round(tournament, director)
    second = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=second, actor=director)
    secrets = list(issue_round_tokens(round=second, actor=director).values())
    finish_round(second, director, seed=2, hands=2)
    draft = services.generate_round(tournament=tournament, actor=director)
    assert draft.state == Round.State.DRAFT
    tournament.refresh_from_db()
    return {"tournament": tournament, "secrets": secrets, "draft": draft}


def test_a_swiss_event_is_a_static_site_in_both_languages(evening, tmp_path):
    tournament = evening["tournament"]
    slug = tournament.slug
    site = tmp_path / "site"
    export(slug, str(site))

    assert problems(site) == []
    for folder in ("", "ja/"):
        for name in ("index.html", f"t/{slug}/index.html", f"t/{slug}/standings/index.html"):
            assert (site / folder / name).is_file(), folder + name
        for number in (1, 2):
            assert (site / f"{folder}t/{slug}/rounds/{number}/index.html").is_file()
    # The draft round is the director's: not in the site, nor linked from it.
    assert not (site / f"t/{slug}/rounds/3").exists()
    assert "rounds/3/" not in text_of(site)

    # Every match of the published rounds, hand by hand.
    matches = Match.objects.filter(round__tournament=tournament, is_bye=False).exclude(
        round=evening["draft"]
    )
    assert matches.count() == 4
    for match in matches:
        html = page(site, f"t/{slug}/matches/{match.pk}/index.html")
        for seat in match.seats.select_related("entry"):
            assert escape(seat.entry.name) in html

    # The standings are in the HTML itself: every team, in a table, no script needed.
    standings = page(site, f"t/{slug}/standings/index.html")
    assert "<table" in standings and "<script" not in standings
    for entry in tournament.entries.all():
        assert escape(entry.name) in standings
    # Japanese under ja/, with the switch as plain links between the two.
    japanese = page(site, f"ja/t/{slug}/standings/index.html")
    assert '<html lang="ja">' in japanese and "順位表" in japanese
    assert 'href="../../../../t/' + slug + '/standings/index.html"' in japanese
    assert 'href="../../../ja/t/' + slug + '/standings/index.html"' in standings
    # The players' pages the event links to come along.
    player = tournament.entries.first().players[0]
    assert (site / f"players/{player.pk}/index.html").is_file()
    # The site's own stylesheet, copied.
    assert (site / "static/css/public.css").is_file()


def test_nothing_private_leaves(evening, tmp_path, director_user):
    director_user.email = "td@club.example"
    director_user.save()
    site = tmp_path / "site"
    export(evening["tournament"].slug, str(site))
    everything = text_of(site)
    for secret in evening["secrets"]:
        assert secret not in everything
    for pin in PINS[:4]:
        assert not re.search(rf"(?<!\d){pin}(?!\d)", everything), pin
    # No address of the server either: the site lives wherever it is put.
    assert "://localhost" not in everything and "://testserver" not in everything
    for private in ("td@club.example", "csrfmiddlewaretoken", "/director/", "/accounts/", "/api/"):
        assert private not in everything
    assert not list(site.rglob("archive.json"))


def test_a_duplicate_event_has_its_travellers_rankings_and_score_cards(tmp_path, client):
    tournament = club.build_duplicate_spades(tables=3, boards_per_round=2)
    slug = tournament.slug
    # Its director's page offers the zip too.
    client.force_login(tournament.directors.first())
    director_page = client.get(reverse("tournaments:duplicate-director", args=[slug]))
    assert reverse("tournaments:staticsite-zip", args=[slug]) in director_page.content.decode()
    site = tmp_path / "site"
    export(slug, str(site))

    assert problems(site) == []
    results = page(site, f"duplicate/{slug}/index.html")
    assert "<table" in results
    for entry in tournament.entries.all():
        assert escape(entry.name) in results
    # index.html is the event's page (its /t/ address leads to the duplicate results).
    assert "<table" in page(site, "index.html")
    for folder in ("", "ja/"):
        boards = sorted((site / f"{folder}duplicate/{slug}/boards").glob("*/index.html"))
        cards = sorted((site / f"{folder}duplicate/{slug}/pairs").glob("*/index.html"))
        assert len(boards) == 6 and len(cards) == tournament.entries.count()
    assert '<html lang="ja">' in page(site, f"ja/duplicate/{slug}/index.html")
    assert not (site / f"duplicate/{slug}/table").exists()


def test_a_knockout_has_its_bracket_and_the_bracket_downloads(tmp_path, settings, client):
    """Every PDF and XLSX download is there although the crawl asks for more of them than a
    visitor may (the export's crawl is not counted, tournaments/web/throttles.py); a visitor's
    own downloads are counted as before, during the export's process and after it."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "export": "1/day",
        },
    }
    tournament = club.build_cup(teams=6, rounds=2, cut=4)
    slug = tournament.slug
    pdf = reverse(
        "tournaments:export-table", kwargs={"slug": slug, "subject": "bracket", "fmt": "pdf"}
    )
    assert client.get(pdf).status_code == 200
    site = tmp_path / "site"
    export(slug, str(site))
    assert client.get(pdf).status_code == 429

    assert problems(site) == []
    bracket = page(site, f"t/{slug}/bracket/index.html")
    assert "<script" not in bracket
    for folder in ("", "ja/"):
        for fmt in ("csv", "xlsx", "pdf"):
            download = site / f"{folder}t/{slug}/export/bracket.{fmt}"
            assert download.is_file() and download.stat().st_size > 0
    assert (site / f"t/{slug}/export/bracket.pdf").read_bytes().startswith(b"%PDF")
    assert 'href="../export/bracket.csv"' in bracket


def test_a_season_holds_its_table_and_its_evenings_only(tmp_path, swiss):
    nights = club.build_season(players=4, evenings=2)
    other = swiss(4)
    season = nights[0].series_members.get().series
    site = tmp_path / "site"
    export("--season", season.slug, str(site))

    assert problems(site) == []
    table = page(site, "index.html")
    assert "<table" in table
    for night in nights:
        assert (site / f"t/{night.slug}/index.html").is_file()
        assert (site / f"ja/t/{night.slug}/standings/index.html").is_file()
    assert not (site / f"t/{other.slug}").exists()
    for fmt in ("csv", "xlsx", "pdf"):
        assert (site / f"seasons/{season.slug}/export/table.{fmt}").is_file()


def test_the_club_site_starts_at_the_club_page(tmp_path, swiss, director):
    tournament = swiss(4)
    play_round(tournament, director)
    site = tmp_path / "site"
    export("--club", str(site))
    assert problems(site) == []
    assert f'href="t/{tournament.slug}/index.html"' in page(site, "index.html")
    assert (site / "ja/index.html").is_file()


def test_the_command_refuses_clearly(tmp_path, swiss):
    with pytest.raises(CommandError, match="slug"):
        export("no-such-event", str(tmp_path / "a"))
    with pytest.raises(CommandError, match="season"):
        export("--season", "no-such-season", str(tmp_path / "b"))
    tournament = swiss(4)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    with pytest.raises(CommandError, match="not an empty folder"):
        export(tournament.slug, str(tmp_path / "full"))
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["keep.txt"]
    with pytest.raises(CommandError, match="DIR alone"):
        export("--club", tournament.slug, str(tmp_path / "c"))


def test_the_zip_is_for_the_events_directors_only(
    evening, client, director_user, django_user_model
):
    """Who may ask (in-process: the guard answers before any child process is started). The
    zip itself is made by a child process that needs the same database as the server: read
    back from a real server in test_site_zip_server.py."""
    tournament = evening["tournament"]
    url = reverse("tournaments:staticsite-zip", args=[tournament.slug])

    dashboard = reverse("tournaments:director-dashboard", args=[tournament.slug])
    client.force_login(director_user)
    assert url in client.get(dashboard).content.decode()

    other = django_user_model.objects.create_user("other-director")
    client.force_login(other)
    assert client.get(url).status_code == 403
    client.logout()
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    missing = reverse("tournaments:staticsite-zip", args=["no-such-event"])
    client.force_login(director_user)
    assert client.get(missing).status_code == 404


def child(monkeypatch, code: str) -> None:
    """The zip's child process replaced by a real one running `code` (the real command is run
    against a real server's database in test_site_zip_server.py)."""
    monkeypatch.setattr(download, "command", lambda slug, folder: [sys.executable, "-c", code])


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_failing_export_is_a_clear_page_and_its_errors_are_logged(
    evening, client, director_user, monkeypatch, caplog, language
):
    child(
        monkeypatch, "import sys; sys.stderr.write('the child broke: no such table'); sys.exit(1)"
    )
    client.force_login(director_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    url = reverse("tournaments:staticsite-zip", args=[evening["tournament"].slug])
    with caplog.at_level(logging.ERROR, logger="tournaments.staticsite.download"):
        response = client.get(url)

    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
    assert "Content-Disposition" not in response
    text = response.content.decode()
    assert 'data-code="site-export-failed"' in text
    with translation.override(language):
        assert escape(str(download.FAILED)) in text
    words = "作成できませんでした" if language == "ja" else "could not be made"
    assert words in text
    assert "the child broke" not in text and "Traceback" not in text
    assert "the child broke: no such table" in caplog.text


def test_an_export_out_of_time_is_stopped_and_said(
    evening, client, director_user, monkeypatch, caplog
):
    monkeypatch.setattr(download, "EXPORT_TIMEOUT", 1)
    child(
        monkeypatch,
        "import sys, time; sys.stderr.write('still crawling'); sys.stderr.flush(); time.sleep(120)",
    )
    client.force_login(director_user)
    url = reverse("tournaments:staticsite-zip", args=[evening["tournament"].slug])
    with caplog.at_level(logging.ERROR, logger="tournaments.staticsite.download"):
        response = client.get(url)
    assert response.status_code == 500
    assert 'data-code="site-export-timed-out"' in response.content.decode()
    assert "did not finish" in caplog.text


def test_a_child_that_writes_nothing_is_a_failure(evening, client, director_user, monkeypatch):
    child(monkeypatch, "pass")
    client.force_login(director_user)
    url = reverse("tournaments:staticsite-zip", args=[evening["tournament"].slug])
    response = client.get(url)
    assert response.status_code == 500
    assert 'data-code="site-export-failed"' in response.content.decode()


def test_a_running_round_is_there_as_it_stands(swiss, director, tmp_path):
    """A round in play: its pairings and the hands confirmed so far, like the public page."""
    tournament = swiss(4)
    round_ = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_, actor=director)
    match = Match.objects.filter(round=round_, is_bye=False).first()
    simulate.play_hand(match, random.Random(3))
    site = tmp_path / "site"
    export(tournament.slug, str(site))
    assert problems(site) == []
    assert (site / f"t/{tournament.slug}/matches/{match.pk}/index.html").is_file()

"""Issue 14 point 11: a hand import keeps to the API's size of one hand; the public PDF and XLSX
downloads are built once per results version and throttled per client address; a public
registration never takes a member's player record by their (public) name or club number."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api.parsers import HAND_LIMIT
from tests.tournaments.builders import HAND_1, make_director, make_match
from tournaments.exports import downloads as built_downloads
from tournaments.models import AuditEvent, Entry, HandSubmission, ImportJob, Player, Tournament
from tournaments.services import Actor, PlayerSpec, hand_imports, register_entry
from tournaments.services.hands import MAX_HAND_BYTES

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(settings):
    settings.REDIS_URL = None
    return make_match(make_director())


# -- (a) the bulk hand import keeps the API's size of one hand -------------------------------


def padded_line(size: int) -> str:
    """A line for round 1 table 1 of exactly `size` bytes: a legal hand whose record carries a
    field the engine ignores, padded (as the 7 MB record that was stored and served)."""
    body = {"round": 1, "table": 1, "hand": 1, "record": {**HAND_1, "note": ""}}
    bare = len(json.dumps(body).encode())
    body["record"]["note"] = "x" * (size - bare)
    text = json.dumps(body)
    assert len(text.encode()) == size
    return text


def test_the_import_and_the_api_share_one_limit_for_a_hand():
    assert HAND_LIMIT == MAX_HAND_BYTES == 64 * 1024


def test_a_hand_over_the_apis_limit_in_an_import_is_refused_and_not_stored(
    match, django_capture_on_commit_callbacks
):
    director = Actor(user=match.round.tournament.directors.get())
    big = padded_line(7 * 1024 * 1024)  # one 7 MB record: the file is under its 8 MiB
    with django_capture_on_commit_callbacks(execute=True):
        job = hand_imports.start_hand_import(
            tournament=match.round.tournament,
            actor=director,
            data=(big + "\n").encode(),
            filename="big.jsonl",
        )
    job = ImportJob.objects.get(pk=job.pk)
    assert (job.state, job.stored, job.failed) == ("done", 0, 1)
    assert job.errors[0]["code"] == "hand-too-large"
    assert job.errors[0]["details"] == {"bytes": 7 * 1024 * 1024, "limit": MAX_HAND_BYTES}
    assert HandSubmission.objects.count() == 0


def test_a_hand_of_exactly_the_limit_is_imported(match, django_capture_on_commit_callbacks):
    director = Actor(user=match.round.tournament.directors.get())
    with django_capture_on_commit_callbacks(execute=True):
        job = hand_imports.start_hand_import(
            tournament=match.round.tournament,
            actor=director,
            data=(padded_line(MAX_HAND_BYTES) + "\n").encode(),
            filename="edge.jsonl",
        )
    job = ImportJob.objects.get(pk=job.pk)
    assert (job.stored, job.failed) == (1, 0), job.errors


# -- (b) costly downloads: cached per results version, throttled per address -----------------


@pytest.fixture
def built(monkeypatch, settings):
    """Counts how often each costly download is really built (the PDF rendered, the XLSX
    written); the cache is the test's own, empty."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "exports-test",
        }
    }
    from django.core.cache import cache

    cache.clear()
    counts = {"pdf": 0, "xlsx": 0}
    real_pdf, real_xlsx = built_downloads.PDFS["standings"], built_downloads.tabular.to_xlsx

    def pdf(tournament):
        counts["pdf"] += 1
        return real_pdf(tournament)

    def xlsx(*args, **kwargs):
        counts["xlsx"] += 1
        return real_xlsx(*args, **kwargs)

    monkeypatch.setitem(built_downloads.PDFS, "standings", pdf)
    monkeypatch.setattr(built_downloads.tabular, "to_xlsx", xlsx)
    return counts


def downloads(tournament: Tournament, fmt: str, times: int, **headers) -> list[int]:
    client = Client()
    url = f"/t/{tournament.slug}/export/standings.{fmt}"
    return [client.get(url, **headers).status_code for _ in range(times)]


def test_the_pdf_and_xlsx_are_built_once_per_results_version(match, built):
    tournament = match.round.tournament
    assert downloads(tournament, "pdf", 3) == [200] * 3
    assert downloads(tournament, "xlsx", 3) == [200] * 3
    assert built == {"pdf": 1, "xlsx": 1}

    # A new result (and so a new results version): built again, once.
    Tournament.objects.filter(pk=tournament.pk).update(
        results_version=tournament.results_version + 1
    )
    assert downloads(tournament, "pdf", 2) == [200] * 2
    assert downloads(tournament, "xlsx", 2) == [200] * 2
    assert built == {"pdf": 2, "xlsx": 2}

    # Another language prints other headings: its own copy.
    assert downloads(tournament, "pdf", 2, HTTP_ACCEPT_LANGUAGE="ja") == [200] * 2
    assert built["pdf"] == 3


def test_a_cached_pdf_is_the_one_that_was_built(match, built):
    tournament = match.round.tournament
    client = Client()
    url = f"/t/{tournament.slug}/export/standings.pdf"
    first, second = client.get(url), client.get(url)
    assert first.content == second.content and first.content.startswith(b"%PDF")
    assert second["Content-Type"] == "application/pdf"


def test_the_pdf_and_xlsx_downloads_are_throttled_per_client_address(match, built, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "export": "4/minute",
        },
    }
    tournament = match.round.tournament
    client = Client(REMOTE_ADDR="203.0.113.7")
    url = f"/t/{tournament.slug}/export/standings"
    answers = [client.get(f"{url}.pdf").status_code for _ in range(2)]
    answers += [client.get(f"{url}.xlsx").status_code for _ in range(2)]
    refused = client.get(f"{url}.pdf", HTTP_X_FORWARDED_FOR="198.51.100.9")  # a header: no help
    assert answers == [200] * 4
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert 'data-error="429"' in refused.content.decode()
    # Another address is its own count; the CSV (cheap) is not counted.
    assert Client(REMOTE_ADDR="203.0.113.8").get(f"{url}.pdf").status_code == 200
    assert client.get(f"{url}.csv").status_code == 200


# -- (c) a public registration never takes a member's record ---------------------------------


@pytest.fixture
def open_event(settings):
    settings.REDIS_URL = None
    director = make_director()
    from tournaments import services

    tournament = services.create_tournament(
        actor=director, name="Open pairs", game="spades", rules="standard", format="swiss", rounds=3
    )
    services.open_registration(tournament=tournament, actor=director)
    return tournament, director


@pytest.fixture
def member():
    return Player.objects.create(name="Aiko Tanaka", club_number="M-0042")


def test_a_public_registration_by_a_members_name_gets_a_new_player(open_event, member):
    tournament, _director = open_event
    entry = register_entry(
        tournament=tournament,
        actor=Actor(label="public"),
        players=[PlayerSpec("aiko  TANAKA"), PlayerSpec("Someone Else")],
    )
    players = {entry.team.first, entry.team.second}
    assert member not in players
    assert Player.objects.filter(name__iexact="aiko tanaka").count() == 2


def test_a_public_registration_by_a_members_club_number_gets_a_new_player_flagged(
    open_event, member
):
    tournament, _director = open_event
    response = Client().post(
        f"/t/{tournament.slug}/",
        {
            "player_1": "Aiko Tanaka",
            "club_number_1": "M-0042",
            "player_2": "Ken Ito",
            "club_number_2": "",
        },
    )
    assert response.status_code == 302
    entry = Entry.objects.get(tournament=tournament)
    assert member.pk not in (entry.team.first_id, entry.team.second_id)
    newcomer = entry.team.first
    assert (newcomer.name, newcomer.club_number) == ("Aiko Tanaka", "")
    flag = AuditEvent.objects.get(tournament=tournament, action="member-claimed")
    assert flag.data == {
        "entry": entry.pk,
        "player": newcomer.pk,
        "member": member.pk,
        "club_number": "M-0042",
    }
    # The member's own record has no entry here.
    assert not Entry.objects.filter(team__first=member).exists()


def test_a_director_still_enters_the_member_by_name_or_number(open_event, member):
    tournament, director = open_event
    entry = register_entry(
        tournament=tournament,
        actor=director,
        players=[PlayerSpec("Someone", club_number="M-0042"), PlayerSpec("Ken Ito")],
    )
    assert entry.team.first == member
    assert not AuditEvent.objects.filter(action="member-claimed").exists()


def test_a_public_registration_still_finds_a_record_without_a_club_number(open_event):
    tournament, _director = open_event
    casual = Player.objects.create(name="Ken Ito")
    entry = register_entry(
        tournament=tournament,
        actor=Actor(label="public"),
        players=[PlayerSpec("Ken Ito"), PlayerSpec("New Face")],
    )
    assert entry.team.first == casual

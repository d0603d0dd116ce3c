"""Import pages: entries from CSV/XLSX (a preview that stores nothing, then all rows or none,
carried between the two by a signed payload) and hand records in bulk as a background job with
a progress page and a status JSON, for the tournament's directors only."""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.conftest import sign_in_browser
from tests.tournaments.builders import HAND_1, HAND_2, make_director, make_match
from tournaments import services
from tournaments.models import Entry, HandSubmission, ImportJob, Tournament
from tournaments.services import Actor
from tournaments.views import imports as views

pytestmark = pytest.mark.django_db

TEAMS_CSV = (
    b"team,player1,club1,player2,club2,seed\r\n"
    b"Spade Aces,Aiko Tanaka,0042,Ben Ito,,1\r\n"
    b",Chie Sato,,Dai Mori,77,\r\n"
)


def open_tournament(username: str = "td") -> Tournament:
    director = Actor(user=get_user_model().objects.create_user(username, password="x"))
    tournament = services.create_tournament(
        actor=director, name="Club night", game="spades", rules="standard", format="swiss", rounds=3
    )
    return services.open_registration(tournament=tournament, actor=director)


def upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data)


def entries_url(tournament: Tournament) -> str:
    return reverse("tournaments:imports-entries", args=[tournament.slug])


def confirm_url(tournament: Tournament) -> str:
    return reverse("tournaments:imports-entries-confirm", args=[tournament.slug])


def signed_in(client, tournament: Tournament):
    client.force_login(tournament.directors.get())
    return client


def changed(part: str) -> str:
    """`part` with its last character replaced by another one: always a change, whatever the
    part was (the time stamp, in base 62 seconds, ends in "0" one second in 62)."""
    return part[:-1] + ("B" if part[-1] == "A" else "A")


def payload_of(html: str) -> str:
    return unescape(re.search(r'name="payload" value="([^"]+)"', html).group(1))


# -- entries -------------------------------------------------------------------------------------


def test_the_import_pages_are_for_the_tournaments_directors_only(client):
    tournament = open_tournament()
    hands = reverse("tournaments:imports-hands", args=[tournament.slug])
    assert client.get(entries_url(tournament)).status_code == 302
    assert client.get(hands).status_code == 302
    client.force_login(get_user_model().objects.create_user("other"))
    assert client.get(entries_url(tournament)).status_code == 403
    assert (
        client.post(entries_url(tournament), {"file": upload("e.csv", TEAMS_CSV)}).status_code
        == 403
    )
    assert client.post(confirm_url(tournament), {"payload": "x"}).status_code == 403
    assert client.get(hands).status_code == 403
    assert Entry.objects.count() == 0


def test_the_preview_shows_the_rows_to_be_created_and_stores_nothing(client):
    tournament = open_tournament()
    signed_in(client, tournament)
    assert client.get(entries_url(tournament)).status_code == 200

    response = client.post(entries_url(tournament), {"file": upload("club.csv", TEAMS_CSV)})

    assert response.status_code == 200
    html = response.content.decode()
    assert "Nothing has been stored yet." in html
    assert "Spade Aces" in html and "Aiko Tanaka (0042)" in html and "Dai Mori (77)" in html
    assert "Import 2 entries" in html
    assert "no-store" in response["Cache-Control"]
    assert Entry.objects.count() == 0


def test_the_preview_lists_problems_by_row_of_the_file_and_offers_no_import(client):
    tournament = open_tournament()
    signed_in(client, tournament)
    data = (
        b"team,player1,player2,seed\r\n"
        b"A,Aiko,Ben,1\r\n"
        b"B,,Chie,2\r\n"  # row 3: the first player is missing
        b"\r\n"
        b"C,Dai,Aiko,x\r\n"  # row 5: Aiko again, and a bad seed
    )

    html = client.post(entries_url(tournament), {"file": upload("e.csv", data)}).content.decode()

    problems = re.search(r'<table class="row-errors">.*?</table>', html, re.S).group(0)
    rows = re.findall(r'<th scope="row">(\d+)</th>.*?<code>([a-z-]+)</code>', problems, re.S)
    assert rows == [("3", "missing-player"), ("5", "bad-seed"), ("5", "duplicate-in-file")]
    assert 'name="payload"' not in html and "Import 3 entries" not in html
    assert Entry.objects.count() == 0


def test_a_file_that_cannot_be_read_is_reported_as_a_whole(client):
    tournament = open_tournament()
    signed_in(client, tournament)
    html = client.post(
        entries_url(tournament), {"file": upload("e.pdf", b"%PDF-1.7")}
    ).content.decode()
    assert "The file cannot be imported" in html and "bad-file" in html
    assert Entry.objects.count() == 0


def test_confirming_the_preview_imports_every_row(client):
    tournament = open_tournament()
    signed_in(client, tournament)
    preview = client.post(entries_url(tournament), {"file": upload("club.csv", TEAMS_CSV)})

    payload = payload_of(preview.content.decode())
    response = client.post(confirm_url(tournament), {"payload": payload}, follow=True)

    assert response.redirect_chain[-1][0] == entries_url(tournament)
    assert "Imported 2 entries from club.csv." in response.content.decode()
    entries = {e.team.name: e for e in Entry.objects.filter(tournament=tournament)}
    assert set(entries) == {"Spade Aces", "Chie Sato & Dai Mori"}
    assert entries["Spade Aces"].seed == 1
    assert entries["Spade Aces"].team.first.club_number == "0042"
    assert entries["Chie Sato & Dai Mori"].team.second.club_number == "77"


def test_an_xlsx_file_with_japanese_headers_is_previewed_and_imported(client):
    from openpyxl import Workbook

    tournament = open_tournament()
    signed_in(client, tournament)
    book = Workbook()
    for row in (["チーム", "プレイヤー1", "プレイヤー2", "シード"], ["桜", "愛子", "健太", 3]):
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)

    preview = client.post(entries_url(tournament), {"file": upload("参加者.xlsx", out.getvalue())})
    client.post(confirm_url(tournament), {"payload": payload_of(preview.content.decode())})

    entry = Entry.objects.get(tournament=tournament)
    assert (entry.team.name, entry.team.first.name, entry.seed) == ("桜", "愛子", 3)


def test_a_tampered_payload_is_refused_and_stores_nothing(client):
    tournament = open_tournament()
    signed_in(client, tournament)
    payload = payload_of(
        client.post(entries_url(tournament), {"file": upload("e.csv", TEAMS_CSV)}).content.decode()
    )
    data, stamp, signature = payload.rsplit(":", 2)
    forged_rows = signing.dumps(
        {
            "t": tournament.pk,
            "u": tournament.directors.get().pk,
            "f": "e.csv",
            "team": True,
            "rows": [[2, "Mallory", "Mal", "", "Lory", "", 1]],
        },
        salt="some other salt",
        compress=True,
    )

    for bad in (
        f"{data}:{stamp}:{changed(signature)}",  # a changed signature
        f"{changed(data)}:{stamp}:{signature}",  # changed rows under the old signature
        f"{data}:{changed(stamp)}:{signature}",  # a changed time
        forged_rows,  # signed, but not by this page
        "",
    ):
        response = client.post(confirm_url(tournament), {"payload": bad})
        assert response.status_code == 400
        assert "upload the file again" in response.content.decode()
    assert Entry.objects.count() == 0


def test_a_payload_for_another_tournament_or_director_or_too_old_is_refused(client, monkeypatch):
    tournament, other = open_tournament("a"), open_tournament("b")
    owner = other.directors.get()
    client.force_login(owner)
    for_other = payload_of(
        client.post(entries_url(other), {"file": upload("e.csv", TEAMS_CSV)}).content.decode()
    )
    tournament.directors.add(owner)  # directs both: still not this preview's
    assert client.post(confirm_url(tournament), {"payload": for_other}).status_code == 400

    colleague = get_user_model().objects.create_user("colleague")
    other.directors.add(colleague)
    client.force_login(colleague)
    assert client.post(confirm_url(other), {"payload": for_other}).status_code == 400

    client.force_login(owner)
    assert client.post(confirm_url(other), {"payload": for_other}).status_code == 302
    Entry.objects.all().delete()
    monkeypatch.setattr(views, "PREVIEW_MAX_AGE", -1)
    assert client.post(confirm_url(other), {"payload": for_other}).status_code == 400
    assert Entry.objects.count() == 0


def test_when_the_tournament_changed_since_the_preview_nothing_is_imported(client):
    tournament = open_tournament()
    signed_in(client, tournament)
    payload = payload_of(
        client.post(entries_url(tournament), {"file": upload("e.csv", TEAMS_CSV)}).content.decode()
    )
    director = Actor(user=tournament.directors.get())
    services.register_entry(
        tournament=tournament, actor=director, players=["Chie Sato", "Eri Abe"], name="Early birds"
    )

    response = client.post(confirm_url(tournament), {"payload": payload})

    assert response.status_code == 409
    html = response.content.decode()
    problem = re.search(r'<table class="row-errors">.*?</table>', html, re.S).group(0)
    assert re.search(r'<th scope="row">3</th>', problem)  # the row of the uploaded file
    assert Entry.objects.filter(tournament=tournament).count() == 1


# -- hand records --------------------------------------------------------------------------------


@pytest.fixture
def match(db):
    return make_match(make_director())


def hand_lines(*records: dict | str) -> bytes:
    lines = [
        r if isinstance(r, str) else json.dumps({"round": 1, "table": 1, "record": r})
        for r in records
    ]
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def post_hands(client, settings, django_capture_on_commit_callbacks):
    """Upload a hand-records file as the match's director; the job runs in-process."""
    settings.REDIS_URL = None

    def post(match, data: bytes, name: str = "hands.jsonl"):
        tournament = match.round.tournament
        signed_in(client, tournament)
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(
                reverse("tournaments:imports-hands", args=[tournament.slug]),
                {"file": upload(name, data)},
            )

    return post


def test_uploading_hand_records_starts_a_job_and_shows_its_results(client, match, post_hands):
    response = post_hands(match, hand_lines(HAND_1, "{broken", HAND_2))

    job = ImportJob.objects.get()
    tournament = match.round.tournament
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "tournaments:imports-job", args=[tournament.slug, job.pk]
    )
    page = client.get(response["Location"])
    html = page.content.decode()
    assert '<progress id="job-progress" max="3" value="3">' in html
    assert re.search(r'data-field="stored">2<', html) and re.search(r'data-field="failed">1<', html)
    errors = re.search(r'<table class="row-errors">.*?</table>', html, re.S).group(0)
    assert re.search(r'<th scope="row">2</th><td><code>bad-json</code>', errors)
    assert "imports.js" not in html and 'http-equiv="refresh"' not in html  # finished
    assert "no-store" in page["Cache-Control"]
    assert HandSubmission.objects.filter(status="confirmed", source="import").count() == 2


def test_a_line_the_rules_engine_refuses_reads_in_japanese_with_its_code(client, match, post_hands):
    bad = {**HAND_1, "tricks": {"N": 9, "E": 4, "S": 3, "W": 3}}
    response = post_hands(match, hand_lines(bad))
    client.cookies["django_language"] = "ja"

    html = client.get(response["Location"]).content.decode()

    errors = re.search(r'<table class="row-errors">.*?</table>', html, re.S).group(0)
    assert "<code>invalid-hand</code>" in errors
    assert "ルールエンジンはこのハンドを受け付けませんでした。" in errors
    assert "トリック数の合計が、1ハンドのトリック数と合いません。" in errors
    assert "add up to" not in errors and "refused" not in errors


def test_uploading_the_same_file_again_reports_duplicates(client, match, post_hands):
    post_hands(match, hand_lines(HAND_1, HAND_2))
    response = post_hands(match, hand_lines(HAND_1, HAND_2))

    html = client.get(response["Location"]).content.decode()
    assert re.search(r'data-field="duplicates">2<', html)
    assert re.search(r'data-field="stored">0<', html)
    assert HandSubmission.objects.count() == 2
    listing = client.get(
        reverse("tournaments:imports-hands", args=[match.round.tournament.slug])
    ).content.decode()
    assert listing.count("hands.jsonl") == 2


def test_a_file_refused_as_a_whole_is_shown_on_the_form_with_its_code(match, post_hands):
    response = post_hands(match, b"\xff\xfe\x00{", name="hands.jsonl")

    assert response.status_code == 422
    html = response.content.decode()
    assert "bad-encoding" in html and 'aria-invalid="true"' in html
    assert ImportJob.objects.count() == 0


def test_a_running_job_polls_its_status_and_refreshes_without_javascript(
    client, match, settings, django_capture_on_commit_callbacks
):
    tournament = match.round.tournament
    director = Actor(user=tournament.directors.get())
    with django_capture_on_commit_callbacks(execute=False):  # no worker has picked it up yet
        job = services.hand_imports.start_hand_import(
            tournament=tournament, actor=director, data=hand_lines(HAND_1, HAND_2), filename="h"
        )
    ImportJob.objects.filter(pk=job.pk).update(state="running", processed=1, stored=1)
    signed_in(client, tournament)
    status_url = reverse("tournaments:imports-job-status", args=[tournament.slug, job.pk])

    html = client.get(reverse("tournaments:imports-job", args=[tournament.slug, job.pk]))
    html = html.content.decode()
    status = client.get(status_url)

    assert f'data-status-url="{status_url}"' in html
    assert 'src="/static/js/imports.js"' in html and 'type="module"' in html
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in html
    assert '<progress id="job-progress" max="2" value="1">' in html
    assert 'aria-live="polite"' in html
    assert status["Content-Type"] == "application/json" and "no-store" in status["Cache-Control"]
    assert status.json() == {
        "id": job.pk,
        "state": "running",
        "state_label": "Running",
        "finished": False,
        "total": 2,
        "processed": 1,
        "stored": 1,
        "duplicates": 0,
        "failed": 0,
        "percent": 50,
        "message": "",
    }


def test_a_job_is_shown_only_in_its_own_tournament(client, match, post_hands):
    post_hands(match, hand_lines(HAND_1))
    job = ImportJob.objects.get()
    elsewhere = open_tournament("elsewhere")
    signed_in(client, elsewhere)
    assert (
        client.get(reverse("tournaments:imports-job", args=[elsewhere.slug, job.pk])).status_code
        == 404
    )
    assert (
        client.get(
            reverse("tournaments:imports-job-status", args=[elsewhere.slug, job.pk])
        ).status_code
        == 404
    )
    client.force_login(get_user_model().objects.create_user("stranger"))
    slug = match.round.tournament.slug
    assert (
        client.get(reverse("tournaments:imports-job-status", args=[slug, job.pk])).status_code
        == 403
    )


# -- in a real browser ---------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_job_page_moves_its_progress_bar_and_shows_the_errors_when_done(
    page, live_server, settings, monkeypatch, accessibility, screenshot
):
    settings.REDIS_URL = None
    monkeypatch.setattr(services.hand_imports, "enqueue", lambda job_id: None)  # no worker yet
    match = make_match(make_director())
    tournament = match.round.tournament
    user = tournament.directors.get()
    job = services.hand_imports.start_hand_import(
        tournament=tournament,
        actor=Actor(user=user),
        data=hand_lines(HAND_1, "{broken", HAND_2),
        filename="night.jsonl",
    )
    sign_in_browser(page, live_server, user)
    page.goto(live_server.url + reverse("tournaments:imports-job", args=[tournament.slug, job.pk]))
    bar = page.locator("progress#job-progress")
    assert bar.get_attribute("value") == "0"
    assert accessibility(page) == []

    ImportJob.objects.filter(pk=job.pk).update(state="running", processed=2, stored=1, failed=1)
    page.wait_for_function("document.querySelector('#job-progress').value === 2")
    assert page.locator('[data-field="percent"]').inner_text() == "66"
    assert page.locator('[data-field="state_label"]').inner_text() == "Running"
    screenshot(page, "imports-job-running")

    ImportJob.objects.filter(pk=job.pk).update(state="queued", processed=0, stored=0, failed=0)
    services.hand_imports.run_hand_import(job.pk)  # the worker's turn: the page reloads itself
    page.wait_for_selector("table.row-errors")
    assert page.locator("table.row-errors tbody tr").inner_text().split() == [
        "2",
        "bad-json",
        "not",
        "valid",
        "JSON:",
        "Expecting",
        "property",
        "name",
        "enclosed",
        "in",
        "double",
        "quotes",
        "(column",
        "2)",
    ]
    assert page.locator('[data-field="stored"]').inner_text() == "2"
    assert accessibility(page) == []
    screenshot(page, "imports-job-done")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_entries_preview_in_a_browser_meets_the_accessibility_basics(
    page, live_server, accessibility, screenshot, tmp_path
):
    tournament = open_tournament()
    sign_in_browser(page, live_server, tournament.directors.get())
    page.goto(live_server.url + entries_url(tournament))
    assert accessibility(page) == []
    bad = tmp_path / "entries.csv"
    bad.write_bytes(b"team,player1,player2\r\nA,Aiko,Ben\r\nB,,Chie\r\n")
    page.get_by_label("Entries file (CSV or XLSX)").set_input_files(str(bad))
    with page.expect_navigation():
        page.get_by_role("button", name="Preview").click()
    assert page.get_by_text("1 row has a problem").is_visible()
    assert accessibility(page) == []
    screenshot(page, "imports-entries-preview-errors")
    good = tmp_path / "good.csv"
    good.write_bytes(TEAMS_CSV)
    page.get_by_label("Entries file (CSV or XLSX)").set_input_files(str(good))
    with page.expect_navigation():
        page.get_by_role("button", name="Preview").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Import 2 entries").click()
    assert page.get_by_text("Imported 2 entries from good.csv.").is_visible()
    assert Entry.objects.filter(tournament=tournament).count() == 2
    page.get_by_role("link", name="Import hand records").click()
    page.wait_for_selector("input[type=file]")
    assert accessibility(page) == []

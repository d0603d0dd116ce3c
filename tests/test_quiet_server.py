"""The evening server's terminal stays quiet on a normal evening (issue 28): no WeasyPrint
warning per PDF, no "StreamingHttpResponse must consume synchronous iterators" per static file
or hands export under ASGI, no favicon 404; `make run` serves on PORT, and the demo names the
director's sign-in page, not the admin."""

from __future__ import annotations

import logging
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client

from tests.live.asgi import Apps, request, transaction_kept
from tests.pages.test_printing import cards_url, make_round, sheets_url, signed_in
from tests.tournaments.builders import HAND_1, make_director, make_match
from tournaments import services

ROOT = Path(__file__).resolve().parent.parent


def asgi_get(path: str) -> tuple[int, bytes, list[str]]:
    """A GET through Django's ASGI handler as uvicorn sends it: (status, body, warnings)."""
    with warnings.catch_warnings(record=True) as caught, transaction_kept():
        warnings.simplefilter("always")
        status, _headers, body = request(Apps().django, "GET", path, {})
    return status, body, [str(w.message) for w in caught]


@pytest.mark.django_db
def test_a_static_file_under_asgi_streams_without_a_warning(settings):
    settings.WHITENOISE_USE_FINDERS = True  # WhiteNoise from the sources (no collectstatic)
    settings.WHITENOISE_AUTOREFRESH = True
    status, body, said = asgi_get("/static/css/public.css")
    assert status == 200
    assert body == Path(finders.find("css/public.css")).read_bytes()
    assert not [w for w in said if "StreamingHttpResponse" in w], said


@pytest.mark.django_db(transaction=True)
def test_the_hands_export_under_asgi_streams_without_a_warning():
    director = make_director("td")
    match = make_match(director)
    services.submit_hand(match=match, actor=director, record=HAND_1)
    path = f"/t/{match.round.tournament.slug}/export/hands.jsonl"
    status, body, said = asgi_get(path)
    assert status == 200
    assert body == b"".join(Client().get(path).streaming_content)  # the same lines as WSGI's
    assert body.count(b"\n") == 1
    assert not [w for w in said if "StreamingHttpResponse" in w], said


@pytest.mark.django_db
def test_the_favicon_is_the_sites_icon_not_a_404():
    answer = Client().get("/favicon.ico")
    assert answer.status_code == 302 and answer["Location"].endswith(".svg")
    assert finders.find("img/favicon.svg")
    page = Client().get("/").content.decode()
    # named by its fixed address: the error pages extend the base page and must render
    # without the static files' manifest
    assert '<link rel="icon" href="/favicon.ico"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("which", ["cards", "sheets"])
def test_printing_a_pdf_makes_weasyprint_say_nothing(client, caplog, which):
    tournament = make_round()
    signed_in(client, tournament)
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        if which == "cards":
            response = client.post(cards_url(tournament), {"paper": "a4", "format": "pdf"})
        else:
            response = client.get(sheets_url(tournament) + "?format=pdf")
    assert response.content.startswith(b"%PDF")
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []


@pytest.mark.django_db
def test_the_demo_names_the_directors_sign_in_page(monkeypatch, capsys):
    monkeypatch.setattr("tournaments.management.commands.demo.build", lambda seed: [])
    call_command("demo")
    said = capsys.readouterr().out
    assert "Director sign-in: director / tricktable (/accounts/login/)" in said
    assert "/admin/" not in said


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("how", ["argument", "environment"])
def test_make_run_serves_on_port(how):
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    args = ["make", "-n", "run"]
    if how == "argument":
        args.append("PORT=8141")
    else:
        env["PORT"] = "8141"
    said = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True).stdout
    assert "manage.py runserver 127.0.0.1:8141" in said


@pytest.mark.django_db
@pytest.mark.parametrize("which", ["duplicate-guide", "duplicate-print-boards"])
def test_printing_a_duplicate_pdf_makes_weasyprint_say_nothing(client, caplog, which):
    """The duplicate guide cards' PDF printed "Ignored `clip: rect(0 0 0 0)` at 25:87, invalid
    value." on the evening server's terminal (the evening walk, bench/evening_walk.py)."""
    from django.urls import reverse

    from tests.duplicate.builders import make_event

    director = make_director("td")
    tournament = make_event(director, start=False)
    client.force_login(director.user)
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        response = client.get(
            reverse(f"tournaments:{which}", args=[tournament.slug]), {"format": "pdf"}
        )
    assert response.content.startswith(b"%PDF")
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []

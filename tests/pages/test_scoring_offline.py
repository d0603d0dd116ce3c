"""The scoring page's offline app with Django's test client: the web app manifest and the service
worker exist only where the site runs over HTTPS (the request, or PUBLIC_URL); over the club's
plain HTTP the page offers neither. And what the script needs to carry the evening without a
reload: the dealer rotation (to go on past a queued hand) and the tournament's event stream."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.pages.test_scoring import script_json
from tests.tournaments.builders import make_director, make_match
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db

WORKER = "/table/service-worker.js"
STATIC = Path(__file__).resolve().parents[2] / "static"
# The scoring page's entry module imports these (static/js/scoring/): the worker keeps them all.
SCORING_MODULES = sorted(
    f"/static/{path.relative_to(STATIC).as_posix()}"
    for path in (STATIC / "js" / "scoring").rglob("*.js")
)


@pytest.fixture
def director():
    return make_director("td")


@pytest.fixture
def match(director):
    return make_match(director)


def table_url(match) -> str:
    return reverse("tournaments:scoring-table", args=[match.table_id])


def manifest_url(match) -> str:
    return reverse("tournaments:scoring-manifest", args=[match.table_id])


def test_the_worker_is_served_under_the_scoring_pages(match):
    assert reverse("tournaments:scoring-worker") == WORKER
    assert table_url(match).startswith("/table/")


def test_over_plain_http_there_is_no_manifest_and_no_service_worker(client, match, settings):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    response = client.get(table_url(match))
    body = response.content.decode()
    assert response.status_code == 200
    assert 'rel="manifest"' not in body
    assert script_json(body, "scoring-config")["offlineApp"] is None
    assert client.get(WORKER).status_code == 404
    assert client.get(manifest_url(match)).status_code == 404


def test_without_a_public_url_setting_plain_http_offers_no_worker(client, match, settings):
    if hasattr(settings, "PUBLIC_URL"):
        del settings.PUBLIC_URL
    assert 'rel="manifest"' not in client.get(table_url(match)).content.decode()
    assert client.get(WORKER).status_code == 404


@pytest.mark.parametrize("how", ["request", "public-url"])
def test_over_https_the_page_links_its_manifest_and_its_worker(client, match, settings, how):
    settings.PUBLIC_URL = "https://club.example" if how == "public-url" else ""
    secure = how == "request"
    body = client.get(table_url(match), secure=secure).content.decode()
    assert f'<link rel="manifest" href="{manifest_url(match)}">' in body
    assert script_json(body, "scoring-config")["offlineApp"] == {
        "manifest": manifest_url(match),
        "worker": WORKER,
        "scope": "/table/",
    }

    worker = client.get(WORKER, secure=secure)
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Service-Worker-Allowed"] == "/table/"
    assert worker["Cache-Control"] == "no-cache"  # a new worker is seen at once
    code = worker.content.decode()
    assert "__VERSION__" not in code
    assert re.search(r"const VERSION = '[0-9a-f]{12}';", code)
    # what it keeps besides the page: the page's own CSS and script (the entry module and every
    # module under js/scoring/), never an API address
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", code).group(1))
    assert assets == ["/static/css/scoring.css", "/static/js/scoring.js", *SCORING_MODULES]
    assert "/static/js/scoring/games/spades.js" in assets
    assert "/api/" not in code
    assert "request.headers.has('Authorization')" in code


def test_the_manifest_opens_the_table_page_and_speaks_the_visitors_language(
    client, match, settings
):
    settings.PUBLIC_URL = "https://club.example"
    response = client.get(manifest_url(match))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == manifest["scope"] == table_url(match)
    assert manifest["short_name"] == "Table 1"
    assert manifest["name"] == "Table 1 — Club night"
    assert manifest["display"] == "standalone"
    japanese = client.get(manifest_url(match), HTTP_ACCEPT_LANGUAGE="ja").json()
    assert japanese["short_name"] == "テーブル 1" and japanese["lang"] == "ja"


def test_a_draft_rounds_table_has_no_manifest_for_the_public(client, match, settings):
    settings.PUBLIC_URL = "https://club.example"
    Round.objects.filter(pk=match.round_id).update(state=Round.State.DRAFT)
    assert client.get(manifest_url(match)).status_code == 404


def test_the_script_knows_the_dealer_rotation_and_the_event_stream(client, match):
    config = script_json(client.get(table_url(match)).content.decode(), "scoring-config")
    assert config["nextDealer"] == {"N": "E", "E": "S", "S": "W", "W": "N"}
    slug = match.round.tournament.slug
    assert config["api"]["events"] == f"/api/v1/tournaments/{slug}/events"
    assert isinstance(config["renderedAt"], int)


def test_the_scoring_code_is_never_in_what_the_worker_may_keep(client, director, match, settings):
    """The page the worker keeps is the server's HTML: the code lives only in the card's URL
    fragment and on the phone, never in anything the server renders for the page."""
    settings.PUBLIC_URL = "https://club.example"
    _, secret = services.issue_table_token(table=match.table, actor=director)
    assert secret not in client.get(table_url(match)).content.decode()
    assert secret not in client.get(manifest_url(match)).content.decode()

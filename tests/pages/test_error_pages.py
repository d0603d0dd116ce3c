"""The evening server (DEBUG off) never shows a technical page: a walk through bad addresses, bad
forms, a refused form, a wrong host name, another director's page and a server error, in English
and Japanese, each answered by a friendly page in the site's design with a way back. Under /api/
the same faults stay JSON; with DEBUG on, developers keep Django's debugging pages."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.template import loader
from django.test import Client, RequestFactory

from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.services import Actor, PlayerSpec
from tournaments.views import errors
from tournaments.views import public as public_views

pytestmark = pytest.mark.django_db

# What Django's technical and bare pages say; none may reach a player.
TECHNICAL = [
    "Traceback",
    "URLconf",
    "Django tried these URL patterns",
    "Request Method",
    "Request URL",
    "Exception Value",
    "Exception Type",
    "CSRF verification failed",
    "DEBUG = True",
    "Server Error (500)",
    "Bad Request (400)",
    "403 Forbidden",
    "<h1>Not Found</h1>",
    "The requested resource was not found",
    "RuntimeError",
    "DisallowedHost",
    "TooManyFieldsSent",
]


@dataclass
class World:
    td: object
    other: object
    tournament: Tournament  # running: round 1 is a draft
    draft: Round
    open_event: Tournament  # registration open


@pytest.fixture
def evening(settings):
    """The evening server's setting: DEBUG off."""
    settings.DEBUG = False


@pytest.fixture
def world(db) -> World:
    users = get_user_model().objects
    td, other = users.create_user("td"), users.create_user("other")
    actor = Actor(user=td)
    tournament = services.create_tournament(
        actor=actor,
        name="Friday Spades",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=3,
        match_length="hands",
        match_hands=2,
    )
    services.open_registration(tournament=tournament, actor=actor)
    for n in range(1, 5):
        services.register_entry(
            tournament=tournament,
            actor=actor,
            name=f"Secret team {n}",
            players=[PlayerSpec(f"Hidden {n}N"), PlayerSpec(f"Hidden {n}S")],
        )
    draft = services.generate_round(tournament=tournament, actor=actor)
    tournament.refresh_from_db()
    open_event = services.create_tournament(
        actor=actor, name="Open Spades", game="spades", rules="standard", format="swiss", rounds=2
    )
    services.open_registration(tournament=open_event, actor=actor)
    return World(td=td, other=other, tournament=tournament, draft=draft, open_event=open_event)


def squash(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _boom(*args, **kwargs):
    raise RuntimeError("boom: a bug in a view")


@dataclass(frozen=True)
class Case:
    name: str
    status: int
    send: Callable[[World, str, pytest.MonkeyPatch], object]
    en: str  # a sentence the English page says
    ja: str  # the same in Japanese
    error_layout: bool = True  # the error pages' layout (else the page's own, e.g. a form)


def _get(path: str, **extra):
    def send(world: World, lang: str, monkeypatch):
        client = Client(raise_request_exception=False)
        return client.get(
            path.format(slug=world.tournament.slug), HTTP_ACCEPT_LANGUAGE=lang, **extra
        )

    return send


def _draft_round(world: World, lang: str, monkeypatch):
    return Client().get(
        f"/t/{world.tournament.slug}/rounds/{world.draft.number}/", HTTP_ACCEPT_LANGUAGE=lang
    )


def _bad_registration(world: World, lang: str, monkeypatch):
    return Client().post(
        f"/t/{world.open_event.slug}/", {"player_1": "", "player_2": ""}, HTTP_ACCEPT_LANGUAGE=lang
    )


def _too_many_fields(world: World, lang: str, monkeypatch):
    fields = {f"f{n}": "x" for n in range(1200)}
    return Client(raise_request_exception=False).post(
        f"/t/{world.tournament.slug}/", fields, HTTP_ACCEPT_LANGUAGE=lang
    )


def _no_csrf_token(world: World, lang: str, monkeypatch):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.td)
    return client.post(f"/director/{world.tournament.slug}/open/", HTTP_ACCEPT_LANGUAGE=lang)


def _wrong_host(world: World, lang: str, monkeypatch):
    return Client(raise_request_exception=False).get(
        "/", HTTP_HOST="evil.example", HTTP_ACCEPT_LANGUAGE=lang
    )


def _another_directors_page(world: World, lang: str, monkeypatch):
    client = Client()
    client.force_login(world.other)
    return client.get(f"/director/{world.tournament.slug}/", HTTP_ACCEPT_LANGUAGE=lang)


def _server_error(world: World, lang: str, monkeypatch):
    monkeypatch.setattr(public_views, "render", _boom)
    return Client(raise_request_exception=False).get("/", HTTP_ACCEPT_LANGUAGE=lang)


NOT_FOUND = ("There is no page at this address.", "このアドレスのページはありません。")

CASES = [
    Case("unknown address", 404, _get("/no-such-page/"), *NOT_FOUND),
    Case("unknown address without a slash", 404, _get("/wp-admin.php"), *NOT_FOUND),
    Case("mistyped tournament", 404, _get("/t/frday-spades/"), *NOT_FOUND),
    Case("unknown page of a tournament", 404, _get("/t/{slug}/rounds/99/"), *NOT_FOUND),
    Case("unknown match", 404, _get("/t/{slug}/matches/999999/"), *NOT_FOUND),
    Case("unknown player", 404, _get("/players/999999/"), *NOT_FOUND),
    Case("unknown game's leaderboard", 404, _get("/leaderboards/poker/"), *NOT_FOUND),
    Case(
        "draft round",
        404,
        _draft_round,
        "Round 1's pairings are not published yet.",
        "ラウンド 1 の組み合わせはまだ発表されていません。",
        error_layout=False,
    ),
    Case(
        "bad registration form",
        400,
        _bad_registration,
        "This field is required.",
        "この項目は必須です。",
        error_layout=False,
    ),
    Case(
        "form with too many fields",
        400,
        _too_many_fields,
        "Your browser sent something this server could not understand",
        "ブラウザーから送られた内容をサーバーが理解できませんでした。",
    ),
    Case(
        "form without its CSRF token",
        403,
        _no_csrf_token,
        "Go back, reload the page, and try again.",
        "前のページに戻り、再読み込みしてからもう一度試してください。",
    ),
    Case(
        "host name this server does not answer to",
        400,
        _wrong_host,
        "an address this server does not answer to",
        "このサーバーが応答しないアドレスです。",
    ),
    Case(
        "another director's page",
        403,
        _another_directors_page,
        "Only this tournament's directors may see this page.",
        "このページを見られるのは、この大会のディレクターだけです。",
    ),
    Case(
        "server error",
        500,
        _server_error,
        "The server hit a problem and could not finish this page.",
        "サーバーで問題が起き、このページを最後まで表示できませんでした。",
    ),
]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_no_bad_request_gets_a_technical_page(evening, world, monkeypatch, case, lang):
    response = case.send(world, lang, monkeypatch)

    assert response.status_code == case.status
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert [marker for marker in TECHNICAL if marker in html] == []
    assert 'class="brand"' in html and ">TrickTable</a>" in html  # the site's header
    assert f'<html lang="{lang}">' in html
    text = squash(html)
    assert (case.ja if lang == "ja" else case.en) in text
    if case.error_layout:
        assert f'data-error="{case.status}"' in html
        ways = html.split('class="ways-back"', 1)[1].split("</ul>", 1)[0]
        assert 'href="/"' in ways  # a way back home, whatever happened


def test_a_signed_in_director_is_offered_their_tournaments(evening, world):
    client = Client()
    client.force_login(world.other)
    for path in ("/no-such-page/", f"/director/{world.tournament.slug}/"):
        html = client.get(path).content.decode()
        assert 'href="/director/"' in html.split('class="ways-back"', 1)[1]
    anonymous = Client().get("/no-such-page/").content.decode()
    assert 'href="/director/"' not in anonymous.split('class="ways-back"', 1)[1]


def test_a_visitor_is_sent_back_where_they_came_from_on_this_site_only(evening, world):
    client = Client()
    came_from = "http://testserver/t/friday-spades/standings/"
    html = client.get("/no-such-page/", HTTP_REFERER=came_from).content.decode()
    assert f'href="{came_from}"' in html and "Back to the page you came from" in html
    elsewhere = client.get("/no-such-page/", HTTP_REFERER="https://evil.example/").content
    assert b"evil.example" not in elsewhere and b"Back to the page you came from" not in elsewhere


def test_a_missing_page_of_a_tournament_leads_back_to_it(evening, world):
    html = Client().get(f"/t/{world.tournament.slug}/matches/999999/").content.decode()
    assert f'href="/t/{world.tournament.slug}/"' in html
    assert "Tournament: Friday Spades" in squash(html)


def test_a_refused_form_says_why_only_when_debugging(settings, world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.td)
    client.get(f"/director/{world.tournament.slug}/")  # a page with a form: the CSRF cookie
    assert client.cookies.get("csrftoken")
    settings.DEBUG = False
    assert b"CSRF token" not in client.post(f"/director/{world.tournament.slug}/open/").content
    settings.DEBUG = True
    debugging = client.post(f"/director/{world.tournament.slug}/open/")
    assert debugging.status_code == 403 and b"CSRF token" in debugging.content
    assert b'data-error="403"' in debugging.content
    world.tournament.refresh_from_db()
    assert world.tournament.state == Tournament.State.REGISTRATION  # nothing was done


def test_the_draft_round_page_shows_nothing_of_the_draft(evening, world):
    """A draft reads exactly like a round not paired yet: no table, no name, no count."""
    client = Client()
    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    draft, not_paired = (
        token.sub("", client.get(f"/t/{world.tournament.slug}/rounds/{n}/").content.decode())
        for n in (1, 2)
    )
    assert "Secret team" not in draft and "Hidden" not in draft
    assert draft.replace("Round 1", "Round 2").replace("/rounds/1/", "/rounds/2/") == not_paired
    assert f'href="/t/{world.tournament.slug}/"' in draft  # back to the tournament


def test_a_round_beyond_the_schedule_is_simply_not_found(evening, world):
    response = Client().get(f"/t/{world.tournament.slug}/rounds/4/")
    assert response.status_code == 404
    assert b'data-error="404"' in response.content
    assert b"not published yet" not in response.content


def test_the_director_still_sees_the_draft_itself(evening, world):
    client = Client()
    client.force_login(world.td)
    response = client.get(f"/t/{world.tournament.slug}/rounds/1/")
    assert response.status_code == 200
    assert b"Only the directors see this draft until it is published." in response.content


# --- the 500 page needs nothing: no request, no database, no URL reversing ------------------


def test_the_500_page_renders_without_request_or_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        html = loader.get_template("500.html").render({})
    assert "Something went wrong on our side" in html and 'href="/"' in html


def test_a_failing_500_template_still_gives_a_plain_friendly_page(evening, monkeypatch):
    def broken(name):
        raise RuntimeError("template store gone")

    monkeypatch.setattr(errors.loader, "get_template", broken)
    response = errors.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong" in html and "エラーが発生しました" in html
    assert 'href="/"' in html


# --- the API keeps its JSON error shape ------------------------------------------------------


@pytest.mark.parametrize(
    ("handler", "status", "code"),
    [
        (lambda r: errors.bad_request(r, Exception()), 400, "bad-request"),
        (lambda r: errors.permission_denied(r, Exception()), 403, "permission-denied"),
        (lambda r: errors.page_not_found(r, Exception()), 404, "not-found"),
        (errors.server_error, 500, "server-error"),
        (lambda r: errors.csrf_failure(r, "CSRF token missing."), 403, "csrf-failed"),
    ],
)
def test_under_the_api_every_handler_answers_json(handler, status, code):
    response = handler(RequestFactory().post("/api/v1/tournaments"))
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert data["code"] == code and set(data) == {"code", "message", "details"}


@pytest.mark.parametrize("path", ["/api/v1/nope", "/api/nope/", "/api/v1/tournaments/no-such"])
def test_an_unknown_api_address_is_still_json_with_debug_off(evening, world, path):
    response = Client().get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not-found"


def test_a_server_error_under_the_api_is_still_json_with_debug_off(evening, world, monkeypatch):
    monkeypatch.setattr(services, "create_tournament", _boom)
    client = Client(raise_request_exception=False)
    client.force_login(world.td)
    response = client.post(
        "/api/v1/tournaments",
        {
            "name": "X",
            "game": "spades",
            "rules": "standard",
            "format": "swiss",
            "rounds": 3,
        },
        content_type="application/json",
    )
    assert response.status_code == 500 and response.json()["code"] == "server-error"


# --- developers keep Django's debugging pages ------------------------------------------------


def test_with_debug_on_developers_keep_django_s_technical_404(settings, world):
    settings.DEBUG = True
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    assert b"Django tried these URL patterns" in response.content
    draft = Client().get(f"/t/{world.tournament.slug}/rounds/1/")  # a page, not a debug page
    assert draft.status_code == 404 and b"not published yet" in draft.content

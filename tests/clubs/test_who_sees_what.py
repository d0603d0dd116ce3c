"""Clubs are tenants (issue 33, point 1): a director of one club neither sees nor changes
another club's drafts, entries, PINs, tokens, imports, seasons, publishing keys or members
through any director page or API call, at either club's address (nor at the site's root); each
club's public pages stay public at its own address; lists show the address's club's only.

The walks read the URLconfs (as tests/pages/test_director_guard.py does): a page or an endpoint
added later is walked too. Each asks for club B's objects as club A's director and expects a
refusal (403) or nothing found (404), and B's rows unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import get_resolver, reverse

from tests.clubs.world import (
    Side,
    build,
    fingerprint,
    loaded,
    methods,
    parameters,
    routes,
    saved,
)
from tests.pages.test_director_guard import director_routes
from tournaments.models import home_club

pytestmark = pytest.mark.django_db

REFUSED = {403, 404}


@pytest.fixture
def clubs(settings, built_once) -> tuple[Side, Side]:
    """The two clubs, built once per run (`built_once`) and loaded again for each test: a test
    changes them inside its own transaction only."""
    settings.REDIS_URL = None

    def make() -> list[dict[str, Any]]:
        home_club()  # the installation's first club: neither of the two
        return [saved(build("east")), saved(build("west"))]

    east, west = (loaded(ids) for ids in built_once.kept("two-clubs", make))
    return east, west


def page_value(name: str, route: str, page: str, side: Side) -> Any:
    """The value of one of a director page's parameters naming the side's object."""
    if name == "slug":
        if route.startswith("clubs/"):  # the installation's pages of a club
            return side.club.slug
        if page.startswith(("duplicate-",)):
            return side.duplicate.slug
        if route.startswith("seasons/"):
            return side.series.slug
        return side.tournament.slug
    values: dict[str, Any] = {
        "number": 1,
        "match_id": side.match.pk,
        "entry_id": side.entry.pk,
        "pair_id": side.pair.pk,
        "token_id": side.token.pk,
        "job_id": side.job.pk,
        "call_id": side.call.pk,
        "player_id": side.player.pk,
        "tournament": side.tournament.slug,
        "action": {
            "director-entry-action": "withdraw",
            "director-clock": "start",
            "club-directors-action": "invite",
            "clubs-manage-action": "suspend",
        }.get(page, "start"),
        "club": side.club.slug,
        "name": "archive.zip",
        "subject": "standings",
        "fmt": "csv",
    }
    if name == "pk":
        return side.key.pk if "keys" in route else side.published.pk
    return values[name]


def director_pages() -> list[tuple[str, str]]:
    return [
        (route, name) for route, name, _view in director_routes(get_resolver().url_patterns) if name
    ]


def page_url(route: str, name: str, side: Side) -> str:
    kwargs = {p: page_value(p, route, name, side) for p in parameters(route)}
    return reverse(f"tournaments:{name}", kwargs=kwargs)


ADDRESSES = ("/c/east", "/c/west", "")  # A's, B's, and the site's root (the home club's)


def test_no_director_page_shows_or_changes_another_clubs_objects(client, clubs):
    east, west = clubs
    before = fingerprint(west.club)
    client.force_login(east.director)
    pages = director_pages()
    assert len(pages) > 40
    theirs = [west.tournament.name, west.key.label, west.published.slug, west.series.name]
    answers: dict[str, int] = {}
    for route, name in pages:
        path = page_url(route, name, west)
        for address in ADDRESSES:
            if route.startswith("clubs/") and address:  # the installation's: at the root only
                moved = client.get(address + path)
                if moved.status_code == 302:  # sent to the root's page, which decides there
                    assert moved["Location"] == path, path
                else:
                    assert moved.status_code in REFUSED | {405}, path
                continue
            if set(parameters(route)) <= {"action"} and address == "/c/east":
                # the club's own page (the director's home, members, publishing, its directors;
                # an action names no other club's object): it shows nothing of another club
                page = client.get(address + path)
                # (405: a form's POST only; 403: the installation's administrators' pages)
                assert page.status_code in (200, 403, 405), path
                if not page.streaming:  # (the club's archive: tests/clubs/test_archive.py)
                    assert [n for n in theirs if n in page.content.decode()] == [], path
                continue
            for method in ("get", "post"):
                answer = getattr(client, method)(address + path, {"confirm": "yes"})
                answers[f"{method.upper()} {address}{path}"] = answer.status_code
    let_through = {url: code for url, code in answers.items() if code not in REFUSED | {405}}
    assert let_through == {}, sorted(let_through.items())
    assert fingerprint(west.club) == before


def test_the_same_pages_serve_a_clubs_own_director_at_its_address(client, clubs):
    """The walk above asks for real objects: the club's own director reaches them (the pages
    a GET may show answer 200 at the club's address), so its refusals are the club's."""
    east, _west = clubs
    client.force_login(east.director)
    shown, missing = [], []
    for route, name in director_pages():
        if name == "staticsite-zip":  # built on another thread, outside the test's transaction
            continue
        if route.startswith("clubs/"):  # the installation's administrators' (test_running.py)
            continue
        answer = client.get("/c/east" + page_url(route, name, east))
        if answer.status_code == 200:
            shown.append(name)
        elif answer.status_code in REFUSED:
            missing.append(name)
    # The knockout's pages need a knockout (the evening is a Swiss) and a hand's page a hand
    # played: nothing else is missing.
    assert {n for n in missing if "knockout" not in n and "cut" not in n} <= {"director-hand"}
    assert len(shown) > 20


# -- the API ------------------------------------------------------------------------------------


def api_value(name: str, route: str, side: Side) -> Any:
    """The value of one of an endpoint's parameters naming the side's object."""
    if name == "slug":
        if route.startswith("api/v1/duplicate/"):
            return side.duplicate.slug
        if route.startswith("api/v1/seasons/"):
            return side.series.slug
        if route.startswith("api/v1/publish/"):
            return side.published.slug
        return side.tournament.slug
    if name == "pk":
        collection = route.split("/<int:pk>", 1)[0].rsplit("/", 1)[-1]
        return {
            "entries": side.entry.pk,
            "kept-apart": side.pair.pk,
            "rounds": side.match.round_id,
            "tables": side.match.table_id,
            "matches": side.match.pk,
            "calls": side.call.pk,
            "players": side.player.pk,
            "tokens": 0,  # a director's own API tokens: an account's, not a club's
            "results": 0,
        }[collection]
    return {
        "number": 1,
        "token": side.token.pk,
        "id": side.match.pk,
        "tournament": side.tournament.slug,
        "game": "spades",
        "subject": "standings",
        "fmt": "csv",
    }[name]


def api_endpoints() -> list[tuple[str, str, list[str]]]:
    found = []
    for route, name, view in routes(get_resolver().url_patterns):
        if not route.startswith("api/v1/") or not name or not parameters(route):
            continue
        if name.endswith(("docs", "redoc", "schema")) or route.startswith("api/v1/auth/"):
            continue
        if parameters(route) == ["game"]:  # a game's leaderboard: the club's (tested below)
            continue
        found.append((route, name, methods(view)))
    return found


def api_url(route: str, name: str, side: Side) -> str:
    kwargs = {p: api_value(p, route, side) for p in parameters(route)}
    return reverse(name, kwargs=kwargs)


#: What a signed-in director of another club may read of a club's objects at that club's address:
#: what anyone may (the public pages' data). Everything else is refused there too.
PUBLIC_READS = {
    "api:tournament",
    "api:entries",
    "api:entry",
    "api:rounds",
    "api:round",
    "api:round-clock",
    "api:table",
    "api:match",
    "api:hands",
    "api:hand-versions",
    "api:player",
    "api:cut",
    "api:bracket",
    "api:export-table",
    "api:export-hands",
    "api:export-match",
    "api:live-standings",
    "api:live-events",
    "api:season",
    "api:season-table",
    "api:duplicate-state",
    "api:duplicate-boards",
    "api:duplicate-movement",
    "api:duplicate-travellers",
    "api:duplicate-rankings",
}


#: The calls whose body is read before the caller is known: the hands and a duplicate table's
#: results carry the side's PIN in the body, and anyone may register while registration is open.
BODY_FIRST = {
    f"api:{name}"
    for name in ("hands", "hand-confirm", "hand-reject", "duplicate-submit", "entries")
}


def test_no_api_call_shows_or_changes_another_clubs_objects(client, clubs):
    east, west = clubs
    before = fingerprint(west.club)
    client.force_login(east.director)
    endpoints = api_endpoints()
    assert len(endpoints) > 60
    secrets = [f'"pin":"{e.pin}"' for e in west.tournament.entries.all()] + [west.secret]
    let_through: dict[str, int] = {}
    told: set[str] = set()
    for route, name, verbs in endpoints:
        path = api_url(route, name, west)
        for method in verbs:
            for address in ("/c/east", ""):  # not the club's: not found, whatever is asked
                answer = getattr(client, method)(
                    address + path, {}, content_type="application/json"
                )
                if answer.status_code not in REFUSED | {401, 405}:
                    let_through[f"{method.upper()} {address}{path}"] = answer.status_code
            answer = getattr(client, method)("/c/west" + path, {}, content_type="application/json")
            if not answer.streaming:  # no PIN nor token of the other club in any answer
                told |= {secret for secret in secrets if secret in answer.content.decode()}
            if method == "get" and name in PUBLIC_READS:
                continue
            # (400 only where the body holds the caller's credential, a side's PIN, or anyone
            # may call: a director's call refuses someone else before it reads its body)
            body_first = {400} if name in BODY_FIRST else set()
            if answer.status_code not in REFUSED | body_first | {401, 405}:
                let_through[f"{method.upper()} /c/west{path}"] = answer.status_code
    assert let_through == {}, sorted(let_through.items())
    assert told == set()
    assert fingerprint(west.club) == before


def test_a_clubs_api_lists_hold_its_own_rows_only(client, clubs):
    east, west = clubs
    client.force_login(east.director)
    for path, theirs in (
        ("/api/v1/tournaments", west.tournament.slug),
        ("/api/v1/seasons", west.series.slug),
        ("/api/v1/players?search=west", f'"id":{west.player.pk},'),
        ("/api/v1/matches", f'"id":{west.match.pk},'),
        ("/api/v1/leaderboards/spades", f'"id":{west.player.pk},'),
    ):
        ours = client.get("/c/east" + path)
        assert ours.status_code == 200, path
        assert theirs not in ours.content.decode(), path
        assert theirs in client.get("/c/west" + path).content.decode(), path


def test_a_director_of_one_club_makes_nothing_in_another(client, clubs):
    east, west = clubs
    client.force_login(east.director)
    made = {
        "/api/v1/tournaments": {
            "name": "Raid",
            "game": "spades",
            "rules": "standard",
            "format": "swiss",
            "rounds": 3,
        },
        "/api/v1/seasons": {"name": "Raid season", "game": "spades"},
    }
    for path, body in made.items():
        answer = client.post("/c/west" + path, body, content_type="application/json")
        assert answer.status_code == 403, (path, answer.content)
        assert answer.json()["code"] == "not-club-director"
        assert (
            client.post("/c/east" + path, body, content_type="application/json").status_code == 201
        )
    assert not west.club.tournaments.filter(name="Raid").exists()


# -- public pages ---------------------------------------------------------------------------------


def public_pages(side: Side) -> list[str]:
    t, d, s = side.tournament.slug, side.duplicate.slug, side.series.slug
    return [
        "/",
        "/leaderboards/spades/",
        f"/players/{side.player.pk}/",
        "/players/",
        f"/t/{t}/",
        f"/t/{t}/rounds/1/",
        f"/t/{t}/standings/",
        f"/t/{t}/matches/{side.match.pk}/",
        f"/t/{t}/projector/",
        f"/t/{t}/export/standings.csv",
        "/seasons/",
        f"/seasons/{s}/",
        f"/duplicate/{d}/",
        f"/api/v1/tournaments/{t}",
        f"/api/v1/tournaments/{t}/standings",
        f"/api/v1/seasons/{s}",
        f"/api/v1/players/{side.player.pk}",
    ]


def test_every_clubs_public_pages_are_public_at_its_own_address_only(client, clubs):
    for side, other in (clubs, clubs[::-1]):
        for path in public_pages(side):
            assert client.get(f"/c/{side.club.slug}{path}").status_code == 200, path
            if path not in {"/", "/leaderboards/spades/", "/players/", "/seasons/"}:
                assert client.get(f"/c/{other.club.slug}{path}").status_code == 404, path
                assert client.get(path).status_code == 404, path


def test_a_clubs_lists_name_its_own_events_players_and_seasons(client, clubs):
    east, west = clubs
    theirs = [west.tournament.name, west.series.name, west.player.name]
    for path in ("/", "/seasons/", "/players/", "/leaderboards/spades/"):
        page = client.get("/c/east" + path).content.decode()
        assert [name for name in theirs if name in page] == [], path
        assert west.player.name in client.get("/c/west/players/").content.decode()
    client.force_login(east.director)
    home = client.get("/c/east/director/").content.decode()
    assert east.tournament.name in home and west.tournament.name not in home


def test_a_key_publishes_into_its_own_club_only(clubs):
    east, west = clubs
    for side in (east, west):
        held = side.published.tournament
        assert held.club == side.club
        assert {e.team.club if e.team else e.player.club for e in held.entries.all()} == {side.club}


# -- a club's static site -------------------------------------------------------------------------


def test_a_clubs_event_is_copied_as_a_static_site_from_its_own_address(clubs, tmp_path):
    from django.core.management import call_command

    east, west = clubs
    folder = tmp_path / "site"
    call_command("export_site", east.tournament.slug, str(folder))
    index = (folder / "index.html").read_text()
    standings = folder / "t" / east.tournament.slug / "standings" / "index.html"
    assert east.tournament.name in index and standings.exists()
    assert "/c/east/" not in index  # every link made relative, as for the home club
    written = "\n".join(p.read_text() for p in folder.rglob("*.html"))
    assert west.tournament.name not in written


# -- members --------------------------------------------------------------------------------------


def test_each_club_chooses_how_its_own_members_are_named(client, clubs):
    from tournaments.members import names

    east, west = clubs
    theirs = fingerprint(west.club)
    client.force_login(east.director)
    answer = client.post("/c/east/director/members/", {"public_names": "initials"})
    assert answer.status_code == 302
    assert (names.public_mode(east.club), names.public_mode(west.club)) == ("initials", "full")
    assert names.public_mode() == "full"  # the home club's, as before
    assert fingerprint(west.club) == theirs
    assert client.post("/c/west/director/members/", {"public_names": "initials"}).status_code == 403
    assert names.public_mode(west.club) == "full"


def test_a_name_removed_in_one_club_is_that_clubs_removal_only(client, clubs):
    from tournaments.models import RemovedName

    east, west = clubs
    client.force_login(east.director)
    mine = east.published.tournament.entries.select_related("team__first").first()
    person = mine.team.first if mine.team else mine.player
    url = f"/c/east/director/members/{person.pk}/remove/"
    assert client.post(url, {"confirm": "yes"}).status_code == 302
    assert list(RemovedName.objects.values_list("club", flat=True)) == [east.club.pk]
    assert f"/players/{person.pk}/" not in client.get("/c/east/players/").content.decode()
    assert client.get("/c/east/director/members/").context["removed"] == 1
    client.force_login(west.director)
    assert client.get("/c/west/director/members/").context["removed"] == 0


def test_a_table_card_is_unknown_at_another_clubs_address(client, clubs):
    """A card's secret at another club's address is answered as a made-up one: neither that it
    exists nor that it was revoked is told there (its own club's address tells both)."""
    east, west = clubs
    match = f"/api/v1/matches/{west.match.pk}"

    def code(address: str, secret: str) -> tuple[int, str]:
        answer = client.get(address + match, HTTP_AUTHORIZATION=f"Table {secret}")
        return answer.status_code, answer.json().get("code", "")

    assert code("/c/west", west.secret)[0] == 200
    assert code("/c/east", west.secret) == code("/c/east", "made-up") == (401, "bad-token")
    assert code("", west.secret) == (401, "bad-token")  # the root: the home club's
    west.token.revoke()
    assert code("/c/west", west.secret) == (401, "token-revoked")
    assert code("/c/east", west.secret) == (401, "bad-token")
    status = reverse("tournaments:scoring-token", args=[east.match.table_id])
    answer = client.get("/c/east" + status, HTTP_AUTHORIZATION=f"Table {west.secret}")
    assert answer.json() == {"state": "unknown"}


def test_another_clubs_refusal_leads_a_director_to_their_own_club(client, clubs):
    """Refused at another club's address, a director is offered the director's pages of the
    club they direct, not this club's (which would refuse again)."""
    east, west = clubs
    client.force_login(east.director)
    page = client.get("/c/west/director/members/")
    assert page.status_code == 403
    ways = page.content.decode().split('class="ways-back"')[1]
    assert 'href="/c/east/director/"' in ways
    assert 'href="/c/west/director/"' not in ways
    client.force_login(west.director)  # at its own club: the usual refusal, no other club
    other = client.get(f"/c/west/director/{east.tournament.slug}/")
    assert other.status_code in REFUSED
    assert "/c/east/director/" not in other.content.decode()

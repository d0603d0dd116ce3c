"""Fixtures for the hostile-input tests: a match in play with every kind of caller, a snapshot
of the whole database state to prove that a refused request changed nothing, and the check
that an answer is the API's one error shape (never a 500, never an HTML page); and a club
evening whose team, player, tournament and venue names are markup (`build_evening`).

Every client here is built with `raise_request_exception=False`, so a server error comes back
as the 500 response a real caller would see instead of an exception inside the test.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client, override_settings
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from api.models import ApiToken, hash_secret, new_secret
from tests.conftest import clear_cache
from tests.tournaments.builders import HAND_1, make_director, make_match, side_pin
from tournaments import services
from tournaments.demo import simulate
from tournaments.models import (
    Entry,
    HandSubmission,
    Match,
    Player,
    Round,
    Seat,
    Table,
    TableToken,
    Team,
    Tournament,
)
from tournaments.services import Actor, PlayerSpec

#: The apps whose rows a refused request must leave alone (auth: users and their tokens' owners).
STATE_APPS = ("tournaments", "api", "auth")
HANDS = "/api/v1/matches/{match}/hands"


@pytest.fixture(autouse=True)
def _generous_throttles(settings):
    """Hostile tests send many requests a minute: lift the rates (the throttles have their own
    tests in tests/api) and start each test with an empty throttle cache."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {scope: "100000/minute" for scope in rates},
    }
    settings.REDIS_URL = None
    clear_cache()
    yield
    clear_cache()


# -- clients --------------------------------------------------------------------------------------


def client(header: str | None = None) -> APIClient:
    """An API client that gets a server error back as a response (as a real caller would)."""
    made = APIClient(raise_request_exception=False)
    if header is not None:
        made.credentials(HTTP_AUTHORIZATION=header)
    return made


def api_token(user, **fields) -> tuple[ApiToken, str]:
    secret = new_secret()
    return ApiToken.objects.create(user=user, key_hash=hash_secret(secret), **fields), secret


def table_token(table: Table, **fields) -> tuple[TableToken, str]:
    secret = new_secret()
    fields.setdefault("expires_at", timezone.now() + timedelta(hours=1))
    token = TableToken.objects.create(
        table=table.event_table, key_hash=hash_secret(secret), **fields
    )
    return token, secret


# -- the state a refusal must not change -----------------------------------------------------------


def _counted() -> list[tuple[str, str]]:
    """The models `state` counts, with their tables: every model of STATE_APPS but
    `PinFailure`. (Their default managers filter nothing: a table's rows are the model's.)"""
    return [
        (model._meta.label, model._meta.db_table)
        for label in STATE_APPS
        for model in apps.get_app_config(label).get_models()
        if model._meta.label != "tournaments.PinFailure"
    ]


def state() -> dict[str, Any]:
    """Everything a refused request could have touched: the row count of every model of the
    tournaments, api and auth apps, every tournament's `results_version`, and each hand
    version's, match's and entry's status. Not the wrong PINs a refusal counts on purpose
    (`PinFailure`: services.side_pins).

    The row counts are read in one query (a `COUNT(*)` of each table), not in a query a model
    through the ORM: most hostile tests take the state twice, and building those queries was
    most of what such a test cost."""
    counted = _counted()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT " + ", ".join(f'(SELECT COUNT(*) FROM "{table}")' for _, table in counted)
        )
        row = cursor.fetchone()
    counts = {label: count for (label, _), count in zip(counted, row, strict=True)}
    return {
        "counts": counts,
        "results_version": dict(Tournament.objects.values_list("pk", "results_version")),
        "versions": sorted(HandSubmission.objects.values_list("pk", "status", "is_current")),
        "matches": sorted(Match.objects.values_list("pk", "state")),
        "entries": sorted(Entry.objects.values_list("pk", "status", "seed", "fixed_table")),
        "tournaments": sorted(
            Tournament.objects.values_list("pk", "name", "state", "rounds", "venue")
        ),
    }


@contextmanager
def unchanged() -> Iterator[None]:
    """The block's requests leave the database exactly as it was."""
    before = state()
    yield
    after = state()
    assert after == before, _difference(before, after)


def _difference(before: dict, after: dict) -> str:
    changed = [key for key in before if before[key] != after[key]]
    lines = [f"state changed in {changed}"]
    for key in changed:
        if isinstance(before[key], dict):
            lines += [
                f"  {k}: {before[key].get(k)} -> {after[key].get(k)}"
                for k in sorted(set(before[key]) | set(after[key]), key=str)
                if before[key].get(k) != after[key].get(k)
            ]
        else:
            lines.append(f"  {before[key]} -> {after[key]}")
    return "\n".join(lines)


# -- answers --------------------------------------------------------------------------------------


def refused(response, status: int | tuple[int, ...], code: str | set[str] | None = None) -> dict:
    """The API's one error shape: JSON `{code, message, details}`, the status (one of them) and
    the stable code (one of them); never a server error or an HTML page."""
    statuses = (status,) if isinstance(status, int) else status
    text = response.content[:300]
    assert response.status_code < 500, f"a server error: {response.status_code} {text!r}"
    assert response.status_code in statuses, f"{response.status_code} {text!r}"
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert isinstance(body, dict) and set(body) == {"code", "message", "details"}, body
    assert isinstance(body["code"], str) and isinstance(body["message"], str), body
    codes = {code} if isinstance(code, str) else code
    if codes is not None:
        assert body["code"] in codes, body
    return body


def post_json(who: APIClient, path: str, body: Any, **headers):
    """POST a JSON value, or bytes sent exactly as they are."""
    data = body if isinstance(body, bytes) else json.dumps(body)
    return who.post(path, data=data, content_type="application/json", **headers)


def submit(
    who: APIClient,
    match: Match,
    record: Any = HAND_1,
    *,
    key: str | None = "hostile-key-1",
    side: str = "NS",
    **extra,
):
    body = {"record": record, "side": side, "pin": side_pin(match, side), **extra}
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return post_json(who, HANDS.format(match=match.pk), body, **headers)


# -- a match in play -------------------------------------------------------------------------------


@dataclass
class Play:
    """A published Spades match at table 1 (NS v EW teams) and a second match at table 2 of
    the same round, with the callers: the director (API token), the two tables' scorers
    (table tokens), a director of another tournament, and the public."""

    director: Actor
    match: Match
    other_match: Match
    td: APIClient
    scorer: APIClient
    other_scorer: APIClient
    other_td: APIClient
    anon: APIClient
    director_secret: str
    scorer_secret: str

    @property
    def tournament(self) -> Tournament:
        return self.match.round.tournament

    @property
    def slug(self) -> str:
        return self.tournament.slug

    def hand_url(self, number: int, action: str, match: Match | None = None) -> str:
        return f"/api/v1/matches/{(match or self.match).pk}/hands/{number}/{action}"


def second_match(match: Match) -> Match:
    """Table 2 of the same round, between two more teams."""
    table = Table.objects.create(round=match.round, number=2)
    other = Match.objects.create(round=match.round, table=table)
    tournament = match.round.tournament
    for side, names in (("NS", ("Eri", "Fumi")), ("EW", ("Gen", "Hana"))):
        team = Team.objects.create(
            name=f"{names[0]} & {names[1]}",
            first=Player.objects.create(name=names[0]),
            second=Player.objects.create(name=names[1]),
        )
        entry = Entry.objects.create(tournament=tournament, team=team)
        Seat.objects.create(match=other, entry=entry, side=side, seats=side)
    return other


@dataclass(frozen=True)
class PlayRows:
    """What `build_play` made, by id and secret: enough to load a `Play` again."""

    match_id: int
    other_match_id: int
    director_secret: str
    scorer_secret: str
    other_secret: str
    stranger_secret: str


def build_play() -> PlayRows:
    director = make_director("hostile-td")
    match = make_match(director)
    other = second_match(match)
    _, director_secret = api_token(director.user)
    _, scorer_secret = table_token(match.table)
    _, other_secret = table_token(other.table)
    _, stranger_secret = api_token(make_director("other-td").user)
    return PlayRows(
        match_id=match.pk,
        other_match_id=other.pk,
        director_secret=director_secret,
        scorer_secret=scorer_secret,
        other_secret=other_secret,
        stranger_secret=stranger_secret,
    )


def load_play(rows: PlayRows) -> Play:
    """The match and its callers, read from the database: new model instances and new clients
    each time, so nothing a test changes on them reaches another test."""
    match = Match.objects.select_related("round__tournament", "table").get(pk=rows.match_id)
    tournament = match.round.tournament
    return Play(
        director=Actor(user=tournament.directors.get()),
        match=match,
        other_match=Match.objects.get(pk=rows.other_match_id),
        td=client(f"Token {rows.director_secret}"),
        scorer=client(f"Table {rows.scorer_secret}"),
        other_scorer=client(f"Table {rows.other_secret}"),
        other_td=client(f"Token {rows.stranger_secret}"),
        anon=client(),
        director_secret=rows.director_secret,
        scorer_secret=rows.scorer_secret,
    )


@pytest.fixture
def play(db) -> Play:
    return load_play(build_play())


def submit_pending(play: Play) -> None:
    """Hand 1 submitted by NS, awaiting EW's confirmation."""
    response = submit(play.scorer, play.match, key="pending-hand-1")
    assert response.status_code == 201, response.content


@pytest.fixture
def pending(play) -> Play:
    """The same, with hand 1 submitted by NS and awaiting EW's confirmation."""
    submit_pending(play)
    return play


class SharedPlay:
    """A match in play built once for a module's tests, in a transaction that is never committed
    (the pattern of Django's `TestCase.setUpTestData`): each test runs in a savepoint inside it
    (pytest-django's `db`), so what a test writes is rolled back and the next test finds the
    rows as built; and what waits for a commit (standings, live events, backups) never runs, as
    it never runs for rows a test makes itself.

    Hand 1 is submitted (after a savepoint) before a test that asks for `pending`, and rolled
    back to that savepoint before a test that asks for `play`, so that the tests of one kind
    that follow each other share one submission. Both happen before the test's own transaction
    begins (`pytest_runtest_setup` below), outside it: inside, the test's rollback would undo
    them. A module takes it with `play, pending = the_shared_play()`."""

    def __init__(self, rows: PlayRows) -> None:
        self.rows = rows
        self._before_hand: str | None = None  # the savepoint, while hand 1 is pending

    @property
    def hand_pending(self) -> bool:
        return self._before_hand is not None

    def switch(self, *, pending: bool) -> None:
        if pending and self._before_hand is None:
            before = transaction.savepoint_create()
            try:
                with throttles_as_in_a_test():
                    submit_pending(load_play(self.rows))
            except BaseException:
                transaction.savepoint_rollback(before)
                raise
            self._before_hand = before
        elif not pending and self._before_hand is not None:
            transaction.savepoint_rollback(self._before_hand)
            self._before_hand = None


def throttles_as_in_a_test() -> override_settings:
    """The settings `_generous_throttles` gives a test, for a request made outside one."""
    rates = django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    return override_settings(
        REST_FRAMEWORK={
            **django_settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {scope: "100000/minute" for scope in rates},
        },
        REDIS_URL=None,
    )


#: The `SharedPlay` of each module whose `shared_play` is set up, by module name; and whether
#: the test being set up in that module wants hand 1 pending.
_shared: dict[str, SharedPlay] = {}
_wants_pending: dict[str, bool] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test's fixtures (and so before its transaction): its module's `SharedPlay` with
    hand 1 pending or not, as the test asks; or, for the module's first test, what the
    `shared_play` about to be built has to make."""
    if "shared_play" not in getattr(item, "fixturenames", ()):
        return
    module = item.module.__name__
    _wants_pending[module] = "pending" in item.fixturenames
    if module in _shared:
        _shared[module].switch(pending=_wants_pending[module])


@contextlib.contextmanager
def never_committed(django_db_blocker) -> Iterator[None]:
    """A transaction for rows a module's tests share, rolled back at the end, never committed
    (the pattern of Django's `TestCase.setUpTestData`): each test runs in a savepoint inside it
    (pytest-django's `db`), so what a test writes is rolled back and the next test finds the
    rows as built; and what waits for a commit (standings, live events, backups) never runs,
    as it never runs for rows a test makes itself."""
    with django_db_blocker.unblock(), transaction.atomic():
        try:
            yield
        finally:
            transaction.set_rollback(True)


@pytest.fixture(scope="module")
def shared_play(
    request: pytest.FixtureRequest, django_db_setup, django_db_blocker
) -> Iterator[SharedPlay]:
    """The module's `SharedPlay` (`never_committed`), rolled back when its tests are done (or
    when another module's test runs next on this worker)."""
    module = request.module.__name__
    with never_committed(django_db_blocker):
        try:
            shared = SharedPlay(build_play())
            shared.switch(pending=_wants_pending.get(module, False))
            _shared[module] = shared
            yield shared
        finally:
            _shared.pop(module, None)


@pytest.fixture
def shared_play_in_play(shared_play: SharedPlay, db) -> Play:
    """`play` from the module's `SharedPlay`: new model instances and clients for each test."""
    assert not shared_play.hand_pending
    return load_play(shared_play.rows)


@pytest.fixture
def shared_play_pending(shared_play: SharedPlay, db) -> Play:
    """`pending` from the module's `SharedPlay`."""
    assert shared_play.hand_pending
    return load_play(shared_play.rows)


def the_shared_play() -> tuple[Any, Any]:
    """`play, pending = the_shared_play()` at a module's top: its tests' `play` and `pending`
    are the module's `SharedPlay` (built once for the module, each test still in a transaction
    of its own) instead of a match built for each test."""

    @pytest.fixture(name="play")
    def shared_in_play(shared_play_in_play: Play) -> Play:
        return shared_play_in_play

    @pytest.fixture(name="pending")
    def shared_pending(shared_play_pending: Play) -> Play:
        return shared_play_pending

    return shared_in_play, shared_pending


# -- names that are markup (test_markup_in_names.py, test_markup_in_the_browser.py) -------------
# A club evening whose names are markup: teams, players, the tournament and its venue named like
# HTML and script, registered through the public registration page and the API as a stranger
# would. Round 1 is played (a hand a match) and closed, so there are standings, results and
# ratings; round 2 is in play with a hand awaiting confirmation at each table, so the scoring
# pages, the director's queue and the printing pages have something to show.

TEAM_PAGE = "<script>alert(1)</script>"  # registered on the public page
PLAYER_PAGE = '"><img src=x onerror=alert(1)>'
TEAM_API = "<img src=x onerror=alert(2)>"  # registered over the API
PLAYER_API = "</script><script>alert(3)</script>"  # tries to leave a <script> block
PLAYER_SVG = "<svg onload=alert(4)>"
TOURNAMENT = "<b onmouseover=alert(5)>Club</b> night"
VENUE = "<iframe src=javascript:alert(6)></iframe>"

TEAMS = (TEAM_PAGE, TEAM_API)
PLAYERS = (PLAYER_PAGE, PLAYER_API, PLAYER_SVG)
ALL = (*TEAMS, *PLAYERS, TOURNAMENT, VENUE)
#: What would run if any name reached a page unescaped.
ACTIVE = ("<script>alert", "<img src=x", "<svg onload", "<iframe", "<b onmouseover")


@dataclass(frozen=True)
class Evening:
    tournament_id: int
    director_id: int
    slug: str
    round_1: list[int]  # match ids
    round_2: list[int]
    players: dict[str, int]  # name -> player id

    @property
    def tournament(self) -> Tournament:
        return Tournament.objects.get(pk=self.tournament_id)


def escaped(name: str) -> str:
    """The name as Django's autoescape writes it in HTML."""
    return str(escape(name))


def in_json_script(name: str) -> str:
    """The name inside a `json_script` block: JSON, with < > & as \\u escapes."""
    text = json.dumps(name)[1:-1]
    return text.replace("<", "\\u003C").replace(">", "\\u003E").replace("&", "\\u0026")


def build_evening() -> Evening:
    """The tournament, registered and played as described above (Spades, Swiss, 2 rounds of
    one-hand matches)."""
    user = get_user_model().objects.create_user("markup-td", password="x")
    director = Actor(user=user, label="td")
    tournament = services.create_tournament(
        actor=director,
        name=TOURNAMENT,
        venue=VENUE,
        game="spades",
        rules="standard",
        format="swiss",
        rounds=2,
        match_length="hands",
        match_hands=1,
    )
    services.open_registration(tournament=tournament, actor=director)
    page = Client().post(
        f"/t/{tournament.slug}/",
        {
            "team_name": TEAM_PAGE,
            "player_1": PLAYER_PAGE,
            "player_2": "Aiko",
        },
    )
    assert page.status_code == 302, page.content[:500]
    secret = new_secret()
    ApiToken.objects.create(user=user, key_hash=hash_secret(secret))
    api = Client(HTTP_AUTHORIZATION=f"Token {secret}").post(
        f"/api/v1/tournaments/{tournament.slug}/entries",
        data=json.dumps(
            {"name": TEAM_API, "players": [{"name": PLAYER_API}, {"name": PLAYER_SVG}]}
        ),
        content_type="application/json",
    )
    assert api.status_code == 201, api.content
    for n, names in enumerate((("Ben", "Chika"), ("Dan", "Eri")), 1):
        services.register_entry(
            tournament=tournament,
            actor=director,
            name=f"Plain {n}",
            players=[PlayerSpec(p) for p in names],
        )
    rng = random.Random(7)
    round_1 = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_1, actor=director)
    first = list(Match.objects.filter(round=round_1, is_bye=False).order_by("table__number"))
    for match in first:
        simulate.play_match(match, rng, director=director, hands=1)
    services.close_round(round=round_1, actor=director)
    round_2 = services.generate_round(tournament=tournament, actor=director)
    services.publish_round(round=round_2, actor=director)
    second = list(Match.objects.filter(round=round_2, is_bye=False).order_by("table__number"))
    for match in second:
        simulate.play_hand(match, rng, confirm=False)
    assert Round.objects.filter(tournament=tournament).count() == 2
    return Evening(
        tournament_id=tournament.pk,
        director_id=user.pk,
        slug=tournament.slug,
        round_1=[m.pk for m in first],
        round_2=[m.pk for m in second],
        players={p.name: p.pk for p in Player.objects.filter(name__in=PLAYERS)},
    )


@contextmanager
def built_once(django_db_blocker, build):
    """What `build()` makes, outside the tests' transactions (the standings and ratings are
    computed in-process after each commit, so they are there), for a module's tests; every
    tournament, team, player, rating and user removed afterwards."""
    from tournaments.models import Player, Rating, Team, Tournament

    with django_db_blocker.unblock(), override_settings(REDIS_URL=None):
        try:
            yield build()
        finally:
            Tournament.objects.all().delete()
            Team.objects.all().delete()
            Player.objects.all().delete()
            Rating.objects.all().delete()
            get_user_model().objects.all().delete()

"""A club's pages read their club's rows through indexes on the club column (issue 33, scale):
with 200 clubs on one PostgreSQL database, a club's page must not read every club's rows.

Each page of `PAGES` is requested at a club's address (`/c/<club>/...`) with its SQL captured
(`CaptureQueriesContext`); every query is then explained by PostgreSQL with `SET LOCAL
enable_seqscan = off` (the test's tables are small: the planner would read them whole whatever
the indexes; with sequential scans priced out it shows whether an index *can* serve the query).
Checked for every query of the page:

- no big table (`BIG`) is read by a sequential scan (no index could serve it);
- the table the page finds the club's rows in is read through an index whose first column is
  the club (`club_id`), or one the page names (`Page.reads`: a tournament by its slug, unique
  across the installation; a director's events by the director);
- with `ordered`, the club's list comes out of that index in the page's order: no sort of it
  (`enable_sort = off` too, so a sort shows that no index gives the order).

A new page's query is one more `Page(...)` line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import services
from tournaments.models import Club, Rating, Series, Tournament, home_club
from tournaments.publishing import services as publishing
from tournaments.seasons import services as seasons
from tournaments.services import Actor, PlayerSpec

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

#: The tables that grow with the number of clubs and events.
BIG = {
    "tournaments_tournament",
    "tournaments_player",
    "tournaments_team",
    "tournaments_entry",
    "tournaments_rating",
    "tournaments_series",
}

CLUB = "club_id"


@dataclass(frozen=True)
class Page:
    name: str
    path: str  # below the club's address; {slug}: the club's tournament, {season}: its season
    # (table, first column of the index): how the page may find the club's rows, any one of
    reads: tuple[tuple[str, str], ...]
    signed_in: str = ""  # "director": the club's director; "superuser": an administrator
    ordered: bool = False  # the club's rows listed in the page's order, from the index
    marks: tuple[Any, ...] = field(default=())


def by_club(table: str) -> tuple[tuple[str, str], ...]:
    return ((f"tournaments_{table}", CLUB),)


def by_slug(table: str) -> tuple[tuple[str, str], ...]:
    """One row by its slug (unique across the installation) or the club's rows."""
    return (*by_club(table), (f"tournaments_{table}", "slug"))


PAGES = [
    # (The home page groups the club's events in Python: no order asked of the database.)
    Page("home", "", by_club("tournament")),
    # A page of the club's events, in the model's order (-starts_at): from the index.
    Page(
        "api tournaments",
        "api/v1/tournaments",
        by_club("tournament"),
        ordered=True,
    ),
    Page("tournament", "t/{slug}/", by_slug("tournament")),
    Page("standings", "t/{slug}/standings/", by_slug("tournament")),
    Page("members", "players/", by_club("player"), ordered=True),
    # (The seasons page counts each season's evenings: Django asks no order of such a query.)
    Page("seasons", "seasons/", by_club("series")),
    Page(
        "api seasons",
        "api/v1/seasons",
        by_club("series"),
        ordered=True,
    ),
    Page("season", "seasons/{season}/", by_slug("series")),
    Page("leaderboard", "leaderboards/spades/", by_club("player")),
    # A director's own events: the club's, or found through the directors' table by the user
    # (a director of few events reads few rows however many the club has).
    Page(
        "director home",
        "director/",
        (*by_club("tournament"), ("tournaments_tournament_directors", "user_id")),
        signed_in="director",
    ),
    # An administrator's: every event of the club (counted, then sorted: the club's rows).
    Page(
        "director home (administrator)",
        "director/",
        by_club("tournament"),
        signed_in="superuser",
    ),
    Page(
        "publishing keys",
        "director/publishing/",
        by_club("publishingkey"),
        signed_in="director",
        ordered=True,
    ),
]


def club_with_an_event(slug: str) -> tuple[Club, Any, Tournament, Series]:
    """A club (the home club for "club"), its director, a tournament with four pairs entered
    (players and teams of the club), their ratings, a season and a publishing key."""
    club = home_club() if slug == "club" else Club.objects.create(name=slug, slug=slug)
    user = get_user_model().objects.create_user(f"{slug}-td")
    club.directors.add(user)
    director = Actor(user=user, club=club)
    event = services.create_tournament(
        actor=director,
        name=f"{slug} Friday Spades",
        game="spades",
        rules="standard",
        format="swiss",
        rounds=3,
    )
    services.open_registration(tournament=event, actor=director)
    for n in range(4):
        services.register_entry(
            tournament=event,
            actor=director,
            name=f"{slug} pair {n}",
            players=[
                PlayerSpec(f"{slug} player {2 * n}"),
                PlayerSpec(f"{slug} player {2 * n + 1}"),
            ],
        )
    for player in club.players.all():
        Rating.objects.create(player=player, game="spades", mu=25.0, sigma=8.0, ordinal=1.0)
    season = seasons.create_series(actor=director, name=f"{slug} winter", game="spades")
    publishing.create_key(actor=director, label=slug)
    return club, user, event, season


@pytest.fixture
def clubs(postgres_db) -> list[tuple[Club, Any, Tournament, Series]]:
    built = [club_with_an_event(slug) for slug in ("club", "north", "south")]
    # The planner's statistics of these rows, not of what earlier tests left in the tables (a
    # table analysed while another test filled it looked big and of one club to the planner).
    with connection.cursor() as cursor:
        for table in sorted(
            BIG | {"tournaments_tournament_directors", "tournaments_publishingkey"}
        ):
            cursor.execute(f"ANALYZE {table}")
    return built


def nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes(child)


def sorts_rows_of(tables: set[str], key: str) -> bool:
    """Whether a sort key orders rows of `tables`: qualified by one of them, or unqualified
    (PostgreSQL leaves a query of one table's keys unqualified)."""
    return key.startswith(tuple(f"{table}." for table in tables)) or "." not in key


def indexed(index: str) -> tuple[str, str]:
    """(table, first column) of the index (PostgreSQL's catalog): a bitmap index scan's node
    names its index only, the table is on the heap scan above it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT t.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_class t ON t.oid = i.indrelid "
            "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] "
            "WHERE c.relname = %s",
            [index],
        )
        table, column = cursor.fetchone()
        return table, column


def plans(sqls: list[str], *, ordered: bool) -> list[tuple[str, dict[str, Any]]]:
    """PostgreSQL's plan of each query, sequential scans (and with `ordered`, sorts) priced
    out; the settings last until the test's transaction ends, and are reset here."""
    found = []
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"SET LOCAL enable_sort = {'off' if ordered else 'on'}")
        for sql in sqls:
            cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
            found.append((sql, cursor.fetchone()[0][0]["Plan"]))
        cursor.execute("RESET enable_seqscan")
        cursor.execute("RESET enable_sort")
    return found


def page_queries(client, page: Page, club: Club, user, event: Tournament, season: Series):
    if page.signed_in == "director":
        client.force_login(user)
    elif page.signed_in == "superuser":
        client.force_login(get_user_model().objects.create_superuser("admin"))
    path = page.path.format(slug=event.slug, season=season.slug)
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(f"/c/{club.slug}/{path}")
    assert answer.status_code == 200, f"{page.name}: {answer.status_code}"
    return [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].lstrip().upper().startswith("SELECT")
        and any(f'"{table}"' in q["sql"] for table in {*BIG, *(t for t, _ in page.reads)})
    ]


@pytest.mark.parametrize("page", [pytest.param(p, id=p.name, marks=p.marks) for p in PAGES])
def test_a_clubs_page_reads_its_clubs_rows_through_an_index_on_the_club(client, clubs, page):
    club, user, event, season = clubs[1]
    explained = plans(page_queries(client, page, club, user, event, season), ordered=page.ordered)
    tables = {table for table, _ in page.reads}
    through_index = []
    for sql, plan in explained:
        for node in nodes(plan):
            table = node.get("Relation Name")
            assert not (table in BIG and node["Node Type"] == "Seq Scan"), (
                f"{page.name}: {table} read whole:\n{sql}"
            )
            index = node.get("Index Name")
            if index and indexed(index) in page.reads:
                through_index.append((sql, plan))
    assert through_index, f"{page.name}: no query reads {page.reads} through such an index"
    if page.ordered:
        for sql, plan in through_index:
            sorted_here = [
                n
                for n in nodes(plan)
                if n["Node Type"] in ("Sort", "Incremental Sort")
                and any(sorts_rows_of(tables, key) for key in n.get("Sort Key", []))
            ]
            assert not sorted_here, (
                f"{page.name}: the club's rows are sorted, not read in order:\n{sql}"
            )

"""Two clubs on one installation, each with a director and everything a director keeps: a
Swiss evening with entries, PINs, a published round, a table's token, a call for the director,
a pair kept apart and a hand import; a duplicate evening; a season; members; a publishing key
and an event a room published with it. Built through the services, as a club would."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.urls import URLPattern, URLResolver

from tests.duplicate.builders import make_event
from tests.publishing.conftest import as_published
from tournaments import services
from tournaments.clubs.selectors import CLUB_PATH, of_club
from tournaments.models import (
    Club,
    DirectorCall,
    Entry,
    ImportJob,
    KeepApart,
    Match,
    Player,
    PublishedEvent,
    PublishingKey,
    Rating,
    Series,
    TableToken,
    Tournament,
)
from tournaments.publishing import services as publishing
from tournaments.room import services as room
from tournaments.seasons import services as seasons
from tournaments.services import Actor
from tournaments.services.hand_imports import start_hand_import
from tournaments.services.table_access import issue_table_token


@dataclass
class Side:
    """One club and what its director keeps."""

    club: Club
    director: Any
    tournament: Tournament
    duplicate: Tournament
    series: Series
    entry: Entry
    match: Match
    token: TableToken
    secret: str
    call: DirectorCall
    pair: KeepApart
    job: ImportJob
    player: Player
    key: PublishingKey
    published: PublishedEvent


def build(slug: str) -> Side:
    club = Club.objects.create(name=f"{slug.title()} Club", slug=slug)
    user = get_user_model().objects.create_user(f"{slug}-td", password="x")
    club.directors.add(user)
    td = Actor(user=user, club=club)
    tournament = services.create_tournament(
        actor=td, name=f"{slug} Spades", game="spades", rules="standard", format="swiss", rounds=3
    )
    services.open_registration(tournament=tournament, actor=td)
    entries = [
        services.register_entry(
            tournament=tournament,
            actor=td,
            players=[f"{slug} A{n}", f"{slug} B{n}"]
            if tournament.is_team_event
            else [f"{slug} P{n}"],
            checked_in=True,
        )
        for n in range(8)
    ]
    pair = services.keep_apart(tournament=tournament, actor=td, first=entries[0], second=entries[1])
    round_ = services.generate_round(tournament=tournament, actor=td)
    services.publish_round(round=round_, actor=td)
    match = round_.matches.select_related("table").exclude(table=None).order_by("pk").first()
    assert match is not None and match.table is not None
    token, secret = issue_table_token(table=match.table, actor=td)
    call = room.call_director(table=match.table, actor=Actor(table=match.table.pk, label="table"))
    job = start_hand_import(
        tournament=tournament, actor=td, data=b'{"format": "hand/1"}\n', filename="hands.jsonl"
    )
    series = seasons.create_series(actor=td, name=f"{slug} season", game="spades")
    seasons.add_tournament(actor=td, series=series, tournament=tournament)
    duplicate = make_event(td, tables=2)
    key, _secret = publishing.create_key(actor=td, label=f"{slug} room")
    document = as_published(tournament, f"{slug}-published")
    document["seasons"] = []
    publishing.receive(key=key, slug=f"{slug}-published", document=document)
    player = Player.objects.filter(club=club).order_by("pk").first()
    assert player is not None
    Rating.objects.create(player=player, game="spades", mu=25.0, sigma=8.0, ordinal=1.0, games=1)
    return Side(
        club=club,
        director=user,
        tournament=tournament,
        duplicate=duplicate,
        series=series,
        entry=entries[2],
        match=match,
        token=token,
        secret=secret,
        call=call,
        pair=pair,
        job=job,
        player=player,
        key=key,
        published=PublishedEvent.objects.get(slug=f"{slug}-published"),
    )


def saved(side: Side) -> dict[str, Any]:
    """What finds the side's rows again in a database loaded with them (`loaded`): the club by
    its address and the director by name (loaded by those natural keys, under ids of the
    database's own), every other row by its id, and the table card's secret, which the
    database keeps only as a hash."""
    return {
        "club": side.club.slug,
        "director": side.director.get_username(),
        "secret": side.secret,
        **{
            name: getattr(side, name).pk
            for name in (
                "tournament",
                "duplicate",
                "series",
                "entry",
                "match",
                "token",
                "call",
                "pair",
                "job",
                "player",
                "key",
                "published",
            )
        },
    }


def loaded(ids: dict[str, Any]) -> Side:
    """The side `saved` describes, read from the database."""
    return Side(
        club=Club.objects.get(slug=ids["club"]),
        director=get_user_model().objects.get_by_natural_key(ids["director"]),
        tournament=Tournament.objects.get(pk=ids["tournament"]),
        duplicate=Tournament.objects.get(pk=ids["duplicate"]),
        series=Series.objects.get(pk=ids["series"]),
        entry=Entry.objects.get(pk=ids["entry"]),
        match=Match.objects.select_related("table").get(pk=ids["match"]),
        token=TableToken.objects.get(pk=ids["token"]),
        secret=ids["secret"],
        call=DirectorCall.objects.get(pk=ids["call"]),
        pair=KeepApart.objects.get(pk=ids["pair"]),
        job=ImportJob.objects.get(pk=ids["job"]),
        player=Player.objects.get(pk=ids["player"]),
        key=PublishingKey.objects.get(pk=ids["key"]),
        published=PublishedEvent.objects.get(pk=ids["published"]),
    )


def fingerprint(club: Club) -> str:
    """Every row of the club, as JSON: equal before and after means nothing of it changed."""
    from django.apps import apps

    parts = []
    for name in sorted(CLUB_PATH):
        model = apps.get_model("tournaments", name)
        rows = of_club(model.objects, club).order_by("pk")
        parts.append(serializers.serialize("json", rows))
    parts.append(serializers.serialize("json", [club]))
    return "\n".join(parts)


# -- the URLconf ----------------------------------------------------------------------------------


def routes(patterns: Iterable[Any], prefix: str = "") -> Iterator[tuple[str, str, Callable]]:
    """(route, name, view) of every page of a URLconf, included ones too (with the namespace:
    `tournaments:home`, `api:entries`)."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            space = f"{pattern.namespace}:" if pattern.namespace else ""
            for route, name, view in routes(pattern.url_patterns, prefix + str(pattern.pattern)):
                yield route, (space + name if name else ""), view
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.name or "", pattern.callback


PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>")


def parameters(route: str) -> list[str]:
    return [a or b for a, b in PARAMETER.findall(route)]


def methods(view: Callable) -> list[str]:
    """The methods a view answers: a class-based view's handlers, else GET and POST."""
    cls = getattr(view, "cls", None) or getattr(view, "view_class", None)
    if cls is None:
        return ["get", "post"]
    return [m for m in ("get", "post", "put", "patch", "delete") if hasattr(cls, m)]

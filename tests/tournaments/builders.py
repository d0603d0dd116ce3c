"""Building blocks for tournament tests: a director, a match set up directly in the database,
and hand records written out by hand."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Entry, Match, Player, Round, Seat, Table, Team
from tournaments.services import Actor


def calls(dealer: str, bids: list[str]) -> list[dict]:
    order = "NESW"
    start = order.index(dealer) + 1
    return [{"seat": order[(start + i) % 4], "call": bid} for i, bid in enumerate(bids)]


def spades_hand(dealer: str, bids: list[str], tricks: dict[str, int]) -> dict:
    return {"dealer": dealer, "calls": calls(dealer, bids), "tricks": tricks}


HAND_1 = spades_hand("N", ["4", "3", "7", "6"], {"N": 3, "E": 4, "S": 3, "W": 3})
HAND_2 = spades_hand("E", ["4", "3", "6", "6"], {"N": 3, "E": 4, "S": 4, "W": 2})


def make_director(name: str = "td") -> Actor:
    user = get_user_model().objects.create_user(name, password="x")
    return Actor(user=user)


def make_match(
    director: Actor,
    *,
    rules="standard",
    match_length="target",
    match_hands=None,
    game="spades",
    fmt="swiss",
    confirmation="pin",
) -> Match:
    tournament = services.create_tournament(
        actor=director,
        name="Club night",
        game=game,
        rules=rules,
        format=fmt,
        rounds=3,
        match_length=match_length,
        match_hands=match_hands,
        confirmation=confirmation,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, state=Round.State.PUBLISHED)
    table = Table.objects.create(round=round_, number=1)
    match = Match.objects.create(round=round_, table=table)
    if tournament.is_team_event:
        for side, names in (("NS", ("Aiko", "Ben")), ("EW", ("Chika", "Dan"))):
            team = Team.objects.create(
                name=f"{names[0]} & {names[1]}",
                first=Player.objects.create(name=names[0]),
                second=Player.objects.create(name=names[1]),
            )
            entry = Entry.objects.create(tournament=tournament, team=team)
            Seat.objects.create(match=match, entry=entry, side=side, seats=side)
    else:
        for seat in "NESW"[: tournament.table_size]:
            entry = Entry.objects.create(
                tournament=tournament, player=Player.objects.create(name=f"Player {seat}")
            )
            Seat.objects.create(match=match, entry=entry, side=seat, seats=seat)
    return match


def side_pin(match: Match, side: str) -> str:
    """The PIN of (an entry on) `side` of the match, as printed on its card."""
    entry = Entry.objects.filter(seats__match=match, seats__side=side).first()
    return entry.pin if entry is not None else ""


def scorer(match: Match, side: str) -> Actor:
    """A scorer at the match's table speaking for `side`, with that side's PIN (what the
    other side's confirmation needs in PIN mode)."""
    return Actor(table=match.table_id, side=side, pin=side_pin(match, side), label=f"{side} scorer")

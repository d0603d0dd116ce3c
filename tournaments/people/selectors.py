"""Reading one person across clubs: the person's page (every club's events with the results)
and the links to it, each club's members' settings respected.

Names. Each club chooses how its public pages show its members (full names or initials,
`MembersSettings`); a record whose name was removed on request (`RemovedName`) has no page. So
on the person's page:
- a record whose name was removed is left out, with its club's events (listing them under the
  person's other names would put the name back); a person with no other record has no page;
- the person's own name is shown by initials when any of their clubs shows its members by
  initials (the page must not tie the initials one club shows to the full name another shows);
- each event's entry (a partner's name, a team named after its players) as that event's club
  shows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import get_script_prefix, reverse

from tournaments.clubs.models import Club, Person, home_club
from tournaments.members import names
from tournaments.members import selectors as members
from tournaments.models import MembersSettings, Player
from tournaments.selectors.public import player as players


@dataclass
class Event:
    row: players.EventRow
    entry: str  # the entry's name as the club shows it
    address: str  # the event's public page at its club's address


@dataclass
class ClubRecord:
    """One club's record of the person, with its events as that club shows them."""

    club: Club
    player: Player
    name: str
    address: str  # the member's page at the club's address
    events: list[Event] = field(default_factory=list)


@dataclass
class PersonView:
    person: Person
    name: str
    initials: bool  # the name is shown by initials (a club of theirs chose so)
    records: list[ClubRecord]

    @property
    def events(self) -> int:
        return sum(len(r.events) for r in self.records)


def several_clubs() -> bool:
    """Does the installation serve more than one club? (With one, there is nothing to link: the
    pages offer no claim codes, as an installation with one club looks as before.)"""
    return Club.objects.count() > 1


def names_mode(club: Club) -> str:
    """How the club shows its members on its public pages (no row: in full)."""
    row = MembersSettings.objects.filter(club=club).first()
    return row.public_names if row is not None else MembersSettings.Names.FULL


def root_prefix(request: Any) -> str:
    """The installation's root (the script prefix without the club's `c/<club>/`, which
    `tournaments.clubs.middleware` adds on a club's address)."""
    prefix = get_script_prefix()
    club = getattr(request, "club", None)
    if club is not None:
        tail = f"c/{club.slug}/"
        if prefix.endswith(tail):
            return prefix[: -len(tail)]
    return prefix


def at_club(request: Any, club: Club, viewname: str, args: list[Any]) -> str:
    """A club page's address built on any page: at the root for the home club (as on an
    installation with one club), else under `/c/<club>/`."""
    path = reverse(viewname, args=args)[len(get_script_prefix()) :]
    root = root_prefix(request)
    return root + path if club.pk == home_club().pk else f"{root}c/{club.slug}/{path}"


def person_address(request: Any, person: Person) -> str:
    """The person's page: at the installation's root, whatever club's page links to it."""
    return root_prefix(request) + f"people/{person.uid}/"


def _entry_name(row: players.EventRow, mode: str, own: Player, initials: bool) -> str:
    """The entry's name as its club shows it: every player by initials at a club that shows
    initials; elsewhere the person's own name by initials when their page shows initials."""
    entry = row.entry
    everyone = [entry.team.first, entry.team.second] if entry.team is not None else [entry.player]
    if mode == MembersSettings.Names.INITIALS:
        hidden = [p for p in everyone if p is not None]
    else:
        hidden = [own] if initials else []
    if not hidden:
        return entry.name
    document = {
        "players": [{"name": p.name} for p in hidden],
        "entries": [{"name": entry.name}],
    }
    shown = names.shown(document, MembersSettings.Names.INITIALS)
    return str(shown["entries"][0]["name"])


def records_shown(person: Person) -> list[Player]:
    """The person's records the page shows (a name removed on request: left out), by club."""
    found = Player.objects.filter(person=person).select_related("club").order_by("club_id", "pk")
    return [p for p in found if members.shown(p)]


def person_view(request: Any, uid: Any) -> PersonView | None:
    """The person's page, or None when there is no such person or none of their records is
    shown."""
    person = Person.objects.filter(uid=uid).first()
    if person is None:
        return None
    shown = records_shown(person)
    if not shown:
        return None
    modes = {p.club_id: names_mode(p.club) for p in shown}
    initials = any(m == MembersSettings.Names.INITIALS for m in modes.values())
    records = []
    for player in shown:
        mode = modes[player.club_id]
        record = ClubRecord(
            club=player.club,
            player=player,
            name=names.initials(player.name) if initials else player.name,
            address=at_club(request, player.club, "tournaments:public-player", [player.pk]),
        )
        for row in players.player_events(player):
            record.events.append(
                Event(
                    row=row,
                    entry=_entry_name(row, mode, player, initials),
                    address=at_club(
                        request, player.club, "tournaments:public-tournament", [row.tournament.slug]
                    ),
                )
            )
        records.append(record)
    latest = max(shown, key=lambda p: p.created_at)
    name = names.initials(latest.name) if initials else latest.name
    return PersonView(person=person, name=name, initials=initials, records=records)


def person_link(request: Any, player: Player) -> str | None:
    """The address of the person's page for a member record linked to another club's record
    the page shows; None otherwise, and None on the page of a club that shows full names when
    the person's page shows initials (another club of theirs chose initials: the link would
    tie those initials to the full name)."""
    if player.person_id is None:
        return None
    person = Person.objects.filter(pk=player.person_id).first()
    if person is None:
        return None
    shown = records_shown(person)
    if len(shown) < 2:
        return None
    modes = {names_mode(p.club) for p in shown}
    if MembersSettings.Names.INITIALS in modes and (
        names_mode(player.club) != MembersSettings.Names.INITIALS
    ):
        return None
    return person_address(request, person)


def linked_records(player: Player) -> list[Player]:
    """Every record of the player's person but this one, by club (directors' eyes: names as
    stored)."""
    if player.person_id is None:
        return []
    return list(
        Player.objects.filter(person_id=player.person_id)
        .exclude(pk=player.pk)
        .select_related("club")
        .order_by("club_id")
    )


MAX_FOUND = 50


def club_members(club: Club, query: str) -> list[Player]:
    """The club's member records whose name holds `query` (the directors' finder of the
    member's page), by name; none for an empty query."""
    query = " ".join(query.split())
    if not query:
        return []
    return list(
        Player.objects.filter(club=club, name__icontains=query)
        .exclude(name=names.WITHHELD)
        .order_by("name", "pk")[:MAX_FOUND]
    )

"""Changing how the club's site shows its members: the club's choice (full names or initials)
and a person's name removed from the published records on request. Each is one transaction;
the events rooms publish are restored again from the documents the site keeps, in place (the
same ids and links), so every page, export and archive the site serves shows the names as now
chosen."""

from __future__ import annotations

import re
from dataclasses import replace

from django.db import transaction
from django.db.models import Q

from tournaments.clubs.services import directs_club
from tournaments.members import names
from tournaments.members.models import MembersSettings, RemovedName
from tournaments.models import Entry, Player, PublishedEvent, Team
from tournaments.publishing import services as publishing
from tournaments.services import Actor, Invalid, NotAllowed
from tournaments.services.actors import acting_club


def may_manage(actor: Actor) -> bool:
    """The club's settings for its members (the club of the actor's address) are its
    directors' (`Club.directors`) and, as on an installation with one club, its staff's (staff
    accounts that direct the club, superusers)."""
    user = actor.user_or_none()
    if user is None:
        return False
    club = acting_club(actor)
    if user.is_superuser or club.directors.filter(pk=user.pk).exists():
        return True
    return bool(user.is_staff) and directs_club(user, club)


def may_remove(actor: Actor, player: Player) -> bool:
    """The player's club's managers (`may_manage` there), or a director of an event the
    person played in."""
    if may_manage(replace(actor, club=player.club)):
        return True
    user = actor.user_or_none()
    if user is None:
        return False
    return Entry.objects.filter(_entered(player), tournament__directors=user).exists()


def _entered(player: Player) -> Q:
    return Q(player=player) | Q(team__first=player) | Q(team__second=player)


@transaction.atomic
def set_public_names(*, actor: Actor, mode: str) -> MembersSettings:
    """Show members on the public pages in full or by initials; every published event is shown
    so at once."""
    if not may_manage(actor):
        raise NotAllowed("not-staff", "only the club's staff choose how members are named")
    if mode not in MembersSettings.Names.values:
        raise Invalid(
            "bad-names-mode", f"names are shown {' or '.join(MembersSettings.Names.values)}"
        )
    club = acting_club(actor)
    row = MembersSettings.objects.select_for_update().filter(club=club).first()
    if row is None:
        row = MembersSettings.objects.create(club=club, public_names=mode)
        changed = mode != MembersSettings.Names.FULL
    else:
        changed = row.public_names != mode
        row.public_names = mode
        row.save()
    if changed:
        publishing.reshow(club)
    return row


@transaction.atomic
def remove_name(*, actor: Actor, player: Player) -> RemovedName:
    """Remove a person's name from the published records on request: their results stay,
    their name goes from every event's pages, exports and archives on this site, from the
    documents the site keeps, and from every later publish (the room still sends it; the site
    drops it on arrival). Removing it again changes nothing."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not may_remove(actor, player):
        raise NotAllowed(
            "not-director", "only the club's staff or this person's events' directors may"
        )
    removal, created = RemovedName.objects.get_or_create(
        uid=player.uid, defaults={"removed_by": actor.user_or_none(), "club": player.club}
    )
    if not created and player.name == names.WITHHELD:
        return removal
    uid = str(player.uid)
    published = PublishedEvent.objects.filter(key__club=player.club)
    for event in published.select_for_update().order_by("pk"):
        if any(str(p.get("uid")) == uid for p in event.document.get("players") or []):
            event.document = names.withhold(event.document, {uid})
            event.save(update_fields=["document"])
    # The site's own events and those taken over: the player's record and their teams' names.
    old = player.name
    if old != names.WITHHELD:
        whole = re.compile(r"(?<!\w)" + re.escape(old) + r"(?!\w)")
        for team in Team.objects.filter(_teams_of(player)).select_for_update():
            renamed = whole.sub(names.WITHHELD, team.name)
            if renamed != team.name:
                team.name = renamed
                team.save(update_fields=["name"])
        player.name = names.WITHHELD
        player.save(update_fields=["name"])
    publishing.reshow(player.club)
    return removal


def _teams_of(player: Player) -> Q:
    return Q(first=player) | Q(second=player)


def is_removed(player: Player) -> bool:
    return RemovedName.objects.filter(uid=player.uid).exists()

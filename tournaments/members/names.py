"""What a published event's names become on the club's site.

A room publishes its event with each player's record identity (`Player.uid`, opaque). The site
files each person under its own identity for them, derived from the room's and the publishing
key's owner (`site_uid`: the same person of the same room is the same player on the site in
every event it publishes; another owner's room can never name a player of this one), and
keeps neither club numbers nor email addresses.

Names: a person whose name was removed on request (`RemovedName`) is WITHHELD in the document
the site keeps (`for_site`), so the name is not on the site at all; the pages then show every
other member in full or by initials, as the club chose (`shown`). Both rewrite every text of
the document where the name stands as a whole (a team named after its players, a note in the
audit trail), not only the player's row; the cards and bids of a hand are not text and are left
as they are.
"""

from __future__ import annotations

import copy
import re
import uuid
from collections.abc import Iterable
from typing import Any

from tournaments.clubs.models import Club, home_club
from tournaments.members.models import MembersSettings, RemovedName

#: The name shown for a person whose name was removed: the same in every language.
WITHHELD = "—"

#: The site's identities: uuid5 of the owner and the room's uid under this namespace.
NAMESPACE = uuid.UUID("6f2a7c55-3d0e-4b8e-9a57-7d7f1c7c9e21")

#: Values that are codes, cards or identities, never a person's words: left as they are.
NOT_TEXT = frozenset(
    {
        "uid",
        "slug",
        "format",
        "game",
        "rules",
        "state",
        "status",
        "side",
        "seats",
        "source",
        "outcome",
        "action",
        "record",
        "raw",
        "result",
        "deal",
        "turned",
        "exported_at",
    }
)


def site_uid(owner_id: int, room_uid: Any, fallback: str) -> str:
    """The site's identity of a person a room publishes: the same for the same room record and
    key owner, whatever the name. A room too old to send identities gets one per event and
    archive row (`fallback`): stable across that event's publishes, not across events."""
    seed = str(room_uid) if room_uid else f"event:{fallback}"
    return str(uuid.uuid5(NAMESPACE, f"{owner_id}/{seed}"))


def initials(name: str) -> str:
    """ "Alice van Dijk" -> "A. v. D."; one part -> "A."."""
    parts = [p for p in re.split(r"[\s\-]+", name) if p]
    return " ".join(f"{p[0]}." for p in parts) or WITHHELD


def public_mode(club: Club | None = None) -> str:
    """How the club (by default the home club) shows its members' names."""
    row = MembersSettings.objects.filter(club=club if club is not None else home_club()).first()
    return row.public_names if row is not None else MembersSettings.Names.FULL


def removed_uids(uids: Iterable[str], club: Club | None = None) -> set[str]:
    """Of these site identities, those the club (by default the home club) removed."""
    wanted = list(uids)
    removed = RemovedName.objects.filter(club=club if club is not None else home_club())
    return {str(u) for u in removed.filter(uid__in=wanted).values_list("uid", flat=True)}


def for_site(
    document: dict[str, Any], *, owner_id: int, slug: str, club: Club | None = None
) -> dict[str, Any]:
    """The document as the site keeps it: players under the site's identities, no club numbers
    or email addresses, and the names removed on request withheld everywhere."""
    out = copy.deepcopy(document)
    players = [p for p in out.get("players") or [] if isinstance(p, dict)]
    for row in players:
        row["uid"] = site_uid(owner_id, row.get("uid"), f"{slug}/{row.get('id')}")
        row["club_number"] = ""
        row["email"] = ""
    gone = removed_uids((row["uid"] for row in players), club)
    return withhold(out, gone)


def withhold(document: dict[str, Any], uids: set[str]) -> dict[str, Any]:
    """The document without the names of these persons (by the site's uid)."""
    players = [p for p in document.get("players") or [] if isinstance(p, dict)]
    names = {
        row["name"]: WITHHELD
        for row in players
        if str(row.get("uid")) in uids and isinstance(row.get("name"), str)
    }
    return _rename(document, names)


def shown(
    document: dict[str, Any], mode: str | None = None, club: Club | None = None
) -> dict[str, Any]:
    """The kept document as the public pages show it: in full, or every name by initials (as
    `club`, by default the home club, chose)."""
    mode = mode or public_mode(club)
    if mode != MembersSettings.Names.INITIALS:
        return document
    players = [p for p in document.get("players") or [] if isinstance(p, dict)]
    names = {
        row["name"]: initials(row["name"])
        for row in players
        if isinstance(row.get("name"), str) and row["name"] != WITHHELD
    }
    return _rename(document, names)


def _rename(document: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """Every text of the document with each name (as a whole) replaced; a team's name also
    loses each part of a replaced name (its players' family names, say)."""
    names = {old: new for old, new in names.items() if old and old != new}
    if not names:
        return document
    whole = _pattern(names)
    out = _walk(document, whole, names)
    parts: dict[str, str] = {}
    for old, new in names.items():
        pieces = [p for p in re.split(r"[\s\-]+", old) if len(p) > 1]
        if len(pieces) > 1:
            shown_parts = [p for p in re.split(r"[\s\-]+", new) if p]
            for i, piece in enumerate(pieces):
                parts.setdefault(piece, shown_parts[i] if i < len(shown_parts) else new)
    if parts:
        piecewise = _pattern(parts)
        for team in out.get("teams") or []:
            if isinstance(team, dict) and isinstance(team.get("name"), str):
                team["name"] = piecewise.sub(lambda m: parts[m.group(0)], team["name"])
    return out


def _pattern(names: dict[str, str]) -> re.Pattern[str]:
    ordered = sorted(names, key=len, reverse=True)  # "Ann Lee" before "Ann"
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in ordered) + r")(?!\w)")


def _walk(value: Any, pattern: re.Pattern[str], names: dict[str, str], key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: (v if k in NOT_TEXT else _walk(v, pattern, names, k)) for k, v in value.items()}
    if isinstance(value, list):
        if key == "boards":  # a board's deal is cards, not words
            return [
                {k: (v if k == "hands" else _walk(v, pattern, names, k)) for k, v in b.items()}
                if isinstance(b, dict)
                else b
                for b in value
            ]
        return [_walk(v, pattern, names, key) for v in value]
    if isinstance(value, str):
        return pattern.sub(lambda m: names[m.group(0)], value)
    return value

"""What leaves the laptop: the tournament's archive (`tricktable-archive/1`) with its secrets
taken out, and the digest that tells the site whether anything changed.

Taken out, wherever they stand in the document (a hand as sent, an audit entry's data): entries'
PINs, idempotency keys, and any value under a key that names a secret (tokens, passwords,
sessions); players' email addresses and club numbers (each player's opaque `uid` stays: it is how
the site knows the same person again). The room's accounts are not sent either: the directors'
list is empty and the users behind submissions and audit entries become none (their labels, the
words shown on the pages, stay): on the site, the event is directed by the publishing key's
owner. Table tokens, sessions and password hashes are never in an archive to begin with.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tournaments.exports.archive import export_archive
from tournaments.models import Series, Tournament

#: Keys whose values are secrets, wherever they appear in the document (compared lower-case).
SECRET_KEYS = frozenset(
    {
        "pin",
        "pins",
        "token",
        "tokens",
        "secret",
        "password",
        "idempotency_key",
        "session",
        "sessionid",
        "key_hash",
        "authorization",
        "api_token",
        "csrfmiddlewaretoken",
    }
)

#: The room's accounts, by username: relations the site does not share with the room.
USER_FIELDS = {
    "hands.versions": ("submitted_by", "decided_by"),
    "audit": ("actor",),
    "board_results": ("submitted_by",),
}


def _scrub(value: Any) -> Any:
    """`value` without any entry whose key names a secret, at any depth."""
    if isinstance(value, dict):
        return {
            k: _scrub(v)
            for k, v in value.items()
            if not (isinstance(k, str) and k.lower() in SECRET_KEYS)
        }
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


#: What the site does not need of a player: their email address and club number (the record's
#: opaque `uid` says who they are).
PRIVATE_PLAYER_FIELDS = ("email", "club_number")


def strip_secrets(archive: dict[str, Any]) -> dict[str, Any]:
    """A copy of the archive that holds no secret, names no account of the room and gives no
    player's email address or club number."""
    document: dict[str, Any] = _scrub(archive)
    document["directors"] = []
    for player in document.get("players") or []:
        if isinstance(player, dict):
            for name in PRIVATE_PLAYER_FIELDS:
                if name in player:
                    player[name] = ""
    for hand in document.get("hands") or []:
        for version in hand.get("versions") or [] if isinstance(hand, dict) else []:
            if isinstance(version, dict):
                for name in USER_FIELDS["hands.versions"]:
                    version[name] = None
    for kind in ("audit", "board_results"):
        for row in document.get(kind) or []:
            if isinstance(row, dict):
                for name in USER_FIELDS[kind]:
                    row[name] = None
    return document


def build(tournament: Tournament) -> dict[str, Any]:
    """The document a room publishes for this tournament: its archive, and the room's seasons
    counting it (`seasons`: each one's slug and options; the site adds the event to the season
    of that slug, and the season's table is worked out there from the events it counts)."""
    document = strip_secrets(export_archive(tournament))
    document["seasons"] = [
        {
            "slug": series.slug,
            "name": series.name,
            "game": series.game,
            "rule": series.rule,
            "points": series.points,
            "best": series.best,
        }
        for series in Series.objects.filter(members__tournament=tournament).order_by("slug")
    ]
    return document


def digest(document: dict[str, Any]) -> str:
    """SHA-256 of the document in a canonical form, its export time left out: two publishes of
    an unchanged event have the same digest."""
    body = {k: v for k, v in document.items() if k != "exported_at"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def encode(document: dict[str, Any]) -> bytes:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

"""Issuing claim codes and linking member records of two clubs to one person.

A claim code belongs to one member record (`Player`) and is issued by a director of that
record's club: on the members page (shown once) or printed on the person's PIN slip. It is a
secret kept only as its keyed hash (HMAC-SHA-256 under the installation's SECRET_KEY, so a
copy of the database alone cannot be searched for the 2^40 codes), one a record: issuing
another replaces it, so the old one stops working; it expires after `LIFETIME`, and is used up
by the link it makes.

Linking: a director of club B, on the page of B's record of the person, types the code the
person brings from club A. The code must be a record's of another club, unexpired; then both
records are the same `Person` (a new one, the one either already is, or, when both already are
persons, the two merged into the older). A person has at most one record a club (a DB
constraint). Names are never compared: a name links nothing.

Wrong codes. Each wrong code typed at a club is a `ClaimFailure` (the club, the account, the
client's address), committed before the refusal is raised. A club takes at most `BUDGET` wrong
codes in any hour from all its directors together (`claim-code-locked`, 429 with Retry-After:
no code is tested then, not even a right one); an account waits a little longer after each
wrong code beyond its first `FREE` in the hour (`claim-code-wait`, 429). The club's row is
locked while a code is tested, so concurrent guesses cannot take more than the budget.

Unlinking: a director of the record's club, or of a club where the person has another record,
takes the record out of the person; a person left with one record is no person any more (the
record is a person of its own again, as before any link).
"""

from __future__ import annotations

import hashlib
import hmac
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from tournaments.clubs.services import directs_club
from tournaments.federation import services as federation
from tournaments.models import (
    ClaimCode,
    ClaimFailure,
    Club,
    Entry,
    Person,
    Player,
    Tournament,
    max_length,
)
from tournaments.people import engine
from tournaments.services import Actor, Conflict, Invalid, NotAllowed, ServiceError
from tournaments.services.actors import require_club_director

#: How long a claim code works after it is issued.
LIFETIME = timedelta(days=30)
#: Wrong codes one club takes in any hour, from all its directors together.
BUDGET = 20
WINDOW = timedelta(hours=1)
#: An account's wrong codes in the hour that cost no wait; after each later one it waits longer.
FREE = 3
WAITS = (5, 15, 30, 60, 120, 300)


class ClaimWait(ServiceError):
    """Too many wrong claim codes: try again after `retry_after` seconds (429)."""

    status = 429


@dataclass(frozen=True, slots=True)
class Issued:
    """A code just issued: shown (grouped) once, never again."""

    player: Player
    code: str
    expires_at: datetime


def code_hash(code: str) -> str:
    """The stored form of a (normalised) claim code: its HMAC-SHA-256 under SECRET_KEY."""
    key = settings.SECRET_KEY.encode("utf-8", "surrogatepass")
    return hmac.new(key, f"tricktable-claim-code:{code}".encode(), hashlib.sha256).hexdigest()


# -- issuing -----------------------------------------------------------------------------------


def _issue(player: Player, actor: Actor, now: datetime) -> Issued:
    ClaimCode.objects.filter(player=player).delete()  # the old code stops working
    expires = now + LIFETIME
    for _attempt in range(5):  # 2^40 codes: a clash with a live code is all but impossible
        code = engine.new_code()
        try:
            with transaction.atomic():  # a savepoint: a clash leaves the outer work intact
                ClaimCode.objects.create(
                    player=player,
                    key_hash=code_hash(code),
                    expires_at=expires,
                    issued_by=actor.user_or_none(),
                )
        except IntegrityError:
            continue
        return Issued(player, engine.grouped(code), expires)
    raise Conflict("claim-code-clash", "no free claim code was found: try again")


@transaction.atomic
def issue_claim_code(*, actor: Actor, player: Player) -> Issued:
    """A new claim code for this member record (any earlier one stops working), by a director
    of the record's club."""
    player = Player.objects.select_for_update().select_related("club").get(pk=player.pk)
    require_club_director(actor, player.club)
    return _issue(player, actor, timezone.now())


@transaction.atomic
def issue_for_slips(*, actor: Actor, tournament: Tournament) -> dict[int, Issued]:
    """A new claim code for every player of the tournament's entries still playing (printed on
    their PIN slips), by a director of the tournament's club: player id -> the code."""
    require_club_director(actor, tournament.club)
    entries = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.WITHDRAWN)
    ids = set(entries.exclude(player=None).values_list("player_id", flat=True))
    for first, second in entries.exclude(team=None).values_list("team__first", "team__second"):
        ids |= {first, second}
    now = timezone.now()
    players = Player.objects.select_for_update().filter(pk__in=ids, club=tournament.club)
    return {player.pk: _issue(player, actor, now) for player in players.order_by("pk")}


def live_code(player: Player) -> ClaimCode | None:
    """The record's claim code that still works (issued, unexpired), if any."""
    return ClaimCode.objects.filter(player=player, expires_at__gt=timezone.now()).first()


# -- linking -----------------------------------------------------------------------------------


def wait_after(failures: int) -> int:
    """Seconds an account waits after its `failures`-th wrong code of the hour."""
    if failures <= FREE:
        return 0
    return WAITS[min(failures - FREE, len(WAITS)) - 1]


def _seconds(delta: timedelta) -> int:
    return max(1, math.ceil(delta.total_seconds()))


def link_by_code(*, actor: Actor, player: Player, code: str, client: str = "") -> Person:
    """Link this member record (of a club the actor directs) with the record whose claim code
    the person gave: both are then one person, who is returned. Refused: `not-club-director`,
    `bad-claim-code` (not a code's shape), `claim-code-wrong` (no such code, or one since
    replaced or used), `claim-code-expired`, `claim-code-wait` and `claim-code-locked` (too
    many wrong codes), `claim-same-club`, `already-linked`, `person-club-twice`. A wrong or
    expired code is counted, and the count committed, before the refusal is raised."""
    with transaction.atomic():
        found = _link_or_refusal(actor, player, code, client)
        if not isinstance(found, ServiceError):  # a person counts once in the federation
            transaction.on_commit(federation.schedule_all)
    if isinstance(found, ServiceError):
        raise found
    return found


def _link_or_refusal(
    actor: Actor, player: Player, typed: str, client: str
) -> Person | ServiceError:
    player = Player.objects.select_related("club").get(pk=player.pk)
    require_club_director(actor, player.club)
    code = engine.normalise(typed)
    if code is None:
        raise Invalid(
            "bad-claim-code",
            f"a claim code is {engine.LENGTH} letters and digits, as printed on the PIN slip",
        )
    club = Club.objects.select_for_update().get(pk=player.club.pk)  # one code tested at a time
    now = timezone.now()
    refused = _throttled(club, actor, now)
    if refused is not None:
        return refused
    digest = code_hash(code)
    claim = (
        ClaimCode.objects.select_for_update()
        .select_related("player__club")
        .filter(key_hash=digest)
        .first()
    )
    if claim is None or not hmac.compare_digest(claim.key_hash, digest):
        return _counted(club, actor, client, now, "claim-code-wrong", "that is no claim code")
    if claim.expires_at is None or claim.expires_at <= now:
        return _counted(
            club, actor, client, now, "claim-code-expired", "that claim code has expired"
        )
    other = claim.player
    if other.club_id == player.club_id:
        raise Invalid(
            "claim-same-club",
            "that claim code is of a record of this club: link records of two clubs",
        )
    person = _join(player, other)
    claim.delete()  # used up
    return person


def _throttled(club: Club, actor: Actor, now: datetime) -> ServiceError | None:
    since = now - WINDOW
    recent = ClaimFailure.objects.filter(club=club, at__gte=since)
    times = list(recent.order_by("-at").values_list("at", flat=True)[:BUDGET])
    if len(times) >= BUDGET:
        wait = _seconds(times[-1] + WINDOW - now)
        return ClaimWait(
            "claim-code-locked",
            "too many wrong claim codes at this club this hour: try again later",
            details={"retry_after": wait},
            retry_after=wait,
        )
    user = actor.user_or_none()
    mine = recent.filter(user=user).aggregate(n=Count("id"), last=Max("at"))
    if mine["last"] is not None:
        ready = mine["last"] + timedelta(seconds=wait_after(mine["n"]))
        if ready > now:
            wait = _seconds(ready - now)
            return ClaimWait(
                "claim-code-wait",
                f"too many wrong claim codes: try again in {wait} s",
                details={"retry_after": wait},
                retry_after=wait,
            )
    return None


def _counted(
    club: Club, actor: Actor, client: str, now: datetime, code: str, message: str
) -> ServiceError:
    ClaimFailure.objects.filter(club=club, at__lt=now - WINDOW).delete()
    user = actor.user_or_none()
    ClaimFailure.objects.create(
        club=club, user=user, client=client[: max_length(ClaimFailure, "client")], at=now
    )
    mine = ClaimFailure.objects.filter(club=club, user=user, at__gte=now - WINDOW).count()
    wait = wait_after(mine)
    return NotAllowed(code, message, details={"retry_after": wait}, retry_after=wait or None)


def _join(mine: Player, theirs: Player) -> Person:
    """Both records one person (inside the caller's transaction; the records, then their
    persons and all those persons' records locked, in the order of their ids)."""
    ids = [mine.pk, theirs.pk]
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    mine, theirs = locked[mine.pk], locked[theirs.pk]
    if mine.person_id is not None and mine.person_id == theirs.person_id:
        raise Conflict("already-linked", "these records are already the same person")
    persons = sorted({p for p in (mine.person_id, theirs.person_id) if p is not None})
    found = list(Person.objects.select_for_update().filter(pk__in=persons).order_by("pk"))
    records = Player.objects.select_for_update().filter(Q(pk__in=ids) | Q(person__in=persons))
    clubs = [r.club_id for r in records.order_by("pk")]
    if len(clubs) != len(set(clubs)):
        raise Conflict(
            "person-club-twice",
            "this person already has another record at one of these clubs",
        )
    person = found[0] if found else Person.objects.create()  # the older survives a merge
    records.exclude(person=person).update(person=person)
    Person.objects.filter(pk__in=persons).exclude(pk=person.pk).delete()  # merged into it
    return person


# -- unlinking ---------------------------------------------------------------------------------


def may_unlink(actor: Actor, player: Player) -> bool:
    """A director of the record's club, or of a club where its person has another record."""
    if player.person_id is None:
        return False
    user = actor.user_or_none()
    clubs = Club.objects.filter(players__person_id=player.person_id).distinct()
    return any(directs_club(user, club) for club in clubs)


@transaction.atomic
def unlink(*, actor: Actor, player: Player) -> Player:
    """Take this record out of its person (refused: `not-linked`, `not-club-director`). A
    person left with one record is no person any more."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.person_id is None:
        raise Invalid("not-linked", "this record is linked to no other club's record")
    person = Person.objects.select_for_update().get(pk=player.person_id)
    if not may_unlink(actor, player):
        raise NotAllowed("not-club-director", "only this person's clubs' directors may do that")
    player.person = None
    player.save(update_fields=["person"])
    rest = Player.objects.select_for_update().filter(person=person)
    if rest.count() < 2:
        rest.update(person=None)
        person.delete()
    transaction.on_commit(federation.schedule_all)  # the records count apart again
    return player

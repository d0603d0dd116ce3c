"""Which side acts at a table, proved by a PIN; and the budget of wrong PINs.

A table's token (the card's code, one phone passed round the table) does not tell the sides
apart, and what the phone says about a side is never believed: in PIN mode (the tournament's
default `confirmation`) a table scorer entering a hand gives the PIN of an entry seated at
that match, and the side (at an individual table: the player) is the one that entry sits on;
confirming or rejecting a hand likewise, with the answering side's PIN. Directors need none,
and `same-phone` tournaments trust the phone (the side is what it says).

Wrong PINs. A PIN that is no seated entry's is charged, as a `PinFailure`, to every entry it
was tested against (each of them could have been the one meant), from the client that typed it
(the table's token and its address). Then:

- an entry's PIN takes at most `BUDGET` wrong PINs in any hour, from every phone, address and
  header together: once it has, that entry's PIN is not tested any more (`side-pin-locked`,
  429 with Retry-After) until the hour frees some, or a director clears the table. A PIN is
  tested only against entries still within their budget, so one side's used-up budget never
  stops the other side's right PIN; and a PIN that matches none of them is refused the same
  whether or not it is a locked entry's (nothing is learnt about that PIN);
- a client waits a little longer after each wrong PIN beyond its first `FREE` in the hour
  (`WAITS`: 5 s, 15 s, 30 s, ... 5 min; `side-pin-wait`, 429 with Retry-After): the side that
  mistyped tries again soon, a guessing phone slows down.

The failures are rows in the database, committed before the refusal is raised — in a
transaction of their own, or in the workflow's when it reads the PIN before writing anything
else (`side_or_refusal`) — so the refused workflow changes nothing, and the count stays: a cache
outage neither opens the budget nor stops an honest table. Guesses against an entry's PIN are
counted one at a time (its row is locked while a PIN is tested), so concurrent requests cannot
take more than the budget.
"""

from __future__ import annotations

import hmac
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from tournaments.models import Entry, Match, PinFailure, Seat, Tournament, max_length

from .actors import Actor, audit, covers_table, is_director, require_director
from .errors import Conflict, NotAllowed, ServiceError

#: Wrong PINs one entry's PIN takes in any hour, whatever phones, addresses or headers try them.
BUDGET = 20
WINDOW = timedelta(hours=1)
#: A client's wrong PINs in the hour that cost no wait; after each later one it waits longer.
FREE = 2
WAITS = (5, 15, 30, 60, 120, 300)
#: Wrong PINs in the hour against an entry from which the director's screens flag the table.
STRUGGLING = 3


class PinWait(ServiceError):
    """Too many wrong PINs: try again after `retry_after` seconds (429 with Retry-After)."""

    status = 429


def wait_after(failures: int) -> int:
    """Seconds a client waits after its `failures`-th wrong PIN of the hour."""
    if failures <= FREE:
        return 0
    return WAITS[min(failures - FREE, len(WAITS)) - 1]


def pin_needed(actor: Actor, tournament: Tournament) -> bool:
    """Does this actor prove its side with a PIN here? (Not a director, not `same-phone`.)"""
    return tournament.confirmation == Tournament.Confirmation.PIN and not is_director(
        actor, tournament
    )


def client_of(actor: Actor) -> str:
    """Who typed a PIN: the table's credential (its card, or one round's table token) and the
    client's address."""
    credential = f"card-{actor.card}" if actor.card is not None else f"table-{actor.table}"
    return f"{credential}:{actor.client}"[: max_length(PinFailure, "client")]


def proven_side(match: Match, actor: Actor) -> str | None:
    """The side a table scorer proved with its PIN at `match`, asked before the workflow's
    transaction (so a wrong PIN stays counted though the workflow is refused); None when no
    PIN is needed there (a director, a `same-phone` tournament: `actor.side` as said)."""
    if actor.system:
        return None
    loaded = (
        Match.objects.select_related("round__tournament", "table")
        .only("round__tournament__confirmation", "table__event_table")  # what is read here
        .get(pk=match.pk)
    )
    tournament = loaded.round.tournament
    if not pin_needed(actor, tournament):
        return None
    if not covers_table(actor, loaded.table):  # no PIN tried at another table
        raise NotAllowed("wrong-table", "this scorer may only score their own table")
    return prove_side(loaded, actor)


def agrees(actor: Actor, proven: str) -> None:
    """A side the phone states must be the one its PIN proved (`side-pin-mismatch`)."""
    if actor.side and actor.side != proven:
        raise NotAllowed(
            "side-pin-mismatch", f"that PIN is {proven}'s, not {actor.side}'s: nothing was changed"
        )


def prove_side(match: Match, actor: Actor) -> str:
    """The side whose seated entry's PIN `actor.pin` is (refused: `side-pin-required`,
    `side-pin-wrong`, `side-pin-wait`, `side-pin-locked`, `side-pin-ambiguous`). The caller
    has checked that the actor scores at this match's table and needs a PIN."""
    with transaction.atomic():  # committed, failures included, before any refusal is raised
        found = side_or_refusal(match, actor)
    if isinstance(found, ServiceError):
        raise found
    return found


def side_or_refusal(match: Match, actor: Actor) -> str | ServiceError:
    """`prove_side` inside the caller's transaction: the side, or the refusal to raise once
    that transaction has committed the wrong PIN's failures. For a workflow that locks its
    match first and reads the PIN before it writes anything (`hands.submit_hand`: one
    transaction, not two); `side-pin-required` is raised at once (nothing to keep)."""
    pin = actor.pin.strip() if isinstance(actor.pin, str) else ""
    if not pin:
        raise NotAllowed("side-pin-required", "give the PIN of your entry (on its card)")
    return _identify(match, actor, pin)


def _seconds(delta: timedelta) -> int:
    return max(1, math.ceil(delta.total_seconds()))


def _identify(match: Match, actor: Actor, pin: str) -> str | ServiceError:
    now = timezone.now()
    since = now - WINDOW
    # one PIN tested at a time against these entries, locked in the order of their ids
    # (PostgreSQL; SQLite has one writer), in the query that reads their PINs
    # (the seated entries read as values: no seat and entry instances built)
    of = ("self",) if connection.features.has_select_for_update_of else ()
    seats: list[tuple[int, str, str]] = list(
        Entry.objects.filter(seats__match=match)
        .select_for_update(of=of)
        .order_by("id", "seats__seats")
        .values_list("id", "seats__side", "pin")
    )
    entries = sorted({entry for entry, _, _ in seats})
    client = client_of(actor)
    recent = PinFailure.objects.filter(at__gte=since)
    if not recent.filter(Q(client=client) | Q(entry_id__in=entries)).exists():
        mine: dict[str, Any] = {"n": 0, "last": None}  # the usual case: one query, not two
        counts: dict[int, int] = {}
    else:
        mine = recent.filter(client=client).aggregate(n=Count("at", distinct=True), last=Max("at"))
        counts = dict(
            recent.filter(entry_id__in=entries)
            .values("entry_id")
            .annotate(n=Count("id"))
            .values_list("entry_id", "n")
        )
    if mine["last"] is not None:
        ready = mine["last"] + timedelta(seconds=wait_after(mine["n"]))
        if ready > now:
            wait = _seconds(ready - now)
            return PinWait(
                "side-pin-wait",
                f"too many wrong PINs from this phone: try again in {wait} s",
                details={"retry_after": wait},
                retry_after=wait,
            )
    tested = [entry for entry in entries if counts.get(entry, 0) < BUDGET]
    given = pin.encode()
    sides = set()
    for entry, side, stored in seats:
        if entry in tested and stored and hmac.compare_digest(stored.encode(), given):
            sides.add(side)
    if len(sides) == 1:
        return sides.pop()
    if len(sides) > 1:
        return Conflict(
            "side-pin-ambiguous", "entries on two sides share this PIN: ask the director"
        )
    PinFailure.objects.filter(entry_id__in=entries, at__lt=since).delete()
    PinFailure.objects.bulk_create(PinFailure(entry_id=e, client=client, at=now) for e in tested)
    if len(tested) < len(entries):
        wait = _seconds(_frees_at(set(entries) - set(tested), since, now) - now)
        return PinWait(
            "side-pin-locked",
            "too many wrong PINs for this table's PINs this hour: ask the director",
            details={"retry_after": wait},
            retry_after=wait,
        )
    wait = wait_after((mine["n"] or 0) + 1)
    return NotAllowed(
        "side-pin-wrong",
        "that is not the PIN of an entry at this table",
        details={"retry_after": wait},
        retry_after=wait or None,
    )


def _frees_at(locked: set[int], since: datetime, now: datetime) -> datetime:
    """When the first of these entries has a wrong PIN to spare again (its oldest wrong PINs
    leave the hour)."""
    soonest = None
    for entry in locked:
        times = list(
            PinFailure.objects.filter(entry_id=entry, at__gte=since)
            .order_by("-at")
            .values_list("at", flat=True)[:BUDGET]
        )
        frees = times[-1] + WINDOW if len(times) >= BUDGET else now
        soonest = frees if soonest is None else min(soonest, frees)
    return soonest or now


# -- what the director sees and does --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PinTrouble:
    """Wrong PINs at a match in the last hour: the most against one entry, and whether an
    entry's budget is used up (its PIN refused until the hour frees some, or a director clears
    the table)."""

    failures: int
    locked: bool

    @property
    def struggling(self) -> bool:
        return self.failures >= STRUGGLING


def pin_troubles(matches: Any) -> dict[int, PinTrouble]:
    """Each match (of `matches`, ids or a queryset) with wrong PINs in the last hour."""
    since = timezone.now() - WINDOW
    rows = (
        PinFailure.objects.filter(entry__seats__match__in=matches, at__gte=since)
        .values_list("entry__seats__match", "entry_id")
        .annotate(n=Count("id", distinct=True))
    )
    worst: dict[int, int] = {}
    for match_id, _, n in rows:
        worst[match_id] = max(worst.get(match_id, 0), n)
    return {m: PinTrouble(n, n >= BUDGET) for m, n in worst.items()}


@transaction.atomic
def clear_pin_failures(*, match: Match, actor: Actor, reason: str = "") -> int:
    """A director forgets the wrong PINs typed against the entries at this match (their budget
    and the waits of the phones that typed them): in the audit trail. Returns how many, counted
    as the director's screens count them (`pin_troubles`): the most against one entry, since a
    wrong PIN is one row for each entry it was tested against ("3 wrong PINs" on the dashboard
    was "Cleared 6 wrong PINs" in the trail)."""
    match = Match.objects.select_related("round__tournament", "table").get(pk=match.pk)
    tournament = match.round.tournament
    require_director(actor, tournament)
    entries = list(Seat.objects.filter(match=match).values_list("entry_id", flat=True))
    failures = PinFailure.objects.filter(entry_id__in=entries)
    per_entry = failures.values("entry").annotate(n=Count("id")).values_list("n", flat=True)
    cleared = max(per_entry, default=0)
    failures.delete()
    audit(
        tournament=tournament,
        actor=actor,
        action="pins-cleared",
        subject=f"round {match.round.number} table {match.played_table.number}",
        reason=reason.strip(),
        data={
            "round": match.round.number,
            "table": match.played_table.number,
            "match": match.pk,
            "failures": cleared,
        },
    )
    return cleared

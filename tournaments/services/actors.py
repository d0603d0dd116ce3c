"""Who is acting, and the audit trail of what directors (and the system) did."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.clubs.services import directs_club
from tournaments.models import (
    AuditEvent,
    Club,
    PublishedEvent,
    Table,
    Tournament,
    home_club,
    max_length,
)

from .errors import NotAllowed


@dataclass(frozen=True, slots=True)
class Actor:
    """The person (or device) behind a workflow call.

    A director is a user in the tournament's directors (or a superuser). A table scorer acts for
    one side of one match, authenticated by a table token or by a director's device. In PIN mode
    the side is the one whose entry's `pin` the scorer gives (`services.side_pins`): `side`, what
    the phone says, must then agree with it; without PINs (`same-phone`, a director) `side` is
    taken as said.
    """

    user: Any = None  # a django User or None
    label: str = ""  # a human label for the audit trail ("table 3 scorer", "Aiko")
    side: str = ""  # the side a scorer speaks for ("NS", "EW", "N", ...)
    table: int | None = None  # the Table id a scorer's token is scoped to
    card: int | None = None  # a table card's EventTable id: that table in every round
    system: bool = False  # an automatic action (re-score, demo, import)
    pin: str = ""  # the PIN of the entry acting (a table scorer in PIN mode: services.side_pins)
    client: str = ""  # the client's address (a wrong PIN's wait is counted per client)
    club: Any = None  # the Club of the address acted at (tournaments/clubs); None: the home club

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        if self.user is not None:
            return self.user.get_username()
        return "system" if self.system else "anonymous"

    def user_or_none(self) -> Any:
        return self.user if self.user is not None and self.user.is_authenticated else None


SYSTEM = Actor(system=True, label="system")


def scores_table(actor: Actor, table_id: int | None) -> bool:
    """Does this scorer's credential cover the round's table `table_id`? A table card covers
    its table of the event in every round (one indexed look-up); a token scoped to one round's
    table covers that table only."""
    if table_id is None:
        return False
    if actor.table is not None and actor.table == table_id:
        return True
    if actor.card is None:
        return False
    return Table.objects.filter(pk=table_id, event_table_id=actor.card).exists()


def covers_table(actor: Actor, table: Table | None) -> bool:
    """`scores_table` for a table already loaded (with the match): no query."""
    if table is None:
        return False
    if actor.table is not None and actor.table == table.pk:
        return True
    return actor.card is not None and table.event_table_id == actor.card


def acting_club(actor: Actor) -> Club:
    """The club the actor acts in: the one of the address, else the home club."""
    return actor.club if actor.club is not None else home_club()


def require_club_director(actor: Actor, club: Club) -> None:
    """Only the club's directors (tournaments.clubs.services.directs_club) make its events and
    seasons; the system (the demo, an import) acts for every club."""
    if actor.system:
        return
    if not directs_club(actor.user_or_none(), club):
        raise NotAllowed("not-club-director", "only this club's directors may do that")
    if club.suspended_at is not None:  # its data stays; its directors cannot act
        raise NotAllowed("club-suspended", "this club is suspended")


def is_director(actor: Actor, tournament: Tournament) -> bool:
    if actor.system:
        return True
    user = actor.user_or_none()
    if user is None:
        return False
    return user.is_superuser or tournament.directors.filter(pk=user.pk).exists()


def require_director(actor: Actor, tournament: Tournament) -> None:
    if not is_director(actor, tournament):
        raise NotAllowed("not-director", "only this tournament's directors may do that")
    require_not_published(actor, tournament)


def require_not_published(actor: Actor, tournament: Tournament) -> None:
    """Nobody but the system changes an event a room publishes (tournaments/publishing): not
    its directors on the site, not a table, not a registration; it is changed in the room and
    published again, or taken over on the site's publishing page."""
    if (
        not actor.system
        and PublishedEvent.objects.filter(
            tournament_id=tournament.pk, taken_over_at__isnull=True
        ).exists()
    ):
        raise NotAllowed(
            "published-from-room",
            "this event is published from the room: change it there and publish again, or take "
            "it over on the site's publishing page",
        )


def _fit(text: str, field: str) -> str:
    """Shorten a label to its column (the full story is in the event's data): a long subject,
    e.g. every setup field changed at once, must not fail the workflow it records."""
    limit = max_length(AuditEvent, field)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def audit(
    *,
    tournament: Tournament,
    actor: Actor,
    action: str,
    subject: str = "",
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> AuditEvent:
    return AuditEvent.objects.create(
        tournament=tournament,
        actor=actor.user_or_none(),
        actor_label=_fit(actor.name, "actor_label"),
        action=action,
        subject=_fit(subject, "subject"),
        reason=reason,
        data=data or {},
    )

"""Table cards: one per numbered table of the event (`EventTable`), issued by a director, printed
with its token as a QR code and valid through every round until the event ends or the card is
revoked. Printing a table's card again revokes that table's earlier cards (a card lost or seen
by a stranger is replaced by printing it again), never another table's. The secret is returned
once and only its hash is stored."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tournaments.models import (
    EventTable,
    Round,
    Table,
    TableToken,
    Tournament,
    hash_secret,
    new_secret,
)

from .actors import Actor, audit, require_director
from .errors import Invalid

#: None: a card is valid until the event ends (`expire_event_cards`) or it is revoked. A director
#: may still give a token a lifetime through the API (one minute to seven days).
DEFAULT_LIFETIME: timedelta | None = None
LONGEST_LIFETIME = timedelta(days=7)


def scoring_path(table: Table, secret: str) -> str:
    """One round's table scoring page with the secret in the fragment (a fragment never reaches
    the server's logs or a Referer header)."""
    return reverse("tournaments:scoring-table", args=[table.pk]) + f"#token={secret}"


def card_path(event_table: EventTable, tournament: Tournament, secret: str) -> str:
    """The address a table card's QR code opens, with the secret in the fragment: the card page,
    which shows the match now at that table in every round (a duplicate event's table phone
    for a duplicate event, which follows its rounds itself)."""
    if tournament.format == Tournament.Format.DUPLICATE:
        path = reverse("tournaments:duplicate-table", args=[tournament.slug, event_table.number])
    else:
        path = reverse("tournaments:scoring-card", args=[event_table.pk])
    return path + f"#token={secret}"


def _data(token: TableToken, event_table: EventTable) -> dict[str, int]:
    return {"token": token.pk, "event_table": event_table.pk, "table": event_table.number}


def _issue(
    event_table: EventTable,
    tournament: Tournament,
    actor: Actor,
    label: str,
    lifetime: timedelta | None,
    *,
    replace: bool,
) -> tuple[TableToken, str]:
    now = timezone.now()
    if replace:
        event_table.tokens.filter(revoked_at__isnull=True).update(revoked_at=now)
    secret = new_secret()
    token = TableToken.objects.create(
        table=event_table,
        key_hash=hash_secret(secret),
        label=label or f"table {event_table.number} scorer",
        created_by=actor.user_or_none(),
        expires_at=now + lifetime if lifetime is not None else None,
    )
    audit(
        tournament=tournament,
        actor=actor,
        action="table-card-printed" if replace else "table-token-created",
        subject=f"table {event_table.number}",
        data=_data(token, event_table),
    )
    return token, secret


def _check_lifetime(lifetime: timedelta | None) -> None:
    if lifetime is not None and not timedelta(minutes=1) <= lifetime <= LONGEST_LIFETIME:
        raise Invalid(
            "bad-lifetime",
            "a table token lives from one minute to seven days (or, with no lifetime, "
            "until the event ends)",
            details={"seconds": int(lifetime.total_seconds())},
        )


def issue_table_token(
    *, table: Table, actor: Actor, label: str = "", lifetime: timedelta | None = DEFAULT_LIFETIME
) -> tuple[TableToken, str]:
    """One more token for the table of the event that `table` (a round's table) stands at:
    (the stored token, its secret, shown once). Earlier tokens stay valid (a second phone)."""
    tournament = table.round.tournament
    require_director(actor, tournament)
    _check_lifetime(lifetime)
    with transaction.atomic():
        return _issue(table.event_table, tournament, actor, label, lifetime, replace=False)


def print_cards(
    *, tournament: Tournament, numbers: Iterable[int], actor: Actor
) -> dict[int, tuple[EventTable, str]]:
    """A card for each of these tables of the event (made when missing, e.g. before the first
    round is drawn): {number: (event table, secret)}. Each table's earlier cards are revoked;
    other tables' cards are untouched."""
    require_director(actor, tournament)
    wanted = sorted(set(numbers))
    if not wanted or any(
        not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 999 for n in wanted
    ):
        raise Invalid("bad-table", "table numbers are whole numbers from 1 to 999")
    with transaction.atomic():
        EventTable.objects.numbered(tournament.pk, wanted)
        # Locked: two directors printing the same table at once leave one working card.
        locked = EventTable.objects.select_for_update().filter(
            tournament=tournament, number__in=wanted
        )
        found = {t.number: t for t in locked.order_by("number")}
        return {
            n: (found[n], _issue(found[n], tournament, actor, "", None, replace=True)[1])
            for n in wanted
        }


def issue_round_tokens(*, round: Round, actor: Actor) -> dict[int, str]:
    """A card for each table of the round (printing its cards): {round's table id: secret}.
    The secret is the event table's card, valid in every round; printing again replaces the
    cards of these tables only."""
    numbers = dict(Table.objects.filter(round=round).values_list("number", "pk"))
    if not numbers:
        return {}
    printed = print_cards(tournament=round.tournament, numbers=numbers, actor=actor)
    return {numbers[n]: secret for n, (_table, secret) in printed.items()}


def expire_event_cards(tournament: Tournament) -> int:
    """The event is over: its cards stop working now (the caller's transaction)."""
    now = timezone.now()
    live = TableToken.objects.filter(table__tournament=tournament, revoked_at__isnull=True)
    return live.exclude(expires_at__lte=now).update(expires_at=now)


def revoke_table_token(*, token: TableToken, actor: Actor) -> TableToken:
    event_table = token.table
    tournament = event_table.tournament
    require_director(actor, tournament)
    with transaction.atomic():
        token.revoke()
        audit(
            tournament=tournament,
            actor=actor,
            action="table-token-revoked",
            subject=f"table {event_table.number}",
            data=_data(token, event_table),
        )
    return token

"""Table scorers' tokens: issued by a director for one table, printed on its card as a QR code,
revoked when lost. The secret is returned once and only its hash is stored."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Round, Table, TableToken, hash_secret, new_secret

from .actors import Actor, audit, require_director
from .errors import Invalid

DEFAULT_LIFETIME = timedelta(hours=12)
LONGEST_LIFETIME = timedelta(days=7)


def scoring_path(table: Table, secret: str) -> str:
    """The table scoring page's address with the secret in the fragment: a fragment never
    reaches the server's logs or a Referer header."""
    return reverse("tournaments:scoring-table", args=[table.pk]) + f"#token={secret}"


def _subject(table: Table) -> str:
    return f"round {table.round.number} table {table.number}"


def _data(token: TableToken, table: Table) -> dict[str, int]:
    return {
        "token": token.pk,
        "table_id": table.pk,
        "round": table.round.number,
        "table": table.number,
    }


def _issue(table: Table, actor: Actor, label: str, lifetime: timedelta) -> tuple[TableToken, str]:
    secret = new_secret()
    token = TableToken.objects.create(
        table=table,
        key_hash=hash_secret(secret),
        label=label or f"table {table.number} scorer",
        created_by=actor.user_or_none(),
        expires_at=timezone.now() + lifetime,
    )
    audit(
        tournament=table.round.tournament,
        actor=actor,
        action="table-token-created",
        subject=_subject(table),
        data=_data(token, table),
    )
    return token, secret


def _check_lifetime(lifetime: timedelta) -> None:
    if not timedelta(minutes=1) <= lifetime <= LONGEST_LIFETIME:
        raise Invalid(
            "bad-lifetime",
            "a table token lives from one minute to seven days",
            {"seconds": int(lifetime.total_seconds())},
        )


def issue_table_token(
    *, table: Table, actor: Actor, label: str = "", lifetime: timedelta = DEFAULT_LIFETIME
) -> tuple[TableToken, str]:
    """A new scorer's token for `table`: (the stored token, its secret, shown once)."""
    require_director(actor, table.round.tournament)
    _check_lifetime(lifetime)
    with transaction.atomic():
        return _issue(table, actor, label, lifetime)


def issue_round_tokens(
    *, round: Round, actor: Actor, lifetime: timedelta = DEFAULT_LIFETIME
) -> dict[int, str]:
    """One fresh token per table of the round (for printing its cards): {table id: secret}.
    Earlier unrevoked tokens stay valid, so reprinting one card never strands another table."""
    require_director(actor, round.tournament)
    _check_lifetime(lifetime)
    with transaction.atomic():
        tables = Table.objects.filter(round=round).select_related("round__tournament")
        return {table.pk: _issue(table, actor, "", lifetime)[1] for table in tables}


def revoke_table_token(*, token: TableToken, actor: Actor) -> TableToken:
    table = token.table
    require_director(actor, table.round.tournament)
    with transaction.atomic():
        token.revoke()
        audit(
            tournament=table.round.tournament,
            actor=actor,
            action="table-token-revoked",
            subject=_subject(table),
            data=_data(token, table),
        )
    return token

"""The rows the hand workflows read and write on every submission, in plain SQL.

A hand submission reads the match (locked), its round, tournament and table, the sides
seated, the current version of every hand and whether the idempotency key was seen, then
stores a hand and its version. Through the ORM that was six reads, a lazy load and two inserts,
and Django compiling each query's SQL cost more than PostgreSQL answering it (profiled: about
1 ms a query against 0.1–0.3 ms in the database). Here it is one locking read, one read and
two inserts (and, for a match's first hand, one update putting the match and its round in
play) whose SQL is built once per process from the models' metadata; rows become model
instances through the fields' own database converters and values are prepared by the fields'
own `get_db_prep_save`, so what is loaded and stored is what the ORM would load and store
(`tests/tournaments/test_match_rows.py` compares them). PostgreSQL and SQLite (no row locks).

Fenced: `tournaments/checks.py` stops start-up where this would go behind Django's back (a save
signal receiver on Hand, HandSubmission or Match, a database router or a second database, another
Django major version). `HAND_ROWS_SQL=false` takes the ORM path instead, which does the same
through querysets and `save()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.db import connection, models
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from django.utils.asyncio import async_unsafe

from tournaments.models import Hand, HandSubmission, Match, Round, Seat, Table, Tournament

# (model, alias) in the order the match statement selects their columns.
_MATCH_JOIN: tuple[tuple[type[models.Model], str], ...] = (
    (Match, "m"),
    (Round, "r"),
    (Tournament, "t"),
    (Table, "tb"),
)
# Every field of a version but the two large ones, as the ORM loaded them with
# `.defer("raw", "record")`.
_VERSION_FIELDS = tuple(
    f.attname for f in HandSubmission._meta.concrete_fields if f.name not in ("raw", "record")
)


@async_unsafe
def _cursor() -> Any:
    """Django's cursor for the statements here; on PostgreSQL over psycopg's server-side
    binding, so that psycopg prepares a statement on a connection's first run of it
    (`prepare_threshold`, config/settings.py) and PostgreSQL plans it once a connection instead
    of once a submission: planning was 0.14 ms of each of the match's and the hands' reads,
    against 0.05-0.08 ms of execution (EXPLAIN ANALYZE). A rollback on the connection (a
    refused submission) makes psycopg drop every statement it prepared there (DDL in the
    transaction could have changed what they name); the next runs prepare them again. The
    wrapper is Django's own, made as `connection.cursor()` makes it: the same error
    translation and time zone; a logged query shows its statement and parameters apart, as
    parameters bound on the server are."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import (
        TIMESTAMPTZ_OID,
        Format,
        ServerBindingCursor,
        register_tzloader,
    )

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = connection.connection
        cursor = ServerBindingCursor(raw)
        if raw.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone != connection.timezone:
            register_tzloader(connection.timezone, cursor)
        return connection._prepare_cursor(cursor)


def _id(value: Any) -> Any:
    """A row id as a parameter of one type whatever its size: psycopg sends a plain int as the
    smallest type that holds it (int2, int4, int8) and prepares a statement once per parameter
    types, so ids below and above 32,768 would be two statements, the warm one (api/warm.py)
    serving only the first. An id no bigint holds stays as it is (no row has it)."""
    if connection.vendor == "postgresql" and type(value) is int and -(2**63) <= value < 2**63:
        from psycopg.types.numeric import Int8

        return Int8(value)
    return value


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _loaders(
    model: type[models.Model], names: tuple[str, ...] | None = None
) -> tuple[list[str], list[tuple[Any, list]]]:
    """(attribute names, [(column expression, converters)]) for the model's concrete fields,
    or only the named ones, always in the model's order (`Model.from_db` expects it)."""
    fields = [f for f in model._meta.concrete_fields if names is None or f.attname in names]
    out = []
    for field in fields:
        col = field.get_col(model._meta.db_table)
        out.append(
            (col, connection.ops.get_db_converters(col) + field.get_db_converters(connection))
        )
    return [f.attname for f in fields], out


def _converted(
    model: type[models.Model], values: Sequence[Any], names: tuple[str, ...] | None = None
) -> list[Any]:
    """Database values as the model's fields hold them (JSON decoded, and so on)."""
    converted = []
    for value, (col, converters) in zip(values, _loaders(model, names)[1], strict=True):
        for converter in converters:
            value = converter(value, col, connection)
        converted.append(value)
    return converted


@cache
def _plain_init(model: type[models.Model]) -> bool:
    """Whether `Model.from_db` of this model only sets each loaded field's value and the
    instance's state: Django's own `__init__` and `from_db`, and every concrete field read
    through Django's plain attribute (a foreign key's only drops a cached object, which a new
    instance has none of)."""
    return (
        model.__init__ is models.Model.__init__
        and model.from_db.__func__ is models.Model.from_db.__func__  # type: ignore[attr-defined]
        and all(
            type(model.__dict__.get(f.attname)) in _PLAIN_ATTRIBUTES
            for f in model._meta.concrete_fields
        )
    )


_PLAIN_ATTRIBUTES = frozenset({DeferredAttribute, ForeignKeyDeferredAttribute})


def _instance(
    model: type[models.Model], values: Sequence[Any], names: tuple[str, ...] | None = None
) -> Any:
    """A model instance as the ORM would load it; fields not in `names` load on first use.

    `Model.from_db` builds it through `Model.__init__`, which sends the init signals and sets
    every field through its attribute: 6 µs a version, a dozen versions a submission. Where
    that only sets the values (`_plain_init`, no init signal receiver), the instance is made
    as Django unpickles one: the values into its `__dict__`, and its state."""
    attnames = _loaders(model, names)[0]
    converted = _converted(model, values, names)
    alias = connection.alias
    if not _plain_init(model) or pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model.from_db(alias, attnames, converted)
    new = model.__new__(model)
    state = new._state = ModelState()
    state.adding = False
    state.db = alias
    new.__dict__.update(zip(attnames, converted, strict=True))
    return new


def prepare(token_model: type[models.Model]) -> None:
    """Build every statement and column loader of a hand's submission once, at a server
    process's start (api/warm.py), instead of on its first hand."""
    if not settings.HAND_ROWS_SQL:
        return
    _token_sql(token_model)
    _loaders(token_model)
    for lock in (True, False):
        _match_sql(lock)
    for model, _alias in _MATCH_JOIN:
        _loaders(model)
    _hands_sql()
    _loaders(Hand)
    _loaders(HandSubmission, ("record",))
    if connection.vendor == "postgresql":
        _hand_and_version_sql()


@cache
def _token_sql(model: type[models.Model]) -> str:
    columns = ", ".join(_q(f.column) for f in model._meta.concrete_fields)
    return (
        f"SELECT {columns} FROM {_q(model._meta.db_table)}"
        f" WHERE {_q(model._meta.get_field('key_hash').column)} = %s"
    )


def token_by_hash(model: type[models.Model], key_hash: str) -> Any:
    """The token (TableToken, ApiToken: a `SecretToken`) with this hash, or None, as
    `model.objects.get(key_hash=...)` loads it: a submission's first query, where compiling the
    queryset cost more than PostgreSQL answering it (its profile in uvicorn)."""
    if not settings.HAND_ROWS_SQL:
        return model._default_manager.filter(key_hash=key_hash).first()
    with _cursor() as cursor:
        cursor.execute(_token_sql(model), [key_hash])
        row = cursor.fetchone()
    return None if row is None else _instance(model, row)


@cache
def _match_sql(lock: bool) -> str:
    columns = ", ".join(
        f"{alias}.{_q(field.column)}"
        for model, alias in _MATCH_JOIN
        for field in model._meta.concrete_fields
    )
    tables = {model: _q(model._meta.db_table) for model, _ in _MATCH_JOIN}
    sql = (
        f"SELECT {columns} FROM {tables[Match]} m"
        f" JOIN {tables[Round]} r ON r.id = m.round_id"
        f" JOIN {tables[Tournament]} t ON t.id = r.tournament_id"
        f" LEFT JOIN {tables[Table]} tb ON tb.id = m.table_id"
        " WHERE m.id = %s"
    )
    if lock:
        sql += " FOR UPDATE OF m" if connection.features.has_select_for_update_of else " FOR UPDATE"
    return sql


def locked_match(match_id: int) -> Match:
    """The match, locked until the transaction ends, with its round, tournament and table."""
    low, high = connection.ops.integer_field_range(Match._meta.pk.get_internal_type())
    if not isinstance(match_id, int) or not low <= match_id <= high:
        raise Match.DoesNotExist(f"no match {match_id}")
    if not settings.HAND_ROWS_SQL:
        of = ("self",) if connection.features.has_select_for_update_of else ()
        return (
            Match.objects.select_for_update(of=of)
            .select_related("round__tournament", "table")
            .get(pk=match_id)
        )
    lock = connection.features.has_select_for_update
    with _cursor() as cursor:
        cursor.execute(_match_sql(lock), [_id(match_id)])
        row = cursor.fetchone()
    if row is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    parts, start = [], 0
    for model, _alias in _MATCH_JOIN:
        width = len(model._meta.concrete_fields)
        parts.append(row[start : start + width])
        start += width
    match = _instance(Match, parts[0])
    round_ = _instance(Round, parts[1])
    round_.tournament = _instance(Tournament, parts[2])
    match.round = round_
    match.table = _instance(Table, parts[3]) if match.table_id is not None else None
    return match


@cache
def _hands_sql() -> str:
    s, h = _q(HandSubmission._meta.db_table), _q(Hand._meta.db_table)
    seat = _q(Seat._meta.db_table)
    loaders = _loaders(HandSubmission, _VERSION_FIELDS)[1]
    columns = ", ".join(f"s.{_q(col.target.column)}" for col, _converters in loaders)
    sides = (
        "string_agg(DISTINCT side, ',')"
        if connection.vendor == "postgresql"
        else "group_concat(DISTINCT side)"
    )
    # One row per current version, or one row of NULLs when there is none; the sides and the
    # idempotency key's submission ride along on every row. The last hand's record comes too:
    # the next hand's dealer follows from it.
    return (
        f"SELECT (SELECT {sides} FROM {seat} WHERE match_id = %s),"
        f" (SELECT id FROM {s} WHERE idempotency_key = %s),"
        f" {columns}, h.number, h.created_at,"
        " CASE WHEN h.number = MAX(h.number) OVER () THEN s.record END"
        f" FROM (SELECT 1 AS one) k LEFT JOIN ({h} h JOIN {s} s"
        f" ON s.hand_id = h.id AND s.is_current) ON h.match_id = %s"
        " ORDER BY h.number"
    )


@dataclass(frozen=True, slots=True)
class MatchHands:
    versions: list[HandSubmission]  # the current version of every hand, in hand order
    sides: frozenset[str]  # the sides seated
    stored_id: int | None  # the submission stored under the idempotency key asked about


def match_hands(match: Match, idempotency_key: str | None = None) -> MatchHands:
    """The match's current versions (each with its hand; `raw` and every record but the last
    load on first use), its sides, and the submission stored under `idempotency_key`."""
    if not settings.HAND_ROWS_SQL:
        return _match_hands_orm(match, idempotency_key)
    with _cursor() as cursor:
        cursor.execute(_hands_sql(), [_id(match.pk), idempotency_key, _id(match.pk)])
        rows = cursor.fetchall()
    versions = []
    width = len(_VERSION_FIELDS)
    for row in rows:
        values = row[2:]
        if values[0] is None:  # the row of a match with no hands yet
            continue
        submission = _instance(HandSubmission, values[:width], _VERSION_FIELDS)
        number, created_at, record = values[width:]
        submission.hand = _instance(Hand, [submission.hand_id, match.pk, number, created_at])
        if record is not None:
            submission.record = _converted(HandSubmission, [record], ("record",))[0]
        versions.append(submission)
    sides = frozenset(rows[0][0].split(",")) if rows[0][0] else frozenset()
    return MatchHands(versions, sides, rows[0][1])


def _match_hands_orm(match: Match, idempotency_key: str | None) -> MatchHands:
    versions = list(
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .defer("raw", "record")
        .order_by("hand__number")
    )
    sides = frozenset(Seat.objects.filter(match=match).values_list("side", flat=True))
    stored = (
        HandSubmission.objects.filter(idempotency_key=idempotency_key)
        .values_list("id", flat=True)
        .first()
        if idempotency_key is not None
        else None
    )
    return MatchHands(versions, sides, stored)


@cache
def _insert_sql(model: type[models.Model]) -> tuple[str, list[models.Field]]:
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    special = [f.name for f in fields if getattr(f, "get_placeholder_sql", None) is not None]
    if special:  # fields the ORM inserts with their own placeholders are not handled here
        raise TypeError(f"{model.__name__}: insert() cannot store {special}")
    columns = ", ".join(_q(f.column) for f in fields)
    sql = f"INSERT INTO {_q(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    if connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {_q(meta.pk.column)}"
    return sql, fields


def insert(instance: models.Model) -> None:
    """Store a new row as `instance.save()` would: the fields' `pre_save` (auto_now_add) and
    database preparation, and the new primary key set on the instance. For the models the
    hand workflows create on every submission; nothing listens for their save signals."""
    if not settings.HAND_ROWS_SQL:
        instance.save(force_insert=True)
        return
    sql, fields = _insert_sql(type(instance))
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with _cursor() as cursor:
        cursor.execute(sql, params)
        if connection.features.can_return_columns_from_insert:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, type(instance)._meta.db_table, "id")
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias


@cache
def _hand_and_version_sql() -> tuple[str, list[models.Field], list[models.Field]]:
    hand_sql, hand_fields = _insert_sql(Hand)
    meta = HandSubmission._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    link = meta.get_field("hand")
    values = ", ".join("h.id" if f is link else "%s" for f in fields)
    sql = (
        f"WITH h AS ({hand_sql}) INSERT INTO {_q(meta.db_table)}"
        f" ({', '.join(_q(f.column) for f in fields)}) SELECT {values} FROM h"
        f" RETURNING {_q(meta.pk.column)}, {_q(link.column)}"
    )
    return sql, hand_fields, [f for f in fields if f is not link]


def insert_hand_and_version(hand: Hand, submission: HandSubmission) -> None:
    """Store a new hand and its first version as `insert(hand)` then `insert(submission)`
    would, in one statement (one round trip) where the database can (PostgreSQL)."""
    if not (settings.HAND_ROWS_SQL and connection.vendor == "postgresql"):
        insert(hand)
        submission.hand = hand
        insert(submission)
        return
    sql, hand_fields, fields = _hand_and_version_sql()
    params = [f.get_db_prep_save(f.pre_save(hand, True), connection) for f in hand_fields]
    params += [f.get_db_prep_save(f.pre_save(submission, True), connection) for f in fields]
    with _cursor() as cursor:
        cursor.execute(sql, params)
        pk, hand_id = cursor.fetchone()
    for instance, key in ((hand, hand_id), (submission, pk)):
        instance.pk = key
        instance._state.adding = False
        instance._state.db = connection.alias
    submission.hand = hand


@cache
def _into_play_sql() -> str:
    match, round_ = Match._meta, Round._meta
    state, round_state = match.get_field("state"), round_.get_field("state")
    return (
        f"WITH r AS (UPDATE {_q(round_.db_table)} SET {_q(round_state.column)} = %s"
        f" WHERE {_q(round_.pk.column)} = %s AND %s)"
        f" UPDATE {_q(match.db_table)} SET {_q(state.column)} = %s"
        f" WHERE {_q(match.pk.column)} = %s AND %s"
    )


def into_play(match: Match, *, match_starts: bool, round_starts: bool) -> None:
    """A first hand puts its match (pending) and its round (published) in play: what
    `match.save(update_fields=["state"])` and the round's queryset update do, in one statement
    (one round trip) on PostgreSQL. A round's first hand is usually its match's first too: at
    the start of a round every table sends one at once."""
    if match_starts:
        match.state = Match.State.PLAYING
    if not (settings.HAND_ROWS_SQL and connection.vendor == "postgresql"):
        if match_starts:
            match.save(update_fields=["state"])
        if round_starts:
            Round.objects.filter(pk=match.round_id).update(state=Round.State.IN_PLAY)
        return
    if not (match_starts or round_starts):
        return
    with _cursor() as cursor:
        cursor.execute(
            _into_play_sql(),
            [
                Round.State.IN_PLAY.value,
                _id(match.round_id),
                round_starts,
                Match.State.PLAYING.value,
                _id(match.pk),
                match_starts,
            ],
        )


#: How often `warm_connection` runs each read: PostgreSQL plans a prepared statement for its
#: parameters (a custom plan) on its first five executions, and at the sixth uses one plan for
#: all (the generic plan) if it is estimated no dearer, as it is for these reads.
_CUSTOM_PLANS = 6


def warm_connection(token_model: type[models.Model]) -> None:
    """Run a submission's reads on this thread's connection, each finding nothing, as often as
    PostgreSQL plans a prepared statement anew: at a server's start (api/warm.py), so that the
    first submissions, every table's at once, are not the ones that pay for the planning. (The
    writes cannot run for nothing; `into_play` runs once a match.)"""
    if not (settings.HAND_ROWS_SQL and connection.vendor == "postgresql"):
        return
    nothing = Match(pk=0, round_id=0)
    for _ in range(_CUSTOM_PLANS):
        token_by_hash(token_model, "")
        with suppress(Match.DoesNotExist):
            locked_match(0)
        match_hands(nothing, "")

"""The plain-SQL reads and inserts of the hand workflows return and store exactly what the ORM
would: same field values, same related objects, same deferred fields."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.conftest import prepared_statements
from tests.tournaments.builders import HAND_1, HAND_2, make_director, make_match, scorer
from tournaments import services
from tournaments.models import Hand, HandSubmission, Match, TableToken, hash_secret, new_secret
from tournaments.services import match_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def plain_sql(settings):
    """These prove the plain-SQL path, whatever HAND_ROWS_SQL the environment sets."""
    settings.HAND_ROWS_SQL = True


def values(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def match() -> Match:
    return make_match(make_director(), match_length="director")


def test_locked_match_loads_what_the_orm_loads(match):
    loaded = match_rows.locked_match(match.pk)
    orm = Match.objects.select_related("round__tournament", "table").get(pk=match.pk)
    assert values(loaded) == values(orm)
    assert values(loaded.round) == values(orm.round)
    assert values(loaded.round.tournament) == values(orm.round.tournament)
    assert values(loaded.table) == values(orm.table)
    assert not loaded._state.adding and loaded._state.db == "default"


def test_a_token_by_its_hash_loads_what_the_orm_loads(match, settings):
    secret = new_secret()
    token = TableToken.objects.create(
        table=match.table.event_table,
        key_hash=hash_secret(secret),
        label="table 1",
        expires_at=timezone.now(),
    )
    token.revoke()
    loaded = match_rows.token_by_hash(TableToken, token.key_hash)
    orm = TableToken.by_secret(secret)
    assert values(loaded) == values(orm) and loaded.revoked_at is not None
    assert not loaded._state.adding and loaded._state.db == "default"
    assert match_rows.token_by_hash(TableToken, "0" * 64) is None
    settings.HAND_ROWS_SQL = False
    assert values(match_rows.token_by_hash(TableToken, token.key_hash)) == values(orm)


@pytest.mark.parametrize("match_id", [10**9, 2**63, -(2**63) - 1])
def test_locked_match_of_an_unknown_match_raises_does_not_exist(match_id):
    with pytest.raises(Match.DoesNotExist):
        match_rows.locked_match(match_id)


def test_a_match_without_hands_has_no_versions_but_its_sides(match):
    hands = match_rows.match_hands(match, "no-such-key")
    assert hands.versions == [] and hands.sides == {"NS", "EW"} and hands.stored_id is None


def test_match_hands_loads_the_current_versions_as_the_orm_does(match):
    ns, ew = scorer(match, "NS"), scorer(match, "EW")
    first = services.submit_hand(match=match, actor=ns, record=HAND_1, idempotency_key="k-first1")
    services.reject_hand(
        submission=first.submission,
        expected_version=first.submission.version,
        actor=ew,
        reason="tricks",
    )
    services.submit_hand(match=match, actor=ns, record=HAND_1, number=1)  # version 2
    services.confirm_hand(
        submission=match_rows.match_hands(match).versions[0],
        expected_version=match_rows.match_hands(match).versions[0].version,
        actor=ew,
    )
    services.submit_hand(match=match, actor=ew, record=HAND_2)

    hands = match_rows.match_hands(match, "k-first1")
    orm = list(
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .order_by("hand__number")
    )
    assert [v.pk for v in hands.versions] == [v.pk for v in orm] and len(orm) == 2
    assert [v.version for v in hands.versions] == [2, 1]
    assert hands.stored_id == first.submission.pk  # the superseded version still holds the key
    with CaptureQueriesContext(connection) as queries:
        # every field but the two large ones is loaded, and the last hand's record
        for loaded, expected in zip(hands.versions, orm, strict=True):
            for field in HandSubmission._meta.concrete_fields:
                if field.name not in ("raw", "record"):
                    assert getattr(loaded, field.attname) == getattr(expected, field.attname)
            assert values(loaded.hand) == values(expected.hand)
        assert hands.versions[-1].record == orm[-1].record
    assert [q["sql"] for q in queries] == []
    # the rest load on first use, and are the same
    assert hands.versions[0].record == orm[0].record
    assert hands.versions[0].raw == orm[0].raw


def test_insert_stores_the_row_save_would(match):
    user = make_director("td-2").user

    def new(hand: Hand, key: str) -> HandSubmission:
        return HandSubmission(
            hand=hand,
            version=1,
            raw={"dealer": "N", "note": "日本語"},
            record={"format": "hand/1"},
            result={"ok": True, "score": {"NS": "12.5"}},
            idempotency_key=key,
            submitted_by=user,
            submitted_label="N",
        )

    kept = Hand(match=match, number=1)
    match_rows.insert(kept)
    assert kept.pk and not kept._state.adding and kept.created_at is not None
    inserted = new(kept, "insert-1")
    match_rows.insert(inserted)
    saved = new(Hand.objects.create(match=match, number=2), "insert-2")
    saved.save()

    ignore = {"id", "hand_id", "idempotency_key", "submitted_at"}
    stored = values(HandSubmission.objects.get(pk=inserted.pk))
    assert {k: v for k, v in stored.items() if k not in ignore} == {
        k: v for k, v in values(HandSubmission.objects.get(pk=saved.pk)).items() if k not in ignore
    }
    assert stored["hand_id"] == kept.pk and stored["submitted_at"] is not None
    assert stored["idempotency_key"] == "insert-1"


def test_a_new_hand_and_its_first_version_are_stored_as_two_saves_would(match):
    user = make_director("td-3").user

    def new(key: str) -> HandSubmission:
        return HandSubmission(
            version=1,
            raw={"dealer": "N", "note": "日本語"},
            record={"format": "hand/1"},
            result={"ok": True, "score": {"NS": "12.5"}},
            idempotency_key=key,
            submitted_by=user,
            submitted_label="N",
            submitted_side="NS",
        )

    hand, inserted = Hand(match=match, number=1), new("together-1")
    with CaptureQueriesContext(connection) as queries:
        match_rows.insert_hand_and_version(hand, inserted)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
    assert hand.pk and not hand._state.adding and hand.created_at is not None
    assert inserted.pk and not inserted._state.adding and inserted.hand is hand
    saved = new("together-2")
    saved.hand = Hand.objects.create(match=match, number=2)
    saved.save()

    assert values(Hand.objects.get(pk=hand.pk)) == values(hand)
    assert Hand.objects.get(pk=hand.pk).number == 1
    ignore = {"id", "hand_id", "idempotency_key", "submitted_at"}
    stored = values(HandSubmission.objects.get(pk=inserted.pk))
    assert {k: v for k, v in stored.items() if k not in ignore} == {
        k: v for k, v in values(HandSubmission.objects.get(pk=saved.pk)).items() if k not in ignore
    }
    assert stored["hand_id"] == hand.pk and stored["submitted_at"] is not None
    assert stored["idempotency_key"] == "together-1"


@pytest.mark.parametrize("sql", [True, False])
@pytest.mark.parametrize(
    ("match_starts", "round_starts"), [(True, True), (True, False), (False, True), (False, False)]
)
def test_into_play_puts_the_match_and_its_round_in_play_as_save_and_update_do(
    match, settings, sql, match_starts, round_starts
):
    from tournaments.models import Round

    settings.HAND_ROWS_SQL = sql
    Round.objects.filter(pk=match.round_id).update(state=Round.State.PUBLISHED)
    Match.objects.filter(pk=match.pk).update(state=Match.State.PENDING)
    match = Match.objects.select_related("round").get(pk=match.pk)
    with CaptureQueriesContext(connection) as queries:
        match_rows.into_play(match, match_starts=match_starts, round_starts=round_starts)
    one = sql and connection.vendor == "postgresql"
    assert len(queries) == (
        int(match_starts or round_starts) if one else int(match_starts) + int(round_starts)
    )
    stored = Match.objects.select_related("round").get(pk=match.pk)
    assert (
        stored.state
        == match.state
        == (Match.State.PLAYING if match_starts else Match.State.PENDING)
    )
    assert stored.round.state == (Round.State.IN_PLAY if round_starts else Round.State.PUBLISHED)


def _loaded(instance) -> tuple[dict, dict]:
    """The values and the state; an empty related-object cache is made on first use either
    way (a foreign key's attribute looks at it when set)."""
    state = {k: v for k, v in instance._state.__dict__.items() if (k, v) != ("fields_cache", {})}
    return {k: v for k, v in instance.__dict__.items() if k != "_state"}, state


@pytest.mark.parametrize("names", [None, match_rows._VERSION_FIELDS])
def test_an_instance_is_made_as_from_db_makes_it(match, names):
    """A version (all its fields, or without the two large ones) made without __init__ has the
    same values, deferred fields and state as `from_db` gives, and loads a deferred field."""
    services.submit_hand(match=match, record=HAND_1, actor=scorer(match, "NS"))
    stored = HandSubmission.objects.get(hand__match=match)
    attnames, loaders = match_rows._loaders(HandSubmission, names)
    columns = ", ".join(connection.ops.quote_name(col.target.column) for col, _ in loaders)
    with connection.cursor() as cursor:  # the row as the database gives it
        cursor.execute(
            f"SELECT {columns} FROM {HandSubmission._meta.db_table} WHERE id = %s", [stored.pk]
        )
        row = cursor.fetchone()
    made = match_rows._instance(HandSubmission, row, names)
    expected = HandSubmission.from_db(
        connection.alias, attnames, [getattr(stored, name) for name in attnames]
    )
    assert type(made) is HandSubmission and _loaded(made) == _loaded(expected)
    assert made.get_deferred_fields() == expected.get_deferred_fields()
    assert made.raw == stored.raw and made.pk == stored.pk


def test_an_init_signal_receiver_gets_its_call(match):
    from django.db.models.signals import post_init

    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(receiver, sender=TableToken, weak=False, dispatch_uid="match-rows-init")
    try:
        key_hash = hash_secret(new_secret())
        TableToken.objects.create(table=match.table.event_table, key_hash=key_hash, label="table 1")
        seen.clear()  # the create's own instance
        token = match_rows.token_by_hash(TableToken, key_hash)
    finally:
        post_init.disconnect(sender=TableToken, dispatch_uid="match-rows-init")
    assert seen == [token]


def test_the_statements_are_prepared_on_a_connections_first_run_of_them(preparing, match):
    """PostgreSQL parses and plans a submission's statements once a connection, not once a
    submission; the ORM's own queries (bound on the client) are never prepared."""
    for _ in range(3):
        list(Hand.objects.filter(match=match))
    assert prepared_statements(preparing) == []
    match_rows.match_hands(match)
    prepared = prepared_statements(preparing)
    assert len(prepared) == 1 and "string_agg(DISTINCT side" in prepared[0]


def test_a_clash_in_a_prepared_insert_is_djangos_integrity_error_and_the_next_goes_in(
    preparing, match
):
    from django.db import IntegrityError, transaction

    user = make_director("td-clash").user

    def stored(number: int, key: str) -> None:
        with transaction.atomic():
            match_rows.insert_hand_and_version(
                Hand(match=match, number=number),
                HandSubmission(
                    version=1,
                    raw={},
                    record={},
                    result={},
                    idempotency_key=key,
                    submitted_by=user,
                    submitted_label="N",
                    submitted_side="NS",
                ),
            )

    for number in range(1, 4):
        stored(number, f"clash-{number}")
    assert any("INSERT" in statement for statement in prepared_statements(preparing))
    with pytest.raises(IntegrityError):
        stored(3, "clash-again")
    stored(4, "clash-4")
    assert Hand.objects.filter(match=match).count() == 4

"""Migrations 0014-0016 (cards): the tables and table tokens stored before cards belonged to the
event's tables are kept, each round's table linked to its event table by number, each token to
the event table of the round's table it was printed for (so a card printed then keeps working,
now in every round)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0013_room_scoring_voided_hands")]
AFTER = [("tournaments", "0016_cards_tokens_per_event_table")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_stored_tables_and_tokens_are_linked_to_the_events_tables():
    old = migrate(BEFORE)
    Tournament = old.get_model("tournaments", "Tournament")
    Round = old.get_model("tournaments", "Round")
    Table = old.get_model("tournaments", "Table")
    TableToken = old.get_model("tournaments", "TableToken")
    made = {}
    for slug in ("one", "two"):
        tournament = Tournament.objects.create(
            name=slug, slug=slug, game="spades", rules={}, format="swiss", rounds=2
        )
        for number in (1, 2):
            round_ = Round.objects.create(tournament=tournament, number=number, state="closed")
            for table_number in (1, 2):
                table = Table.objects.create(round=round_, number=table_number)
                made[(slug, number, table_number)] = table.pk
    TableToken.objects.create(table_id=made[("one", 1, 2)], key_hash="a" * 64, label="T2")
    TableToken.objects.create(table_id=made[("two", 2, 1)], key_hash="b" * 64, label="T1")

    new = migrate(AFTER)
    try:
        EventTable = new.get_model("tournaments", "EventTable")
        Table = new.get_model("tournaments", "Table")
        TableToken = new.get_model("tournaments", "TableToken")
        assert EventTable.objects.count() == 4  # two tables in each of two tournaments
        for (slug, _round, number), pk in made.items():
            event_table = EventTable.objects.get(pk=Table.objects.get(pk=pk).event_table_id)
            assert (event_table.tournament.slug, event_table.number) == (slug, number)
        one = TableToken.objects.get(key_hash="a" * 64).table
        two = TableToken.objects.get(key_hash="b" * 64).table
        assert (one.tournament.slug, one.number) == ("one", 2)
        assert (two.tournament.slug, two.number) == ("two", 1)
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

"""With DATABASE_URL=postgres://..., the database really is PostgreSQL and migrated."""

import pytest
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_database_is_postgresql(postgres_db):
    with postgres_db.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")
    assert postgres_db.vendor == "postgresql"


def test_migrations_applied(postgres_db):
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    assert plan == [], f"unapplied migrations: {plan}"


def test_transaction_round_trip(postgres_db):
    with transaction.atomic():
        Group.objects.create(name="committed")
    with pytest.raises(RuntimeError), transaction.atomic():
        Group.objects.create(name="rolled-back")
        raise RuntimeError("roll back")
    assert list(Group.objects.values_list("name", flat=True)) == ["committed"]
    # A fresh connection sees the committed row: it really reached the server.
    postgres_db.close()
    assert Group.objects.filter(name="committed").exists()

"""The standings snapshots' payload compressed with lz4 on PostgreSQL (14 and later, built with
it): a snapshot of 1,000 entries is half a megabyte of JSON, written after every confirmed hand;
lz4 costs PostgreSQL about half the CPU of its default compression (pglz) to store one
(docs/benchmarks.md, "Issue 34, December 2026"). Values written before keep their compression
until rewritten; reading either is transparent. Elsewhere (SQLite) nothing changes."""

from django.db import migrations

TABLE = "tournaments_standingssnapshot"


def lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
            "AND 'lz4' = ANY(enumvals)"
        )
        if cursor.fetchone() is None:  # older than 14, or built without lz4: keep pglz
            return
        cursor.execute(f"ALTER TABLE {TABLE} ALTER COLUMN payload SET COMPRESSION lz4")


def pglz(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
            "AND 'lz4' = ANY(enumvals)"
        )
        if cursor.fetchone() is not None:
            cursor.execute(f"ALTER TABLE {TABLE} ALTER COLUMN payload SET COMPRESSION pglz")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0024_perf2_standings_change")]

    operations = [migrations.RunPython(lz4, pglz)]

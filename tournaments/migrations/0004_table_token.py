"""TableToken, moved here from the api app with its rows: state first (on the old table), then
the table is renamed to tournaments_tabletoken."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_orderings_without_joins"),
        ("api", "0002_table_token_moves_to_tournaments"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TableToken",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("key_hash", models.CharField(editable=False, max_length=64, unique=True)),
                        ("label", models.CharField(blank=True, max_length=100, verbose_name="label")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("expires_at", models.DateTimeField(blank=True, null=True, verbose_name="expires at")),
                        ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked at")),
                        ("last_used_at", models.DateTimeField(blank=True, editable=False, null=True)),
                        ("created_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                        ("table", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="tokens", to="tournaments.table", verbose_name="table")),
                    ],
                    options={
                        "verbose_name": "table token",
                        "ordering": ["-created_at", "-id"],
                        "db_table": "api_tabletoken",
                    },
                ),
            ],
        ),
        migrations.AlterModelTable(name="tabletoken", table=None),
    ]

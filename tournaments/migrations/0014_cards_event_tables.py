"""One card per table for the whole event (issue 28, item 1): the event's numbered tables, each
round's Table linked to its event table, and a place on each table token for its event table
(filled by 0015, then made the token's table by 0016)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_room_scoring_voided_hands"),
    ]

    operations = [
        migrations.CreateModel(
            name="EventTable",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField(verbose_name="table")),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="event_tables",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "table of the event",
                "ordering": ["tournament_id", "number"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tournament", "number"), name="event_table_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1)),
                        name="event_table_number_positive",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="table",
            name="event_table",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="round_tables",
                to="tournaments.eventtable",
                verbose_name="table",
            ),
        ),
        migrations.AddField(
            model_name="tabletoken",
            name="event_table",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="tournaments.eventtable",
            ),
        ),
    ]

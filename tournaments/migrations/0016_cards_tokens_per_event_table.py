"""A table token now belongs to the event's table (its card), not to one round's table; every
round's table has its event table, once per round."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_cards_link_tables"),
    ]

    operations = [
        migrations.RemoveField(model_name="tabletoken", name="table"),
        migrations.RenameField(model_name="tabletoken", old_name="event_table", new_name="table"),
        migrations.AlterField(
            model_name="tabletoken",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="tokens",
                to="tournaments.eventtable",
                verbose_name="table",
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="event_table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="round_tables",
                to="tournaments.eventtable",
                verbose_name="table",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.UniqueConstraint(
                fields=("round", "event_table"), name="table_event_table_once"
            ),
        ),
    ]

"""Each player record gets an opaque, stable identity (`Player.uid`): added empty, filled with a
fresh UUID per existing row, then made unique and required (Django's documented way to add a
unique field to a table that has rows)."""

import uuid

from django.db import migrations, models


def fill(apps, schema_editor):
    player_model = apps.get_model("tournaments", "Player")
    rows = list(player_model.objects.filter(uid__isnull=True).only("pk"))
    for row in rows:
        row.uid = uuid.uuid4()
    player_model.objects.bulk_update(rows, ["uid"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_publish_room_to_site"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="uid",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]

"""Every round's table gets its event table (the tournament's table with that number), and every
table token the event table of the round's table it was printed for: stored tokens keep working,
now for that table in every round."""

from django.db import migrations


def link(apps, schema_editor):
    EventTable = apps.get_model("tournaments", "EventTable")
    Table = apps.get_model("tournaments", "Table")
    TableToken = apps.get_model("tournaments", "TableToken")
    found = {}
    for table in Table.objects.select_related("round").order_by("pk").iterator():
        key = (table.round.tournament_id, table.number)
        if key not in found:
            found[key], _made = EventTable.objects.get_or_create(
                tournament_id=key[0], number=key[1]
            )
        table.event_table_id = found[key].pk
        table.save(update_fields=["event_table"])
    for token in TableToken.objects.select_related("table").order_by("pk").iterator():
        token.event_table_id = Table.objects.get(pk=token.table_id).event_table_id
        token.save(update_fields=["event_table"])


def unlink(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    TableToken = apps.get_model("tournaments", "TableToken")
    Table.objects.update(event_table=None)
    TableToken.objects.update(event_table=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_cards_event_tables"),
    ]

    operations = [migrations.RunPython(link, unlink)]

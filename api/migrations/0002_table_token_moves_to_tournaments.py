"""TableToken moves to the tournaments app (the director's pages print its QR code); the table
itself is kept and renamed by tournaments' migration 0004."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("api", "0001_initial")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="TableToken")],
        ),
    ]


from django.conf import settings
import secrets

from django.db import migrations, models


def new_pin(taken: set[str]) -> str:  # as tournaments.models.new_pin when written
    while True:
        pin = f"{secrets.randbelow(10_000):04d}"
        if pin not in taken or len(taken) >= 10_000:
            return pin


def give_pins(apps, schema_editor):
    """Every existing entry gets its PIN (unique within its tournament); tournaments already
    under way keep confirming as they started (same phone, their cards carry no PIN), the
    others confirm with PINs."""
    Entry = apps.get_model("tournaments", "Entry")
    Tournament = apps.get_model("tournaments", "Tournament")
    taken: dict[int, set[str]] = {}
    for entry in Entry.objects.filter(pin="").only("pk", "tournament_id").iterator():
        pins = taken.setdefault(entry.tournament_id, set())
        entry.pin = new_pin(pins)
        pins.add(entry.pin)
        Entry.objects.filter(pk=entry.pk).update(pin=entry.pin)
    Tournament.objects.filter(state__in=["running", "finished"]).update(confirmation="same-phone")


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_import_job_progress'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='entry',
            name='pin',
            field=models.CharField(blank=True, help_text="Confirms the hands the other side enters (printed on the entry's card).", max_length=4, verbose_name='PIN'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='confirmation',
            field=models.CharField(choices=[('pin', 'The other side confirms with its PIN'), ('same-phone', "Either side confirms on the table's phone, no PIN")], default='pin', help_text="With PINs, the side that did not enter a hand confirms it with the PIN printed on its card; the table's code alone cannot. Same phone trusts whoever holds it.", max_length=12, verbose_name='confirming hands'),
        ),
        migrations.RunPython(give_pins, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('confirmation__in', ['pin', 'same-phone'])), name='tournament_confirmation_known'),
        ),
    ]

"""The home club's directors by default, named: on an installation of more than one club whose
home club has no named director, the accounts that directed it by default (every active
account that directs no club, but the administrators) become its named directors, as making
a second club now does (`tournaments.clubs.services.name_home_directors`). Nobody gains or
loses anything by it; from then on an account made later, or removed from another club,
directs no club."""

from django.conf import settings
from django.db import migrations


def name_the_home_clubs_directors(apps, schema_editor):
    Club = apps.get_model("tournaments", "Club")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    home = Club.objects.order_by("pk").first()
    if home is None or not Club.objects.exclude(pk=home.pk).exists():
        return  # one club: every account directs it by default, as before
    if home.directors.exists():
        return
    named = Club.directors.through.objects.values("user_id")
    accounts = User.objects.filter(is_active=True, is_superuser=False).exclude(pk__in=named)
    home.directors.add(*accounts)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0028_people_claim_codes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(name_the_home_clubs_directors, migrations.RunPython.noop),
    ]

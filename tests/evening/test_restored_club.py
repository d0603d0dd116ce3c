"""After `make restore` into a fresh club folder (issue 30, finding 12): the restored accounts
have no password, so the evening server's first start after the restore gives the director a
new password, shown once in the banner as on a first start; the restore says so."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from tests.tournaments.builders import make_director, make_match
from tournaments.exports.archive import dumps, export_archive
from tournaments.management.commands.serve import Command as Serve
from tournaments.models import Tournament
from tournaments.services import club

pytestmark = pytest.mark.django_db


def banner() -> str:
    out = io.StringIO()
    Serve(stdout=out).announce(8000)
    return out.getvalue()


@pytest.fixture
def restored(tmp_path, settings):
    """A tournament the account `director` directs, backed up; the laptop dies and the backup
    is restored into an empty database (no account at all)."""
    settings.PUBLIC_URL = None
    slug = make_match(make_director("director")).round.tournament.slug
    folder = tmp_path / "backups" / slug
    folder.mkdir(parents=True)
    text = dumps(export_archive(Tournament.objects.get(slug=slug)))
    (folder / f"{slug}-20261207T010000000000Z-hands.json").write_text(text)
    Tournament.objects.all().delete()
    get_user_model().objects.all().delete()
    out = io.StringIO()
    call_command("restore_backup", str(tmp_path / "backups"), stdout=out)
    return slug, out.getvalue()


def test_the_restore_says_how_the_director_gets_in(restored):
    _slug, said = restored
    assert "users created without a password: director" in said
    assert "gives the director a new password on its next start" in said
    assert "make director-password" in said


def test_the_first_start_after_a_restore_gives_the_director_a_password_shown_once(restored):
    slug, _ = restored
    assert not club.anyone_can_sign_in()

    first = banner()

    assert "Director sign-in: director / " in first
    assert "new one: make director-password" in first
    password = first.split("Director sign-in: director / ")[1].split()[0]
    user = authenticate(username="director", password=password)
    assert user is not None and user.is_superuser
    assert Tournament.objects.get(slug=slug).directors.filter(pk=user.pk).exists()
    again = banner()
    assert "Director sign-in" not in again  # shown once: the director can sign in now
    assert authenticate(username="director", password=password) is not None


def test_a_restore_of_tournaments_directed_by_others_still_gives_the_club_director_a_way_in(
    restored,
):
    get_user_model().objects.filter(username="director").update(username="aiko")
    text = banner()
    password = text.split("Director sign-in: director / ")[1].split()[0]
    assert authenticate(username="director", password=password).is_superuser


def test_an_account_that_signs_in_means_no_new_password(restored):
    get_user_model().objects.create_user("someone", password="a-long-password-1")
    assert "Director sign-in" not in banner()

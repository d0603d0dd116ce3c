"""Rows built once and loaded again (tests/built_once.py) land in a database that gave the home
club, or an account, another id than the database they were built in: under pytest-xdist the
worker that builds them and the one that loads them each made their own."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from tests.built_once import BuiltOnce
from tournaments.models import Club, Player, home_club

pytestmark = pytest.mark.django_db


class Undo(Exception):
    pass


def test_rows_built_where_the_club_had_another_id_load_by_its_address(tmp_path):
    here = home_club()
    built = BuiltOnce(tmp_path)

    def build() -> None:  # another database: the home club and the account under other ids
        Club.objects.filter(pk=here.pk).update(slug="moved-away")
        club = Club.objects.create(pk=here.pk + 40, slug=here.slug, name=here.name)
        get_user_model().objects.create_user("elsewhere", id=77)
        Player.objects.create(club=club, name="Aoi Sato")
        club.directors.add(get_user_model().objects.get(username="elsewhere"))

    with pytest.raises(Undo), transaction.atomic():
        assert built("moved-club", build)
        raise Undo  # back to this database as it was
    assert not Player.objects.exists()

    assert not built("moved-club", build)  # loaded, not built again
    player = Player.objects.get(name="Aoi Sato")
    assert player.club_id == here.pk
    assert [u.username for u in here.directors.all()] == ["elsewhere"]
    assert Club.objects.get(slug=here.slug).pk == here.pk

"""The Django admin covers every model, for anything the pages do not cover yet."""

import pytest
from django.apps import apps
from django.contrib import admin

from tournaments.models import StandingsSnapshot

from .builders import HAND_1, make_director, make_match, scorer


def test_every_domain_model_is_in_the_admin():
    missing = [
        m.__name__
        for m in apps.get_app_config("tournaments").get_models()
        if not admin.site.is_registered(m)
    ]
    assert missing == []


@pytest.mark.django_db
def test_every_admin_page_opens_for_a_superuser(client, django_user_model):
    from tournaments import services

    match = make_match(make_director())
    services.submit_hand(match=match, actor=scorer(match, "NS"), record=HAND_1)
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    for model in apps.get_app_config("tournaments").get_models():
        url = f"/admin/tournaments/{model._meta.model_name}/"
        assert client.get(url).status_code == 200, url
        first = model.objects.first()
        if first is not None:
            assert client.get(f"{url}{first.pk}/change/").status_code == 200, url


@pytest.mark.django_db
def test_a_snapshot_cannot_be_changed_once_written():
    from tournaments.services import standings

    match = make_match(make_director())
    standings.bump(match.round.tournament_id)
    snapshot = standings.recompute(tournament_id=match.round.tournament_id)
    snapshot.payload = {"rows": []}
    with pytest.raises(ValueError, match="immutable"):
        snapshot.save()
    assert StandingsSnapshot.objects.get().payload["rows"] != []

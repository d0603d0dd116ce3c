"""The public round page follows results live (issue 15 point 8): it subscribes to the
tournament's event stream, and its tables come alone from a fragment, a draft's to nobody."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.builders import make_director, make_match
from tournaments.demo import simulate
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def test_the_round_page_subscribes_to_the_stream_and_its_fragment_has_the_tables(client):
    match = make_match(make_director("td"))
    slug = match.round.tournament.slug
    page = client.get(f"/t/{slug}/rounds/1/").content.decode()
    assert f'data-live-events="/api/v1/tournaments/{slug}/events' in page
    assert f'data-live-fragment="/t/{slug}/rounds/1/fragment/"' in page
    simulate.play_hand(match, random.Random(1), confirm=False)
    fragment = client.get(f"/t/{slug}/rounds/1/fragment/")
    body = fragment.content.decode()
    assert fragment["Cache-Control"] == "no-cache"
    assert "<html" not in body and "1 awaiting confirmation" in body


def test_a_drafts_fragment_is_not_found_for_the_public(client):
    match = make_match(make_director("td"))
    Round.objects.filter(pk=match.round_id).update(state=Round.State.DRAFT)
    slug = match.round.tournament.slug
    assert client.get(f"/t/{slug}/rounds/1/fragment/").status_code == 404
    assert client.get(f"/t/{slug}/rounds/9/fragment/").status_code == 404

"""Club ratings from finished matches: both partners rated, tables by finishing order, the
same ratings from the command as from the updates, and a leaderboard per game."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from tournaments import services
from tournaments.demo import simulate
from tournaments.models import Match, Rating
from tournaments.services import ratings

from .builders import HAND_1, HAND_2, make_director, make_match, scorer

pytestmark = pytest.mark.django_db


def finish(match, records=(HAND_1, HAND_2)) -> None:
    for record in records:
        version = services.submit_hand(
            match=match, actor=scorer(match, "NS"), record=record
        ).submission
        services.confirm_hand(
            submission=version, expected_version=version.version, actor=scorer(match, "EW")
        )


def test_a_finished_partnership_match_rates_both_partners_of_each_side():
    match = make_match(make_director(), rules={"preset": "standard", "options": {"target": 100}})
    finish(match)
    assert ratings.recompute(game="spades") == 4
    by_name = {r.player.name: r for r in Rating.objects.select_related("player")}
    winners, losers = [by_name["Chika"], by_name["Dan"]], [by_name["Aiko"], by_name["Ben"]]
    assert all(r.wins == 1 and r.games == 1 for r in winners)
    assert all(r.wins == 0 and r.games == 1 for r in losers)
    assert min(r.mu for r in winners) > max(r.mu for r in losers)
    assert all(len(r.history) == 1 and r.history[0][1] == match.pk for r in winners + losers)


def test_a_table_of_four_rates_by_finishing_order():
    match = make_match(
        make_director(),
        game="solo-whist",
        rules="phillips",
        fmt="individual",
        match_length="hands",
        match_hands=4,
    )
    simulate.play_match(match, random.Random(11))
    ratings.recompute(game="solo-whist")
    places = {s.entry.player_id: s.place for s in match.seats.select_related("entry")}
    mus = {r.player_id: r.mu for r in Rating.objects.filter(game="solo-whist")}
    best, worst = min(places.values()), max(places.values())
    first = [p for p, place in places.items() if place == best]
    last = [p for p, place in places.items() if place == worst]
    assert best != worst  # this seed's evening has a clear first and last
    assert min(mus[p] for p in first) > max(mus[p] for p in last)


def test_ratings_update_when_a_match_finishes(django_capture_on_commit_callbacks, settings):
    settings.REDIS_URL = None
    match = make_match(make_director(), rules={"preset": "standard", "options": {"target": 100}})
    with django_capture_on_commit_callbacks(execute=True):
        finish(match)
    assert Rating.objects.filter(game="spades").count() == 4


def test_the_recompute_command_gives_the_same_ratings_from_scratch():
    director = make_director()
    for _ in range(3):
        finish(make_match(director, rules={"preset": "standard", "options": {"target": 100}}))
    ratings.recompute(game="spades")
    before = sorted(Rating.objects.values_list("player_id", "mu", "sigma", "games", "wins"))
    Rating.objects.all().delete()
    call_command("recompute_ratings", "spades")
    after = sorted(Rating.objects.values_list("player_id", "mu", "sigma", "games", "wins"))
    assert before == after and len(after) == 12


def test_unfinished_matches_are_not_rated():
    match = make_match(make_director())
    finish(match, (HAND_1,))  # target 500: still playing
    assert Match.objects.get(pk=match.pk).state == "playing"
    assert ratings.recompute(game="spades") == 0

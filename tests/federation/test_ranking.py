"""The federation ranking: the engine's rating over the opted-in clubs' events in the order they
ended, a person once across clubs, opting out, the club's own leaderboard untouched, and the
recompute idempotent and safe beside another run."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tournaments.federation import services as federation
from tournaments.models import (
    FederationRating,
    FederationRun,
    Match,
    Person,
    Player,
    Rating,
    Round,
    Tournament,
)
from tournaments.ratings import RatedGame, rate
from tournaments.services import NotAllowed
from tournaments.services import ratings as club_ratings

from .builders import director_of, finished_event, make_club

pytestmark = pytest.mark.django_db

NORTH_TEAMS = [("Aiko", "Ben"), ("Chika", "Dan")]
SOUTH_TEAMS = [("Emi", "Fumi"), ("Goro", "Hana")]


@pytest.fixture
def clubs(in_process_tasks):
    north, south, west = make_club("north"), make_club("south"), make_club("west", federation=False)
    return {club.slug: (club, director_of(club)) for club in (north, south, west)}


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a block's after-commit work, as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def subject(player: Player) -> tuple[str, int]:
    return ("person", player.person_id) if player.person_id else ("player", player.pk)


def expected(game: str) -> dict[tuple[str, int], tuple[float, float, int, int]]:
    """Independently of the feature: the engine over every finished match of the opted-in
    clubs' finished events, one game each at its event's end (its last round's closing), the
    events by (end, id), their matches by (finished, id); {subject: (mu, sigma, games, events)}."""
    ends = []
    for t in Tournament.objects.filter(game=game, state="finished", club__federation=True):
        ends.append((max(r.closed_at for r in Round.objects.filter(tournament=t)), t.pk))
    numbers: dict[tuple[str, int], int] = {}
    games, events_of = [], {}
    for end, pk in sorted(ends):
        matches = Match.objects.filter(round__tournament_id=pk, state="finished", is_bye=False)
        for match in matches.order_by("finished_at", "id"):
            sides: dict[str, list[int]] = {}
            places: dict[str, int] = {}
            for seat in match.seats.select_related("entry__team__first", "entry__team__second"):
                for player in (seat.entry.team.first, seat.entry.team.second):
                    n = numbers.setdefault(subject(player), len(numbers) + 1)
                    sides.setdefault(seat.side, []).append(n)
                    events_of.setdefault(n, set()).add(pk)
                places[seat.side] = seat.place or 1
            order = sorted(sides)
            games.append(
                RatedGame(
                    len(games) + 1,
                    end,
                    tuple(tuple(sides[s]) for s in order),
                    tuple(places[s] for s in order),
                )
            )
    rated = rate(games)
    return {
        key: (rated[n].mu, rated[n].sigma, rated[n].games, len(events_of[n]))
        for key, n in numbers.items()
    }


def stored(game: str) -> dict[tuple[str, int], tuple[float, float, int, int]]:
    return {
        (("person", r.person_id) if r.person_id else ("player", r.player_id)): (
            r.mu,
            r.sigma,
            r.games,
            r.events,
        )
        for r in FederationRating.objects.filter(game=game)
    }


def test_the_federation_rating_is_the_engines_over_the_opted_in_events_in_the_order_they_ended(
    clubs,
):
    (north, n_td), (_south, s_td), (west, w_td) = clubs["north"], clubs["south"], clubs["west"]
    first = finished_event(n_td, "North 1", NORTH_TEAMS, seed=1)
    finished_event(s_td, "South 1", SOUTH_TEAMS, seed=2)
    finished_event(n_td, "North 2", [("Aiko", "Dan"), ("Chika", "Ben")], seed=3)
    finished_event(w_td, "West 1", [("Aiko", "Ben"), ("Ivo", "Jun")], seed=4)
    # The first event made ended last: the order is by end, not by making.
    Round.objects.filter(tournament=first).update(
        closed_at=Round.objects.order_by("-closed_at").values_list("closed_at", flat=True)[0]
        + timedelta(hours=1)
    )
    federation.recompute(game="spades")

    want = expected("spades")
    assert stored("spades") == want
    west_members = set(Player.objects.filter(club=west).values_list("pk", flat=True))
    assert not west_members & {pk for kind, pk in want if kind == "player"}
    assert len(want) == 8  # north's four and south's four; west's players not at all
    aiko = FederationRating.objects.get(player__name="Aiko", player__club=north)
    assert [point[1] for point in aiko.history] == sorted(
        Tournament.objects.filter(club=north).values_list("pk", flat=True), reverse=True
    )  # the first event counted last


def test_opting_out_takes_a_clubs_events_out_at_the_next_recompute(clubs, committed):
    (_north, n_td), (south, s_td) = clubs["north"], clubs["south"]
    with committed():
        finished_event(n_td, "North 1", NORTH_TEAMS, seed=1)
    with committed():
        finished_event(s_td, "South 1", SOUTH_TEAMS, seed=2)
    assert FederationRating.objects.filter(player__club=south).count() == 4  # finishing re-rated

    with committed():
        federation.set_federation(club=south, joined=False, actor=s_td)  # re-rated after commit

    assert not FederationRating.objects.filter(player__club=south).exists()
    assert stored("spades") == expected("spades") and len(stored("spades")) == 4
    with committed():
        federation.set_federation(club=south, joined=True, actor=s_td)
    assert FederationRating.objects.filter(player__club=south).count() == 4


def test_only_a_clubs_directors_put_it_in_or_out(clubs):
    (north, _n_td), (_south, s_td) = clubs["north"], clubs["south"]
    with pytest.raises(NotAllowed) as refused:
        federation.set_federation(club=north, joined=False, actor=s_td)
    assert refused.value.code == "not-club-director"
    north.refresh_from_db()
    assert north.federation


def test_a_person_with_records_in_two_clubs_is_rated_once_over_both_clubs_events(clubs):
    (north, n_td), (south, s_td) = clubs["north"], clubs["south"]
    finished_event(n_td, "North 1", NORTH_TEAMS, seed=1)
    finished_event(s_td, "South 1", [("Aiko", "Fumi"), ("Goro", "Hana")], seed=2)
    person = Person.objects.create()
    linked = Player.objects.filter(name="Aiko")
    assert linked.count() == 2  # one member record in each club
    linked.update(person=person)
    federation.recompute(game="spades")

    rating = FederationRating.objects.get(person=person)
    assert rating.player_id is None
    assert (rating.events, sorted(rating.clubs)) == (2, sorted([north.pk, south.pk]))
    assert not FederationRating.objects.filter(player__in=linked).exists()
    assert stored("spades") == expected("spades")


def test_a_clubs_own_leaderboard_is_the_same_with_the_federation_or_without(clubs):
    (_north, n_td), (south, s_td) = clubs["north"], clubs["south"]
    finished_event(n_td, "North 1", NORTH_TEAMS, seed=1)
    finished_event(s_td, "South 1", SOUTH_TEAMS, seed=2)
    club_ratings.recompute(game="spades")

    def club_board():
        return list(Rating.objects.order_by("player_id").values_list("player_id", "mu", "sigma"))

    before = club_board()
    assert len(before) == 8
    federation.set_federation(club=south, joined=False, actor=s_td)
    federation.recompute(game="spades")
    assert club_board() == before
    club_ratings.recompute(game="spades")
    assert club_board() == before


def test_a_second_recompute_with_nothing_changed_writes_nothing(clubs, committed):
    with committed():
        finished_event(clubs["north"][1], "North 1", NORTH_TEAMS, seed=1)
    run = FederationRun.objects.get(game="spades")
    rows = list(FederationRating.objects.order_by("pk").values_list("pk", "mu", "version"))

    outcome = federation.recompute(game="spades")

    assert not outcome.written and outcome.version == run.version
    assert outcome.people == run.people == len(rows) > 0  # what is stored, said again
    assert list(FederationRating.objects.order_by("pk").values_list("pk", "mu", "version")) == rows
    FederationRun.objects.filter(game="spades").update(inputs="")  # as if the inputs changed
    again = federation.recompute(game="spades")
    assert again.written and again.version == run.version + 1
    kept = list(FederationRating.objects.order_by("pk").values_list("pk", "mu"))
    assert kept == [(pk, mu) for pk, mu, _v in rows]  # same rows, same ratings: the same page


def test_a_run_overtaken_by_another_computes_again_and_writes_once(clubs, monkeypatch):
    finished_event(clubs["north"][1], "North 1", NORTH_TEAMS, seed=1)
    finished_event(clubs["south"][1], "South 1", SOUTH_TEAMS, seed=2)
    federation.recompute(game="spades")
    FederationRun.objects.filter(game="spades").update(inputs="")
    version = FederationRun.objects.get(game="spades").version
    read = federation.federation_events
    calls = []

    def overtaken(game):
        calls.append(game)
        if len(calls) == 1:  # while this run computes, another one writes
            monkeypatch.setattr(federation, "federation_events", read)
            FederationRun.objects.filter(game="spades").update(inputs="")
            assert federation.recompute(game=game).written
            monkeypatch.setattr(federation, "federation_events", overtaken)
        return read(game)

    monkeypatch.setattr(federation, "federation_events", overtaken)
    outcome = federation.recompute(game="spades")

    assert outcome.attempts == 2 and not outcome.written  # the other run's result stands
    assert FederationRun.objects.get(game="spades").version == version + 1
    assert stored("spades") == expected("spades")


def test_the_command_rates_what_a_missed_task_left_behind(clubs):
    from io import StringIO

    from django.core.management import call_command

    finished_event(clubs["north"][1], "North 1", NORTH_TEAMS, seed=1)  # no commit: no task
    assert not FederationRating.objects.exists()
    out = StringIO()
    call_command("recompute_federation", "spades", stdout=out)
    assert stored("spades") == expected("spades") and "written" in out.getvalue()


def test_an_opted_out_clubs_finished_event_schedules_nothing_an_opted_in_ones_does(
    clubs, committed, monkeypatch
):
    scheduled: list[str] = []
    monkeypatch.setattr(federation, "schedule", scheduled.append)
    with committed():
        finished_event(clubs["west"][1], "West 1", NORTH_TEAMS, seed=1)  # west is not in it
    assert scheduled == []
    with committed():
        finished_event(clubs["north"][1], "North 1", NORTH_TEAMS, seed=2)
    assert set(scheduled) == {"spades"}  # the results announced after the event finished

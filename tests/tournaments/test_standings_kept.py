"""The snapshot service starts from the standings it kept for the latest snapshot and reads only
the matches changed since (issue 34): after every confirmed hand its snapshot is the one a
recompute reading the whole event writes, a change about no one match (entries, settings, a
round) reads the whole event again, and so does a snapshot the process did not write itself."""

from __future__ import annotations

import pytest

from tournaments.models import (
    Entry,
    Match,
    Player,
    Seat,
    StandingsChange,
    StandingsSnapshot,
    Table,
    Team,
    Tournament,
)
from tournaments.services import history as hist
from tournaments.services import standings

from .builders import HAND_1, HAND_2, make_director, make_match
from .test_standings_service import play

TARGET_100 = {"preset": "standard", "options": {"target": 100}}


def second_match(first: Match, names: tuple[str, str, str, str]) -> Match:
    """Another table of the first match's round, with two new teams."""
    table = Table.objects.create(round=first.round, number=2)
    match = Match.objects.create(round=first.round, table=table)
    for side, pair in (("NS", names[:2]), ("EW", names[2:])):
        team = Team.objects.create(
            name=" & ".join(pair),
            first=Player.objects.create(name=pair[0]),
            second=Player.objects.create(name=pair[1]),
        )
        entry = Entry.objects.create(tournament=first.round.tournament, team=team)
        Seat.objects.create(match=match, entry=entry, side=side, seats=side)
    return match


@pytest.fixture
def whole_reads(monkeypatch):
    """How many times a recompute read the whole event's results."""
    reads = []
    read = hist.event_results

    def counted(tournament):
        reads.append(tournament.pk)
        return read(tournament)

    monkeypatch.setattr(hist, "event_results", counted)
    return reads


def latest_payload(tournament_id: int) -> dict:
    return StandingsSnapshot.objects.filter(tournament_id=tournament_id).first().payload


@pytest.mark.django_db
def test_after_every_confirmed_hand_the_snapshot_is_a_whole_recompute(
    settings, django_capture_on_commit_callbacks, whole_reads
):
    settings.REDIS_URL = None
    first = make_match(make_director(), rules=TARGET_100)
    other = second_match(first, ("Eri", "Fumi", "Goro", "Hana"))
    tournament = first.round.tournament
    steps = [(first, HAND_1), (other, HAND_1), (first, HAND_2), (other, HAND_2)]
    for match, record in steps:
        with django_capture_on_commit_callbacks(execute=True):
            play(match, (record,))
        fresh = Tournament.objects.get(pk=tournament.pk)
        assert latest_payload(tournament.pk) == standings.compute_payload(fresh)
    assert Match.objects.filter(state=Match.State.FINISHED).count() == 2
    rows = {row["name"]: row for row in latest_payload(tournament.pk)["rows"]}
    assert rows["Chika & Dan"]["values"]["match_points"] == 2
    # the first snapshot read the event; every later one only its changed match (the
    # compute_payload calls above read it whole on purpose: one each)
    assert len(whole_reads) == 1 + len(steps)
    # what the snapshots counted is not kept
    assert not StandingsChange.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
def test_a_change_about_no_one_match_reads_the_whole_event(
    settings, django_capture_on_commit_callbacks, whole_reads
):
    settings.REDIS_URL = None
    match = make_match(make_director(), rules=TARGET_100)
    tournament = match.round.tournament
    with django_capture_on_commit_callbacks(execute=True):
        play(match, (HAND_1,))
    reads = len(whole_reads)
    Team.objects.filter(name="Aiko & Ben").update(name="Aiko & Bunta")
    standings.bump(tournament.pk)  # e.g. an entry withdrawn: no match named
    standings.recompute(tournament_id=tournament.pk)
    assert len(whole_reads) == reads + 1
    names = [row["name"] for row in latest_payload(tournament.pk)["rows"]]
    assert "Aiko & Bunta" in names


@pytest.mark.django_db
def test_a_new_name_shows_in_the_next_snapshot_after_a_hand(
    settings, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = None
    match = make_match(make_director(), rules=TARGET_100)
    with django_capture_on_commit_callbacks(execute=True):
        play(match, (HAND_1,))
    Team.objects.filter(name="Chika & Dan").update(name="Chika & Daichi")
    with django_capture_on_commit_callbacks(execute=True):
        play(match, (HAND_2,))
    names = [row["name"] for row in latest_payload(match.round.tournament_id)["rows"]]
    assert "Chika & Daichi" in names and "Chika & Dan" not in names


@pytest.mark.django_db
def test_a_snapshot_this_process_did_not_write_means_a_whole_read(
    settings, django_capture_on_commit_callbacks, whole_reads
):
    settings.REDIS_URL = None
    match = make_match(make_director(), rules=TARGET_100)
    tournament = match.round.tournament
    with django_capture_on_commit_callbacks(execute=True):
        play(match, (HAND_1,))
    latest = StandingsSnapshot.objects.filter(tournament=tournament).first()
    StandingsSnapshot.objects.create(
        tournament=tournament,
        version=latest.version + 1,
        inputs_version=latest.inputs_version + 1,
        payload=latest.payload,
    )  # another worker's, say
    Tournament.objects.filter(pk=tournament.pk).update(results_version=latest.inputs_version + 1)
    reads = len(whole_reads)
    with django_capture_on_commit_callbacks(execute=True):
        play(match, (HAND_2,))
    assert len(whole_reads) == reads + 1
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert latest_payload(tournament.pk) == standings.compute_payload(fresh)


@pytest.mark.django_db
def test_every_count_of_the_results_notes_what_it_was_about():
    match = make_match(make_director())
    tournament = match.round.tournament
    standings.bump(tournament.pk, match_id=match.pk)
    standings.bump(tournament.pk)
    fresh = Tournament.objects.get(pk=tournament.pk)
    noted = list(
        StandingsChange.objects.filter(tournament=tournament)
        .order_by("inputs_version")
        .values_list("inputs_version", "match_id")
    )
    assert noted == [(fresh.results_version - 1, match.pk), (fresh.results_version, None)]

"""The tournament archive (export, restore, the `export` and `import` commands) and the hand
records exported from a tournament (`match/1`, `hand/1` JSON Lines), checked by the rules
engine."""

from __future__ import annotations

import io
import json
import random

import jsonschema
import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction
from django.db.models import Count, Q
from django.test import override_settings

from games.records import check_record
from games.schema import load_schema
from tournaments import services
from tournaments.demo import club as demo
from tournaments.demo import simulate
from tournaments.exports import archive, records
from tournaments.live import events
from tournaments.models import (
    AuditEvent,
    Entry,
    Hand,
    HandSubmission,
    KeepApart,
    Match,
    Player,
    Rating,
    Round,
    Seat,
    StandingsSnapshot,
    Table,
    Team,
    Tournament,
)
from tournaments.services import Actor, notify
from tournaments.services import standings as standings_service

pytestmark = pytest.mark.django_db

MODELS = [
    Tournament,
    Player,
    Team,
    Entry,
    Round,
    Table,
    Match,
    Seat,
    Hand,
    HandSubmission,
    StandingsSnapshot,
    AuditEvent,
]


@pytest.fixture
def after_commit(settings, django_capture_on_commit_callbacks):
    """Run what workflows schedule after commit (standings, ratings) in-process."""
    settings.REDIS_URL = None

    def run():
        return django_capture_on_commit_callbacks(execute=True)

    return run


def build_club() -> int:
    """The demo Spades Swiss (6 teams, two rounds played, one in play), with a director's
    correction (superseded and re-scored versions), a disputed hand entered again (a rejected
    version superseded), a hand awaiting confirmation, club numbers and a Japanese name. One
    transaction: the standings are computed once, after commit, from all of it."""
    with transaction.atomic():
        tournament = demo.build_spades(11, teams=6, played=2)
        director = demo.director_actor()
        rng = random.Random(3)
        match = (
            Match.objects.filter(round__tournament=tournament, round__number=1, is_bye=False)
            .order_by("table__number")
            .first()
        )
        versions = services.current_versions(match)
        last = versions[-1]
        before = versions[-2].result["after"] if len(versions) > 1 else None
        record = simulate.simulator("spades").random_hand(
            rng, "standard", dealer=last.record["dealer"], before=before
        )
        for key in ("format", "game", "rules", "before"):
            record.pop(key, None)
        services.correct_hand(
            hand=last.hand,
            actor=director,
            record=record,
            expected_version=last.version,
            reason="the score sheet was misread",
        )
        pending = HandSubmission.objects.get(
            hand__match__round__tournament=tournament, status=HandSubmission.Status.PENDING
        )
        scorers = simulate.scorers(pending.hand.match)
        other = simulate.answerer(pending.hand.match, pending)
        mine = next(a for a in scorers if a.side == pending.submitted_side)
        services.reject_hand(
            submission=pending,
            expected_version=pending.version,
            actor=other,
            reason="4 tricks for North",
        )
        again = services.submit_hand(
            match=pending.hand.match,
            actor=other,
            record=pending.raw,
            number=pending.hand.number,
            idempotency_key="entered-again-0001",
        ).submission
        services.confirm_hand(submission=again, expected_version=again.version, actor=mine)
        simulate.play_hand(pending.hand.match, rng, confirm=False)  # one awaiting confirmation
        for n, player in enumerate(Player.objects.order_by("id"), 1):
            player.club_number = f"K{n:04d}"
            if n == 1:
                player.name = "佐藤 愛子"
            player.save()
    return tournament.pk


def clean() -> None:
    wipe()
    Rating.objects.all().delete()


@pytest.fixture(scope="module")
def club_id(django_db_setup, django_db_blocker):
    """The club tournament, built once for this module (each test's changes roll back with its
    transaction) and removed afterwards."""
    with django_db_blocker.unblock(), override_settings(REDIS_URL=None):
        try:
            yield build_club()
        finally:
            clean()


@pytest.fixture
def club(club_id, settings) -> Tournament:
    settings.REDIS_URL = None
    return Tournament.objects.get(pk=club_id)


@pytest.fixture
def solo(after_commit) -> Tournament:
    with after_commit():
        return demo.build_solo_whist(5, players=8, rounds=2)


def wipe() -> None:
    """An empty database (but for its migrations)."""
    Tournament.objects.all().delete()
    Team.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in [*MODELS, get_user_model()]}


def without_time_of_export(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "exported_at"}


def assert_constraints_hold(tournament: Tournament) -> None:
    versions = HandSubmission.objects.filter(hand__match__round__tournament=tournament)
    per_hand = versions.values("hand").annotate(
        current=Count("id", filter=Q(is_current=True)),
        confirmed=Count("id", filter=Q(status="confirmed")),
    )
    assert per_hand and all(row["current"] == 1 for row in per_hand)
    assert all(row["confirmed"] <= 1 for row in per_hand)
    keys = list(
        HandSubmission.objects.exclude(idempotency_key=None).values_list(
            "idempotency_key", flat=True
        )
    )
    assert len(keys) == len(set(keys))
    for version in versions.filter(superseded_by__isnull=False).select_related("superseded_by"):
        assert version.superseded_by.hand_id == version.hand_id
        assert version.superseded_by.version > version.version


# -- the archive -------------------------------------------------------------------------------


def test_every_relation_of_the_archived_models_is_written_or_implied():
    for model, relations in archive.RELATIONS.items():
        found = {f.name for f in model._meta.concrete_fields if f.is_relation}
        assert found == set(relations), f"{model.__name__}: archive its new relation"


def test_the_archive_holds_every_version_of_every_hand_and_the_audit_trail(club):
    document = archive.export_archive(club)
    assert document["format"] == "tricktable-archive/1"
    assert document["directors"] == ["director"]
    assert document["tournament"]["slug"] == club.slug
    assert document["tournament"]["tiebreaks"] == club.tiebreaks
    options = {f.name for f in Tournament._meta.concrete_fields if not f.is_relation} - {"id"}
    assert set(document["tournament"]) == options, "every option of the tournament"
    versions = [v for hand in document["hands"] for v in hand["versions"]]
    assert (
        len(versions) == HandSubmission.objects.filter(hand__match__round__tournament=club).count()
    )
    statuses = {v["status"] for v in versions}
    assert statuses == {"confirmed", "pending", "rejected", "superseded"}
    by_id = {v["id"]: v for v in versions}
    rejected = next(v for v in versions if v["status"] == "rejected")
    assert by_id[rejected["superseded_by"]]["idempotency_key"] == "entered-again-0001"
    corrected = next(v for v in versions if v["reason"] == "the score sheet was misread")
    assert corrected["source"] == "director" and corrected["decided_by"] == "director"
    assert {"raw", "record", "result", "submitted_label", "submitted_at", "decided_at"} <= set(
        corrected
    )
    actions = {event["action"] for event in document["audit"]}
    assert {"hand-corrected", "round-published", "round-closed"} <= actions
    rows = document["standings"][-1]["payload"]["rows"]
    assert sorted(row["entry"] for row in rows) == list(range(1, 7)), "archive ids, not pks"


def test_an_archive_restored_into_an_empty_database_exports_the_same_again(
    club, after_commit, monkeypatch
):
    first = archive.export_archive(club)
    text = archive.dumps(first)
    assert json.loads(text) == first
    payload = standings_service.latest(tournament=club).snapshot.payload
    wipe()
    announced, published, scheduled = [], [], []
    unsubscribe = notify.subscribe(lambda kind, data: announced.append(kind))
    monkeypatch.setattr(events, "publish", lambda *args, **kwargs: published.append(args))
    real = standings_service.schedule
    monkeypatch.setattr(
        standings_service, "schedule", lambda tid: (scheduled.append(tid), real(tid))
    )
    try:
        with after_commit():
            restored = archive.restore(archive=json.loads(text))
    finally:
        unsubscribe()
    tournament = restored.tournament
    assert announced == [] and published == [], "a restore announces nothing"
    assert scheduled == [tournament.pk], "one standings schedule after commit"
    assert Rating.objects.filter(game="spades").exists(), "ratings recomputed after commit"
    again = archive.export_archive(tournament)
    assert without_time_of_export(again) == without_time_of_export(first)
    assert_constraints_hold(tournament)
    latest = standings_service.latest(tournament=tournament)
    assert not latest.stale and latest.snapshot.version == len(first["standings"])
    names = [(r["rank"], r["name"], r["values"]) for r in latest.snapshot.payload["rows"]]
    assert names == [(r["rank"], r["name"], r["values"]) for r in payload["rows"]]
    recomputed = standings_service.compute_payload(tournament)
    assert recomputed == latest.snapshot.payload, "the restored results give the same standings"
    user = tournament.directors.get()
    assert user.username == "director" and not user.has_usable_password()
    assert restored.created_users == ["director"]


def test_affiliations_and_pairs_kept_apart_survive_the_round_trip(solo):
    director = Actor(user=solo.directors.get())
    first, second, third = solo.entries.order_by("pk")[:3]
    services.set_affiliation(entry=first, actor=director, affiliation="Koenji Club")
    services.keep_apart(
        tournament=solo, actor=director, first=second, second=third, reason="a couple"
    )
    names = [entry.name for entry in (first, second, third)]
    document = archive.export_archive(solo)
    wipe()

    tournament = archive.restore(archive=json.loads(archive.dumps(document))).tournament

    pair = KeepApart.objects.get(tournament=tournament)
    assert [pair.first.name, pair.second.name, pair.reason] == [*names[1:], "a couple"]
    assert tournament.entries.get(player__name=names[0]).affiliation == "Koenji Club"
    older = json.loads(archive.dumps(document))
    del older["kept_apart"]  # an archive written before pairs could be kept apart
    wipe()
    assert archive.restore(archive=older).tournament.slug == solo.slug


def test_pins_and_the_confirmation_mode_survive_the_round_trip_and_old_archives_get_pins(solo):
    """An entry's PIN (issue 14) is restored as it was; an archive written before PINs gives
    every entry a fresh one, unique in the tournament, so its hands can still be confirmed."""
    solo.confirmation = "same-phone"
    solo.save(update_fields=["confirmation"])
    pins = {entry.name: entry.pin for entry in solo.entries.all()}
    document = archive.export_archive(solo)
    wipe()
    tournament = archive.restore(archive=json.loads(archive.dumps(document))).tournament
    assert {entry.name: entry.pin for entry in tournament.entries.all()} == pins
    assert tournament.confirmation == "same-phone"

    older = json.loads(archive.dumps(document))
    for row in older["entries"]:
        del row["pin"]  # written before PINs
    wipe()
    restored = archive.restore(archive=older).tournament.entries.values_list("pin", flat=True)
    assert all(len(pin) == 4 and pin.isdigit() for pin in restored)
    assert len(set(restored)) == len(restored) == len(pins)


def test_solo_whist_fractions_survive_the_round_trip(solo):
    first = archive.export_archive(solo)
    wipe()
    tournament = archive.restore(archive=json.loads(archive.dumps(first))).tournament
    assert without_time_of_export(archive.export_archive(tournament)) == without_time_of_export(
        first
    )
    seat_points = set(
        Seat.objects.filter(match__round__tournament=tournament).values_list(
            "points_against", flat=True
        )
    )
    assert any("/" in p for p in seat_points), "exact thirds, as written"
    assert tournament.points_bye == solo.points_bye


def test_a_second_restore_is_refused_and_changes_nothing(club):
    document = archive.export_archive(club)
    before = counts()
    with pytest.raises(archive.AlreadyHeld) as refused:
        archive.restore(archive=document)
    assert refused.value.code == "tournament-exists"
    assert "already holds the tournament" in refused.value.message
    assert counts() == before


def test_idempotency_keys_already_held_refuse_the_restore(club):
    document = archive.export_archive(club)
    document["tournament"]["slug"] = "a-copy"
    before = counts()
    with pytest.raises(archive.AlreadyHeld) as refused:
        archive.restore(archive=document)
    assert refused.value.code == "idempotency-key-taken"
    assert counts() == before


@pytest.mark.parametrize(
    "spoil, code",
    [
        (lambda d: d.update(format="tricktable-archive/9"), "unsupported-archive"),
        (lambda d: d.pop("format"), "bad-archive"),
        (lambda d: d.update(seats="nope"), "bad-archive"),
        (lambda d: d["tournament"].pop("slug"), "bad-archive"),
        (lambda d: d["tournament"].update(slug="../etc"), "bad-archive"),
        (lambda d: d["seats"][0].update(entry=999), "bad-archive"),
        (lambda d: d["rounds"][0].update(closed_at="yesterday"), "bad-archive"),
        (
            lambda d: d["hands"][0]["versions"].append(
                dict(d["hands"][0]["versions"][0], id=10**6)
            ),
            "bad-archive",
        ),  # the same idempotency key twice
        (
            lambda d: d["hands"][0]["versions"].append(
                dict(d["hands"][0]["versions"][0], id=10**6, version=9, idempotency_key=None)
            ),
            "archive-inconsistent",
        ),  # two current versions of one hand
    ],
)
def test_a_broken_archive_is_refused_with_a_reason_and_nothing_written(club, spoil, code):
    document = archive.export_archive(club)
    wipe()
    spoil(document)
    before = counts()
    with pytest.raises(archive.ArchiveError) as refused:
        archive.restore(archive=document)
    assert refused.value.code == code and refused.value.message
    assert counts() == before


def test_only_the_system_or_a_superuser_restores(club):
    document = archive.export_archive(club)
    wipe()
    someone = Actor(user=get_user_model().objects.create_user("someone"))
    with pytest.raises(services.NotAllowed):
        archive.restore(archive=document, actor=someone)
    assert not Tournament.objects.exists()


def test_players_with_a_club_number_already_held_are_reused(club):
    document = archive.export_archive(club)
    Tournament.objects.all().delete()
    Team.objects.all().delete()
    Player.objects.exclude(club_number="K0001").delete()
    held = Player.objects.get()
    restored = archive.restore(archive=document)
    assert restored.reused_players == 1
    assert Player.objects.filter(club_number="K0001").count() == 1
    entry = Entry.objects.get(
        Q(team__first=held) | Q(team__second=held), tournament=restored.tournament
    )
    assert held.name == "佐藤 愛子" and held.name in {entry.team.first.name, entry.team.second.name}
    assert Player.objects.count() == len(document["players"])


# -- commands ----------------------------------------------------------------------------------


def test_the_export_and_import_commands_round_trip_through_a_file(club, tmp_path):
    out = io.StringIO()
    call_command("export", club.slug, stdout=out)
    assert json.loads(out.getvalue())["format"] == "tricktable-archive/1"
    path = tmp_path / "club.json"
    call_command("export", club.slug, "-o", str(path), stderr=io.StringIO())
    first = json.loads(path.read_text(encoding="utf-8"))
    wipe()
    printed = io.StringIO()
    call_command("import", str(path), stdout=printed)
    assert "Restored 'friday-night-spades'" in printed.getvalue()
    assert f"{len(first['hands'])} hands" in printed.getvalue()
    with pytest.raises(CommandError, match="already holds the tournament"):
        call_command("import", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export", "no-such-slug", stdout=io.StringIO())


def test_import_refuses_a_file_that_is_not_an_archive(tmp_path):
    path = tmp_path / "hands.json"
    path.write_text('{"format": "match/1", "hands": []}', encoding="utf-8")
    with pytest.raises(CommandError, match="not a TrickTable archive"):
        call_command("import", str(path))
    path.write_text("{oops", encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import", str(path))


# -- hand records --------------------------------------------------------------------------------


def test_each_finished_match_is_a_match_record_the_engine_accepts_with_its_result(club):
    schema = jsonschema.Draft202012Validator(load_schema("hand-records"))
    finished = Match.objects.filter(round__tournament=club, state="finished", is_bye=False)
    assert finished.count() >= 6
    for match in finished:
        record = records.match_record(match)
        schema.validate(record)
        result = check_record(json.loads(records.dumps(record)))
        assert result["ok"], result.get("errors")
        assert result["after"] == match.result["after"]
        assert len(record["hands"]) == match.result["hands"]
        names = {s.entry.team.first.name for s in match.seats.all()}
        assert names <= set(record["seats"].values()) and list(record["seats"]) == list("NESW")


def test_a_match_record_stops_before_a_hand_awaiting_confirmation(club):
    pending = HandSubmission.objects.get(hand__match__round__tournament=club, status="pending")
    record = records.match_record(pending.hand.match)
    assert len(record["hands"]) == pending.hand.number - 1
    assert check_record(record)["ok"]


def test_the_hands_file_holds_every_confirmed_hand_and_passes_check_hands(club, tmp_path):
    lines = list(records.hand_lines(club))
    confirmed = HandSubmission.objects.filter(
        hand__match__round__tournament=club, is_current=True, status="confirmed"
    )
    assert len(lines) == confirmed.count()
    assert HandSubmission.objects.filter(
        hand__match__round__tournament=club, is_current=True
    ).count() > len(lines)
    schema = jsonschema.Draft202012Validator(load_schema("hand-records"))
    for line in lines:
        record = json.loads(line)
        schema.validate(record)
        assert record["format"] == "hand/1" and check_record(record)["ok"]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    out = io.StringIO()
    call_command("check_hands", str(path), stdout=out)  # exits non-zero on any invalid record
    results = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(results) == len(lines) and all(r["ok"] for r in results)

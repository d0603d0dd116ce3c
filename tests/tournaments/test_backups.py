"""Backups (tournaments.services.backups): the archive written to BACKUP_DIR when a round closes
and at most once an interval while hands arrive, bounded in number, never breaking a request;
and `manage.py restore_backup` putting every confirmed hand back into an empty database."""

from __future__ import annotations

import io
import json
import logging
import random
import shutil

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.demo import club as demo
from tournaments.demo import simulate
from tournaments.models import Hand, HandSubmission, Match, Round, Tournament
from tournaments.services import backups

pytestmark = pytest.mark.django_db


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def backup_dir(settings, tmp_path, monkeypatch):
    """Backups on, into a folder of the test's own, on a clock the test moves; whatever a
    workflow schedules after commit runs (in-process, as on the club laptop)."""
    settings.REDIS_URL = None
    settings.BACKUP_DIR = str(tmp_path / "backups")
    settings.BACKUP_INTERVAL = 300
    settings.BACKUP_KEEP = 20
    clock = Clock()
    monkeypatch.setattr(backups, "_clock", clock)
    backups.forget_schedule()
    yield tmp_path / "backups"
    backups.forget_schedule()


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a block's after-commit work, as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def build(committed) -> Tournament:
    """The demo Spades Swiss with 6 teams: round 1 played and closed, round 2 in play."""
    with committed():
        return demo.build_spades(seed=7, teams=6, played=1)


@pytest.fixture
def built(backup_dir, committed, built_once):
    """built(): the evening of `build` with the backups its play wrote, played once per run
    (`built_once`) and given again to every later test: its rows, and its backup files copied
    into this test's folder. The tests that use it need an evening and its files, not the
    play that made them (the first test below watches that play)."""

    def load() -> Tournament:
        saved = built_once.folder("backups-built")

        def play() -> None:
            build(committed)
            shutil.copytree(backup_dir, saved / "backups")

        if not built_once("backups-built", play):
            shutil.copytree(saved / "backups", backup_dir, dirs_exist_ok=True)
        return Tournament.objects.get(name="Friday Night Spades")

    return load


def files(folder, tournament) -> list[str]:
    return [p.name for p in backups.tournament_backups(folder=folder, slug=tournament.slug)]


def confirmed_hands(tournament_slug: str) -> dict[tuple[int, int, int], tuple]:
    """Every confirmed hand of the tournament: (round, table, hand) -> record and result."""
    rows = HandSubmission.objects.filter(
        hand__match__round__tournament__slug=tournament_slug,
        is_current=True,
        status=HandSubmission.Status.CONFIRMED,
    ).select_related("hand__match__round", "hand__match__table")
    return {
        (v.hand.match.round.number, v.hand.match.table.number, v.hand.number): (
            v.record,
            v.result,
            v.submitted_label,
            v.decided_label,
        )
        for v in rows
    }


def play_a_hand(tournament: Tournament, seed: int) -> HandSubmission:
    match = (
        Match.objects.filter(round__tournament=tournament, round__number=2, is_bye=False)
        .exclude(state=Match.State.FINISHED)
        .order_by("table__number")
        .first()
    )
    return simulate.play_hand(match, random.Random(seed))


def test_closing_a_round_writes_a_backup_of_the_tournament(backup_dir, committed):
    tournament = build(committed)

    names = files(backup_dir, tournament)
    closed = [n for n in names if n.endswith("-round-1-closed.json")]
    assert len(closed) == 1
    document = json.loads((backup_dir / tournament.slug / closed[0]).read_text("utf-8"))
    assert document["format"] == "tricktable-archive/1"
    assert document["tournament"]["slug"] == tournament.slug
    round_1 = next(r for r in document["rounds"] if r["number"] == 1)
    assert round_1["state"] == Round.State.CLOSED
    assert not list((backup_dir / tournament.slug).glob(".*")), "a temporary file was left"


def test_hands_set_off_a_backup_at_most_once_an_interval(backup_dir, committed, built):
    tournament = built()
    with committed():  # its round 1 has just closed: the interval starts now
        backups.round_closed(tournament_id=tournament.pk, number=1)
    before = files(backup_dir, tournament)

    backups._clock.now += 200  # within the interval of the last backup: nothing new
    with committed():
        play_a_hand(tournament, 1)
    assert files(backup_dir, tournament) == before

    backups._clock.now += 101  # 301 s after the round was closed: the next hand backs up
    with committed():
        confirmed = play_a_hand(tournament, 2)
        play_a_hand(tournament, 3)  # the same moment: still one backup
    after = files(backup_dir, tournament)
    assert len(after) == len(before) + 1
    assert after[-1].endswith("-hands.json")
    document = json.loads((backup_dir / tournament.slug / after[-1]).read_text("utf-8"))
    keys = {v["idempotency_key"] for h in document["hands"] for v in h["versions"]}
    assert confirmed.idempotency_key in keys


def test_a_tournament_keeps_at_most_backup_keep_files_the_newest(backup_dir, built, settings):
    tournament = built()
    settings.BACKUP_KEEP = 3
    written = [
        backups.write_backup(tournament_id=tournament.pk, reason=f"test-{n}") for n in range(5)
    ]

    assert files(backup_dir, tournament) == [p.name for p in written[-3:]]


def test_without_backup_dir_nothing_is_scheduled_or_written(settings, tmp_path, committed):
    settings.BACKUP_DIR = None
    backups.forget_schedule()
    with committed() as callbacks:
        backups.hands_arrived(tournament_id=1)
        backups.round_closed(tournament_id=1, number=1)
    assert callbacks == []
    assert backups.write_backup(tournament_id=1, reason="x") is None


def test_a_backup_that_cannot_be_written_does_not_break_a_hand_submission(
    backup_dir, committed, built, settings, tmp_path, caplog
):
    tournament = built()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    settings.BACKUP_DIR = str(blocker / "backups")  # cannot be made: a file is in the way
    backups._clock.now += 301

    with caplog.at_level(logging.ERROR, logger="tournaments.services.backups"), committed():
        submission = play_a_hand(tournament, 4)

    submission.refresh_from_db()
    assert submission.status == HandSubmission.Status.CONFIRMED
    assert any("backup of tournament" in r.getMessage() for r in caplog.records)


def test_restoring_the_newest_backup_into_an_empty_database_brings_back_every_confirmed_hand(
    backup_dir, committed, built
):
    tournament = built()
    for seed in range(5, 9):  # a hand every five minutes, each its own commit and backup
        backups._clock.now += 301
        with committed():
            play_a_hand(tournament, seed)
    slug = tournament.slug
    expected = confirmed_hands(slug)
    assert len(expected) > 10
    newest = files(backup_dir, tournament)[-1]
    assert newest.endswith("-hands.json")
    Tournament.objects.filter(pk=tournament.pk).delete()  # the laptop died: nothing left
    assert not HandSubmission.objects.exists()

    listing = io.StringIO()
    call_command("restore_backup", str(backup_dir), "--list", stdout=listing)
    assert listing.getvalue().strip() == f"{slug}: {backup_dir / slug / newest}"
    out = io.StringIO()
    with committed():
        call_command("restore_backup", str(backup_dir), stdout=out)

    assert f"Restored {slug!r}" in out.getvalue()
    assert confirmed_hands(slug) == expected


def test_restoring_skips_a_tournament_the_database_still_holds(backup_dir, built):
    tournament = built()
    out, err = io.StringIO(), io.StringIO()

    call_command("restore_backup", str(backup_dir), stdout=out, stderr=err)

    assert f"{tournament.slug}: skipped" in err.getvalue()
    assert "tournament-exists" in err.getvalue()
    assert Tournament.objects.filter(slug=tournament.slug).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_backup_outside_any_transaction_reads_in_a_snapshot_of_its_own(backup_dir):
    from django.db import connection

    tournament = demo.build_spades(seed=7, teams=4, played=1)  # commits: after-commit work runs
    mode = getattr(connection, "transaction_mode", None)
    assert not connection.in_atomic_block

    path = backups.write_backup(tournament_id=tournament.pk, reason="now")

    document = json.loads(path.read_text("utf-8"))
    assert document["tournament"]["slug"] == tournament.slug
    assert (
        len(document["hands"]) == Hand.objects.filter(match__round__tournament=tournament).count()
    )
    assert getattr(connection, "transaction_mode", None) == mode  # SQLite: IMMEDIATE again
    assert any(n.endswith("-round-1-closed.json") for n in files(backup_dir, tournament))


# -- a restore that goes on (issue 30, finding 5) -----------------------------------------------


def newer(backup_dir, slug: str, text: str | bytes, stamp: str = "99991231T235959000000Z") -> str:
    """A backup file of `slug` named newer than any the evening wrote, holding `text`."""
    path = backup_dir / slug / f"{slug}-{stamp}-hands.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path.name


@pytest.fixture
def died(backup_dir, built, built_once):
    """died(): a tournament with its backups, then the laptop dies: the database loses it.
    Returns the tournament's slug and its confirmed hands, as they were before.

    The evening is `built`'s (played once per run): its database as the laptop died (the rows
    left), its backup files, its slug and its hands are saved once (`built_once`), and given
    again to every later test."""

    def die() -> tuple[str, dict]:
        saved = built_once.folder("backups-died")

        def play_and_die() -> None:
            tournament = built()
            hands = confirmed_hands(tournament.slug)
            Tournament.objects.filter(pk=tournament.pk).delete()
            shutil.copytree(backup_dir, saved / "backups")
            (saved / "died.json").write_text(
                json.dumps({"slug": tournament.slug, "hands": list(hands.items())})
            )

        if not built_once("backups-died", play_and_die):
            shutil.copytree(saved / "backups", backup_dir, dirs_exist_ok=True)
        was = json.loads((saved / "died.json").read_text())
        return was["slug"], {tuple(key): tuple(value) for key, value in was["hands"]}

    return die


def restore(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("restore_backup", *map(str, args), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_truncated_newest_backup_is_reported_and_the_older_one_restored(
    backup_dir, committed, died
):
    slug, expected = died()
    good = files_named(backup_dir, slug)[-1]
    whole = (backup_dir / slug / good).read_text()
    cut = newer(backup_dir, slug, whole[: len(whole) // 2])  # the copy stopped half way

    with committed():
        out, err = restore(backup_dir)

    assert f"{cut}: not restored, it is not complete JSON" in err
    assert f"{slug}: restored from an older backup, {good}" in err
    assert f"{good}: Restored {slug!r}" in out
    assert confirmed_hands(slug) == expected


def files_named(backup_dir, slug):
    return sorted(p.name for p in (backup_dir / slug).iterdir())


def test_a_corrupt_file_of_another_tournament_does_not_stop_the_others(backup_dir, committed, died):
    slug, expected = died()
    newer(backup_dir, "aaa-first", "{\n")  # sorted before the good tournament
    newer(backup_dir, "zzz-last", b"\xff\xfe not text")

    with committed(), pytest.raises(CommandError) as failed:
        restore(backup_dir)

    assert confirmed_hands(slug) == expected  # restored although others failed
    assert "no backup could be restored for: aaa-first, zzz-last" in str(failed.value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested deeper than any archive"),
        ('{"a":' * 200 + "1" + "}" * 200, "nested deeper than 64 levels"),
        (b"\xff\xfe\x00junk", "is not UTF-8 text"),
        ("[1, 2, 3]", "an archive is a JSON object [bad-archive]"),
        ('{"format": "tricktable-archive/9"}', "[unsupported-archive]"),
        ("", "is not complete JSON"),
    ],
)
def test_a_hostile_newest_file_is_refused_with_a_clear_message(
    backup_dir, committed, died, text, said
):
    slug, expected = died()
    name = newer(backup_dir, slug, text)

    with committed():
        out, err = restore(backup_dir)

    assert f"{name}: not restored, it " in err and said in err
    assert "Traceback" not in err and "RecursionError" not in err
    assert confirmed_hands(slug) == expected


def test_a_file_naming_another_tournament_than_its_folder_is_refused(backup_dir, committed, died):
    slug, expected = died()
    good = (backup_dir / slug / files_named(backup_dir, slug)[-1]).read_text()
    document = json.loads(good)
    document["tournament"]["slug"] = "somebody-else"
    name = newer(backup_dir, slug, json.dumps(document))

    with committed():
        out, err = restore(backup_dir)

    assert f"{name}: not restored, it holds the tournament 'somebody-else', not {slug!r}" in err
    assert not Tournament.objects.filter(slug="somebody-else").exists()
    assert confirmed_hands(slug) == expected


def test_a_file_larger_than_any_archive_is_refused_unread(backup_dir, committed, died, monkeypatch):
    from tournaments.management.commands import restore_backup

    slug, _ = died()
    monkeypatch.setattr(restore_backup, "MAX_BACKUP_BYTES", 1000)
    with pytest.raises(CommandError):
        restore(backup_dir / slug)
    assert not Tournament.objects.filter(slug=slug).exists()


def test_a_dry_run_checks_every_file_and_writes_nothing(backup_dir, committed, died):
    slug, _ = died()
    cut = newer(backup_dir, slug, "{")
    good = files_named(backup_dir, slug)[-2]
    counts = {model: model.objects.count() for model in (Tournament, Hand, HandSubmission)}

    with committed():
        out, err = restore(backup_dir, "--dry-run")

    assert "Dry run: nothing is written." in out
    assert f"{good}: would be restored. Restored {slug!r}" in out
    assert f"{cut}: not restored, it is not complete JSON" in err
    assert {model: model.objects.count() for model in counts} == counts
    assert not Tournament.objects.filter(slug=slug).exists()


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("audit", 0, "at"), []),  # a list where a time belongs: was a raw TypeError
        (("tournament", "created_at"), {"a": 1}),
        (("entries", 0, "fixed_table"), 10**30),  # beyond the database's integers: OverflowError
        (("hands", 0, "versions", 0, "submitted_by"), ["x"]),  # unhashable: TypeError
        (("hands", 0, "versions", 0, "decided_by"), {"a": 1}),
    ],
)
def test_an_archive_with_values_no_column_takes_is_refused_with_a_clear_message(
    backup_dir, committed, died, where, value
):
    slug, expected = died()
    document = json.loads((backup_dir / slug / files_named(backup_dir, slug)[-1]).read_text())
    target = document
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    name = newer(backup_dir, slug, json.dumps(document))

    with committed():
        out, err = restore(backup_dir)

    assert f"{name}: not restored, " in err and "[bad-archive]" in err
    assert "Traceback" not in err
    assert confirmed_hands(slug) == expected  # from the older file

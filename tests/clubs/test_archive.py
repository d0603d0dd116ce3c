"""A club's whole archive (`tricktable-club-archive/1`): exported, imported into a new club
(the same events, standings, members and seasons), refused whole when damaged or edited, and
the removal of a club, its archive kept first (tournaments/clubs/archive.py)."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournaments.clubs import archive
from tournaments.demo import club as demo
from tournaments.exports import archive as event_archive
from tournaments.models import (
    BoardResult,
    Club,
    Entry,
    HandSubmission,
    MembersSettings,
    Player,
    RemovedName,
    Series,
    SeriesMember,
    Team,
    Tournament,
    home_club,
)
from tournaments.services import SYSTEM, Actor, ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def archives_dir(settings, tmp_path):
    settings.CLUB_ARCHIVES_DIR = str(tmp_path / "club-archives")
    return tmp_path / "club-archives"


@pytest.fixture
def admin():
    return get_user_model().objects.create_superuser("site-admin", password="x")


@pytest.fixture
def home(settings, django_capture_on_commit_callbacks, built_once) -> Club:
    """The home club, built with what its workflows schedule after commit run in-process (the
    standings): built once per run, loaded again for the other tests."""
    settings.REDIS_URL = None

    def build() -> None:  # the standings made before the rows are saved
        with django_capture_on_commit_callbacks(execute=True):
            build_home()

    built_once("archive-home-club", build)
    return home_club()


def build_home() -> Club:
    """The home club with a Spades Swiss in play (a round closed, one in play), a German Whist
    season of two evenings, a member who played nothing, a name removed on request and its
    members shown by initials."""
    demo.build_spades(11, teams=4, played=1)
    demo.build_season(5, players=4, evenings=2)
    club = home_club()
    Player.objects.create(name="Kenji Mori", club_number="K-7", email="kenji@example.org")
    removed = Player.objects.filter(club=club).order_by("id").first()
    assert removed is not None
    RemovedName.objects.create(uid=removed.uid, removed_by=demo.director_actor().user)
    MembersSettings.objects.update_or_create(club=club, defaults={"public_names": "initials"})
    return club


def picture(club: Club) -> dict[str, Any]:
    """All that the club's archive carries, without what differs by installation (slugs,
    uids and idempotency keys given anew where taken, the export's time)."""
    events = []
    for tournament in Tournament.objects.filter(club=club).order_by("name"):
        document = event_archive.export_archive(tournament)
        del document["exported_at"]
        del document["tournament"]["slug"]
        for player in document["players"]:
            del player["uid"]
        for hand in document["hands"]:
            for version in hand["versions"]:
                del version["idempotency_key"]
        for result in document.get("board_results", []):
            del result["idempotency_key"]
        events.append(document)
    seasons = [
        (
            s.name,
            s.game,
            s.rule,
            s.points,
            s.best,
            sorted(u.get_username() for u in s.directors.all()),
            sorted(m.tournament.name for m in SeriesMember.objects.filter(series=s)),
        )
        for s in Series.objects.filter(club=club).order_by("name")
    ]
    settings = MembersSettings.objects.filter(club=club).first()
    return {
        "events": events,
        "members": sorted(
            (p.name, p.club_number, p.email, p.created_at) for p in Player.objects.filter(club=club)
        ),
        "seasons": seasons,
        "public_names": settings.public_names if settings else None,
        "removed": RemovedName.objects.filter(club=club).count(),
        "directors": sorted(u.get_username() for u in club.directors.all()),
    }


def standings(club: Club) -> list[list[tuple[str, Any]]]:
    """Each event's latest standings: (entry's name, points) in order."""
    out = []
    for tournament in Tournament.objects.filter(club=club).order_by("name"):
        snapshot = tournament.snapshots.order_by("-version").first()
        assert snapshot is not None
        entries = Entry.objects.filter(tournament=tournament).select_related("team", "player")
        names = {e.pk: str(e) for e in entries}
        rows = snapshot.payload["rows"]
        out.append([(names.get(r["entry"]), r.get("points")) for r in rows])
    return out


def uids(club: Club) -> set[str]:
    return {str(u) for u in Player.objects.filter(club=club).values_list("uid", flat=True)}


def round_trip(home: Club, admin) -> None:
    before = picture(home)
    assert len(before["events"]) == 3 and before["seasons"] and before["removed"] == 1
    data = archive.export_club(club=home)
    north = archive.import_club(data=data, slug="north", name="North", actor=Actor(user=admin))
    assert north.name == "North"
    assert picture(north) == before
    assert standings(north) == standings(home)
    # The home club's members are still here: the imported ones got uids of their own, the
    # events slugs of their own, and every row of the events is the new club's.
    assert uids(north).isdisjoint(uids(home))
    assert not set(Tournament.objects.filter(club=north).values_list("slug", flat=True)) & set(
        Tournament.objects.filter(club=home).values_list("slug", flat=True)
    )
    assert Team.objects.filter(club=north).count() == Team.objects.filter(club=home).count()
    assert (
        not Entry.objects.filter(tournament__club=north)
        .exclude(player__club=north, team__isnull=True)
        .exclude(team__club=north)
    )


def test_a_clubs_archive_imports_whole_into_a_new_club(home, admin):
    round_trip(home, admin)


@pytest.mark.postgres
def test_a_clubs_archive_imports_whole_into_a_new_club_on_postgresql(postgres_db, home, admin):
    round_trip(home, admin)


def test_the_same_archive_imports_into_two_clubs(home, admin):
    data = archive.export_club(club=home)
    north = archive.import_club(data=data, slug="north", name="North", actor=SYSTEM)
    south = archive.import_club(data=data, slug="south", name="South", actor=SYSTEM)
    assert picture(north) == picture(south) == picture(home)
    assert uids(north).isdisjoint(uids(south))
    keys = HandSubmission.objects.exclude(idempotency_key=None).values_list(
        "idempotency_key", flat=True
    )
    assert len(keys) == len(set(keys)) > 0


def test_a_duplicate_events_boards_and_results_travel_in_the_club_archive(
    home, settings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        demo.build_duplicate_spades(4, tables=3)
    for result in BoardResult.objects.all():  # as a scorer's phone sends them
        BoardResult.objects.filter(pk=result.pk).update(idempotency_key=f"board-{result.pk}")
    data = archive.export_club(club=home)
    north = archive.import_club(data=data, slug="north", name="North", actor=SYSTEM)
    south = archive.import_club(data=data, slug="south", name="South", actor=SYSTEM)
    before = picture(home)
    assert any(event.get("board_results") for event in before["events"])
    assert picture(north) == picture(south) == before
    keys = BoardResult.objects.exclude(idempotency_key=None).values_list(
        "idempotency_key", flat=True
    )
    assert len(keys) == len(set(keys)) > 0


def test_the_manifest_counts_and_checksums_every_file(home):
    with zipfile.ZipFile(io.BytesIO(archive.export_club(club=home))) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        names = set(zf.namelist())
    assert manifest["format"] == "tricktable-club-archive/1"
    assert manifest["club"]["slug"] == home.slug
    assert manifest["counts"]["tournaments"] == 3
    assert manifest["counts"]["members"] == Player.objects.filter(club=home).count()
    assert manifest["counts"]["seasons"] == 1 and manifest["counts"]["season_evenings"] == 2
    assert names == {"manifest.json", *manifest["files"]}
    slugs = Tournament.objects.filter(club=home).values_list("slug", flat=True)
    assert {f"tournaments/{s}.json" for s in slugs} <= set(manifest["files"])


def rewrite(data: bytes, change: Any) -> bytes:
    """The archive with its files changed by `change(files)` (a dict name -> bytes)."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        files = {name: zf.read(name) for name in zf.namelist()}
    change(files)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, body in files.items():
            zf.writestr(name, body)
    return out.getvalue()


def edit_member(files: dict[str, bytes]) -> None:
    members = json.loads(files["members.json"])
    members["members"][0]["name"] = "Somebody Else"
    files["members.json"] = json.dumps(members).encode()


def edit_manifest(key: str, value: Any) -> Any:
    def change(files: dict[str, bytes]) -> None:
        manifest = json.loads(files["manifest.json"])
        manifest[key] = value
        files["manifest.json"] = json.dumps(manifest).encode()

    return change


def edit_an_event(files: dict[str, bytes]) -> None:
    name = next(name for name in files if name.startswith("tournaments/"))
    files[name] = files[name].replace(b'"status":"confirmed"', b'"status":"rejected"', 1)
    assert b'"status":"rejected"' in files[name]


def drop_an_event(files: dict[str, bytes]) -> None:
    del files[next(name for name in files if name.startswith("tournaments/"))]


TAMPERED = {
    "a member edited": (edit_member, "club-archive-damaged"),
    "an event left out": (drop_an_event, "club-archive-damaged"),
    "a hand's status edited": (edit_an_event, "club-archive-damaged"),
    "a file added": (lambda f: f.update({"extra.json": b"{}"}), "club-archive-damaged"),
    "counts edited": (edit_manifest("counts", {"tournaments": 1}), "club-archive-damaged"),
    "a later version": (
        edit_manifest("format", "tricktable-club-archive/2"),
        "club-archive-unsupported",
    ),
    "not a club archive": (edit_manifest("format", "something"), "club-archive-damaged"),
}


@pytest.mark.parametrize("case", list(TAMPERED))
def test_a_damaged_or_edited_archive_is_refused_and_changes_nothing(home, case):
    data = archive.export_club(club=home)
    change, code = TAMPERED[case]
    before = (Club.objects.count(), Player.objects.count(), Tournament.objects.count())
    with pytest.raises(ServiceError) as refused:
        archive.import_club(data=rewrite(data, change), slug="north", name="N", actor=SYSTEM)
    assert refused.value.code == code
    assert (Club.objects.count(), Player.objects.count(), Tournament.objects.count()) == before


@pytest.mark.parametrize("data", [b"not a zip", b"PK\x03\x04broken"])
def test_a_file_that_is_no_zip_is_refused(data):
    with pytest.raises(ServiceError) as refused:
        archive.import_club(data=data, slug="north", name="North", actor=SYSTEM)
    assert refused.value.code == "club-archive-damaged"
    assert not Club.objects.filter(slug="north").exists()


def test_a_truncated_archive_is_refused(home):
    data = archive.export_club(club=home)
    with pytest.raises(ServiceError) as refused:
        archive.import_club(data=data[: len(data) // 2], slug="north", name="N", actor=SYSTEM)
    assert refused.value.code == "club-archive-damaged"


def test_a_taken_or_bad_address_is_refused(home, admin):
    data = archive.export_club(club=home)
    for slug, code in [(home_club().slug, "slug-taken"), ("North Club", "bad-slug")]:
        with pytest.raises(ServiceError) as refused:
            archive.import_club(data=data, slug=slug, name="N", actor=SYSTEM)
        assert refused.value.code == code


def test_only_administrators_import_or_remove_a_club(home, admin):
    data = archive.export_club(club=home)
    north = archive.import_club(data=data, slug="north", name="North", actor=SYSTEM)
    director = get_user_model().objects.create_user("north-td")
    north.directors.add(director)
    for act in (
        lambda: archive.import_club(data=data, slug="x1", name="X", actor=Actor(user=director)),
        lambda: archive.remove_club(club=north, actor=Actor(user=director), confirm="north"),
        lambda: archive.keep_archive(club=north, actor=Actor(user=director)),
    ):
        with pytest.raises(ServiceError) as refused:
            act()
        assert refused.value.code == "not-operator"
    assert Club.objects.filter(slug="north").exists()


def test_removing_a_club_keeps_its_archive_then_its_data_is_gone_and_it_imports_back_whole(
    home, admin, archives_dir
):
    north = archive.import_club(
        data=archive.export_club(club=home), slug="north", name="North", actor=SYSTEM
    )
    north.directors.add(get_user_model().objects.create_user("north-td"))
    before, before_uids, home_before = picture(north), uids(north), picture(home)
    before_standings = standings(north)
    counts = {m: m.objects.count() for m in (Player, Tournament, Series, Team, Entry)}
    north_counts = archive.counts(north)

    with pytest.raises(ServiceError) as refused:
        archive.remove_club(club=north, actor=Actor(user=admin), confirm="nort")
    assert refused.value.code == "bad-confirmation"
    kept = archive.remove_club(club=north, actor=Actor(user=admin), confirm="north")

    assert kept.is_file() and kept.parent == archives_dir / "north"
    assert not Club.objects.filter(slug="north").exists()
    assert Player.objects.count() == counts[Player] - north_counts["members"]
    assert Tournament.objects.count() == counts[Tournament] - north_counts["tournaments"]
    assert Series.objects.count() == counts[Series] - north_counts["seasons"]
    assert picture(home) == home_before  # the home club is untouched

    back = archive.import_club(
        data=kept.read_bytes(), slug="north", name="North", actor=Actor(user=admin)
    )
    assert picture(back) == before
    assert standings(back) == before_standings
    assert uids(back) == before_uids  # free again: each member keeps their uid
    assert {m: m.objects.count() for m in counts} == counts


def test_the_home_club_is_not_removed(home, admin):
    with pytest.raises(ServiceError) as refused:
        archive.remove_club(club=home, actor=Actor(user=admin), confirm=home.slug)
    assert refused.value.code == "home-club"
    assert Tournament.objects.filter(club=home).count() == 3


# -- the pages ------------------------------------------------------------------------------------


@pytest.fixture
def north(home, admin) -> Club:
    club = archive.import_club(
        data=archive.export_club(club=home), slug="north", name="North", actor=SYSTEM
    )
    club.directors.add(get_user_model().objects.create_user("north-td", password="pw"))
    return club


def test_a_clubs_directors_download_its_archive_at_its_address(client, north):
    client.force_login(get_user_model().objects.get(username="north-td"))
    page = client.get("/c/north/director/club/archive/")
    assert page.status_code == 200
    assert 'href="/c/north/director/club/archive.zip"' in page.content.decode()
    answer = client.get("/c/north/director/club/archive.zip")
    assert answer.status_code == 200
    assert "attachment" in answer["Content-Disposition"]
    manifest = archive.read_club_archive(b"".join(answer.streaming_content))
    assert manifest["club"]["slug"] == "north"
    assert manifest["counts"]["tournaments"] == 3


def test_another_clubs_director_cannot_download_this_clubs_archive(client, north):
    other = get_user_model().objects.create_user("home-td")
    home_club().directors.add(other)
    client.force_login(other)
    assert client.get("/c/north/director/club/archive.zip").status_code == 403
    assert client.get("/c/north/director/club/archive/").status_code == 403


def test_an_administrator_imports_a_club_by_upload(client, north, admin):
    data = archive.export_club(club=north)
    client.force_login(admin)
    assert client.get("/clubs/import/").status_code == 200
    upload = io.BytesIO(data)
    upload.name = "north.zip"
    answer = client.post("/clubs/import/", {"archive": upload, "slug": "west", "name": "West"})
    assert answer.status_code == 302 and answer["Location"] == "/c/west/"
    assert picture(Club.objects.get(slug="west")) == picture(north)
    bad = io.BytesIO(data[:100])
    bad.name = "bad.zip"
    answer = client.post("/clubs/import/", {"archive": bad, "slug": "east", "name": "East"})
    assert answer.status_code == 400 and "club-archive-damaged" in answer.content.decode()
    assert not Club.objects.filter(slug="east").exists()


def test_the_installations_pages_are_refused_to_a_clubs_director(client, north):
    client.force_login(get_user_model().objects.get(username="north-td"))
    assert client.get("/clubs/import/").status_code == 403
    assert client.get("/clubs/manage/north/remove/").status_code == 403
    answer = client.post("/clubs/manage/north/remove/", {"action": "remove", "confirm": "north"})
    assert answer.status_code == 403
    assert Club.objects.filter(slug="north").exists()


def test_the_installations_pages_are_not_found_under_a_clubs_address(client, north, admin):
    client.force_login(admin)
    assert client.get("/c/north/clubs/import/").status_code == 404


def test_an_administrator_removes_a_club_after_making_its_archive(client, north, admin):
    client.force_login(admin)
    page = client.get("/clubs/manage/north/remove/")
    assert page.status_code == 200 and 'name="confirm"' not in page.content.decode()
    client.post("/clubs/manage/north/remove/", {"action": "archive"})
    page = client.get("/clubs/manage/north/remove/")
    html = page.content.decode()
    assert 'name="confirm"' in html
    [made] = archive.kept_archives(slug="north")
    assert f'href="/clubs/archives/north/{made.name}"' in html
    download = client.get(f"/clubs/archives/north/{made.name}")
    manifest = archive.read_club_archive(b"".join(download.streaming_content))
    assert manifest["club"]["slug"] == "north"

    client.post("/clubs/manage/north/remove/", {"action": "remove", "confirm": "south"})
    assert Club.objects.filter(slug="north").exists()
    answer = client.post("/clubs/manage/north/remove/", {"action": "remove", "confirm": "north"})
    assert answer.status_code == 200
    assert not Club.objects.filter(slug="north").exists()
    final = archive.kept_archives(slug="north")[-1]
    assert final != made and final.name in answer.content.decode()
    assert client.get(f"/clubs/archives/north/{final.name}").status_code == 200
    assert client.get("/clubs/archives/north/..%2Fsecret").status_code == 404


# -- the commands ---------------------------------------------------------------------------------


def test_the_commands_export_a_club_and_import_it_into_a_new_one(home, tmp_path):
    file = tmp_path / "home.zip"
    call_command("export_club", home.slug, str(file))
    out = io.StringIO()
    call_command("import_club", str(file), "--slug", "north", "--name", "North", stdout=out)
    assert "/c/north/" in out.getvalue()
    assert picture(Club.objects.get(slug="north")) == picture(home)
    file.write_bytes(file.read_bytes()[:-40])
    with pytest.raises(CommandError, match="club-archive-damaged"):
        call_command("import_club", str(file), "--slug", "south", "--name", "South")
    with pytest.raises(CommandError, match="no club"):
        call_command("export_club", "nowhere", str(tmp_path / "x.zip"))

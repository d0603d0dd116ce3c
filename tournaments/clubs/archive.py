"""A club's whole archive (`tricktable-club-archive/1`): one zip file that moves a club to another
installation, and the removal of a club, its archive kept first (docs/clubs.md).

The zip holds:
- `manifest.json`: the format, the club (name, address, directors by username), when it was
  written, the counts and, for every other file, its size and SHA-256;
- `members.json`: the club's members (players: uid, name, club number, email), its members'
  settings and the names removed on request (by the person's uid);
- `seasons.json`: the club's seasons (series: rule, points, best evenings, directors) with
  their evenings (tournaments by slug);
- `tournaments/<slug>.json`: each event's own archive, `tricktable-archive/1`
  (tournaments/exports/archive.py), exactly as `manage.py export` writes it.

`import_club` writes an archive into a new club of this installation in one transaction; it
refuses a damaged or edited file (`club-archive-damaged`: a checksum, a count or a file that
does not agree) or one of another version (`club-archive-unsupported`), having changed
nothing. Each event is restored by the tournament archive's own restore, into the new club.
Importing one archive twice (two clubs) works: a member keeps their uid unless this
installation already holds it (they get a new one then), an event or season whose slug is
taken gets `<club>-<slug>`, and hand idempotency keys already held are replaced.

Left out: publishing keys (credentials: issue new ones), the links of records to a person
across clubs (made again, with the person's confirmation, where the club now is), season
tables and ratings (derived: recomputed after the import) and what each event's archive
leaves out (docs/exports.md).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import json
import os
import re
import tempfile
import uuid
import zipfile
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models.deletion import ProtectedError, RestrictedError
from django.utils import timezone

from tournaments.clubs.models import Club, Person, home_club
from tournaments.clubs.services import name_home_directors
from tournaments.exports import archive as events
from tournaments.models import (
    BoardResult,
    HandSubmission,
    MembersSettings,
    Player,
    PublishedEvent,
    RemovedName,
    Series,
    SeriesMember,
    Team,
    Tournament,
)
from tournaments.seasons import services as seasons
from tournaments.services import SYSTEM, Actor, Conflict, NotAllowed, ServiceError
from tournaments.services.backups import one_snapshot

FORMAT = "tricktable-club-archive/1"
MANIFEST = "manifest.json"
MEMBERS = "members.json"
SEASONS = "seasons.json"
EVENTS = "tournaments/"
SUFFIX = ".zip"
SLUG = re.compile(r"[-a-zA-Z0-9_]+")
#: The most an archive may hold once unpacked (bytes), unless settings.CLUB_ARCHIVE_MAX_BYTES.
MAX_BYTES = 2 * 1024**3


class ClubArchiveError(ServiceError):
    """The file is not a club archive this version imports whole; nothing was changed."""


# -- helpers --------------------------------------------------------------------------------------


def _time(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _json(value: Any) -> bytes:
    return (json.dumps(value, ensure_ascii=False, indent=1) + "\n").encode()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _may_operate(actor: Actor) -> None:
    """Moving and removing clubs is the installation's administrators' (superusers') act, or
    the system's (the management commands)."""
    user = actor.user_or_none()
    if not actor.system and not (user is not None and user.is_superuser):
        raise NotAllowed(
            "not-operator", "only the installation's administrators move or remove a club"
        )


def _usernames(users: Iterable[Any]) -> list[str]:
    return sorted(u.get_username() for u in users)


# -- export ---------------------------------------------------------------------------------------


def _members(club: Club) -> dict[str, Any]:
    members = [
        {
            "uid": str(p.uid),
            "name": p.name,
            "club_number": p.club_number,
            "email": p.email,
            "created_at": _time(p.created_at),
        }
        for p in Player.objects.filter(club=club).order_by("created_at", "id")
    ]
    found = MembersSettings.objects.filter(club=club).first()
    removed = RemovedName.objects.filter(club=club).select_related("removed_by")
    return {
        "members": members,
        "settings": None if found is None else {"public_names": found.public_names},
        "removed_names": [
            {
                "uid": str(r.uid),
                "removed_at": _time(r.removed_at),
                "removed_by": r.removed_by.get_username() if r.removed_by else None,
            }
            for r in removed.order_by("removed_at", "id")
        ],
    }


def _seasons(club: Club) -> dict[str, Any]:
    out = []
    for series in Series.objects.filter(club=club).order_by("created_at", "id"):
        evenings = SeriesMember.objects.filter(series=series).select_related("tournament")
        out.append(
            {
                "slug": series.slug,
                "name": series.name,
                "game": series.game,
                "rule": series.rule,
                "points": series.points,
                "best": series.best,
                "directors": _usernames(series.directors.all()),
                "created_at": _time(series.created_at),
                "evenings": [
                    {"tournament": m.tournament.slug, "added_at": _time(m.added_at)}
                    for m in evenings.order_by("id")
                ],
            }
        )
    return {"seasons": out}


def write_club_archive(*, club: Club, out: IO[bytes]) -> dict[str, Any]:
    """Write the club's whole archive (a zip) into `out`, as one moment of the database;
    returns its manifest."""
    files: dict[str, dict[str, Any]] = {}
    with (
        one_snapshot(),
        zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf,
    ):

        def put(name: str, data: bytes) -> None:
            zf.writestr(name, data)
            files[name] = {"bytes": len(data), "sha256": _digest(data)}

        club = Club.objects.get(pk=club.pk)
        members = _members(club)
        put(MEMBERS, _json(members))
        season_doc = _seasons(club)
        put(SEASONS, _json(season_doc))
        slugs = []
        for tournament in Tournament.objects.filter(club=club).order_by("id"):
            text = events.dumps(events.export_archive(tournament))
            put(f"{EVENTS}{tournament.slug}.json", text.encode())
            slugs.append(tournament.slug)
        manifest = {
            "format": FORMAT,
            "exported_at": timezone.now().isoformat(),
            "club": {
                "name": club.name,
                "slug": club.slug,
                "directors": _usernames(club.directors.all()),
                "created_at": _time(club.created_at),
            },
            "tournaments": slugs,
            "counts": {
                "tournaments": len(slugs),
                "members": len(members["members"]),
                "removed_names": len(members["removed_names"]),
                "seasons": len(season_doc["seasons"]),
                "season_evenings": sum(len(s["evenings"]) for s in season_doc["seasons"]),
            },
            "files": files,
        }
        zf.writestr(MANIFEST, _json(manifest))
    return manifest


def counts(club: Club) -> dict[str, int]:
    """What the club's archive would hold: its events, members and seasons."""
    return {
        "tournaments": Tournament.objects.filter(club=club).count(),
        "members": Player.objects.filter(club=club).count(),
        "seasons": Series.objects.filter(club=club).count(),
    }


def file_name(club: Club) -> str:
    """The name a downloaded archive is saved under."""
    return f"{club.slug}-{timezone.now().strftime('%Y%m%d-%H%M')}{SUFFIX}"


def export_club(*, club: Club) -> bytes:
    """The club's whole archive as bytes (a zip; see the module docstring)."""
    buffer = io.BytesIO()
    write_club_archive(club=club, out=buffer)
    return buffer.getvalue()


# -- reading --------------------------------------------------------------------------------------


class ClubArchive:
    """A club archive open for reading: the manifest, members and seasons checked, each
    event's archive read (and its checksum checked again) one at a time, so a big club is
    never all in memory. `open_club_archive` gives one checked whole."""

    def __init__(self, zf: zipfile.ZipFile) -> None:
        self.zf = zf
        self.manifest: dict[str, Any] = {}
        self.members: dict[str, Any] = {}
        self.seasons: dict[str, Any] = {}

    def body(self, name: str) -> bytes:
        """A file's bytes, refused unless they are the ones the manifest's checksum names."""
        try:
            with self.zf.open(name) as member:
                data = member.read(_max_bytes() + 1)
        except KeyError:
            raise _damaged(f"{name} is missing") from None
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as error:  # a bad CRC
            raise _damaged(f"{name} cannot be read: {error}") from None
        stated = self.manifest.get("files", {}).get(name) if name != MANIFEST else None
        if stated is not None and (
            len(data) != stated["bytes"] or _digest(data) != stated["sha256"]
        ):
            raise _damaged(f"{name} is not the file that was exported (its checksum differs)")
        return data

    def event(self, slug: str) -> dict[str, Any]:
        """The event's own archive (`tricktable-archive/1`), checked."""
        name = f"{EVENTS}{slug}.json"
        document = _object(self.body(name), name)
        try:
            events.check_archive(document)
        except events.ArchiveError as error:
            raise _damaged(f"{name}: {error.message}") from None
        if document["tournament"]["slug"] != slug:
            raise _damaged(f"{name} holds another tournament")
        return document

    def events(self) -> Iterator[dict[str, Any]]:
        for slug in self.manifest["tournaments"]:
            yield self.event(slug)


def _damaged(message: str) -> ClubArchiveError:
    return ClubArchiveError("club-archive-damaged", message)


def _max_bytes() -> int:
    return int(getattr(settings, "CLUB_ARCHIVE_MAX_BYTES", MAX_BYTES))


def _object(data: bytes, name: str) -> dict[str, Any]:
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _damaged(f"{name} is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise _damaged(f"{name} is not a JSON object")
    return value


def _list_of_objects(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise _damaged(f"{where} must be a list of objects")
    return value


def _check_manifest(manifest: dict[str, Any]) -> None:
    stated = manifest.get("format")
    if stated != FORMAT:
        if isinstance(stated, str) and stated.startswith("tricktable-club-archive/"):
            raise ClubArchiveError(
                "club-archive-unsupported", f"this version imports {FORMAT}, not {stated}"
            )
        raise _damaged(f'not a TrickTable club archive (no "format": "{FORMAT}")')
    club = manifest.get("club")
    if not isinstance(club, dict) or not isinstance(club.get("directors"), list):
        raise _damaged("the manifest's `club` names its directors")
    if not all(isinstance(d, str) and d for d in club["directors"]):
        raise _damaged("the club's directors are usernames")
    slugs = manifest.get("tournaments")
    if not isinstance(slugs, list) or not all(
        isinstance(s, str) and SLUG.fullmatch(s) for s in slugs
    ):
        raise _damaged("the manifest's `tournaments` is a list of slugs")
    if len(set(slugs)) != len(slugs):
        raise _damaged("a tournament is listed twice")
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(f, dict) and isinstance(f.get("sha256"), str) and isinstance(f.get("bytes"), int)
        for f in files.values()
    ):
        raise _damaged("the manifest's `files` gives each file's size and SHA-256")
    expected = {MEMBERS, SEASONS, *(f"{EVENTS}{s}.json" for s in slugs)}
    if set(files) != expected:
        raise _damaged("the manifest's files are not the club's members, seasons and events")
    if not isinstance(manifest.get("counts"), dict):
        raise _damaged("the manifest has no counts")


@contextlib.contextmanager
def open_club_archive(data: bytes | IO[bytes]) -> Iterator[ClubArchive]:
    """Open a club archive and check it whole (every checksum, count and event archive)
    before anything is written; raises ClubArchiveError."""
    stream = io.BytesIO(data) if isinstance(data, bytes | bytearray) else data
    try:
        zf = zipfile.ZipFile(stream)
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise _damaged(f"not a zip file: {error}") from None
    with zf:
        infos = zf.infolist()
        if sum(i.file_size for i in infos) > _max_bytes():
            raise _damaged("the archive unpacks to more than this installation takes")
        names = [i.filename for i in infos]
        if len(set(names)) != len(names):
            raise _damaged("a file is in the zip twice")
        read = ClubArchive(zf)
        manifest = _object(read.body(MANIFEST), MANIFEST)
        _check_manifest(manifest)
        if set(names) != {MANIFEST, *manifest["files"]}:
            raise _damaged("the zip's files are not the ones its manifest lists")
        read.manifest = manifest
        read.members = _object(read.body(MEMBERS), MEMBERS)
        read.seasons = _object(read.body(SEASONS), SEASONS)
        for _document in read.events():  # each checked, then let go
            pass
        members, season_doc = read.members, read.seasons
        _list_of_objects(members.get("members"), "members")
        _list_of_objects(members.get("removed_names"), "removed_names")
        _list_of_objects(season_doc.get("seasons"), "seasons")
        found = {
            "tournaments": len(manifest["tournaments"]),
            "members": len(members["members"]),
            "removed_names": len(members["removed_names"]),
            "seasons": len(season_doc["seasons"]),
            "season_evenings": sum(
                len(s["evenings"]) if isinstance(s.get("evenings"), list) else 0
                for s in season_doc["seasons"]
            ),
        }
        if manifest["counts"] != found:
            raise _damaged(f"the counts {manifest['counts']} do not agree with the files ({found})")
        yield read


def read_club_archive(data: bytes | IO[bytes]) -> dict[str, Any]:
    """Check a club archive whole, as an import would; returns its manifest."""
    with open_club_archive(data) as read:
        return read.manifest


# -- import ---------------------------------------------------------------------------------------


def _value(model: type[models.Model], name: str, value: Any, where: str) -> Any:
    """A value of the archive as the column takes it, checked by the model's field."""
    fld = model._meta.get_field(name)
    assert isinstance(fld, models.Field)
    if value is None and fld.null:
        return None
    try:
        return fld.clean(value, None)  # to_python, then the field's checks (choices too)
    except (ValidationError, TypeError, ValueError):
        raise _damaged(f"{where}: {name}: {value!r:.40} is not a value of this column") from None


class _Importer:
    """One import: the archive checked whole, written into a new club."""

    def __init__(self, read: ClubArchive, club: Club) -> None:
        self.read = read
        self.club = club
        self.users: dict[str, Any] = {}
        self.uids: dict[str, uuid.UUID] = {}  # the archive's member uid -> this club's
        self.slugs: dict[str, str] = {}  # the archive's tournament slug -> this club's
        self.numbers: set[str] = set()

    def user(self, name: Any, where: str) -> Any:
        if name is None:
            return None
        if not isinstance(name, str) or not name:
            raise _damaged(f"{where}: users are named by their username")
        if name not in self.users:
            user_model = get_user_model()
            found = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: name}).first()
            if found is None:  # as the event's restore: a user without a usable password
                found = user_model(**{user_model.USERNAME_FIELD: name})
                found.set_unusable_password()
                found.save()
            self.users[name] = found
        return self.users[name]

    def run(self) -> None:
        manifest = self.read.manifest
        self.club.directors.set([self.user(n, "club") for n in manifest["club"]["directors"]])
        self.members()
        for document in self.read.events():  # one at a time
            self.tournament(document)
        self.settings_and_removed()  # after the events: their players' uids are all mapped
        self.seasons()

    def stamp(self, model: type[models.Model], name: str, rows: list[tuple[Any, Any]]) -> None:
        """Put back the timestamps Django stamped on insert (the archive's own)."""
        changed = []
        for obj, value in rows:
            if value is not None:
                setattr(obj, name, _value(model, name, value, model.__name__))
                changed.append(obj)
        if changed:
            model._default_manager.bulk_update(changed, [name], batch_size=500)

    def add_members(self, rows: list[dict[str, Any]], where: str) -> None:
        """New members of the club; a uid this installation holds is replaced, a club number
        taken in the club is left blank."""
        given = [r.get("uid") for r in rows]
        if not all(isinstance(u, str) for u in given) or len(set(given)) != len(given):
            raise _damaged(f"{where}: every member has a uid of their own")
        parsed = [_value(Player, "uid", u, where) for u in given]
        held = set(Player.objects.filter(uid__in=parsed).values_list("uid", flat=True))
        objects = []
        for row, uid in zip(rows, parsed, strict=True):
            number = _value(Player, "club_number", row.get("club_number") or "", where)
            if number in self.numbers:
                if where == MEMBERS:
                    raise _damaged(f"{where}: the club number {number!r} is given twice")
                number = ""
            if number:
                self.numbers.add(number)
            mine = uuid.uuid4() if uid in held else uid
            self.uids[str(uid)] = mine
            objects.append(
                Player(
                    club=self.club,
                    uid=mine,
                    name=_value(Player, "name", row.get("name"), where),
                    club_number=number,
                    email=_value(Player, "email", row.get("email") or "", where),
                )
            )
        Player.objects.bulk_create(objects)
        self.stamp(
            Player,
            "created_at",
            [(o, r.get("created_at")) for o, r in zip(objects, rows, strict=True)],
        )

    def members(self) -> None:
        rows = self.read.members["members"]
        self.add_members(rows, MEMBERS)

    def settings_and_removed(self) -> None:
        chosen = self.read.members.get("settings")
        if chosen is not None:
            if not isinstance(chosen, dict):
                raise _damaged("members' settings are an object")
            mode = _value(MembersSettings, "public_names", chosen.get("public_names"), MEMBERS)
            if mode not in MembersSettings.Names.values:
                raise _damaged(f"members' settings: {mode!r} is not a way to show names")
            MembersSettings.objects.update_or_create(
                club=self.club, defaults={"public_names": mode}
            )
        rows, objects = [], []
        for row in self.read.members["removed_names"]:
            given = row.get("uid")
            uid = self.uids.get(given) if isinstance(given, str) else None
            if uid is None:
                uid = _value(RemovedName, "uid", given, "removed_names")
            if RemovedName.objects.filter(uid=uid).exists():
                continue  # that record's name is removed on this installation already
            rows.append(row)
            objects.append(
                RemovedName(
                    club=self.club,
                    uid=uid,
                    removed_by=self.user(row.get("removed_by"), "removed_names"),
                )
            )
        RemovedName.objects.bulk_create(objects)
        self.stamp(
            RemovedName,
            "removed_at",
            [(o, r.get("removed_at")) for o, r in zip(objects, rows, strict=True)],
        )

    def free_slug(
        self, wanted: str, model: type[Tournament] | type[Series], taken: set[str]
    ) -> str:
        """The archive's slug, else `<club>-<slug>` (then `-2`, `-3`, ...) when this
        installation holds it: slugs are unique across the installation."""
        limit = model._meta.get_field("slug").max_length or 80

        def held(slug: str) -> bool:
            return slug in taken or model._default_manager.filter(slug=slug).exists()

        if not held(wanted):
            taken.add(wanted)
            return wanted
        base = f"{self.club.slug}-{wanted}"[:limit]
        slug, n = base, 1
        while held(slug):
            n += 1
            tail = f"-{n}"
            slug = base[: limit - len(tail)] + tail
        taken.add(slug)
        return slug

    def tournament(self, document: dict[str, Any]) -> None:
        """One event, restored by its archive's own restore into the club (the document is
        this import's own copy: it is changed in place)."""
        where = f"{EVENTS}{document['tournament']['slug']}.json"
        # Players of the event who are not listed as members (an archive of older data) become
        # members too; then each player row carries the uid of this club's record, so the
        # restore reuses it. (A row without a uid, from an archive older than uids, is
        # restored as the event's restore does: the club's member of its number, else new.)
        players = [p for p in document["players"] if p.get("uid") is not None]
        for player in players:
            player["uid"] = str(_value(Player, "uid", player["uid"], where))
        newcomers = [p for p in players if p["uid"] not in self.uids]
        if newcomers:
            self.add_members(newcomers, where)
        for player in players:
            player["uid"] = str(self.uids[player["uid"]])
        old_slug = document["tournament"]["slug"]
        slug = self.free_slug(old_slug, Tournament, set(self.slugs.values()))
        document["tournament"]["slug"] = slug
        self.fresh_keys(document)
        restored = events.restore(archive=document, actor=SYSTEM, club=self.club)
        self.slugs[old_slug] = restored.tournament.slug

    def fresh_keys(self, document: dict[str, Any]) -> None:
        """Idempotency keys this installation holds already are replaced (the same archive
        imported into a second club)."""
        versions = [v for h in document["hands"] for v in h["versions"]]
        boards = document.get("board_results", [])
        for rows, model in ((versions, HandSubmission), (boards, BoardResult)):
            keys = [
                r.get("idempotency_key") for r in rows if isinstance(r.get("idempotency_key"), str)
            ]
            held = set(
                model._default_manager.filter(idempotency_key__in=keys).values_list(
                    "idempotency_key", flat=True
                )
            )
            for row in rows:
                if row.get("idempotency_key") in held:
                    row["idempotency_key"] = str(uuid.uuid4())

    def seasons(self) -> None:
        taken: set[str] = set()
        for row in self.read.seasons["seasons"]:
            where = f"seasons {row.get('slug')!r}"
            given = row.get("slug")
            if not isinstance(given, str) or not SLUG.fullmatch(given):
                raise _damaged(f"{where}: a season's slug")
            points = row.get("points")
            if not isinstance(points, list):
                raise _damaged(f"{where}: placing points are a list")
            directors = row.get("directors")
            evenings = row.get("evenings")
            if not isinstance(directors, list) or not isinstance(evenings, list):
                raise _damaged(f"{where}: directors and evenings are lists")
            series = Series.objects.create(
                club=self.club,
                slug=self.free_slug(given, Series, taken),
                name=_value(Series, "name", row.get("name"), where),
                game=_value(Series, "game", row.get("game"), where),
                rule=_value(Series, "rule", row.get("rule"), where),
                points=points,
                best=_value(Series, "best", row.get("best"), where),
            )
            self.stamp(Series, "created_at", [(series, row.get("created_at"))])
            series.directors.set([self.user(d, where) for d in directors])
            added = []
            for evening in evenings:
                if not isinstance(evening, dict) or evening.get("tournament") not in self.slugs:
                    raise _damaged(f"{where}: an evening is not one of the club's events")
                tournament = Tournament.objects.get(slug=self.slugs[evening["tournament"]])
                if tournament.game != series.game:
                    raise _damaged(f"{where}: an evening of another game")
                member = SeriesMember.objects.create(series=series, tournament=tournament)
                added.append((member, evening.get("added_at")))
            self.stamp(SeriesMember, "added_at", added)
            transaction.on_commit(functools.partial(seasons.schedule, series.pk))


#: A new club's address: 2 to 50 lower-case letters, digits and hyphens, no hyphen at an end.
CLUB_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,48}[a-z0-9]")


def _new_club_fields(slug: Any, name: Any) -> tuple[str, str]:
    if not isinstance(slug, str) or not CLUB_SLUG.fullmatch(slug):
        raise ServiceError(
            "bad-slug",
            "a club's address is 2 to 50 lower-case letters, digits and hyphens, with no "
            "hyphen at either end",
        )
    name = " ".join(name.split()) if isinstance(name, str) else ""
    name_limit = Club._meta.get_field("name").max_length or 150
    if not name or len(name) > name_limit:
        raise ServiceError("bad-name", f"a club's name is 1 to {name_limit} characters")
    return slug, name


def import_club(*, data: bytes | IO[bytes], slug: str, name: str, actor: Actor) -> Club:
    """Write a club archive into a new club of this installation (`slug`, `name`), in one
    transaction; raises ClubArchiveError (or an event archive's refusal), having changed
    nothing. The installation's administrators' act (or the system's)."""
    _may_operate(actor)
    slug, name = _new_club_fields(slug, name)
    if Club.objects.filter(slug=slug).exists():
        raise Conflict("slug-taken", f"this installation already has a club at {slug!r}")
    with open_club_archive(data) as read:
        try:
            with transaction.atomic():
                name_home_directors()  # a second club: the home club's by default are named
                club = Club.objects.create(slug=slug, name=name)
                _Importer(read, club).run()
        except DatabaseError as error:  # a constraint, a value too long for its column, a race
            raise ClubArchiveError(
                "archive-inconsistent", f"the archive breaks a rule of the database: {error}"
            ) from error
    return club


# -- kept archives and removal --------------------------------------------------------------------


def archives_dir() -> Path:
    """Where the archives of clubs (made before a removal) are kept: settings.CLUB_ARCHIVES_DIR."""
    return Path(settings.CLUB_ARCHIVES_DIR)


def kept_archives(*, slug: str) -> list[Path]:
    """The archives kept of the club at `slug`, oldest first."""
    own = archives_dir() / slug
    if not SLUG.fullmatch(slug) or not own.is_dir():
        return []
    return sorted(
        p
        for p in own.iterdir()
        if p.is_file() and p.name.startswith(f"{slug}-") and p.name.endswith(SUFFIX)
    )


def keep_archive(*, club: Club, actor: Actor) -> Path:
    """Write the club's archive to `CLUB_ARCHIVES_DIR/<slug>/<slug>-<UTC time>.zip`, whole or
    not at all (a temporary file, fsync, rename); returns the file."""
    _may_operate(actor)
    own = archives_dir() / club.slug
    own.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = own / f"{club.slug}-{stamp}{SUFFIX}"
    fd, temporary = tempfile.mkstemp(dir=own, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w+b") as out:
            write_club_archive(club=club, out=out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return path


def remove_club(*, club: Club, actor: Actor, confirm: str) -> Path:
    """Remove a club and every row of it, in one transaction, after writing its archive once
    more (kept on the server: `keep_archive`); returns that archive. `confirm` is the club's
    address typed by the administrator. The home club is never removed."""
    _may_operate(actor)
    if club.pk == home_club().pk:
        raise Conflict("home-club", "the installation's home club cannot be removed")
    if not isinstance(confirm, str) or confirm.strip() != club.slug:
        raise ServiceError("bad-confirmation", "type the club's address to confirm its removal")
    try:
        with transaction.atomic():
            locked = Club.objects.select_for_update().get(pk=club.pk)
            path = keep_archive(club=locked, actor=actor)
            persons = set(
                Player.objects.filter(club=locked, person__isnull=False).values_list(
                    "person_id", flat=True
                )
            )
            PublishedEvent.objects.filter(key__club=locked).delete()
            Tournament.objects.filter(club=locked).delete()
            Series.objects.filter(club=locked).delete()
            Team.objects.filter(club=locked).delete()
            Player.objects.filter(club=locked).delete()
            Person.objects.filter(pk__in=persons, records__isnull=True).delete()
            locked.delete()
    except (ProtectedError, RestrictedError) as error:
        raise Conflict(
            "club-in-use",
            f"another club's rows refer to this club's ({error.args[0]}); nothing was removed",
        ) from None
    return path

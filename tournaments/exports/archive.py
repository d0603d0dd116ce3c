"""The whole tournament as one JSON document (`tricktable-archive/1`), and its restore.

An archive holds everything that happened in a tournament: its options, directors (by
username), players, teams, entries, rounds, tables, matches, seats, every hand with every
submission version (as sent, as the engine read it, its result, its status, who submitted and
decided it, the idempotency key, the reason, the timestamps and which version superseded which),
every standings snapshot and the audit trail; a duplicate event's options and movement, numbered
pairs, boards (their deals) and every version of every board result. Rows refer to each other by
the archive's own ids (1, 2, ... per kind, in a stable order), never by database ids: exporting
a restored tournament gives the same document again.

Left out, on purpose: table tokens (live credentials, stored only as hashes: issue new ones
after a restore), hand-import jobs (an upload's working state; the hands they stored are in the
archive) and club ratings (derived from every tournament's matches: recomputed after a
restore). docs/exports.md states the format and its guarantees.

`restore` writes the archive into a database that does not hold the tournament yet, in one
transaction: ids are re-linked, players already in the database are reused (the same record by
its `uid`, else the member of the same club number), missing users are created without a usable
password, and the original timestamps are kept. A caller replacing a tournament it just deleted
may ask for rows to get back their old database ids (`keep`: the club's site does, so that a
republished event's links still lead to the same tournament, entries, rounds and matches).
Nothing is announced while it runs; after commit the standings and the game's ratings are
scheduled once.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone

from tournaments.models import (
    AuditEvent,
    Board,
    BoardResult,
    Club,
    DuplicateEvent,
    DuplicatePair,
    Entry,
    EventTable,
    Hand,
    HandSubmission,
    KeepApart,
    Match,
    Player,
    Round,
    Seat,
    StandingsSnapshot,
    Table,
    Team,
    Tournament,
    new_pin,
)
from tournaments.services import SYSTEM, Actor, Conflict, NotAllowed, ServiceError

#: A model class, as the restore builds and inserts its rows.
M = TypeVar("M", bound=models.Model)

#: Database ids a restore gives back to rows: model -> {archive id: database id}. Only for ids
#: the caller freed in the same transaction (the tournament it replaces); the tournament itself
#: is under TOURNAMENT_ID.
Keep = dict[type[models.Model], dict[Any, int]]
TOURNAMENT_ID = "tournament"

FORMAT = "tricktable-archive/1"
REQUIRED = ("name", "slug", "game", "rules", "format", "rounds")  # of the tournament
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,80}")
USER = "user"  # a relation to a user, written as the username
BY_NUMBER = "by number"  # the event's table: implied by the round's table number, not written
CLUB = "club"  # the club: the one the event is restored into (restore's `club`), not written
ELSEWHERE = "elsewhere"  # a link across clubs (a person's records): not the event's, not written
NOT_WRITTEN = (BY_NUMBER, CLUB, ELSEWHERE)

#: Every relation of every archived model: field -> the model it points to (USER for users).
#: Relations to the tournament itself are implied by the archive and not written.
RELATIONS: dict[type[models.Model], dict[str, Any]] = {
    Tournament: {"club": CLUB},
    Player: {"club": CLUB, "person": ELSEWHERE},
    Team: {"club": CLUB, "first": Player, "second": Player},
    Entry: {"tournament": Tournament, "team": Team, "player": Player},
    Round: {"tournament": Tournament},
    Table: {"round": Round, "event_table": BY_NUMBER},
    Match: {"round": Round, "table": Table},
    Seat: {"match": Match, "entry": Entry},
    Hand: {"match": Match},
    HandSubmission: {
        "hand": Hand,
        "superseded_by": HandSubmission,
        "submitted_by": USER,
        "decided_by": USER,
    },
    StandingsSnapshot: {"tournament": Tournament},
    AuditEvent: {"tournament": Tournament, "actor": USER},
    KeepApart: {"tournament": Tournament, "first": Entry, "second": Entry},
    DuplicateEvent: {"tournament": Tournament},
    DuplicatePair: {"tournament": Tournament, "entry": Entry},
    Board: {"tournament": Tournament},
    BoardResult: {"tournament": Tournament, "board": Board, "match": Match, "submitted_by": USER},
}

#: A duplicate event's lists (optional: other formats, and archives written before duplicate,
#: have none), in the order they are restored, after the matches and entries they refer to.
DUPLICATE_KINDS: list[tuple[str, type[models.Model]]] = [
    ("duplicate", DuplicateEvent),  # at most one row: the event's options and movement
    ("duplicate_pairs", DuplicatePair),
    ("boards", Board),
    ("board_results", BoardResult),
]

#: The archive's lists, in the order they are restored (each after what it refers to).
KINDS: list[tuple[str, type[models.Model]]] = [
    ("players", Player),
    ("teams", Team),
    ("entries", Entry),
    ("rounds", Round),
    ("tables", Table),
    ("matches", Match),
    ("seats", Seat),
    ("hands", Hand),
    ("standings", StandingsSnapshot),
    ("audit", AuditEvent),
]


def _give_pins(entries: list[Any]) -> None:
    """Entries from an archive written before PINs (or with a PIN twice) get a fresh PIN, unique
    in the tournament (bulk inserts skip `Entry.save`, which gives one otherwise)."""
    taken: set[str] = set()
    for entry in entries:
        if not entry.pin or entry.pin in taken:
            entry.pin = new_pin(taken)
        taken.add(entry.pin)


class ArchiveError(ServiceError):
    """The document is not an archive this version can restore; nothing was changed."""


class AlreadyHeld(Conflict):
    """The database already holds the archived tournament; nothing was changed."""


# -- values ---------------------------------------------------------------------------------------


def _plain_fields(model: type[models.Model]) -> list[models.Field]:
    """The model's own columns: not the id, not a relation."""
    return [f for f in model._meta.concrete_fields if not f.primary_key and not f.is_relation]


def _out(value: Any) -> Any:
    """A column's value as JSON: exact decimals as strings ("2.0"), times in ISO 8601."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    return value


def _in(fld: models.Field, value: Any, where: str) -> Any:
    """A JSON value back into a column's Python value, checked by the field."""
    if value is None:
        if not fld.null:
            raise ArchiveError("bad-archive", f"{where}: {fld.name} may not be null")
        return None
    try:
        converted = fld.to_python(value)
        if isinstance(fld, models.IntegerField):  # the database's range (a 30-digit number)
            fld.run_validators(converted)
        return converted
    except ValidationError as error:
        raise ArchiveError("bad-archive", f"{where}: {fld.name}: {error.messages[0]}") from error
    except (TypeError, ValueError):  # a list where a time belongs, say: not a column's value
        raise ArchiveError(
            "bad-archive", f"{where}: {fld.name}: {value!r:.40} is not a value of this column"
        ) from None


def _is_timestamp(fld: models.Field) -> bool:
    """A column Django stamps itself on save: restored afterwards from the archive."""
    return bool(getattr(fld, "auto_now_add", False) or getattr(fld, "auto_now", False))


# -- export ---------------------------------------------------------------------------------------


class _Ids:
    """Archive ids per model: 1, 2, ... in the order the rows are listed."""

    def __init__(self) -> None:
        self._ids: dict[type, dict[int, int]] = {}

    def number(self, model: type, objects: Iterable[models.Model]) -> None:
        self._ids[model] = {obj.pk: n for n, obj in enumerate(objects, 1)}

    def of(self, model: type, pk: int | None) -> int | None:
        return None if pk is None else self._ids[model].get(pk)


def _row(obj: models.Model, ids: _Ids, users: dict[int, str]) -> dict[str, Any]:
    model = type(obj)
    row: dict[str, Any] = {"id": ids.of(model, obj.pk)}
    for fld in _plain_fields(model):
        row[fld.name] = _out(fld.value_from_object(obj))
    for name, target in RELATIONS[model].items():
        if target is Tournament or target in NOT_WRITTEN:
            continue
        pk = getattr(obj, f"{name}_id")
        row[name] = users.get(pk) if target == USER else ids.of(target, pk)
    return row


def _map_payload(payload: Any, entry: Callable[[Any], Any], match: Callable[[Any], Any]) -> Any:
    """A standings payload with its entry and match ids translated (rows' `entry`, and the
    provisional matches' `match` and `entries`)."""
    out = deepcopy(payload)
    if not isinstance(out, dict):
        return out
    for row in out.get("rows") or []:
        if isinstance(row, dict) and "entry" in row:
            row["entry"] = entry(row["entry"])
    for item in out.get("provisional") or []:
        if not isinstance(item, dict):
            continue
        if "match" in item:
            item["match"] = match(item["match"])
        for side in (item.get("sides") or {}).values():
            if isinstance(side, dict) and isinstance(side.get("entries"), list):
                side["entries"] = [entry(e) for e in side["entries"]]
    return out


def _map_bracket(bracket: Any, entry: Callable[[Any], Any]) -> Any:
    """A knockout's bracket (`Tournament.bracket`) with its entry ids translated: the seeds
    and the entries at the cut line."""
    out = deepcopy(bracket)
    if not isinstance(out, dict):
        return out
    for key in ("seeds", "line"):
        if isinstance(out.get(key), list):
            out[key] = [entry(e) for e in out[key]]
    return out


def export_archive(tournament: Tournament) -> dict[str, Any]:
    """The tournament as one JSON-ready dict (see the module docstring)."""
    t = Tournament.objects.get(pk=tournament.pk)  # as stored (Decimal("2.0"), not Decimal(2))
    entries = list(Entry.objects.filter(tournament=t).select_related("team").order_by("id"))
    team_ids = sorted({e.team_id for e in entries if e.team_id})
    teams = list(Team.objects.filter(pk__in=team_ids).order_by("id"))
    player_ids = {e.player_id for e in entries if e.player_id}
    player_ids |= {p for team in teams for p in (team.first_id, team.second_id)}
    players = list(Player.objects.filter(pk__in=player_ids).order_by("id"))
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    tables = list(Table.objects.filter(round__tournament=t).order_by("round__number", "number"))
    matches = list(Match.objects.filter(round__tournament=t).order_by("round__number", "id"))
    seats = list(
        Seat.objects.filter(match__round__tournament=t).order_by(
            "match__round__number", "match_id", "id"
        )
    )
    hands = list(
        Hand.objects.filter(match__round__tournament=t).order_by(
            "match__round__number", "match_id", "number"
        )
    )
    versions = list(
        HandSubmission.objects.filter(hand__match__round__tournament=t).order_by(
            "hand__match__round__number", "hand__match_id", "hand__number", "version"
        )
    )
    snapshots = list(StandingsSnapshot.objects.filter(tournament=t).order_by("version"))
    audit = list(AuditEvent.objects.filter(tournament=t).order_by("at", "id"))
    apart = list(KeepApart.objects.filter(tournament=t).order_by("id"))
    duplicate: dict[type[models.Model], list[Any]] = {
        DuplicateEvent: list(DuplicateEvent.objects.filter(tournament=t)),
        DuplicatePair: list(DuplicatePair.objects.filter(tournament=t).order_by("number")),
        Board: list(Board.objects.filter(tournament=t).order_by("number")),
        BoardResult: list(
            BoardResult.objects.filter(tournament=t).order_by(
                "board__number", "round_number", "table_number", "version"
            )
        ),
    }

    ids = _Ids()
    listed: list[tuple[type[models.Model], Sequence[models.Model]]] = [
        (Tournament, [t]),
        (Player, players),
        (Team, teams),
        (Entry, entries),
        (Round, rounds),
        (Table, tables),
        (Match, matches),
        (Seat, seats),
        (Hand, hands),
        (HandSubmission, versions),
        (StandingsSnapshot, snapshots),
        (AuditEvent, audit),
        (KeepApart, apart),
        *duplicate.items(),
    ]
    for model, objects in listed:
        ids.number(model, objects)
    user_ids = {v.submitted_by_id for v in versions} | {v.decided_by_id for v in versions}
    user_ids |= {r.submitted_by_id for r in duplicate[BoardResult]}
    user_ids |= {a.actor_id for a in audit}
    user_model = get_user_model()
    known = {pk for pk in user_ids if pk is not None}
    users = {u.pk: u.get_username() for u in user_model._default_manager.filter(pk__in=known)}
    directors = sorted(u.get_username() for u in t.directors.all())

    tournament_row = _row(t, ids, users)
    del tournament_row["id"]
    if "bracket" in tournament_row:
        tournament_row["bracket"] = _map_bracket(
            tournament_row["bracket"], lambda pk: ids.of(Entry, pk) if isinstance(pk, int) else pk
        )
    by_hand: dict[int, list[dict]] = {}
    for version in versions:
        row = _row(version, ids, users)
        del row["hand"]
        by_hand.setdefault(version.hand_id, []).append(row)
    hand_rows = []
    for hand in hands:
        hand_rows.append(_row(hand, ids, users) | {"versions": by_hand.get(hand.pk, [])})
    snapshot_rows = []
    for snapshot in snapshots:
        row = _row(snapshot, ids, users)
        row["payload"] = _map_payload(
            snapshot.payload,
            lambda pk: ids.of(Entry, pk) if isinstance(pk, int) else pk,
            lambda pk: ids.of(Match, pk) if isinstance(pk, int) else pk,
        )
        snapshot_rows.append(row)
    document = {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "tournament": tournament_row,
        "directors": directors,
        "players": [_row(p, ids, users) for p in players],
        "teams": [_row(x, ids, users) for x in teams],
        "entries": [_row(e, ids, users) for e in entries],
        "rounds": [_row(r, ids, users) for r in rounds],
        "tables": [_row(x, ids, users) for x in tables],
        "matches": [_row(m, ids, users) for m in matches],
        "seats": [_row(s, ids, users) for s in seats],
        "hands": hand_rows,
        "standings": snapshot_rows,
        "audit": [_row(a, ids, users) for a in audit],
        "kept_apart": [_row(p, ids, users) for p in apart],
    }
    if duplicate[DuplicateEvent]:
        for kind, model in DUPLICATE_KINDS:
            document[kind] = [_row(obj, ids, users) for obj in duplicate[model]]
    return document


def dumps(archive: dict[str, Any]) -> str:
    """The archive as JSON text, one row per line: compact (a hand's cards stay on one line),
    readable (names are not escaped) and friendly to line-based diffs."""

    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = []
    for key, value in archive.items():
        if isinstance(value, list) and value:
            rows = ",\n".join(compact(row) for row in value)
            lines.append(f"{compact(key)}:[\n{rows}\n]")
        else:
            lines.append(f"{compact(key)}:{compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# -- restore --------------------------------------------------------------------------------------


@dataclass(slots=True)
class Restored:
    tournament: Tournament
    counts: dict[str, int] = field(default_factory=dict)  # rows written, by kind
    reused_players: int = 0
    created_users: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"{n} {kind}" for kind, n in self.counts.items()]
        text = f"Restored {self.tournament.slug!r} ({self.tournament.name}): {', '.join(parts)}"
        if self.reused_players:
            text += f"; {self.reused_players} players already in the database were reused"
        if self.created_users:
            text += f"; users created without a password: {', '.join(self.created_users)}"
        return text + "."


def _rows(archive: dict, kind: str) -> list[dict]:
    rows = archive.get(kind)
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ArchiveError("bad-archive", f"`{kind}` must be a list of objects")
    seen: set[Any] = set()
    for row in rows:
        key = row.get("id")
        if not isinstance(key, int) or isinstance(key, bool) or key in seen:
            raise ArchiveError("bad-archive", f"`{kind}`: every row needs its own integer id")
        seen.add(key)
    return rows


def check_archive(archive: Any) -> None:
    """Refuse a document that is not a `tricktable-archive/1`, before anything is written."""
    if not isinstance(archive, dict):
        raise ArchiveError("bad-archive", "an archive is a JSON object")
    stated = archive.get("format")
    if stated != FORMAT:
        if isinstance(stated, str) and stated.startswith("tricktable-archive/"):
            raise ArchiveError(
                "unsupported-archive", f"this version restores {FORMAT} archives, not {stated}"
            )
        raise ArchiveError("bad-archive", f'not a TrickTable archive (no "format": "{FORMAT}")')
    tournament = archive.get("tournament")
    if not isinstance(tournament, dict):
        raise ArchiveError("bad-archive", "`tournament` must be an object")
    missing = [k for k in REQUIRED if tournament.get(k) in (None, "")]
    if missing:
        raise ArchiveError("bad-archive", f"`tournament` lacks {', '.join(missing)}")
    if not isinstance(tournament["slug"], str) or not SLUG.fullmatch(tournament["slug"]):
        raise ArchiveError("bad-archive", f"the slug {tournament['slug']!r} is not a slug")
    if not isinstance(archive.get("directors"), list) or not all(
        isinstance(d, str) and d for d in archive["directors"]
    ):
        raise ArchiveError("bad-archive", "`directors` must be a list of usernames")
    for kind, _model in KINDS:
        _rows(archive, kind)
    for kind, _model in DUPLICATE_KINDS:
        if kind in archive:
            _rows(archive, kind)
    if len(archive.get("duplicate", [])) > 1:
        raise ArchiveError("bad-archive", "`duplicate` holds at most one event")
    versions = []
    for hand in archive["hands"]:
        if not isinstance(hand.get("versions"), list):
            raise ArchiveError("bad-archive", f"hand {hand['id']}: `versions` must be a list")
        versions += hand["versions"]
    _rows({"versions": versions}, "versions")


class _Restorer:
    """One restore: archive ids -> new rows, written in dependency order."""

    def __init__(
        self, archive: dict[str, Any], keep: Keep | None = None, club: Club | None = None
    ) -> None:
        self.archive = archive
        self.keep: Keep = keep or {}
        self.club = club  # None: the club a row gets by default (the home club)
        self.pks: dict[type, dict[int, int]] = {}
        self.users: dict[str, Any] = {}
        self.created_users: list[str] = []
        self.tournament: Any = None
        self.result: Restored | None = None

    # where an archive row points to
    def pk(self, model: type, archive_id: Any, where: str) -> int | None:
        if archive_id is None:
            return None
        try:
            return self.pks[model][archive_id]
        except (KeyError, TypeError):
            raise ArchiveError(
                "bad-archive",
                f"{where} refers to {model.__name__} {archive_id!r}, "
                "which the archive does not hold",
            ) from None

    def user(self, name: Any, where: str) -> Any:
        if name is None:
            return None
        if name not in self.users:
            raise ArchiveError("bad-archive", f"{where}: unknown user {name!r}")
        return self.users[name]

    def build(self, model: type[M], row: dict, where: str, **fixed: Any) -> M:
        values: dict[str, Any] = {}
        for fld in _plain_fields(model):
            if fld.name in row:
                values[fld.name] = _in(fld, row[fld.name], where)
        for name, target in RELATIONS[model].items():
            if f"{name}_id" in fixed or target is HandSubmission or target in NOT_WRITTEN:
                continue
            if target is Tournament:
                values[f"{name}_id"] = self.tournament.pk
            elif target == USER:
                user = self.user(row.get(name), where)
                values[f"{name}_id"] = user.pk if user is not None else None
            else:
                values[f"{name}_id"] = self.pk(target, row.get(name), where)
        values.update(fixed)
        return model(**values)

    def create(self, model: type[M], rows: list[dict], objects: Sequence[M]) -> None:
        """Insert the rows (with the database ids `keep` gives back), then put back the
        timestamps Django stamped on insert."""
        kept = self.keep.get(model) or {}
        for row, obj in zip(rows, objects, strict=True):
            if row.get("id") in kept:
                obj.pk = kept[row["id"]]
        model._default_manager.bulk_create(objects)
        stamped = [f for f in _plain_fields(model) if _is_timestamp(f)]
        for row, obj in zip(rows, objects, strict=True):
            for fld in stamped:
                if fld.name in row:
                    setattr(obj, fld.attname, _in(fld, row[fld.name], model.__name__))
        if stamped and objects:
            model._default_manager.bulk_update(objects, [f.name for f in stamped], batch_size=500)
        self.pks[model] = {row["id"]: obj.pk for row, obj in zip(rows, objects, strict=True)}

    def run(self) -> Restored:
        archive = self.archive
        self.refuse_held()
        self.make_users()
        self.tournament = self.build(
            Tournament, archive["tournament"], "tournament", **self.in_club()
        )
        kept = (self.keep.get(Tournament) or {}).get(TOURNAMENT_ID)
        if kept is not None:
            self.tournament.pk = kept
            self.tournament.save(force_insert=True)
        else:
            self.tournament.save()
        stamps = {
            f.name: _in(f, archive["tournament"][f.name], "tournament")
            for f in _plain_fields(Tournament)
            if _is_timestamp(f) and f.name in archive["tournament"]
        }
        if stamps:
            Tournament.objects.filter(pk=self.tournament.pk).update(**stamps)
        self.tournament.refresh_from_db()
        self.tournament.directors.set([self.users[name] for name in archive["directors"]])
        self.result = Restored(self.tournament, created_users=self.created_users)
        self.restore_players()
        self.restore_teams()
        for kind, model in KINDS[2:8]:  # entries .. hands
            rows = _rows(archive, kind)
            objects = [self.build(model, r, f"{kind} {r['id']}") for r in rows]
            if model is Table:  # each round's table is the event's table of that number
                tables = [t for t in objects if isinstance(t, Table)]
                numbers = EventTable.objects.numbered(
                    self.tournament.pk, {t.number for t in tables}
                )
                for table in tables:
                    table.event_table = numbers[table.number]
            if model is Entry:
                _give_pins(objects)
            self.create(model, rows, objects)
        bracket = archive["tournament"].get("bracket")
        if isinstance(bracket, dict) and bracket:  # a knockout's seeds, as entries restored
            mapped = _map_bracket(bracket, lambda i: self.pk(Entry, i, "tournament bracket"))
            Tournament.objects.filter(pk=self.tournament.pk).update(bracket=mapped)
            self.tournament.bracket = mapped
        # Pairs kept apart: optional, since archives written before them have none.
        rows = _rows({"kept_apart": archive.get("kept_apart", [])}, "kept_apart")
        self.create(
            KeepApart, rows, [self.build(KeepApart, r, f"kept_apart {r['id']}") for r in rows]
        )
        self.restore_versions()
        self.restore_duplicate()
        self.restore_snapshots()
        rows = _rows(archive, "audit")
        self.create(AuditEvent, rows, [self.build(AuditEvent, r, f"audit {r['id']}") for r in rows])
        self.result.counts = {kind: len(archive[kind]) for kind, _ in KINDS}
        self.result.counts["hand versions"] = sum(len(h["versions"]) for h in archive["hands"])
        for kind, _model in DUPLICATE_KINDS[1:]:
            if archive.get(kind):
                self.result.counts[kind.replace("_", " ")] = len(archive[kind])
        return self.result

    def in_club(self) -> dict[str, Any]:
        """The club column of a tournament, player or team restored into a given club."""
        return {} if self.club is None else {"club_id": self.club.pk}

    def refuse_held(self) -> None:
        slug = self.archive["tournament"].get("slug")
        held = Tournament.objects.filter(slug=slug).first() if isinstance(slug, str) else None
        if held is not None:
            raise AlreadyHeld(
                "tournament-exists",
                f"this database already holds the tournament {slug!r} ({held.name}); an archive "
                "is restored only into a database that does not hold it (delete it first, or "
                "restore into another database)",
            )
        keys = [v.get("idempotency_key") for h in self.archive["hands"] for v in h["versions"]]
        keys = [k for k in keys if k]
        if not all(isinstance(k, str) for k in keys):
            raise ArchiveError("bad-archive", "an idempotency key is a string")
        repeated = [k for k, n in Counter(keys).items() if n > 1]
        if repeated:
            raise ArchiveError(
                "bad-archive", f"idempotency keys repeat inside the archive: {repeated[:3]}"
            )
        taken = list(
            HandSubmission.objects.filter(idempotency_key__in=keys).values_list(
                "idempotency_key", flat=True
            )[:3]
        )
        board_keys = [r.get("idempotency_key") for r in self.archive.get("board_results", [])]
        board_keys = [k for k in board_keys if k]
        if not all(isinstance(k, str) for k in board_keys) or len(set(board_keys)) != len(
            board_keys
        ):
            raise ArchiveError(
                "bad-archive", "board results' idempotency keys are strings, each once"
            )
        taken += list(
            BoardResult.objects.filter(idempotency_key__in=board_keys).values_list(
                "idempotency_key", flat=True
            )[:3]
        )
        if taken:
            raise AlreadyHeld(
                "idempotency-key-taken",
                f"this database already holds hand submissions or board results with the "
                f"archive's idempotency keys ({', '.join(map(str, taken))}): keys must stay "
                "unique, so the "
                "archive's results are already here (restored under another slug?)",
            )

    def make_users(self) -> None:
        named = list(self.archive["directors"])
        for hand in self.archive["hands"]:
            for version in hand["versions"]:
                named += [version.get("submitted_by"), version.get("decided_by")]
        named += [event.get("actor") for event in self.archive["audit"]]
        named += [r.get("submitted_by") for r in self.archive.get("board_results", [])]
        named = [n for n in named if n is not None]
        if not all(isinstance(n, str) and n for n in named):  # (a list is not even hashable)
            raise ArchiveError("bad-archive", "users are named by their username")
        names = set(named)
        user_model = get_user_model()
        field_name = user_model.USERNAME_FIELD
        existing = user_model.objects.filter(**{f"{field_name}__in": names})
        self.users = {u.get_username(): u for u in existing}
        for name in sorted(names - set(self.users)):
            user = user_model(**{field_name: name})
            user.set_unusable_password()
            user.save()
            self.users[name] = user
            self.created_users.append(name)

    def restore_players(self) -> None:
        rows = _rows(self.archive, "players")
        numbers = [r.get("club_number") for r in rows if r.get("club_number")]
        members = Player.objects.all() if self.club is None else self.club.players.all()
        held = {p.club_number: p for p in members.filter(club_number__in=numbers)}
        uid_field = Player._meta.get_field("uid")
        uids = {
            row["id"]: _in(uid_field, row["uid"], f"players {row['id']}")
            for row in rows
            if row.get("uid") is not None
        }
        with_uid = Player.objects.filter(uid__in=list(uids.values()))
        same = {p.uid: p for p in with_uid if self.club is None or p.club_id == self.club.pk}
        elsewhere = {p.uid for p in with_uid} - set(same)  # another club's record keeps its uid
        new_rows, new_objects, mapping = [], [], {}
        for row in rows:
            # The same record (its uid), else the member of that club number ("" for none).
            uid = uids.get(row["id"])
            found = (same.get(uid) if uid is not None else None) or held.get(
                row.get("club_number") or ""
            )
            if found is not None:
                mapping[row["id"]] = found.pk
                continue
            player = self.build(Player, row, f"players {row['id']}", **self.in_club())
            if uid in elsewhere:
                player.uid = uuid.uuid4()
            new_rows.append(row)
            new_objects.append(player)
        self.create(Player, new_rows, new_objects)
        self.pks[Player] |= mapping
        assert self.result is not None  # run() made it before restoring the players
        self.result.reused_players = len(mapping)

    def restore_teams(self) -> None:
        rows = _rows(self.archive, "teams")
        new_rows, new_objects, mapping = [], [], {}
        for row in rows:
            team = self.build(Team, row, f"teams {row['id']}", **self.in_club())
            candidates = Team.objects.filter(
                name=team.name, first_id=team.first_id, second_id=team.second_id
            )
            if self.club is not None:
                candidates = candidates.filter(club=self.club)
            same = candidates.first()
            if same is not None:  # both players were reused, and so is their team
                mapping[row["id"]] = same.pk
                continue
            new_rows.append(row)
            new_objects.append(team)
        self.create(Team, new_rows, new_objects)
        self.pks[Team] |= mapping

    def restore_versions(self) -> None:
        rows, objects = [], []
        for hand in self.archive["hands"]:
            hand_pk = self.pks[Hand][hand["id"]]
            for row in hand["versions"]:
                rows.append(row)
                objects.append(
                    self.build(
                        HandSubmission,
                        row,
                        f"hand {hand['id']} version {row['id']}",
                        hand_id=hand_pk,
                    )
                )
        self.create(HandSubmission, rows, objects)
        linked = []
        for row, obj in zip(rows, objects, strict=True):
            if row.get("superseded_by") is not None:
                obj.superseded_by_id = self.pk(
                    HandSubmission, row["superseded_by"], f"version {row['id']}"
                )
                linked.append(obj)
        if linked:
            HandSubmission.objects.bulk_update(linked, ["superseded_by"], batch_size=500)

    def restore_duplicate(self) -> None:
        """A duplicate event: its options and movement, numbered pairs, boards (with their
        deals) and every version of every board result."""
        for kind, model in DUPLICATE_KINDS:
            rows = _rows({kind: self.archive.get(kind, [])}, kind)
            self.create(model, rows, [self.build(model, r, f"{kind} {r['id']}") for r in rows])

    def restore_snapshots(self) -> None:
        rows = _rows(self.archive, "standings")
        entries, matches = self.pks[Entry], self.pks[Match]
        objects = []
        for row in rows:
            snapshot = self.build(StandingsSnapshot, row, f"standings {row['id']}")
            snapshot.payload = _map_payload(
                snapshot.payload,
                lambda key: entries.get(key, key) if isinstance(key, int) else key,
                lambda key: matches.get(key, key) if isinstance(key, int) else key,
            )
            objects.append(snapshot)
        self.create(StandingsSnapshot, rows, objects)


def restore(
    *, archive: Any, actor: Actor = SYSTEM, keep: Keep | None = None, club: Club | None = None
) -> Restored:
    """Write an archive into this database as a new tournament (see the module docstring);
    raises ArchiveError, AlreadyHeld or NotAllowed, having changed nothing. Restoring is an
    operator's act (the `import` command runs as the system) or a superuser's: it creates
    users and makes them directors. With `club`, the tournament, its new players and teams
    are that club's, and players are reused only from that club (a club's archive,
    tournaments/clubs/archive.py); without, as before (the home club by default)."""
    user = actor.user_or_none()
    if not actor.system and not (user is not None and user.is_superuser):
        raise NotAllowed("not-operator", "only the system or a superuser restores an archive")
    check_archive(archive)
    try:
        with transaction.atomic():
            result = _Restorer(archive, keep, club).run()
            tournament_id, game = result.tournament.pk, result.tournament.game
            transaction.on_commit(lambda: _schedule(tournament_id, game))
    except DatabaseError as error:  # a constraint, or a value too long for its column
        raise ArchiveError(
            "archive-inconsistent", f"the archive breaks a rule of the database: {error}"
        ) from error
    return result


def _schedule(tournament_id: int, game: str) -> None:
    """The one recompute after a restore: standings (a no-op when the restored snapshot is
    current) and the game's club ratings, which now include the restored matches."""
    from tournaments.services import ratings, standings

    standings.schedule(tournament_id)
    ratings.schedule(game)

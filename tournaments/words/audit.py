"""The audit trail in sentences: each recorded action as people say it, in English or Japanese,
with the entries' names, the round, the table and the hand, never ids or action slugs.

One sentence writer per action, registered in `SENTENCES`; an action recorded anywhere in the
services without a writer here fails `tests/tournaments/test_audit_words.py`. The writers read
the event's `data` (what the service recorded) and the entries' names, looked up once per page
(`names_for`). Events recorded before the data carried a round or a table fall back to the
subject the service wrote ("round 2 table 3").

Events are grouped by kind for the trail's filter (`KINDS`); the round an event belongs to is
`data["round"]`, or the subject's round for older events (`round_of`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Field
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.models import AuditEvent, Entry, Tournament

PLACE = re.compile(r"round (?P<round>\d+)(?: table (?P<table>\d+))?(?: hand (?P<hand>\d+))?")


@dataclass(frozen=True, slots=True)
class Said:
    """What a writer may read: the event, its place (round, table, hand) and the names."""

    event: AuditEvent
    names: dict[int, str]

    @property
    def data(self) -> dict[str, Any]:
        return self.event.data if isinstance(self.event.data, dict) else {}

    def place(self, key: str, recorded: str | None = None) -> int | None:
        """The event's round, table or hand: as recorded in its data (under `recorded`, or
        `key`), else as its subject says ("round 2 table 3 hand 4")."""
        value = self.data.get(recorded or key)
        if key == "table" and "token" in self.data and "table_id" not in self.data:
            value = None  # a scoring link's event before 2026-11: `table` was the table's id
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        found = PLACE.search(self.event.subject or "")
        return int(found[key]) if found and found[key] else None

    def entry(self, entry_id: Any) -> str:
        return self.names.get(entry_id) or self.event.subject or _("an entry")


Writer = Callable[[Said], str]


def _entry(said: Said) -> str:
    return said.entry(said.data.get("entry"))


def _card_table(said: Said) -> str:
    """A table card's table: the event's table (records made before cards name a round too)."""
    if said.place("round") is not None:
        return _at_table(said)
    return _("table %(table)s") % {"table": said.place("table")}


def _at_table(said: Said) -> str:
    round_, table = said.place("round"), said.place("table")
    if table is None:
        return _("round %(round)s") % {"round": round_}
    return _("table %(table)s, round %(round)s") % {"table": table, "round": round_}


def _late(said: Said) -> str:
    policy = (
        str(Tournament.LateEntry(said.data["policy"]).label)
        if said.data.get("policy") in Tournament.LateEntry.values
        else ""
    )
    sentence = _("Registered %(entry)s late, to play from round %(round)s.") % {
        "entry": _entry(said),
        "round": said.data.get("joined_round"),
    }
    return f"{sentence} {_('%(policy)s.') % {'policy': policy}}" if policy else sentence


def _withdrawn(said: Said) -> str:
    sentence = _("Withdrew %(entry)s.") % {"entry": _entry(said)}
    if said.data.get("in_draft_round"):
        sentence += " " + _(
            "Their place in the draft round is left empty until it is paired again."
        )
    return sentence


def _table_fixed(said: Said) -> str:
    table = said.data.get("table")
    if table:
        return _("Kept %(entry)s at table %(table)s.") % {"entry": _entry(said), "table": table}
    return _("Let %(entry)s move between tables again.") % {"entry": _entry(said)}


def _paired(said: Said) -> str:
    byes = [said.entry(e) for e in said.data.get("byes") or []]
    values = {"round": said.place("round"), "tables": said.data.get("tables", 0)}
    if said.data.get("regenerated"):
        sentence = (
            ngettext(
                "Paired round %(round)s again: %(tables)s table.",
                "Paired round %(round)s again: %(tables)s tables.",
                values["tables"],
            )
            % values
        )
    else:
        sentence = (
            ngettext(
                "Paired round %(round)s: %(tables)s table.",
                "Paired round %(round)s: %(tables)s tables.",
                values["tables"],
            )
            % values
        )
    if byes:
        sentence += " " + _("Sitting out: %(names)s.") % {"names": ", ".join(byes)}
    return sentence


def _swapped(said: Said) -> str:
    first, second = (said.entry(e) for e in (said.data.get("entries") or [None, None])[:2])
    tables = said.data.get("tables")
    if tables and tables[0] == tables[1] and tables[0] is not None:
        where = _("changed sides at table %(table)s") % {"table": tables[0]}
        sentence = _("%(first)s and %(second)s %(where)s in round %(round)s.") % {
            "first": first,
            "second": second,
            "where": where,
            "round": said.place("round"),
        }
    elif tables:
        shown = [str(t) if t is not None else _("the bye") for t in tables]
        sentence = _(
            "Swapped %(first)s and %(second)s (tables %(one)s and %(other)s) in round %(round)s."
        ) % {
            "first": first,
            "second": second,
            "one": shown[0],
            "other": shown[1],
            "round": said.place("round"),
        }
    else:
        sentence = _("Swapped %(first)s and %(second)s in round %(round)s.") % {
            "first": first,
            "second": second,
            "round": said.place("round"),
        }
    rematches = [
        " v ".join(said.entry(e) for e in pair) for pair in said.data.get("rematches") or []
    ]
    if rematches:
        sentence += " " + ngettext(
            "This makes a rematch: %(pairs)s.", "This makes rematches: %(pairs)s.", len(rematches)
        ) % {"pairs": "; ".join(rematches)}
    return sentence


def _setup(said: Said) -> str:
    changes = said.data.get("changes") or {}
    fields = [_field_label(name) for name in sorted(changes)] or [
        s.strip() for s in (said.event.subject or "").split(",") if s.strip()
    ]
    sentence = _("Changed the setup: %(fields)s.") % {"fields": ", ".join(fields)}
    if said.data.get("discarded_draft"):
        sentence += " " + _("The draft round was discarded.")
    return sentence


def _field_label(name: str) -> str:
    try:
        field = Tournament._meta.get_field(name)
        assert isinstance(field, Field)  # a relation seen from the other side has no label
        return str(field.verbose_name)
    except Exception:  # a setting that is not a model field: its name, readable
        return name.replace("_", " ")


def _corrected(said: Said) -> str:
    sentence = _("Corrected hand %(hand)s at %(where)s (version %(version)s).") % {
        "hand": said.place("hand", recorded="number"),
        "where": _at_table(said),
        "version": said.data.get("version"),
    }
    rescored = len(said.data.get("rescored") or [])
    if rescored:
        sentence += " " + ngettext(
            "%(count)s later hand was scored again.",
            "%(count)s later hands were scored again.",
            rescored,
        ) % {"count": rescored}
    if said.data.get("after_next_round_paired"):
        sentence += " " + _("The next round had already been paired.")
    return sentence


def _voided(said: Said) -> str:
    values = {
        "hand": said.place("hand", recorded="number"),
        "where": _at_table(said),
        "version": said.data.get("version"),
    }
    if said.data.get("was") == "rejected":
        return (
            _(
                "Voided disputed hand %(hand)s at %(where)s (version %(version)s): the table "
                "enters it again."
            )
            % values
        )
    return (
        _(
            "Voided hand %(hand)s at %(where)s (version %(version)s), which was awaiting "
            "confirmation: the table enters it again."
        )
        % values
    )


def _match_closed(said: Said) -> str:
    hands = said.data.get("hands", 0)
    return ngettext(
        "Ended the match at %(where)s after %(hands)s hand.",
        "Ended the match at %(where)s after %(hands)s hands.",
        hands,
    ) % {"where": _at_table(said), "hands": hands}


def _import_done(said: Said) -> str:
    values = {
        "file": said.event.subject,
        "stored": said.data.get("stored", 0),
        "duplicates": said.data.get("duplicates", 0),
        "failed": said.data.get("failed", 0),
    }
    return (
        _(
            "Imported hands from %(file)s: %(stored)s stored, %(duplicates)s already there, "
            "%(failed)s refused."
        )
        % values
    )


def _two(said: Said) -> dict[str, str]:
    first, second = (said.data.get("entries") or [None, None])[:2]
    return {"first": said.entry(first), "second": said.entry(second)}


def _entries_imported(said: Said) -> str:
    count = len(said.data.get("entries") or [])
    return ngettext(
        "Imported %(count)s entry from %(file)s.",
        "Imported %(count)s entries from %(file)s.",
        count,
    ) % {"count": count, "file": said.event.subject}


def decided_by_words(name: str | None) -> str:
    """The tiebreak that drew a cut's line, in words (tournaments.knockout.services)."""
    from tournaments.words.labels import METRIC_CHOICE_LABELS

    if name == "final-key":
        return _("the final key (seed, then registration order)")
    return str(METRIC_CHOICE_LABELS.get(name or "", name or ""))


def _knockout_set(said: Said) -> str:
    changes = said.data.get("changes") or {}
    names = []
    for name in changes:
        try:
            field = Tournament._meta.get_field(name)
            assert isinstance(field, Field)  # a relation seen from the other side has no label
            names.append(str(field.verbose_name))
        except Exception:  # a field renamed since: its name
            names.append(name)
    return _("Changed the knockout settings: %(fields)s.") % {"fields": ", ".join(names)}


def _cut_confirmed(said: Said) -> str:
    entries = said.data.get("entries") or []
    listed = ", ".join(f"{n}. {said.entry(e)}" for n, e in enumerate(entries, 1))
    sentence = _("Confirmed the %(count)s entries of the knockout, in seed order: %(entries)s.") % {
        "count": len(entries),
        "entries": listed,
    }
    if said.data.get("decided_by"):
        sentence += " " + _("The tie at the cut line was decided by %(tiebreak)s.") % {
            "tiebreak": decided_by_words(said.data["decided_by"])
        }
    return sentence


CLOCK_ACTIONS = ("clock-set", "clock-started", "clock-paused", "clock-resumed", "clock-extended")


def _left(said: Said) -> str:
    seconds = int(said.data.get("remaining") or 0)
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def _clock(said: Said) -> str:
    """The round clock's changes (tournaments.room.services)."""
    action, data = said.event.action, said.data
    where = {
        "round": said.place("round"),
        "minutes": data.get("minutes"),
        "left": _left(said),
        "warn": data.get("last_hand"),
    }
    if action == "clock-set":
        text = (
            _(
                "Set round %(round)s's clock to %(minutes)s minutes, 'last hand' at "
                "%(warn)s minutes left."
            )
            % where
        )
        if data.get("default"):
            text += " " + _("Later rounds get the same.")
        return text
    return {
        "clock-started": _("Started round %(round)s's clock (%(minutes)s minutes)."),
        "clock-paused": _("Paused round %(round)s's clock with %(left)s left."),
        "clock-resumed": _("Restarted round %(round)s's clock with %(left)s left."),
        "clock-extended": _("Gave round %(round)s %(minutes)s more minutes."),
    }[action] % where


def _called(said: Said) -> str:
    from tournaments.models import DirectorCall

    where: dict[str, object] = {"table": said.place("table"), "round": said.place("round")}
    reason = said.data.get("reason") or ""
    if reason in DirectorCall.Reason.values:
        where["reason"] = DirectorCall.Reason(reason).label
        return _("Table %(table)s of round %(round)s called the director: %(reason)s.") % where
    return _("Table %(table)s of round %(round)s called the director.") % where


SENTENCES: dict[str, Writer] = {
    "tournament-created": lambda s: _("Created the tournament."),
    "registration-opened": lambda s: _("Opened registration."),
    "registration-closed": lambda s: _("Closed registration."),
    "setup-changed": _setup,
    "tournament-finished": lambda s: _("Finished the tournament."),
    "published-taken-over": lambda s: _(
        "Took the event over from the room that published it: the room can no longer update it."
    ),
    "entry-registered": lambda s: _("Registered %(entry)s.") % {"entry": _entry(s)},
    "member-claimed": lambda s: (
        _(
            "%(entry)s registered with the club number %(number)s of a member: a new player was "
            "made, to be linked by a director if it is the member."
        )
        % {"entry": _entry(s), "number": s.data.get("club_number", "")}
    ),
    "late-entry": _late,
    "checked-in": lambda s: _("Checked in %(entry)s.") % {"entry": _entry(s)},
    "check-in-undone": lambda s: _("Took back the check-in of %(entry)s.") % {"entry": _entry(s)},
    "withdrawn": _withdrawn,
    "seeded": lambda s: (
        _("Seeded %(entry)s number %(seed)s.") % {"entry": _entry(s), "seed": s.data.get("seed")}
    ),
    "table-fixed": _table_fixed,
    "affiliation-set": lambda s: (
        _("Set the affiliation of %(entry)s to %(affiliation)s.")
        % {"entry": _entry(s), "affiliation": s.data.get("affiliation")}
        if s.data.get("affiliation")
        else _("Cleared the affiliation of %(entry)s.") % {"entry": _entry(s)}
    ),
    "kept-apart": lambda s: (
        _("Asked the pairings to keep %(first)s and %(second)s apart.") % (_two(s))
    ),
    "kept-apart-removed": lambda s: _("Let %(first)s and %(second)s meet again.") % _two(s),
    "entries-imported": _entries_imported,
    "round-generated": _paired,
    "entries-swapped": _swapped,
    "round-published": lambda s: _("Published round %(round)s.") % {"round": s.place("round")},
    "round-closed": lambda s: _("Closed round %(round)s.") % {"round": s.place("round")},
    "knockout-set": _knockout_set,
    "cut-confirmed": _cut_confirmed,
    "hand-corrected": _corrected,
    "match-closed": _match_closed,
    "hand-voided": _voided,
    "hands-import-queued": lambda s: (
        ngettext(
            "Started importing %(count)s line of hands from %(file)s.",
            "Started importing %(count)s lines of hands from %(file)s.",
            int(s.data.get("lines") or 0),
        )
        % {"count": int(s.data.get("lines") or 0), "file": s.event.subject}
    ),
    "hands-imported": _import_done,
    "hands-import-failed": lambda s: (
        _("The hand import from %(file)s stopped.") % {"file": s.event.subject}
    ),
    "table-token-created": lambda s: (
        _("Made a scoring link for %(where)s.") % {"where": _card_table(s)}
    ),
    "table-card-printed": lambda s: (
        _("Printed the card of %(where)s; its earlier cards stop working.")
        % {"where": _card_table(s)}
    ),
    "table-token-revoked": lambda s: (
        _("Revoked a scoring link for %(where)s.") % {"where": _card_table(s)}
    ),
    "pins-cleared": lambda s: (
        ngettext(
            "Cleared %(count)s wrong PIN at %(where)s: its entries' PINs are tried again.",
            "Cleared %(count)s wrong PINs at %(where)s: its entries' PINs are tried again.",
            int(s.data.get("failures") or 0),
        )
        % {"count": int(s.data.get("failures") or 0), "where": _at_table(s)}
    ),
    **{action: _clock for action in CLOCK_ACTIONS},
    "director-called": _called,
    "call-acknowledged": lambda s: (
        _("Answered the call from table %(table)s of round %(round)s.")
        % {"table": s.place("table"), "round": s.place("round")}
    ),
    # duplicate events (tournaments/duplicate/services.py)
    "duplicate-created": lambda s: (
        _("Created the duplicate event (%(boards)s boards).")
        % {"boards": s.data.get("boards", "?")}
    ),
    "duplicate-board-dealt": lambda s: (
        _("Entered the deal of %(board)s.") % {"board": s.event.subject}
    ),
    "duplicate-started": lambda s: (
        _("Numbered %(pairs)s pairs and fixed the movement.") % {"pairs": s.data.get("pairs", "?")}
    ),
    "duplicate-late-pair": lambda s: (
        _("Seated a late pair as %(pair)s from round %(round)s.")
        % {"pair": s.event.subject, "round": s.data.get("from_round", "?")}
    ),
    "duplicate-round-started": lambda s: (
        _("Started round %(round)s.") % {"round": s.place("round")}
    ),
    "duplicate-result-entered": lambda s: (
        _("Entered a result: %(where)s.") % {"where": s.event.subject}
    ),
    "duplicate-adjusted": lambda s: (
        _("Adjusted a result (NS %(ns)s, EW %(ew)s): %(where)s.")
        % {"ns": s.data.get("ns", ""), "ew": s.data.get("ew", ""), "where": s.event.subject}
    ),
    "duplicate-assigned": lambda s: (
        _("Assigned a score (NS %(ns)s, EW %(ew)s): %(where)s.")
        % {"ns": s.data.get("ns", ""), "ew": s.data.get("ew", ""), "where": s.event.subject}
    ),
    "duplicate-round-closed": lambda s: _("Closed round %(round)s.") % {"round": s.place("round")},
    "duplicate-released": lambda s: (
        _("Released the results up to round %(round)s.") % {"round": s.place("round")}
    ),
}

#: The trail's filter: each kind of event and the actions it holds.
KINDS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "tournament": (
        gettext_lazy("The tournament"),
        (
            "tournament-created",
            "registration-opened",
            "registration-closed",
            "setup-changed",
            "tournament-finished",
            "published-taken-over",
        ),
    ),
    "entries": (
        gettext_lazy("Entries"),
        (
            "entry-registered",
            "late-entry",
            "checked-in",
            "check-in-undone",
            "withdrawn",
            "seeded",
            "table-fixed",
            "entries-imported",
            "affiliation-set",
            "kept-apart",
            "kept-apart-removed",
            "member-claimed",
        ),
    ),
    "rounds": (
        gettext_lazy("Rounds and pairings"),
        (
            "round-generated",
            "entries-swapped",
            "round-published",
            "round-closed",
            "knockout-set",
            "cut-confirmed",
        ),
    ),
    "hands": (
        gettext_lazy("Hands and matches"),
        (
            "hand-corrected",
            "hand-voided",
            "match-closed",
            "hands-import-queued",
            "hands-imported",
            "hands-import-failed",
        ),
    ),
    "access": (
        gettext_lazy("Scoring links"),
        ("table-token-created", "table-card-printed", "table-token-revoked", "pins-cleared"),
    ),
    "room": (
        gettext_lazy("Clock and calls"),
        (*CLOCK_ACTIONS, "director-called", "call-acknowledged"),
    ),
    "duplicate": (
        gettext_lazy("Duplicate boards and results"),
        (
            "duplicate-created",
            "duplicate-board-dealt",
            "duplicate-started",
            "duplicate-late-pair",
            "duplicate-round-started",
            "duplicate-result-entered",
            "duplicate-adjusted",
            "duplicate-assigned",
            "duplicate-round-closed",
            "duplicate-released",
        ),
    ),
}


#: The labels the services store for who acted when it is no person's name (stored in English,
#: like every recorded fact): read in the reader's language by `actor_words`.
ACTOR_LABELS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^table (?P<n>\d+) scorer$"), lambda m: _("table %(n)s scorer") % m.groupdict()),
    (re.compile(r"^table scorer$"), lambda m: _("table scorer")),
    (
        re.compile(r"^(?P<side>NS|EW|N|E|S|W) scorer$"),
        lambda m: _("%(side)s scorer") % m.groupdict(),
    ),
    (re.compile(r"^system$"), lambda m: _("TrickTable (automatic)")),
    (re.compile(r"^public$"), lambda m: _("the public page")),
    (re.compile(r"^import (?P<n>\d+)$"), lambda m: _("import %(n)s") % m.groupdict()),
)


def actor_words(label: Any) -> str:
    """Who acted, as a stored label reads in the active language ("table 2 scorer" ->
    "テーブル2の記録係"); a person's name or anything else as stored."""
    text = "" if label is None else str(label)
    for pattern, say in ACTOR_LABELS:
        found = pattern.match(text)
        if found:
            return say(found)
    return text


def sentence(event: AuditEvent, names: dict[int, str]) -> str:
    """The event as a sentence in the active language (an action without a writer: its words)."""
    writer = SENTENCES.get(event.action)
    if writer is None:
        return event.action.replace("-", " ").capitalize() + "."
    return writer(Said(event, names))


def _entry_ids(data: Any) -> Iterable[int]:
    if not isinstance(data, dict):
        return
    for key in ("entry",):
        if isinstance(data.get(key), int):
            yield data[key]
    for key in ("entries", "byes"):
        if isinstance(data.get(key), list):
            yield from (e for e in data[key] if isinstance(e, int))
    for pair in data.get("rematches") or []:
        if isinstance(pair, list | tuple):
            yield from (e for e in pair if isinstance(e, int))


def names_for(events: Iterable[AuditEvent]) -> dict[int, str]:
    """Every entry named by these events, id -> name, in one query."""
    ids = {e for event in events for e in _entry_ids(event.data)}
    if not ids:
        return {}
    found = Entry.objects.filter(pk__in=ids).select_related("team", "player")
    return {entry.pk: entry.name for entry in found}


def round_of(event: AuditEvent) -> int | None:
    return Said(event, {}).place("round")

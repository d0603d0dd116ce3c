"""A director edits a tournament's setup after creating it.

The values are checked exactly as `create_tournament` checks them (its helpers and limits are
reused). What shapes the draw or the scoring of hands — the game, its rules, the format, the table
size, the match length — is fixed once a round is published: the hands already played were
checked under it. The number of rounds may still grow, but never below the rounds already
paired. Points, tiebreaks and the late-entry policy may change at any time before the event is
finished: they change the standings, so the results version is counted (and the match points of
settled matches are stated again under the new points). A finished event keeps its results;
only its name, venue and start may still change.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from tournaments import gameplay
from tournaments.models import GAMES, Round, Seat, Tournament

from . import notify
from .actors import Actor, audit, require_director
from .errors import Conflict, Invalid, ServiceError
from .tournaments import (
    MAX_NAME,
    MAX_POINTS,
    MAX_ROUNDS,
    MAX_SEED,
    MAX_VENUE,
    _bye_points,
    _check_tiebreaks,
    _points_ok,
    default_tiebreaks,
)

#: Every field a director may edit.
EDITABLE = (
    "name",
    "venue",
    "starts_at",
    "game",
    "rules",
    "format",
    "table_size",
    "double_round_robin",
    "rounds",
    "match_length",
    "match_hands",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "place_points",
    "tiebreaks",
    "late_entry",
    "show_provisional",
    "confirmation",
    "seed",
)
#: Fixed once a round is published: the hands played and the pairings made depend on them.
LOCKED_AFTER_PUBLISH = frozenset(
    {
        "game",
        "rules",
        "format",
        "table_size",
        "double_round_robin",
        "match_length",
        "match_hands",
    }
)
#: What a draft round was drawn from: changing it discards the draft (it is drawn again).
SHAPES_THE_DRAW = frozenset(
    {
        "game",
        "rules",
        "format",
        "table_size",
        "double_round_robin",
        "seed",
    }
)
#: What the standings are computed from: a change counts as a change to results.
STANDINGS_INPUTS = frozenset(
    {
        "points_win",
        "points_draw",
        "points_loss",
        "points_bye",
        "place_points",
        "tiebreaks",
        "late_entry",
        "show_provisional",
    }
)
#: What match points were settled from: a change states them again for settled matches.
MATCH_POINTS = frozenset({"points_win", "points_draw", "points_loss", "points_bye", "place_points"})
#: All that may change once the tournament is finished.
AFTER_FINISH = frozenset({"name", "venue", "starts_at"})


def _bad(code: str, message: str, **details: Any) -> Invalid:
    return Invalid(code, message, details=details or None)


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _decimal(value: Any) -> Decimal:
    return Decimal(str(value))


def _starts_at(value: Any) -> datetime | None:
    """A datetime, an ISO 8601 string, or None (no start time); naive times are local."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            parsed = parse_datetime(value)
        except ValueError:
            parsed = None
        if parsed is None:
            raise _bad("bad-starts-at", "the start is a date and time (ISO 8601)")
        value = parsed
    if not isinstance(value, datetime):
        raise _bad("bad-starts-at", "the start is a date and time (ISO 8601)")
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    return value


def _text(field: str, limit: int, *, required: bool) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise _bad(f"bad-{field}", f"the {field} is text")
        value = value.strip()
        if required and not value:
            raise _bad(f"bad-{field}", "a tournament needs a name")
        if len(value) > limit:
            raise _bad(f"bad-{field}", f"the {field} is at most {limit} characters")
        return value

    return check


def _flag(field: str) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        if not isinstance(value, bool):
            raise _bad("bad-flag", f"{field} is true or false", field=field)
        return value

    return check


def _choice(code: str, what: str, allowed: list[str]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in allowed:
            raise _bad(code, f"{what} must be one of {allowed}")
        return value

    return check


def _rounds(value: Any) -> int:
    if not _whole(value, 1, MAX_ROUNDS):
        raise _bad("bad-rounds", _("a tournament has 1 to %(max)d rounds") % {"max": MAX_ROUNDS})
    return value


def _seed(value: Any) -> int:
    if not _whole(value, 0, MAX_SEED):
        raise _bad("bad-seed", f"the pairing seed is a whole number from 0 to {MAX_SEED}")
    return value


def _match_hands(value: Any) -> int | None:
    if value is None:
        return None
    if not _whole(value, 1, MAX_ROUNDS):
        raise _bad("bad-match-length", _("a fixed-length match needs its number of hands"))
    return value


def _table_size(value: Any) -> int | None:
    if value is None:
        return None
    if not _whole(value, 2, 4):
        raise _bad("bad-format", _("a table seats 2, 3 or 4 players"))
    return value


def _points(value: Any) -> Decimal:
    if not _points_ok(value):
        raise _bad(
            "bad-points",
            _("points are numbers between -%(max)s and %(max)s") % {"max": MAX_POINTS},
        )
    return _decimal(value)


def _place_points(value: Any) -> list[Decimal] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple):
        raise _bad("bad-points", "points by place are a list of numbers")
    return [_points(p) for p in value]


def _tiebreaks(value: Any) -> list[str]:
    try:
        return _check_tiebreaks(value)
    except ServiceError as error:
        raise _bad(error.code, error.message) from error


#: How each field's new value is read (type and range); cross-field rules come after.
READERS: dict[str, Callable[[Any], Any]] = {
    "name": _text("name", MAX_NAME, required=True),
    "venue": _text("venue", MAX_VENUE, required=False),
    "starts_at": _starts_at,
    "game": _choice("bad-game", "game", [g for g, _ in GAMES]),
    "rules": lambda value: value,  # checked with the game, below
    "format": _choice(
        "bad-format",
        "format",  # a duplicate event's format never changes
        [f for f in Tournament.Format.values if f != Tournament.Format.DUPLICATE],
    ),
    "table_size": _table_size,
    "double_round_robin": _flag("double_round_robin"),
    "rounds": _rounds,
    "match_length": _choice(
        "bad-match-length", "match length", list(Tournament.MatchLength.values)
    ),
    "match_hands": _match_hands,
    "points_win": _points,
    "points_draw": _points,
    "points_loss": _points,
    "points_bye": lambda value: None if value is None else _points(value),
    "place_points": _place_points,
    "tiebreaks": lambda value: None if value is None else _tiebreaks(value),
    "late_entry": _choice("bad-late-entry", "late entry", list(Tournament.LateEntry.values)),
    "show_provisional": _flag("show_provisional"),
    "confirmation": _choice(
        "bad-confirmation", "confirmation", list(Tournament.Confirmation.values)
    ),
    "seed": _seed,
}


def _current(tournament: Tournament) -> dict[str, Any]:
    values = {name: getattr(tournament, name) for name in EDITABLE}
    values["place_points"] = [_decimal(p) for p in tournament.place_points]
    values["tiebreaks"] = list(tournament.tiebreaks)
    return values


def _rules_and_size(values: dict[str, Any], given: dict[str, Any]) -> None:
    """Check the game, rules, format and table size together, as `create_tournament` does; the
    table size follows the rules unless it is given."""
    try:
        canonical = gameplay.canonical_rules(values["game"], values["rules"])
        shape = gameplay.layout(values["game"], canonical)
        size = given.get("table_size") or len(shape.seats)
        gameplay.check_format(values["game"], canonical, values["format"], size)
    except gameplay.RulesProblem as problem:
        raise _bad(problem.code, problem.message) from problem
    if size != len(shape.seats):
        raise _bad(
            "bad-format",
            _("these rules seat %(seats)d players at a table, not %(size)d")
            % {"seats": len(shape.seats), "size": size},
        )
    values["rules"], values["table_size"] = canonical, size


def _defaults_follow(values: dict[str, Any], given: dict[str, Any], old: dict[str, Any]) -> None:
    """Place points, bye points and tiebreaks given as None take the format's default (as at
    creation). A new format (or table size) brings its own defaults too — unless the director
    chose their own, which stay."""
    fmt, size = values["format"], values["table_size"]
    new_shape = fmt != old["format"] or size != old["table_size"]
    if given.get("place_points", ()) is None or ("place_points" not in given and new_shape):
        values["place_points"] = (
            [Decimal(p) for p in range(size - 1, -1, -1)] if fmt == "individual" else []
        )
    was = _bye_points(
        old["format"],
        None,
        old["points_win"],
        old["points_draw"],
        old["place_points"] or [Decimal(0)],
    )
    if given.get("points_bye", ()) is None or (
        "points_bye" not in given and fmt != old["format"] and old["points_bye"] == was
    ):
        values["points_bye"] = _bye_points(
            fmt,
            None,
            values["points_win"],
            values["points_draw"],
            values["place_points"] or [Decimal(0)],
        )
    if given.get("tiebreaks", ()) is None or (
        "tiebreaks" not in given
        and fmt != old["format"]
        and old["tiebreaks"] == default_tiebreaks(old["format"])
    ):
        values["tiebreaks"] = default_tiebreaks(fmt)


def _check_together(values: dict[str, Any], given: dict[str, Any], old: dict[str, Any]) -> None:
    if any(name in given for name in ("game", "rules", "format", "table_size")):
        _rules_and_size(values, given)
    _defaults_follow(values, given, old)
    if values["match_length"] == Tournament.MatchLength.HANDS:
        if values["match_hands"] is None:
            raise _bad("bad-match-length", _("a fixed-length match needs its number of hands"))
    else:
        values["match_hands"] = None
    if not (values["points_win"] >= values["points_draw"] >= values["points_loss"]):
        raise _bad("bad-points", _("points must be win ≥ draw ≥ loss"))
    size, places = values["table_size"], values["place_points"]
    if values["format"] == "individual" and len(places) != size:
        raise _bad("bad-points", _("give points for each of the %(size)d places") % {"size": size})


def _locks(tournament: Tournament, changed: set[str], values: dict[str, Any]) -> None:
    """Refuse what can no longer change (nothing is written)."""
    if tournament.state == Tournament.State.FINISHED and changed - AFTER_FINISH:
        fields = sorted(changed - AFTER_FINISH)
        raise Conflict(
            "tournament-finished",
            f"the tournament is over: {', '.join(fields)} can no longer change",
            details={"fields": fields},
        )
    published = tournament.round_set.public().exists()
    if published and changed & LOCKED_AFTER_PUBLISH:
        fields = sorted(changed & LOCKED_AFTER_PUBLISH)
        raise Conflict(
            "setup-locked",
            f"a round is published: {', '.join(fields)} can no longer change",
            details={"fields": fields},
        )
    made = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    if "rounds" in changed and made and values["rounds"] < made:
        raise _bad("bad-rounds", f"{made} rounds are already paired", rounds_made=made)
    if changed & {"game", "rules", "format"} and tournament.entries.exists():
        kind = gameplay.entry_kind(values["game"], values["rules"], values["format"])
        if kind != gameplay.entry_kind(tournament.game, tournament.rules, tournament.format):
            raise _bad(
                "entries-registered",
                "entries are registered as "
                + ("players" if kind == "team" else "teams")
                + ": these settings would need "
                + ("teams" if kind == "team" else "players"),
            )


def _jsonable(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def _stored(name: str, value: Any) -> Any:
    if name == "place_points":
        return [str(p) for p in value]
    return value


def _settle_points_again(tournament: Tournament) -> int:
    """Match points of settled seats under the tournament's (new) points; returns how many
    seats changed. Byes score the bye points; two-sided matches win/draw/loss; tables their
    place points (shared places share the points of the places they span)."""
    place_points = [Decimal(p) for p in tournament.place_points]
    seats = list(
        Seat.objects.filter(match__round__tournament=tournament, match_points__isnull=False)
        .select_related("match")
        .order_by("match_id", "seats")
    )
    by_match: dict[int, list[Seat]] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    changed = []
    for match_seats in by_match.values():
        sides = {s.side for s in match_seats}
        for seat in match_seats:
            if seat.match.is_bye:
                points: Decimal | None = tournament.points_bye
            elif len(sides) == 2:
                points = {
                    "win": tournament.points_win,
                    "draw": tournament.points_draw,
                    "loss": tournament.points_loss,
                }.get(seat.outcome, seat.match_points)
            elif seat.place:
                shared = len({s.side for s in match_seats if s.place == seat.place})
                span = place_points[seat.place - 1 : seat.place - 1 + shared]
                points = sum(span, Decimal(0)) / len(span) if span else Decimal(0)
            else:
                continue
            if seat.match_points != points:
                seat.match_points = points
                changed.append(seat)
    Seat.objects.bulk_update(changed, ["match_points"])
    return len(changed)


def _discard_draft(tournament: Tournament) -> int | None:
    draft = tournament.round_set.filter(state=Round.State.DRAFT).first()
    if draft is None:
        return None
    number = draft.number
    draft.delete()  # its tables, matches and seats go with it, as when a draft is drawn again
    return number


@transaction.atomic
def update_tournament(*, tournament: Tournament, actor: Actor, changes: dict) -> Tournament:
    """Change a tournament's setup: every value checked as at creation, the locks of a running
    event respected, and the change recorded with each field's value before and after. Any
    refusal changes nothing."""
    require_director(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not isinstance(changes, dict):
        raise _bad("bad-changes", "changes are a mapping of field names to new values")
    unknown = sorted(str(name) for name in changes if name not in READERS)
    if unknown:
        raise _bad(
            "unknown-field",
            f"these fields cannot be edited: {', '.join(unknown)}",
            fields=unknown,
            editable=list(EDITABLE),
        )
    old = _current(tournament)
    given = {name: READERS[name](value) for name, value in changes.items()}
    values = {**old, **given}
    _check_together(values, given, old)
    changed = {name for name in EDITABLE if values[name] != old[name]}
    if not changed:
        return tournament
    _locks(tournament, changed, values)
    discarded = _discard_draft(tournament) if changed & SHAPES_THE_DRAW else None
    for name in changed:
        setattr(tournament, name, _stored(name, values[name]))
    tournament.save(update_fields=sorted(changed))
    resettled = _settle_points_again(tournament) if changed & MATCH_POINTS else 0
    data: dict[str, Any] = {
        "changes": {
            name: {"before": _jsonable(old[name]), "after": _jsonable(values[name])}
            for name in sorted(changed)
        }
    }
    if discarded is not None:
        data["discarded_draft"] = discarded
    if resettled:
        data["seats_resettled"] = resettled
    audit(
        tournament=tournament,
        actor=actor,
        action="setup-changed",
        subject=", ".join(sorted(changed)),
        data=data,
    )
    if changed & STANDINGS_INPUTS:
        notify.results_changed(tournament)
    tournament.refresh_from_db()
    return tournament

"""Hands: submit (validated by the rules engine in the context of the match), confirm or reject
by the other side, correct as director, and finish the match by the tournament's match length.

The table's token lets a phone score at its table; which side acts is proved, unless the
tournament chose `confirmation = "same-phone"`, by the PIN printed on the card of an entry on
that side (`side_pins`): entering a hand with the entering side's, confirming or rejecting it
with the answering side's, which may not be the side that entered it nor, at an individual
table, the hand's declarer or the declarer's partner. A director needs none.

Every hand is checked as a `hand/1` record with the match's rules and the state the earlier
hands left (`before`), and the dealer must follow the rotation. A submission carries the
client's idempotency key: the same key with the same body returns the stored version; with a
different body it is refused. The match row is locked for the workflow, and the database
allows one current and one confirmed version per hand, so two scorers racing on one hand
cannot both win.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.canonical import canonical_hand
from games.errors import RecordError
from games.records import check_hand, get_game
from tournaments import gameplay
from tournaments.models import Hand, HandSubmission, Match, Round, Seat, Tournament

from . import backups, notify, side_pins
from .actors import (
    Actor,
    audit,
    covers_table,
    is_director,
    require_director,
    require_not_published,
)
from .errors import Conflict, Invalid, NotAllowed, ServiceError

S = HandSubmission.Status
#: A hand whose current version is in one of these is entered again by the table: disputed by
#: the other side, or voided by a director.
REENTER = (S.REJECTED, S.VOIDED)
MAX_KEY = 100
#: The most bytes one hand may take as sent: a JSON body to the API (api/parsers.py) or a line
#: of a hand import (hand_imports.py), so no way in stores a larger record than another.
MAX_HAND_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class Submitted:
    submission: HandSubmission
    created: bool  # False when an idempotent retry returned the stored version


def _locked_match(match: Match) -> Match:
    """The match, its row locked until the transaction ends, with its round, tournament and
    table (SQLite has no row locks: its transactions take the write lock when they begin)."""
    of = ("self",) if connection.features.has_select_for_update_of else ()
    return (
        Match.objects.select_for_update(of=of)
        .select_related("round__tournament", "table")
        .get(pk=match.pk)
    )


def current_versions(match: Match) -> list[HandSubmission]:
    """The current version of every hand of the match, in hand order (the large `raw` and
    `record` are loaded only when used)."""
    return list(
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .defer("raw", "record")
        .order_by("hand__number")
    )


def _match_sides(match: Match) -> frozenset[str]:
    return frozenset(Seat.objects.filter(match=match).values_list("side", flat=True))


def _require_table(actor: Actor, match: Match, tournament: Tournament) -> bool:
    """May this actor score at this table? Returns whether they act as director."""
    require_not_published(actor, tournament)
    if is_director(actor, tournament):
        return True
    if not covers_table(actor, match.table):
        raise NotAllowed("wrong-table", "this scorer may only score their own table")
    return False


def _require_open(match: Match) -> None:
    if match.is_bye:
        raise Invalid("bye", "a bye has no hands")
    if match.round.state not in (Round.State.PUBLISHED, Round.State.IN_PLAY):
        raise Conflict("round-not-in-play", f"round {match.round.number} is {match.round.state}")


def _engine_errors(result: dict) -> Invalid:
    return Invalid(
        "invalid-hand", "the rules engine refused the hand", details=result.get("errors", [])
    )


def _state_before(tournament: Tournament, versions: list[HandSubmission], number: int) -> Any:
    g = get_game(tournament.game)
    compiled = g.book.resolve(tournament.rules)[0]
    if number == 1:
        return g.initial_state(compiled)
    return versions[number - 2].result["after"]


def _has_nul(value: Any) -> bool:
    """Does any string (or key) in the record hold a NUL character? PostgreSQL's JSON cannot
    store one. Iterative: a deeply nested record cannot exhaust the stack."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _evaluate(
    tournament: Tournament, raw: Any, versions: list[HandSubmission], number: int
) -> tuple[dict, dict]:
    """(canonical record, result) for hand `number` after the given earlier versions."""
    if not isinstance(raw, dict):
        raise Invalid(
            "invalid-hand",
            "a hand is a JSON object",
            details=[{"code": "bad-format", "message": "a hand is a JSON object"}],
        )
    if _has_nul(raw):
        raise Invalid(
            "invalid-hand",
            "a hand may not contain NUL characters",
            details=[{"code": "bad-format", "message": "a string holds a NUL character"}],
        )
    g = get_game(tournament.game)
    compiled = g.book.resolve(tournament.rules)[0]
    state = _state_before(tournament, versions, number)
    if "before" in raw:
        try:
            stated = g.read_state(raw["before"], compiled)
        except RecordError as error:
            raise _engine_errors({"errors": [error.as_dict()]}) from error
        if stated != g.read_state(state, compiled):
            disagrees = RecordError("bad-state", "`before` disagrees with the earlier hands")
            raise _engine_errors({"errors": [disagrees.as_dict()]})
    # What is stored (and exported) is canonical: the format's fields, cards spelt AS, TH.
    record = canonical_hand({k: v for k, v in raw.items() if k != "before"})
    record.setdefault("format", "hand/1")
    record["before"] = state
    result = check_hand(record, rules=tournament.rules, game=tournament.game)
    if not result["ok"]:
        raise _engine_errors(result)
    if number > 1:
        expected = g.next_dealer(compiled, versions[number - 2].record["dealer"])
        if record.get("dealer") != expected:
            wrong = RecordError(
                "wrong-dealer",
                f"hand {number} is dealt by {expected}, not {record.get('dealer')}",
                seat=record.get("dealer") if isinstance(record.get("dealer"), str) else None,
            )
            raise _engine_errors({"errors": [wrong.as_dict()]})
    record["game"] = tournament.game
    record["rules"] = tournament.rules
    return record, result


def _ended(
    tournament: Tournament, versions: list[HandSubmission], match: Match | None = None
) -> str | None:
    """Why the match is complete after these hands: "rules", "hands", "tie-break" (a knockout
    match level after its hands), or None."""
    if not versions:
        return None
    g = get_game(tournament.game)
    compiled = g.book.resolve(tournament.rules)[0]
    after = versions[-1].result["after"]
    if match is not None and match.bracket_round is not None:
        return gameplay.knockout_ended(
            length=tournament.knockout_length,
            count=tournament.knockout_count,
            tiebreak_hands=tournament.tiebreak_hands,
            hands=len(versions),
            rules_ended=g.match_end(compiled, after)[0],
            tied=gameplay.tied(tournament.game, tournament.rules, after),
        )
    if g.match_end(compiled, after)[0]:
        return "rules"
    if tournament.match_length == Tournament.MatchLength.HANDS and len(versions) >= (
        tournament.match_hands or 0
    ):
        return "hands"
    return None


def match_ended(
    *, tournament: Tournament, versions: list[HandSubmission], match: Match
) -> str | None:
    """Why the match is complete after these hands (the rule the workflows apply), or None:
    for the scoring page, which offers no next hand once it is."""
    return _ended(tournament, versions, match)


def last_hand_awaits(*, tournament: Tournament, match: Match, hands: int, pending: int) -> bool:
    """Whether every hand of a match still in play has been entered and only confirmations
    are left (`hands` entered, `pending` of them awaiting confirmation): no hand is being
    played, so the room and the projector never announce hand N+1 of a match of N hands. A
    match at its fixed number of hands needs no query; otherwise its hands are read (the
    rules may end it sooner)."""
    if pending <= 0 or hands <= 0:
        return False
    fixed = match.bracket_round is None and tournament.match_length == Tournament.MatchLength.HANDS
    if fixed and hands >= (tournament.match_hands or 0):
        return True
    return (
        match_ended(tournament=tournament, versions=current_versions(match), match=match)
        is not None
    )


def _check_version(current: HandSubmission, expected_version: Any) -> None:
    """Refuse an answer to a version the caller never saw (the hand changed meanwhile)."""
    if (
        not isinstance(expected_version, int)
        or isinstance(expected_version, bool)
        or expected_version != current.version
    ):
        raise Conflict(
            "stale-version",
            f"hand {current.hand.number} is now at version {current.version}, "
            f"not {expected_version}: look at it again",
            details={"current": current.version},
        )


def _replace(old: HandSubmission, new: HandSubmission) -> None:
    """Make `new` the current version in place of `old`."""
    old.is_current = False
    if old.status not in REENTER:
        old.status = S.SUPERSEDED
    old.save(update_fields=["is_current", "status"])
    new.save()
    old.superseded_by = new
    old.save(update_fields=["superseded_by"])


def _rescore_after(
    tournament: Tournament,
    versions: list[HandSubmission],
    start: int,
    actor: Actor,
    match: Match | None = None,
) -> list[int]:
    """Re-check hands after `start` (1-based) from the new state; returns the re-scored hands."""
    rescored = []
    for index in range(start, len(versions)):
        old = versions[index]
        if old.status in REENTER:
            break
        if reason := _ended(tournament, versions[:index], match):
            raise Invalid(
                "later-hand-invalid",
                f"the match would end ({reason}) before hand {index + 1}; correct that first",
                details={"hand": index + 1, "errors": [{"code": "match-over"}]},
            )
        try:
            record, result = _evaluate(tournament, old.raw, versions, index + 1)
        except Invalid as error:
            raise Invalid(
                "later-hand-invalid",
                f"hand {index + 1} is no longer legal after the change; correct it first",
                details={"hand": index + 1, "errors": error.details},
            ) from error
        if result == old.result:
            continue
        new = HandSubmission(
            hand=old.hand,
            version=old.version + 1,
            status=old.status,
            source="rescore",
            raw=old.raw,
            record=record,
            result=result,
            submitted_side=old.submitted_side,
            submitted_label=actor.name,
            decided_label=old.decided_label,
            decided_side=old.decided_side,
            decided_at=old.decided_at,
            reason=f"re-scored after a change to hand {start}",
        )
        _replace(old, new)
        versions[index] = new
        rescored.append(index + 1)
    return rescored


def submit_hand(
    *,
    match: Match,
    actor: Actor,
    record: Any,
    number: int | None = None,
    idempotency_key: str | None = None,
    source: str | None = None,
) -> Submitted:
    """Store a hand that the rules engine accepts, as the next hand of the match (or as a new
    version of a rejected one). A table scorer in PIN mode gives the PIN of an entry seated at
    the match (`actor.pin`): the hand is entered by that entry's side, whatever `actor.side`
    says (which, if given, must agree). A director's submission is confirmed at once. `source`
    says where the hand came from when that is not the actor (an import)."""
    outcome = _submit_hand(
        match=match,
        actor=actor,
        record=record,
        number=number,
        idempotency_key=idempotency_key,
        source=source,
    )
    if isinstance(outcome, ServiceError):  # a wrong PIN: its failures are committed
        raise outcome
    return outcome


def _proven_side(match: Match, tournament: Tournament, actor: Actor) -> str | ServiceError | None:
    """The side the actor's PIN proves at the locked match (`side_pins`), the refusal of a
    wrong PIN, or None when no PIN is needed (a director, a system actor, `same-phone`).
    Asked first in the workflow's transaction, before it writes anything: a refusal is
    returned, so that the transaction commits the wrong PIN's failures and nothing else."""
    if actor.system or not side_pins.pin_needed(actor, tournament):
        return None
    if not covers_table(actor, match.table):  # no PIN tried at another table
        raise NotAllowed("wrong-table", "this scorer may only score their own table")
    return side_pins.side_or_refusal(match, actor)


@transaction.atomic
def _submit_hand(
    *,
    match: Match,
    actor: Actor,
    record: Any,
    number: int | None,
    idempotency_key: str | None,
    source: str | None,
) -> Submitted | ServiceError:
    match = _locked_match(match)
    tournament = match.round.tournament
    proven = _proven_side(match, tournament, actor)
    if isinstance(proven, ServiceError):
        return proven
    director = _require_table(actor, match, tournament)
    if idempotency_key is not None and (
        not isinstance(idempotency_key, str) or not 8 <= len(idempotency_key) <= MAX_KEY
    ):
        raise ServiceError(
            "bad-idempotency-key", f"an idempotency key is 8 to {MAX_KEY} characters"
        )
    # Asked once the match is locked, in a statement of its own: a retry that waited for the
    # lock must see what its original stored (the locking statement's snapshot predates it).
    # The key is unique: the usual answer (not stored yet) is read as one column, and only a
    # retry loads its stored version whole.
    stored = None
    if idempotency_key is not None:
        found = HandSubmission.objects.filter(idempotency_key=idempotency_key)
        if found.values_list("pk", flat=True).first() is not None:
            stored = found.select_related("hand").get()
    if stored is not None:
        if stored.hand.match_id == match.pk and stored.raw == record:
            return Submitted(stored, created=False)
        raise Conflict(
            "idempotency-key-reused", "this idempotency key was used for a different submission"
        )
    _require_open(match)
    side = actor.side
    if proven is not None:
        side_pins.agrees(actor, proven)
        side = proven
    # a side proved by its PIN is a seated entry's; a side only stated must be seated
    if not director and proven is None and side not in _match_sides(match):
        raise ServiceError("bad-side", "say which side is submitting")
    # every record is read: the next hand's dealer follows from the last one's
    versions = list(
        HandSubmission.objects.filter(hand__match=match, is_current=True)
        .select_related("hand")
        .defer("raw")
        .order_by("hand__number")
    )
    count = len(versions)
    if number is None:
        number = count + 1
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= count + 1:
        raise ServiceError("bad-hand-number", f"the next hand of this match is {count + 1}")
    previous = versions[number - 1] if number <= count else None
    if previous is not None and previous.status not in REENTER:
        if previous.status == S.PENDING:
            raise Conflict("hand-already-submitted", f"hand {number} is awaiting confirmation")
        raise Conflict("hand-confirmed", f"hand {number} is confirmed: ask the director")
    rejected = [v.hand.number for v in versions[: number - 1] if v.status in REENTER]
    if rejected:
        raise Conflict("earlier-hand-rejected", f"hand {rejected[0]} was rejected: enter it again")
    if previous is None and (reason := _ended(tournament, versions, match)):
        raise Invalid("match-over", f"the match is complete ({reason})")
    if previous is None and match.state == Match.State.FINISHED:
        raise Invalid("match-over", "the match is finished")
    canonical, result = _evaluate(tournament, record, versions, number)
    status = S.CONFIRMED if director else S.PENDING
    submission = HandSubmission(
        version=1,
        status=status,
        source=source or ("director" if director else "table"),
        raw=record,
        record=canonical,
        result=result,
        idempotency_key=idempotency_key,
        submitted_side=side,
        submitted_by=actor.user_or_none(),
        submitted_label=actor.name,
    )
    if director:
        submission.decided_by = actor.user_or_none()
        submission.decided_label = actor.name
        submission.decided_at = timezone.now()
    try:  # no savepoint: a clash aborts the whole workflow, which raises and rolls back
        if previous is None:
            submission.hand = Hand.objects.create(match=match, number=number)
            submission.save(force_insert=True)
        else:
            submission.hand = previous.hand
            submission.version = previous.version + 1
            _replace(previous, submission)
    except IntegrityError as error:
        raise Conflict("hand-conflict", f"hand {number} was submitted at the same time") from error
    if previous is not None:
        versions[number - 1] = submission
        _rescore_after(tournament, versions, number, actor, match)
    else:
        versions.append(submission)
    if match.state == Match.State.PENDING:  # its first hand puts the match in play
        match.state = Match.State.PLAYING
        match.save(update_fields=["state"])
    if match.round.state == Round.State.PUBLISHED:  # and a round's first, the round
        Round.objects.filter(pk=match.round_id).update(state=Round.State.IN_PLAY)
    notify.hand_submitted(submission)
    backups.hands_arrived(tournament_id=tournament.pk)
    if director:
        _finish_if_complete(match, tournament, versions)
    return Submitted(submission, created=True)


def _seat_sides(match: Match) -> dict[str, str]:
    return {
        letter: side
        for seats, side in Seat.objects.filter(match=match).values_list("seats", "side")
        for letter in seats
    }


def _answer(
    submission: HandSubmission, actor: Actor, status: str, reason: str, expected_version: Any
) -> HandSubmission:
    """The PIN first (its failures are kept), then the decision in one transaction."""
    proven = side_pins.proven_side(Match(pk=submission.hand.match_id), actor)
    return _decide(submission, actor, status, reason, expected_version, proven)


@transaction.atomic
def _decide(
    submission: HandSubmission,
    actor: Actor,
    status: str,
    reason: str,
    expected_version: Any,
    proven: str | None,
) -> HandSubmission:
    match = _locked_match(submission.hand.match)
    tournament = match.round.tournament
    director = _require_table(actor, match, tournament)
    submission = (  # the match and round come along: the announcement after commit reads them
        HandSubmission.objects.select_for_update(of=("self",))
        .select_related("hand__match__round")
        .get(pk=submission.pk)
    )
    if not submission.is_current:
        current = HandSubmission.objects.select_related("hand").get(
            hand_id=submission.hand_id, is_current=True
        )
        _check_version(current, expected_version)
    _check_version(submission, expected_version)
    if not submission.is_current or submission.status != S.PENDING:
        raise Conflict("not-pending", f"this version is {submission.status}, not pending")
    side = actor.side if proven is None else proven
    if not director:
        if side not in _match_sides(match):
            raise ServiceError("bad-side", "say which side is answering")
        barred = gameplay.answer_barred(
            submission.submitted_side, submission.result, _seat_sides(match)
        )
        if barred.get(side) == "own-side":
            raise NotAllowed("own-side", "the other side confirms or rejects a hand")
        if side in barred:
            raise NotAllowed(
                "declarer-side",
                "the hand's declarer and the declarer's partner do not confirm or reject it",
            )
        if proven is not None:
            side_pins.agrees(actor, proven)
    submission.status = status
    submission.decided_by = actor.user_or_none()
    submission.decided_label = actor.name
    submission.decided_side = side
    submission.decided_at = timezone.now()
    if reason:
        submission.reason = reason
    submission.save(
        update_fields=[
            "status",
            "decided_by",
            "decided_label",
            "decided_side",
            "decided_at",
            "reason",
        ]
    )
    if status == S.CONFIRMED:
        notify.hand_confirmed(submission)
        backups.hands_arrived(tournament_id=tournament.pk)
        _finish_if_complete(match, tournament, current_versions(match))
    else:
        notify.hand_rejected(submission)
    return submission


def confirm_hand(
    *, submission: HandSubmission, actor: Actor, expected_version: int | None
) -> HandSubmission:
    """The other side (or a director) agrees with a pending hand. In PIN mode (the default) a
    table scorer gives the answering side's PIN (`actor.pin`): the side is that PIN's, which
    may not be the side that entered the hand (`own-side`) nor, at an individual table, its
    declarer or the declarer's partner (`declarer-side`). `expected_version` is the version
    the answerer saw: if the hand has moved on since (`stale-version`), nothing changes."""
    return _answer(submission, actor, S.CONFIRMED, "", expected_version)


def reject_hand(
    *, submission: HandSubmission, actor: Actor, expected_version: int, reason: str = ""
) -> HandSubmission:
    """The other side disputes a pending hand: it goes to the director's queue (the same proof
    of side and of the version seen as `confirm_hand`)."""
    return _answer(submission, actor, S.REJECTED, reason.strip(), expected_version)


@transaction.atomic
def void_hand(
    *, submission: HandSubmission, actor: Actor, expected_version: int, reason: str
) -> HandSubmission:
    """A director sets aside a pending or disputed hand, with a reason: it leaves the queue and
    the table enters it again (as after a dispute). The version stays in the history."""
    match = _locked_match(submission.hand.match)
    tournament = match.round.tournament
    require_director(actor, tournament)
    if not reason or not reason.strip():
        raise ServiceError("reason-required", "voiding a hand needs a reason")
    current = (
        HandSubmission.objects.select_for_update(of=("self",))
        .select_related("hand__match__round", "hand__match__table")
        .get(hand_id=submission.hand_id, is_current=True)
    )
    _check_version(current, expected_version)
    if current.status not in (S.PENDING, S.REJECTED):
        raise Conflict(
            "not-voidable",
            f"hand {current.hand.number} is {current.status}: only a pending or disputed hand "
            "is voided (correct a confirmed one)",
        )
    if match.state == Match.State.FINISHED:
        raise Conflict("match-finished", "the match is finished: correct the hand instead")
    was = current.status
    current.status = S.VOIDED
    current.decided_by = actor.user_or_none()
    current.decided_label = actor.name
    current.decided_side = ""
    current.decided_at = timezone.now()
    current.reason = reason.strip()
    current.save(
        update_fields=[
            "status",
            "decided_by",
            "decided_label",
            "decided_side",
            "decided_at",
            "reason",
        ]
    )
    audit(
        tournament=tournament,
        actor=actor,
        action="hand-voided",
        subject=(
            f"round {match.round.number} table {match.played_table.number} "
            f"hand {current.hand.number}"
        ),
        reason=reason.strip(),
        data={
            "round": match.round.number,
            "table": match.played_table.number,
            "number": current.hand.number,
            "hand": current.hand_id,
            "version": current.version,
            "was": was,
        },
    )
    notify.hand_rejected(current)
    return current


@transaction.atomic
def correct_hand(
    *, hand: Hand, actor: Actor, record: Any, reason: str, expected_version: int
) -> HandSubmission:
    """A director's new version of a hand (confirmed), with a reason; later hands are re-scored
    from the new state, and a finished match is settled again. `expected_version` is the
    version the director corrected: a hand that moved on since is refused (`stale-version`)."""
    match = _locked_match(hand.match)
    tournament = match.round.tournament
    require_director(actor, tournament)
    if not reason or not reason.strip():
        raise ServiceError("reason-required", "a correction needs a reason")
    versions = current_versions(match)
    number = hand.number
    if number > len(versions):
        raise ServiceError("bad-hand-number", f"the match has {len(versions)} hands")
    old = versions[number - 1]
    _check_version(old, expected_version)
    canonical, result = _evaluate(tournament, record, versions, number)
    new = HandSubmission(
        hand=old.hand,
        version=old.version + 1,
        status=S.CONFIRMED,
        source="director",
        raw=record,
        record=canonical,
        result=result,
        submitted_side=old.submitted_side,
        submitted_by=actor.user_or_none(),
        submitted_label=actor.name,
        decided_by=actor.user_or_none(),
        decided_label=actor.name,
        decided_at=timezone.now(),
        reason=reason.strip(),
    )
    try:
        with transaction.atomic():
            _replace(old, new)
    except IntegrityError as error:
        raise Conflict("hand-conflict", "the hand changed at the same time") from error
    versions[number - 1] = new
    rescored = _rescore_after(tournament, versions, number, actor, match)
    later = tournament.round_set.filter(number__gt=match.round.number).exists()
    audit(
        tournament=tournament,
        actor=actor,
        action="hand-corrected",
        subject=f"round {match.round.number} table {match.played_table.number} hand {number}",
        reason=reason.strip(),
        data={
            "round": match.round.number,
            "table": match.played_table.number,
            "number": number,
            "hand": hand.pk,
            "version": new.version,
            "rescored": rescored,
            "after_next_round_paired": later,
        },
    )
    if match.state == Match.State.FINISHED:  # settling again announces the new results
        _settle(match, tournament, versions, (match.result or {}).get("ended_by", "director"))
    else:
        _finish_if_complete(match, tournament, versions)
    notify.hand_confirmed(new)
    backups.hands_arrived(tournament_id=tournament.pk)
    return new


def _finish_if_complete(
    match: Match, tournament: Tournament, versions: list[HandSubmission]
) -> None:
    if match.state == Match.State.FINISHED:
        return
    reason = _ended(tournament, versions, match)
    if reason and all(v.status == S.CONFIRMED for v in versions):
        _settle(match, tournament, versions, reason)


@transaction.atomic
def finish_match(*, match: Match, actor: Actor) -> Match:
    """Finish a match: by its rules or hand count once every hand is confirmed, or — a
    director's decision — at any point with the complete hands played so far."""
    match = _locked_match(match)
    tournament = match.round.tournament
    if match.is_bye:
        return match
    versions = current_versions(match)
    while versions and versions[-1].status == S.VOIDED:  # set aside, not played: left out
        versions.pop()
    if any(v.status != S.CONFIRMED for v in versions):
        raise Invalid(
            "unconfirmed-hands",
            "every hand must be confirmed first",
            details={"hands": [v.hand.number for v in versions if v.status != S.CONFIRMED]},
        )
    reason = _ended(tournament, versions, match)
    if reason is None:
        require_director(actor, tournament)
        reason = "director"
        if match.bracket_round is not None and (
            not versions
            or gameplay.tied(tournament.game, tournament.rules, versions[-1].result["after"])
        ):
            raise Conflict(
                "knockout-tied",
                "a knockout match cannot end level: play the tie-break hands (never a coin)",
            )
    else:
        _require_table(actor, match, tournament)
    if match.state != Match.State.FINISHED:
        _settle(match, tournament, versions, reason)
        if reason == "director":
            audit(
                tournament=tournament,
                actor=actor,
                action="match-closed",
                subject=f"round {match.round.number} table {match.played_table.number}",
                data={
                    "round": match.round.number,
                    "table": match.played_table.number,
                    "hands": len(versions),
                },
            )
    return match


def _settle(
    match: Match, tournament: Tournament, versions: list[HandSubmission], ended_by: str
) -> None:
    after = versions[-1].result["after"] if versions else None
    result = gameplay.outcome(
        tournament.game,
        tournament.rules,
        after,
        hands=gameplay.hand_scores(tournament.format, [v.result for v in versions]),
    )
    seats = list(match.seats.all())
    sides = sorted({s.side for s in seats})
    two_sided = len(sides) == 2
    place_points = [Decimal(p) for p in tournament.place_points]
    won = gameplay.hands_won([v.result for v in versions], sides)
    for seat in seats:
        seat.hands_won = won.get(seat.side, 0)
        mine = result.points[seat.side]
        others = [result.points[s] for s in sides if s != seat.side]
        place = result.places[seat.side]
        shared = [s for s in sides if result.places[s] == place]
        if len(shared) == 1:
            seat.outcome = "win" if place == 1 else "loss"
        else:
            seat.outcome = "draw" if place == 1 else "loss"
        if two_sided:
            seat.match_points = {
                "win": tournament.points_win,
                "draw": tournament.points_draw,
                "loss": tournament.points_loss,
            }[seat.outcome]
        else:
            span = place_points[place - 1 : place - 1 + len(shared)]
            seat.match_points = sum(span, Decimal(0)) / len(span) if span else Decimal(0)
        seat.points_for = str(mine)
        seat.points_against = str(sum(others, Fraction(0)) / len(others)) if others else "0"
        seat.place = place
    Seat.objects.bulk_update(
        seats, ["outcome", "match_points", "points_for", "points_against", "place", "hands_won"]
    )
    match.state = Match.State.FINISHED
    match.finished_at = match.finished_at or timezone.now()
    match.result = {
        "after": after,
        "points": {side: str(points) for side, points in result.points.items()},
        "places": result.places,
        "hands": len(versions),
        "ended_by": ended_by,
    }
    match.save(update_fields=["state", "finished_at", "result"])
    notify.match_finished(match)

"""Duplicate events: create one with its movement and boards, number the pairs and start, seat
each round from the movement, take board results from the tables (checked by the rules engine
against the board; entered with the entering side's PIN, confirmed by the other side with its
PIN: services.side_pins), adjust and assign as director,
release the results to the tables, close the rounds and finish.

Keyword-only, typed, one transaction each; a refusal is a `ServiceError` with a stable code and
changes nothing. The engines (`tournaments.duplicate.engine`) do the dealing, the movements,
the score of a board and the comparison; this module stores what they say.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.duplicate import engine
from tournaments.duplicate.plan import build_movement, engine_error, movement_of
from tournaments.models import (
    Board,
    BoardResult,
    DuplicateEvent,
    DuplicatePair,
    Entry,
    Match,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.services import ratings, side_pins
from tournaments.services.actors import (
    Actor,
    audit,
    is_director,
    require_director,
    require_not_published,
    scores_table,
)
from tournaments.services.errors import Conflict, Invalid, NotAllowed, NotFound, ServiceError
from tournaments.services.hands import MAX_HAND_BYTES
from tournaments.services.tournaments import create_tournament

R = BoardResult.Status
MAX_BOARDS_PER_ROUND = 8
MAX_KEY = 100
MAX_REASON = 500


def _check_scale(data: Any) -> dict:
    if data in (None, {}, ""):
        return {}
    if not isinstance(data, dict):
        raise Invalid("bad-scale", 'an IMP scale is {"name", "factor", "steps"}')
    try:
        scale = engine.ImpScale(
            str(data.get("name", "custom")),
            Fraction(str(data.get("factor", 1))),
            tuple(int(s) for s in data.get("steps", ())),
        )
    except (ValueError, TypeError, ZeroDivisionError) as error:
        raise Invalid("bad-scale", f"this IMP scale cannot be read: {error}") from error
    return {"name": scale.name, "factor": str(scale.factor), "steps": list(scale.steps)}


# -- creating and starting ---------------------------------------------------------------------


@transaction.atomic
def create_duplicate_tournament(
    *,
    actor: Actor,
    name: str,
    game: str,
    rules: Any,
    movement: str,
    tables: int,
    boards_per_round: int,
    rounds: int | None = None,
    even: str = "skip",
    board_scoring: str = "standard",
    board_compare: str | None = None,
    board_honours: bool = False,
    comparison: str = "matchpoints",
    imp_scale: dict | None = None,
    board_source: str = "seeded",
    deal_seed: str = "",
    confirmation: str = Tournament.Confirmation.PIN,
    venue: str = "",
    starts_at: Any = None,
    slug: str = "",
) -> Tournament:
    """A duplicate tournament in setup: its movement checked, its boards made (dealt from the
    seed, or waiting for their deal), the acting user its director."""
    if game not in engine.boards.GAMES:
        raise Invalid("bad-game", "duplicate is played at Spades (partnership) or Whist")
    if not isinstance(tables, int) or isinstance(tables, bool):
        raise Invalid("bad-tables", "the number of tables is a whole number")
    if (
        not isinstance(boards_per_round, int)
        or isinstance(boards_per_round, bool)
        or not 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND
    ):
        raise Invalid("bad-boards", f"1 to {MAX_BOARDS_PER_ROUND} boards a round")
    if even not in DuplicateEvent.Even.values:
        raise Invalid("bad-movement", "an even Mitchell uses a skip or a relay")
    plan = build_movement(movement=movement, tables=tables, rounds=rounds, even=even)
    if board_scoring not in DuplicateEvent.BoardScoring.values:
        raise Invalid("bad-option", f"board_scoring is one of {DuplicateEvent.BoardScoring.values}")
    if board_scoring not in engine.duplicate_game(game).board_scorings:
        raise Invalid("bad-option", "board_scoring cga and andrews are for Spades")
    board_compare = board_compare or engine.default_compare(game)
    if board_compare not in DuplicateEvent.BoardCompare.values:
        raise Invalid("bad-option", "board_compare is own or net")
    if not isinstance(board_honours, bool):
        raise Invalid("bad-option", "board_honours is true or false")
    if comparison not in DuplicateEvent.Comparison.values:
        raise Invalid("bad-option", f"the comparison is one of {DuplicateEvent.Comparison.values}")
    if board_source not in DuplicateEvent.BoardSource.values:
        raise Invalid("bad-option", f"the boards are {DuplicateEvent.BoardSource.values}")
    scale = _check_scale(imp_scale)
    if not isinstance(deal_seed, str) or len(deal_seed) > 64:
        raise Invalid("bad-seed", "a deal seed is at most 64 characters")
    if board_source == "seeded" and not deal_seed:
        import secrets

        deal_seed = secrets.token_hex(8)
    tournament = create_tournament(
        actor=actor,
        name=name,
        game=game,
        rules=rules,
        format=Tournament.Format.DUPLICATE,
        rounds=len(plan.rounds),
        confirmation=confirmation,
        venue=venue,
        starts_at=starts_at,
        slug=slug,
        duplicate=True,
    )
    _check_rules(tournament)
    event = DuplicateEvent.objects.create(
        tournament=tournament,
        movement=movement,
        even=even,
        tables=tables,
        boards_per_round=boards_per_round,
        board_scoring=board_scoring,
        board_compare=board_compare,
        board_honours=board_honours,
        comparison=comparison,
        imp_scale=scale,
        board_source=board_source,
        deal_seed=deal_seed,
        pairs=len(plan.pairs),
        movement_data=plan.as_dict(),
    )
    count = plan.sets * boards_per_round
    if board_source == "seeded":
        dealt = engine.deal_boards(deal_seed, count, game)
        Board.objects.bulk_create(
            Board(
                tournament=tournament,
                number=b.number,
                dealer=b.dealer,
                hands={s: list(h) for s, h in b.hands.items()},
                turned=b.turned or "",
                source="seeded",
            )
            for b in dealt
        )
    else:
        Board.objects.bulk_create(
            Board(tournament=tournament, number=n, dealer=engine.dealer_of(n), source=board_source)
            for n in range(1, count + 1)
        )
    audit(
        tournament=tournament,
        actor=actor,
        action="duplicate-created",
        subject=tournament.slug,
        data={
            "movement": plan.kind,
            "tables": tables,
            "rounds": len(plan.rounds),
            "boards": count,
            "board_source": board_source,
            "comparison": comparison,
            "board_scoring": board_scoring,
            "board_compare": board_compare,
        },
    )
    del event
    return tournament


def _check_rules(tournament: Tournament) -> None:
    """Partnership Spades for four, or Whist: the engine's own check on an empty board."""
    from games.records import get_game

    rules_obj = get_game(tournament.game).book.resolve(tournament.rules)[0]
    refusal = engine.rules_refusal(tournament.game, rules_obj)
    if refusal is not None:
        raise Invalid("bad-rules", refusal)


def event_of(tournament: Tournament) -> DuplicateEvent:
    try:
        return DuplicateEvent.objects.select_related("tournament").get(tournament=tournament)
    except DuplicateEvent.DoesNotExist:
        raise NotFound("not-duplicate", "this tournament is not a duplicate event") from None


@transaction.atomic
def set_board_deal(
    *, tournament: Tournament, actor: Actor, number: int, hands: dict, turned: str = ""
) -> Board:
    """The director enters a board's deal (each seat's 13 cards; Whist: the turned card, one
    of the dealer's). Refused once a result of the board is stored."""
    require_director(actor, tournament)
    board = Board.objects.select_for_update().filter(tournament=tournament, number=number).first()
    if board is None:
        raise NotFound("no-board", f"there is no board {number}")
    if board.results.exists():
        raise Conflict("board-played", f"board {number} has results: its deal is fixed")
    board.hands, board.turned = _checked_deal(tournament.game, board.dealer, hands, turned)
    board.source = "director"
    board.save(update_fields=["hands", "turned", "source"])
    audit(
        tournament=tournament,
        actor=actor,
        action="duplicate-board-dealt",
        subject=f"board {number}",
    )
    return board


def _checked_deal(game: str, dealer: str, hands: Any, turned: str) -> tuple[dict, str]:
    from games.cards import NAMES, parse_cards
    from games.errors import RecordError

    if not isinstance(hands, dict) or set(hands) != set("NESW"):
        raise Invalid("bad-deal", "a deal gives the cards of N, E, S and W")
    try:
        out = {s: [NAMES[c] for c in parse_cards(hands[s])] for s in "NESW"}
    except (RecordError, KeyError, TypeError) as error:
        raise Invalid("bad-deal", f"these cards cannot be read: {error}") from error
    every = [c for s in "NESW" for c in out[s]]
    if any(len(out[s]) != 13 for s in "NESW") or len(set(every)) != 52:
        raise Invalid("bad-deal", "each seat holds 13 different cards of one pack")
    if engine.duplicate_game(game).turned_card:
        turned = (turned or "").upper().replace("10", "T")
        if turned not in out[dealer]:
            raise Invalid("bad-deal", "the turned card is one of the dealer's cards")
    else:
        turned = ""
    return out, turned


@transaction.atomic
def start_duplicate(*, tournament: Tournament, actor: Actor) -> DuplicateEvent:
    """Number the pairs (in the order they registered) and fix the movement: with one pair
    fewer than the movement seats, the last pair number sits out (a bye stand)."""
    require_director(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    event = event_of(tournament)
    if tournament.state in (Tournament.State.RUNNING, Tournament.State.FINISHED):
        raise Conflict("already-started", "the movement is already fixed")
    entries = list(tournament.entries.exclude(status=Entry.Status.WITHDRAWN).order_by("id"))
    full = 2 * event.tables
    if len(entries) not in (full - 1, full):
        raise Invalid(
            "wrong-pairs",
            f"{event.tables} tables seat {full - 1} or {full} pairs, not {len(entries)}",
            details={"pairs": len(entries)},
        )
    plan = build_movement(
        movement=event.movement,
        tables=event.tables,
        rounds=tournament.rounds,
        even=event.even,
        pairs=len(entries),
    )
    DuplicatePair.objects.filter(tournament=tournament).delete()
    DuplicatePair.objects.bulk_create(
        DuplicatePair(tournament=tournament, number=n, entry=e) for n, e in enumerate(entries, 1)
    )
    event.pairs = len(entries)
    event.movement_data = plan.as_dict()
    event.save(update_fields=["pairs", "movement_data"])
    tournament.state = Tournament.State.RUNNING
    tournament.save(update_fields=["state"])
    audit(
        tournament=tournament,
        actor=actor,
        action="duplicate-started",
        data={"pairs": len(entries), "movement": plan.kind},
    )
    return event


@transaction.atomic
def late_pair(*, tournament: Tournament, actor: Actor, entry: Entry) -> DuplicatePair:
    """A late pair takes the missing pair's number from the next round on (docs/duplicate.md):
    the rounds already started stay sit-outs for it."""
    require_director(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    event = event_of(tournament)
    if entry.tournament_id != tournament.pk:
        raise NotFound("no-entry", "that entry is not in this tournament")
    if event.pairs >= 2 * event.tables:
        raise Conflict("no-missing-pair", "every pair number is taken")
    number = event.pairs + 1
    started = tournament.round_set.count()
    plan = build_movement(
        movement=event.movement, tables=event.tables, rounds=tournament.rounds, even=event.even
    )
    if started:
        plan = engine.sit_out(plan, number, rounds=range(1, started + 1))
    pair = DuplicatePair.objects.create(tournament=tournament, number=number, entry=entry)
    event.pairs = number
    event.movement_data = plan.as_dict()
    event.save(update_fields=["pairs", "movement_data"])
    audit(
        tournament=tournament,
        actor=actor,
        action="duplicate-late-pair",
        subject=f"pair {number}",
        data={"entry": entry.pk, "from_round": started + 1},
    )
    return pair


@transaction.atomic
def start_round(*, tournament: Tournament, actor: Actor) -> Round:
    """Seat the next round from the movement: a table, a match and its NS and EW seats for
    every table where two pairs meet (a sit-out table plays nothing). The round is in play at
    once: the guide cards already told everyone where to go."""
    require_director(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    event = event_of(tournament)
    if tournament.state != Tournament.State.RUNNING:
        raise Conflict("not-running", "start the event (number the pairs) first")
    latest = tournament.round_set.order_by("-number").first()
    if latest is not None and latest.state != Round.State.CLOSED:
        raise Conflict("round-open", f"close round {latest.number} first")
    number = (latest.number if latest else 0) + 1
    plan = movement_of(event)
    if number > len(plan.rounds):
        raise Conflict("no-more-rounds", "every round of the movement has been played")
    pairs = {p.number: p.entry_id for p in DuplicatePair.objects.filter(tournament=tournament)}
    round_ = Round.objects.create(
        tournament=tournament, number=number, state=Round.State.IN_PLAY, published_at=timezone.now()
    )
    for seating in plan.rounds[number - 1]:
        if (
            seating.ns is None
            or seating.ew is None
            or seating.ns not in pairs
            or seating.ew not in pairs
        ):
            continue
        table = Table.objects.create(round=round_, number=seating.table)
        match = Match.objects.create(round=round_, table=table, state=Match.State.PLAYING)
        Seat.objects.bulk_create(
            [
                Seat(match=match, entry_id=pairs[seating.ns], side="NS", seats="NS"),
                Seat(match=match, entry_id=pairs[seating.ew], side="EW", seats="EW"),
            ]
        )
    audit(
        tournament=tournament,
        actor=actor,
        action="duplicate-round-started",
        subject=f"round {number}",
    )
    from tournaments.services import notify

    notify.round_published(round_)  # the tables' phones move to the new round by themselves
    return round_


def boards_of(event: DuplicateEvent, round_number: int, table_number: int) -> list[int]:
    """The board numbers played at a table in a round, from the movement."""
    plan = movement_of(event)
    for seating in plan.rounds[round_number - 1]:
        if seating.table == table_number:
            return list(engine.board_set(seating.board_set, event.boards_per_round))
    return []


def pair_numbers(match: Match) -> tuple[int, int]:
    """The duplicate pair numbers (NS, EW) of a round's match."""
    seats = {s.side: s.entry_id for s in match.seats.all()}
    numbers = dict(
        DuplicatePair.objects.filter(entry_id__in=seats.values()).values_list("entry_id", "number")
    )
    return numbers[seats["NS"]], numbers[seats["EW"]]


# -- results ---------------------------------------------------------------------------------


def _new_version(*, match: Match, board: Board, **values: Any) -> BoardResult:
    """The board's next result at this match's table (its current one retired): where it was
    played and by which pairs, with `values` (what was scored, by whom, its status)."""
    ns_pair, ew_pair = pair_numbers(match)
    _retire_current(match, board)
    return BoardResult.objects.create(
        tournament=match.round.tournament,
        board=board,
        match=match,
        round_number=match.round.number,
        table_number=match.played_table.number,
        ns_pair=ns_pair,
        ew_pair=ew_pair,
        version=_next_version(match, board),
        **values,
    )


@dataclass(frozen=True, slots=True)
class SubmittedResult:
    result: BoardResult
    created: bool


def _locked(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "table")
        .get(pk=match.pk)
    )


def _require_table(actor: Actor, match: Match, tournament: Tournament) -> bool:
    require_not_published(actor, tournament)
    if is_director(actor, tournament):
        return True
    if not scores_table(actor, match.table_id):
        raise NotAllowed("wrong-table", "this scorer may only score their own table")
    return False


def _board_at(match: Match, event: DuplicateEvent, number: Any) -> Board:
    if not isinstance(number, int) or isinstance(number, bool):
        raise Invalid("bad-board", "a board number is a whole number")
    if number not in boards_of(event, match.round.number, match.played_table.number):
        raise Invalid(
            "wrong-board",
            f"board {number} is not played at table "
            f"{match.played_table.number} in round {match.round.number}",
        )
    return Board.objects.select_for_update().get(tournament=event.tournament, number=number)


def _score(event: DuplicateEvent, board: Board, record: Any) -> engine.BoardScore:
    tournament = event.tournament
    if not isinstance(record, dict):
        raise Invalid("bad-record", "a board's result is a hand record (a JSON object)")
    if record.get("game", tournament.game) != tournament.game:
        raise Invalid("bad-record", f"this event plays {tournament.game}")
    dealt = None
    if board.dealt:
        dealt = engine.Board(
            number=board.number,
            dealer=board.dealer,
            hands={s: tuple(c) for s, c in board.hands.items()},
            turned=board.turned or None,
        )
    elif record.get("dealer") != board.dealer:
        raise Invalid("board-mismatch", f"board {board.number} is dealt by {board.dealer}")
    try:
        return engine.board_score(
            game=tournament.game,
            rules=tournament.rules,
            record=record,
            board_scoring=event.board_scoring,
            board_honours=event.board_honours,
            board=dealt,
        )
    except engine.DuplicateError as error:
        raise engine_error(error) from error


def _check_size(record: Any) -> None:
    """A board's record takes at most `MAX_HAND_BYTES` as JSON, the hand limit of every way in
    (the API's body, a hand import's line, the phone's form): refused before anything else."""
    try:
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        size = len(text.encode("utf-8"))
    except (TypeError, ValueError, RecursionError):
        raise Invalid("bad-record", "a board's result is a hand record (a JSON object)") from None
    if size > MAX_HAND_BYTES:
        raise Invalid(
            "too-large",
            f"the record is {size} bytes; one hand may take at most {MAX_HAND_BYTES}",
            details={"bytes": size, "limit": MAX_HAND_BYTES},
            status=413,
        )


def _next_version(match: Match, board: Board) -> int:
    last = (
        BoardResult.objects.filter(match=match, board=board)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    return (last or 0) + 1


def _retire_current(match: Match, board: Board) -> None:
    current = BoardResult.objects.filter(match=match, board=board, is_current=True).first()
    if current is None:
        return
    if current.status in (R.PENDING, R.CONFIRMED):
        current.status = R.SUPERSEDED
    current.is_current = False
    current.save(update_fields=["status", "is_current"])


def submit_board_result(
    *, match: Match, board: int, record: Any, actor: Actor, idempotency_key: str | None = None
) -> SubmittedResult:
    """A table's result on one of its boards: checked by the rules engine against the board
    (its dealer; a full record its deal and turned card), scored by `board_scoring`, awaiting
    the other side's confirmation: with its PIN, or without one when the event confirms on the
    same phone. In PIN mode the entering side is the one whose PIN `actor.pin` is (a stated
    `actor.side` must agree). A director's result is confirmed at once. A retry with the same
    idempotency key returns the stored result. A record over `MAX_HAND_BYTES` (as JSON) is
    refused, 413."""
    _check_size(record)
    proven = side_pins.proven_side(match, actor)
    return _submit_board_result(
        match=match,
        board=board,
        record=record,
        actor=actor,
        idempotency_key=idempotency_key,
        proven=proven,
    )


@transaction.atomic
def _submit_board_result(
    *,
    match: Match,
    board: int,
    record: Any,
    actor: Actor,
    idempotency_key: str | None,
    proven: str | None,
) -> SubmittedResult:
    match = _locked(match)
    tournament = match.round.tournament
    event = event_of(tournament)
    director = _require_table(actor, match, tournament)
    if match.round.state != Round.State.IN_PLAY:
        raise Conflict("round-not-in-play", f"round {match.round.number} is {match.round.state}")
    if idempotency_key is not None:
        if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= MAX_KEY:
            raise Invalid("bad-idempotency-key", f"an idempotency key is 1 to {MAX_KEY} characters")
        stored = BoardResult.objects.filter(idempotency_key=idempotency_key).first()
        if stored is not None:
            if (
                stored.match_id != match.pk
                or stored.board.number != board
                or json.dumps(stored.record, sort_keys=True) != json.dumps(record, sort_keys=True)
            ):
                raise Conflict("idempotency-key-reused", "this key was used for another result")
            return SubmittedResult(stored, False)
    side = actor.side
    if proven is not None:
        side_pins.agrees(actor, proven)
        side = proven
    if not director and side not in ("NS", "EW"):
        raise ServiceError("bad-side", "say which side is entering the result (NS or EW)")
    target = _board_at(match, event, board)
    current = BoardResult.objects.filter(match=match, board=target, is_current=True).first()
    if current is not None and current.status in (R.PENDING, R.CONFIRMED) and not director:
        raise Conflict(
            "result-exists",
            f"board {board} already has a result ({current.status}): the director corrects it",
        )
    score = _score(event, target, record)
    if not target.dealt and event.board_source == "first-record" and "deal" in record:
        from games.cards import NAMES, parse_cards

        target.hands = {s: [NAMES[c] for c in parse_cards(record["deal"][s])] for s in "NESW"}
        target.turned = record.get("turned", "") or ""
        target.save(update_fields=["hands", "turned"])
    kind = BoardResult.Kind.FULL if "deal" in record else BoardResult.Kind.SUMMARY
    try:
        result = _new_version(
            match=match,
            board=target,
            kind=kind,
            record=record,
            ns_score=score.ns,
            ew_score=score.ew,
            notes=list(score.notes),
            status=R.CONFIRMED if director else R.PENDING,
            idempotency_key=idempotency_key,
            submitted_side=side if not director else "",
            submitted_by=actor.user_or_none(),
            submitted_label=actor.name,
            decided_label=actor.name if director else "",
            decided_at=timezone.now() if director else None,
        )
    except IntegrityError as error:  # a racing scorer took the board first
        raise Conflict("result-exists", f"board {board} already has a result") from error
    if director:
        audit(
            tournament=tournament,
            actor=actor,
            action="duplicate-result-entered",
            subject=f"board {board} round {match.round.number} table {match.played_table.number}",
            data={"result": result.pk, "ns": score.ns, "ew": score.ew},
        )
    _bump(tournament, match)
    return SubmittedResult(result, True)


def _check_version(result: BoardResult, expected_version: Any) -> None:
    """Refuse an answer to a version of the board's result the caller never saw: the table
    entered it again, or the director corrected or adjusted it, meanwhile."""
    current = result
    if not result.is_current:
        current = (
            BoardResult.objects.filter(
                match_id=result.match_id, board_id=result.board_id, is_current=True
            ).first()
            or result
        )
    if (
        not isinstance(expected_version, int)
        or isinstance(expected_version, bool)
        or expected_version != current.version
    ):
        raise Conflict(
            "stale-version",
            f"this board's result is now at version {current.version}, "
            f"not {expected_version}: look at it again",
            details={"current": current.version},
        )


def _answer(
    result: BoardResult, actor: Actor, status: str, reason: str, expected_version: Any
) -> BoardResult:
    """The PIN first (its failures are kept), then the decision in one transaction."""
    proven = side_pins.proven_side(Match(pk=result.match_id), actor)
    return _decide(result, actor, status, reason, expected_version, proven)


@transaction.atomic
def _decide(
    result: BoardResult,
    actor: Actor,
    status: str,
    reason: str,
    expected_version: Any,
    proven: str | None,
) -> BoardResult:
    match = _locked(result.match)
    tournament = match.round.tournament
    director = _require_table(actor, match, tournament)
    result = BoardResult.objects.select_for_update().get(pk=result.pk)
    _check_version(result, expected_version)
    if not result.is_current or result.status != R.PENDING:
        raise Conflict("not-pending", f"this result is {result.status}, not pending")
    side = actor.side if proven is None else proven
    if not director:
        if side not in ("NS", "EW"):
            raise ServiceError("bad-side", "say which side is answering")
        if side == result.submitted_side:
            raise NotAllowed("own-side", "the other side confirms or rejects a result")
        if proven is not None:
            side_pins.agrees(actor, proven)
    result.status = status
    result.decided_label = actor.name
    result.decided_side = side
    result.decided_at = timezone.now()
    if reason:
        result.reason = reason[:MAX_REASON]
    result.save(update_fields=["status", "decided_label", "decided_side", "decided_at", "reason"])
    _bump(tournament, match)
    return result


def confirm_board_result(
    *, result: BoardResult, actor: Actor, expected_version: int
) -> BoardResult:
    """The other side agrees (with its PIN unless the event confirms on the same phone).
    `expected_version` is the version of the board's result the confirmer saw: if it has
    changed since (`stale-version`), nothing changes."""
    return _answer(result, actor, R.CONFIRMED, "", expected_version)


def reject_board_result(
    *, result: BoardResult, actor: Actor, expected_version: int, reason: str = ""
) -> BoardResult:
    """The other side disagrees: the table enters the board again. `expected_version` as for
    `confirm_board_result`."""
    return _answer(result, actor, R.REJECTED, reason or "", expected_version)


def _reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid("reason-required", "an adjusted or assigned result needs a reason")
    return reason.strip()[:MAX_REASON]


@transaction.atomic
def adjust_board_result(
    *, match: Match, board: int, actor: Actor, ns: str, ew: str, reason: str
) -> BoardResult:
    """The director's adjusted result (average-plus 60 %, average 50 %, average-minus 40 %
    to each side) for a board not played or fouled; in the audit trail with its reason."""
    match = _locked(match)
    tournament = match.round.tournament
    require_director(actor, tournament)
    event = event_of(tournament)
    reason = _reason(reason)
    for value in (ns, ew):
        if value not in engine.ADJUSTMENTS:
            raise Invalid("bad-adjustment", f"an adjustment is one of {list(engine.ADJUSTMENTS)}")
    return _directors_result(
        match=match,
        board=_board_at(match, event, board),
        actor=actor,
        reason=reason,
        kind=BoardResult.Kind.ADJUSTED,
        action="duplicate-adjusted",
        figures={"ns": ns, "ew": ew},
        ns_adjusted=ns,
        ew_adjusted=ew,
    )


@transaction.atomic
def assign_board_result(
    *, match: Match, board: int, actor: Actor, ns_score: int, ew_score: int, reason: str
) -> BoardResult:
    """The director's assigned score on a board (each side's own points), with a reason."""
    match = _locked(match)
    tournament = match.round.tournament
    require_director(actor, tournament)
    event = event_of(tournament)
    reason = _reason(reason)
    for value in (ns_score, ew_score):
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 100000:
            raise Invalid("bad-score", "an assigned score is a whole number of points")
    return _directors_result(
        match=match,
        board=_board_at(match, event, board),
        actor=actor,
        reason=reason,
        kind=BoardResult.Kind.ASSIGNED,
        action="duplicate-assigned",
        figures={"ns": ns_score, "ew": ew_score},
        ns_score=ns_score,
        ew_score=ew_score,
    )


def _directors_result(
    *,
    match: Match,
    board: Board,
    actor: Actor,
    reason: str,
    kind: str,
    action: str,
    figures: dict,
    **values: Any,
) -> BoardResult:
    """A director's result on a board (adjusted or assigned): the current one retired, the new
    version confirmed at once, in the audit trail with its reason."""
    tournament = match.round.tournament
    result = _new_version(
        match=match,
        board=board,
        kind=kind,
        reason=reason,
        status=R.CONFIRMED,
        submitted_by=actor.user_or_none(),
        submitted_label=actor.name,
        decided_label=actor.name,
        decided_at=timezone.now(),
        **values,
    )
    audit(
        tournament=tournament,
        actor=actor,
        action=action,
        subject=(
            f"board {board.number} round {match.round.number} table {match.played_table.number}"
        ),
        reason=reason,
        data={"result": result.pk, **figures},
    )
    _bump(tournament, match)
    return result


def _bump(tournament: Tournament, match: Match | None = None) -> None:
    """Results changed: counted now, the standings snapshot (the rankings a season reads)
    recomputed after commit; a table's board changed (`match`): its phone hears of it."""
    from tournaments.services import notify

    notify.results_changed(tournament)
    if match is not None:
        notify.board_changed(match)


def missing_results(round_: Round) -> list[tuple[int, int]]:
    """(table, board) of every board of the round without a confirmed result."""
    event = event_of(round_.tournament)
    done = set(
        BoardResult.objects.filter(
            match__round=round_, is_current=True, status=R.CONFIRMED
        ).values_list("table_number", "board__number")
    )
    out = []
    for match in round_.matches.select_related("table"):
        for b in boards_of(event, round_.number, match.played_table.number):
            if (match.played_table.number, b) not in done:
                out.append((match.played_table.number, b))
    return out


@transaction.atomic
def close_duplicate_round(*, round: Round, actor: Actor) -> Round:
    """Close a round once every board at every table has a confirmed (or adjusted) result."""
    tournament = round.tournament
    require_director(actor, tournament)
    round_ = Round.objects.select_for_update().get(pk=round.pk)
    if round_.state == Round.State.CLOSED:
        return round_
    missing = missing_results(round_)
    if missing:
        raise Invalid(
            "results-missing",
            f"{len(missing)} board(s) have no confirmed result",
            details={"missing": [{"table": t, "board": b} for t, b in missing]},
        )
    now = timezone.now()
    round_.state = Round.State.CLOSED
    round_.closed_at = now
    round_.save(update_fields=["state", "closed_at"])
    round_.matches.update(state=Match.State.FINISHED, finished_at=now)
    audit(
        tournament=tournament,
        actor=actor,
        action="duplicate-round-closed",
        subject=f"round {round_.number}",
    )
    from tournaments.services import standings

    standings.round_closed(tournament.pk)
    return round_


@transaction.atomic
def release_results(*, tournament: Tournament, actor: Actor, through_round: int) -> DuplicateEvent:
    """Let the tables (and the public pages) see every table's results of the rounds up to
    `through_round`. A barometer releases each round as it closes; a Mitchell at the end."""
    require_director(actor, tournament)
    event = DuplicateEvent.objects.select_for_update().get(tournament=tournament)
    if (
        not isinstance(through_round, int)
        or isinstance(through_round, bool)
        or not 0 <= through_round <= tournament.rounds
    ):
        raise Invalid("bad-round", f"a round from 0 to {tournament.rounds}")
    if through_round != event.released_round:
        event.released_round = through_round
        event.save(update_fields=["released_round"])
        audit(
            tournament=tournament,
            actor=actor,
            action="duplicate-released",
            subject=f"round {through_round}",
        )
        _bump(tournament)
    return event


@transaction.atomic
def finish_duplicate(*, tournament: Tournament, actor: Actor) -> Tournament:
    """Finish the event: every round closed; every result released; the club ratings re-rated
    from the fields' rankings."""
    from tournaments.services.tournaments import finish_tournament

    event = event_of(tournament)
    tournament = finish_tournament(tournament=tournament, actor=actor)
    DuplicateEvent.objects.filter(pk=event.pk).update(released_round=tournament.rounds)
    transaction.on_commit(lambda: ratings.schedule(tournament.game))
    return tournament

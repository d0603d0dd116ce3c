"""Reading a duplicate event: its boards, the movement's plan for each table, and the results
compared by the engine (travellers, personal score cards, rankings per field).

What anyone but the director sees is cut at the released round: before the director releases
a round, no table (and no public page) sees another table's results of it, so nobody peeks at
a traveller of a board still to be played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tournaments.duplicate import engine
from tournaments.duplicate.plan import compared
from tournaments.duplicate.plan import results_qs as results_qs  # the views read it here
from tournaments.models import Board, DuplicateEvent, DuplicatePair, Tournament
from tournaments.words.rules import call_label


@dataclass(frozen=True, slots=True)
class Scored:
    """The compared event and what the pages need beside it."""

    event: engine.Event
    settings: DuplicateEvent
    names: dict[int, str]  # pair number -> the pair's name
    through_round: int | None  # None: every round (a director's view)
    boards: dict[int, Board]
    # (board, round, table) -> the result's hand record: the traveller's bids and tricks
    records: dict[tuple[int, int | None, int | None], Any] = field(default_factory=dict)

    def ranking_rows(self, field: str) -> list[dict]:
        return [
            standing_row(s, self.names, self.event.method)
            for s in self.event.rankings.get(field, ())
        ]


def pair_names(tournament: Tournament) -> dict[int, str]:
    return {
        p.number: p.entry.name
        for p in DuplicatePair.objects.filter(tournament=tournament).select_related(
            "entry__team", "entry__player"
        )
    }


def scored(tournament: Tournament, *, director: bool = False) -> Scored:
    """The event compared: a director sees every confirmed result; anyone else the results of
    the released rounds (all of them once the event is finished)."""
    event = compared(tournament, director=director)
    boards = {b.number: b for b in Board.objects.filter(tournament=tournament)}
    return Scored(
        event=event.event,
        settings=event.settings,
        names=pair_names(tournament),
        through_round=event.through_round,
        boards=boards,
        records={(r.board.number, r.round_number, r.table_number): r.record for r in event.rows},
    )


def play_words(scored_event: Scored, board: int, record: Any) -> dict[str, str]:
    """What was bid and made at a table, for its traveller line: the bids in the order made
    ("E 4 · S 3 · W Nil · N 6", Spades) and each side's tricks ("NS 7 · EW 6"). A full record's
    tricks come from its play (the engine scores it again); empty when the record says nothing
    (an adjusted result)."""
    if not isinstance(record, dict):
        return {"bids": "", "tricks": ""}
    bids = []
    for call in record.get("calls") or []:
        if isinstance(call, dict) and call.get("call") is not None:
            who = call.get("seat") or call.get("side") or ""
            bids.append(f"{who} {call_label(str(call['call']))}".strip())
    tricks = record.get("tricks")
    if not isinstance(tricks, dict):
        settings = scored_event.settings
        try:
            tricks = engine.board_score(
                game=settings.tournament.game,
                rules=settings.tournament.rules,
                record=record,
                board_scoring=settings.board_scoring,
                board_honours=settings.board_honours,
            ).tricks
        except Exception:  # noqa: BLE001 - a stored record the engine no longer reads: say nothing
            tricks = {}
    sides: dict[str, int] = {}
    for who, count in (tricks or {}).items():
        if not isinstance(count, int):
            continue
        side = "NS" if who in ("N", "S", "NS") else "EW" if who in ("E", "W", "EW") else who
        sides[side] = sides.get(side, 0) + count
    return {
        "bids": " · ".join(bids),
        "tricks": " · ".join(f"{side} {sides[side]}" for side in ("NS", "EW") if side in sides),
    }


def points_text(value: Fraction | Decimal | int | str | None, method: str) -> str:
    """Matchpoints or IMPs for people: exact to two decimals, no float until here."""
    if value is None:
        return ""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}"


def percent_text(value: Fraction | None) -> str:
    return "" if value is None else f"{float(value):.2f}"


def standing_row(s: engine.Standing, names: dict[int, str], method: str) -> dict:
    return {
        "place": s.place_text,
        "pair": s.pair,
        "name": names.get(s.pair, ""),
        "total": points_text(s.total, method),
        "top": points_text(s.top, method),
        "percentage": percent_text(s.percentage),
        "boards": s.boards,
    }


def traveller_rows(scored_event: Scored, board: int) -> list[dict]:
    traveller = scored_event.event.travellers.get(board)
    if traveller is None:
        return []
    out = []
    for line in sorted(
        traveller.lines, key=lambda ln: (ln.result.round or 0, ln.result.table or 0)
    ):
        r = line.result
        out.append(
            {
                "round": r.round,
                "table": r.table,
                "ns": r.ns,
                "ew": r.ew,
                "ns_name": scored_event.names.get(r.ns, ""),
                "ew_name": scored_event.names.get(r.ew, ""),
                "ns_score": "" if r.adjusted else points_text(r.ns_score, ""),
                "ew_score": "" if r.adjusted else points_text(r.ew_score, ""),
                "ns_adjusted": r.ns_adjusted or "",
                "ew_adjusted": r.ew_adjusted or "",
                "assigned": r.assigned,
                "ns_points": points_text(line.ns_points, scored_event.event.method),
                "ew_points": points_text(line.ew_points, scored_event.event.method),
                **play_words(
                    scored_event, board, scored_event.records.get((board, r.round, r.table))
                ),
            }
        )
    return out


def card_rows(scored_event: Scored, pair: int) -> list[dict]:
    out = []
    method = scored_event.event.method
    for c in scored_event.event.cards.get(pair, ()):
        out.append(
            {
                "board": c.board,
                "round": c.round,
                "table": c.table,
                "direction": c.direction,
                "opponents": c.opponents,
                "opponents_name": scored_event.names.get(c.opponents, ""),
                "score": points_text(c.score, ""),
                "opponents_score": points_text(c.opponents_score, ""),
                "adjusted": c.adjusted or "",
                "points": points_text(c.points, method),
                "top": points_text(c.top, method),
            }
        )
    return out


def boards_json(tournament: Tournament, scored: Scored | None = None) -> list[dict]:
    """The boards (their deals once the event is finished, or for a director)."""
    show = scored is None or scored.through_round is None
    out = []
    for b in tournament.boards.all():
        item: dict[str, Any] = {"number": b.number, "dealer": b.dealer}
        if show and b.dealt:
            item["deal"] = b.hands
            if b.turned:
                item["turned"] = b.turned
        out.append(item)
    return out

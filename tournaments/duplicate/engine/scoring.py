"""The score of one board at one table, from its hand record, and what is compared.

    score = board_score(game="spades", rules="standard", record=record, board_scoring="cga")
    score.ns, score.ew           # each side's own points on the board
    score.compared("own")        # (NS's value, EW's value) for the comparison

The record is checked by the rules engine (games/) exactly as any hand, from 0-0 (a record's
own `before` and `rules` are ignored: the board starts a new game under the tournament's rules).

Spades (`board_scoring`, partnership Spades only):
- `standard`: the engine's score of the hand from 0-0, bags counting their point as the rules
  say, the sandbag penalty off (one board is not a game: `sandbag` is forced false).
- `cga` (Card Game Academy): each part of a side's contract that is made scores what the rules
  give it without its bags (a bid of N: 10 x N; a nil: the nil value; a blind bid or a moon: its
  value); a part that fails scores 0 to its side and its made value to the other side; each bag
  is -1 to the side that takes it and +1 to the other side.
- `andrews` (Joe Andrews / SafeHarborGames): the same parts, a failed part's made value to the
  setters (a set nil: +100; a set bid of N: +10 x N; both: the sum), each bag -1 to its taker
  only.
  A side's parts are each nil of its players and its contract (the bid of the side: all the
  side's tricks count for it, a failed nil bidder's included; spades.py "side-tricks"). A side
  whose players both bid nil has no contract and all its tricks are bags.
Whist: the engine's score of the hand from 0-0 (odd tricks, revoke penalties); honours count
only with `board_honours` true (the tournament's `honours` option is replaced by it).

`board_compare`: `own` compares each side's own points; `net` compares NS's points minus EW's
(for EW the opposite). Defaults: Spades `own`, Whist `net`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.cards import NAMES, parse_cards
from games.errors import RecordError
from games.notes import note
from games.records import check_hand, get_game
from games.spades import _contract, _read_calls  # the engine's own reading and contract values

from .boards import SEATS, Board
from .errors import DuplicateError

__all__ = [
    "BOARD_COMPARE",
    "BOARD_SCORING",
    "DUPLICATE_GAMES",
    "BoardScore",
    "DuplicateGame",
    "board_score",
    "default_compare",
    "duplicate_game",
    "rules_refusal",
]

BOARD_SCORING = ("standard", "cga", "andrews")
BOARD_COMPARE = ("own", "net")
SIDES = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One table's result on a board: each side's own points, the tricks and the engine's notes
    (plus this scoring's own)."""

    ns: int
    ew: int
    tricks: dict[str, int]
    notes: tuple[str, ...] = ()

    def compared(self, board_compare: str) -> tuple[int, int]:
        """(NS's value, EW's value) under `board_compare` ("own" or "net")."""
        if board_compare == "own":
            return self.ns, self.ew
        if board_compare == "net":
            return self.ns - self.ew, self.ew - self.ns
        raise DuplicateError("bad-option", f"board_compare is own or net, not {board_compare!r}")


@dataclass(frozen=True, slots=True)
class DuplicateGame:
    """What a game played in duplicate asks of a board's result, for the services, the pages
    and the tables' phones: the one place beside the scoring that knows the games by name."""

    #: The record's `game`.
    game: str
    #: The `board_scoring` values it takes (Whist only `standard`).
    board_scorings: tuple[str, ...]
    #: A table's result is each seat's bid and tricks, and a traveller lists the bids (Spades);
    #: otherwise it is the tricks per side (Whist).
    bids: bool
    #: The dealer turns up the last card for trumps: a board is dealt with it (Whist).
    turned_card: bool


DUPLICATE_GAMES: dict[str, DuplicateGame] = {
    "spades": DuplicateGame("spades", BOARD_SCORING, bids=True, turned_card=False),
    "whist": DuplicateGame("whist", ("standard",), bids=False, turned_card=True),
}


def duplicate_game(game: str) -> DuplicateGame:
    """How `game` is played in duplicate (`bad-game` for a game duplicate is not played at)."""
    found = DUPLICATE_GAMES.get(game)
    if found is None:
        raise DuplicateError("bad-game", f"duplicate is played at spades or whist, not {game!r}")
    return found


def rules_refusal(game: str, rules: Any) -> str | None:
    """Why duplicate cannot be played under these compiled rules (None: it can): duplicate
    Spades is partnership Spades for four."""
    if game == "spades" and not (rules.partnership and rules.options["players"] == 4):
        return "duplicate Spades is partnership Spades for 4 players"
    return None


def default_compare(game: str) -> str:
    """What is compared when the tournament does not say: Spades `own`, Whist `net`."""
    return "own" if game == "spades" else "net"


def _with_options(rules: Any, overrides: Mapping[str, Any]) -> Any:
    if isinstance(rules, str):
        return {"preset": rules, "options": dict(overrides)}
    if isinstance(rules, dict) and isinstance(rules.get("preset"), str):
        return {"preset": rules["preset"], "options": {**rules.get("options", {}), **overrides}}
    raise DuplicateError("bad-rules", 'rules are a preset id or {"preset": id, "options": {...}}')


def _check_board(record: dict[str, Any], board: Board | None) -> None:
    if board is None:
        return
    if record.get("dealer") != board.dealer:
        raise DuplicateError(
            "board-mismatch",
            f"board {board.number} is dealt by {board.dealer}, not {record.get('dealer')!r}",
        )
    if "deal" in record:
        deal = record["deal"]
        try:  # the record's cards as the board names them ("10s" is "TS")
            same = (
                isinstance(deal, dict)
                and set(deal) == set(SEATS)
                and all(
                    sorted(NAMES[c] for c in parse_cards(deal[s])) == sorted(board.hands[s])
                    for s in SEATS
                )
            )
        except RecordError:
            same = False
        if not same:
            raise DuplicateError(
                "board-mismatch", f"the record's deal is not board {board.number}'s"
            )
        if board.turned is not None and record.get("turned") != board.turned:
            raise DuplicateError(
                "board-mismatch",
                f"board {board.number}'s turned card is "
                f"{board.turned}, not {record.get('turned')!r}",
            )


def board_score(
    *,
    game: str,
    rules: Any,
    record: dict[str, Any],
    board_scoring: str = "standard",
    board_honours: bool = False,
    board: Board | None = None,
) -> BoardScore:
    """The score of one board at one table (see the module's text). `board`, when given, is
    checked: the record's dealer, and a full record's deal and turned card, must be the
    board's."""
    if not isinstance(record, dict):
        raise DuplicateError("bad-record", "a hand record is a JSON object")
    if game == "spades":
        if board_scoring not in BOARD_SCORING:
            raise DuplicateError(
                "bad-option",
                f"board_scoring is one of {', '.join(BOARD_SCORING)}, not {board_scoring!r}",
            )
        context = _with_options(rules, {"sandbag": False})
    elif game == "whist":
        if not isinstance(board_honours, bool):
            raise DuplicateError("bad-option", "board_honours is true or false")
        context = _with_options(rules, {"honours": board_honours})
    else:
        raise DuplicateError("bad-game", f"duplicate is played at spades or whist, not {game!r}")
    _check_board(record, board)
    hand = {k: v for k, v in record.items() if k not in ("rules", "before", "game")}
    hand.setdefault("format", "hand/1")
    g = get_game(game)
    try:
        rules_obj, _ = g.book.resolve(context)
    except Exception as error:  # RecordError: the rules do not resolve
        raise DuplicateError("bad-rules", str(error)) from None
    refusal = rules_refusal(game, rules_obj)
    if refusal is not None:
        raise DuplicateError("bad-rules", refusal)
    result = check_hand(hand, rules=context, game=game)
    if not result["ok"]:
        first = result["errors"][0]
        raise DuplicateError("bad-record", first["message"], detail=first)
    score, tricks, notes = result["score"], result["tricks"], tuple(result["notes"])
    if game == "spades" and board_scoring != "standard":
        return _parts_score(board_scoring, rules_obj, hand, tricks, notes)
    return BoardScore(ns=score["NS"], ew=score["EW"], tricks=tricks, notes=notes)


def _parts_score(
    board_scoring: str,
    rules: Any,
    record: dict[str, Any],
    tricks: dict[str, int],
    notes: tuple[str, ...],
) -> BoardScore:
    """Spades `cga` and `andrews` (see the module's text)."""
    table = rules.tables[record["dealer"]]
    bids = _read_calls(record, rules, table, get_game("spades").initial_state(rules))
    won = [tricks[s] for s in table.seats]
    points = {"NS": 0, "EW": 0}
    bags = {"NS": 0, "EW": 0}
    lines: list[str] = []
    for k, side in enumerate(table.sides):
        other = table.sides[1 - k]
        members = table.members[k]
        for i in members:
            kind = bids.nil[i]
            if kind:
                value = rules.nil_points[kind][0]
                if won[i] == 0:
                    points[side] += value
                    lines.append(
                        note(
                            "board-nil-made",
                            f"{table.seats[i]} made nil: +{value} to {side}",
                            {"seat": table.seats[i], "value": value, "side": side},
                        )
                    )
                else:
                    points[other] += value
                    lines.append(
                        note(
                            "board-nil-failed",
                            f"{table.seats[i]} failed nil: 0 to {side}, +{value} to {other}",
                            {"seat": table.seats[i], "value": value, "side": side, "other": other},
                        )
                    )
        taken = sum(won[i] for i in members)
        kind, bid = bids.kind[k], bids.bid[k]
        if kind == "nils":
            bags[side] = taken
            continue
        if kind in ("moon", "bmoon"):
            value = rules.options["moon_value"] * (2 if kind == "bmoon" else 1)
            made, over = taken == rules.total_tricks, 0
        else:
            made = (
                taken == bid
                if (kind == "blind" and rules.options["blind_bid_exact"])
                else taken >= bid
            )
            over = taken - bid if made else 0
            value = _contract(rules, kind, bid, bid, side, [])[0]  # the bid taken exactly
        bags[side] = over
        if made:
            points[side] += value
            lines.append(
                note(
                    "board-bid-made",
                    f"{side} made {bid}: +{value}",
                    {"side": side, "bid": bid, "value": value},
                )
            )
        else:
            points[other] += value
            lines.append(
                note(
                    "board-bid-set",
                    f"{side} set at {bid}: 0 to {side}, +{value} to {other}",
                    {"side": side, "bid": bid, "value": value, "other": other},
                )
            )
    for side, other in (("NS", "EW"), ("EW", "NS")):
        if bags[side]:
            points[side] -= bags[side]
            lines.append(
                note(
                    "board-bags",
                    f"{side} took {bags[side]} bag(s): -{bags[side]} to {side}",
                    {"side": side, "bags": bags[side]},
                )
            )
            if board_scoring == "cga":
                points[other] += bags[side]
                lines.append(
                    note(
                        "board-bags-to-other",
                        f"... and +{bags[side]} to {other}",
                        {"bags": bags[side], "other": other},
                    )
                )
    return BoardScore(ns=points["NS"], ew=points["EW"], tricks=tricks, notes=tuple(lines))

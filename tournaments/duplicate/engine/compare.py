"""Comparing results: matchpoints (with Neuberg), cross-IMPs, Butler; adjusted results;
travellers, personal score cards and rankings. Exact arithmetic (int and Fraction) throughout:
no float until display.

    event = score_event(results=[Result(board=1, ns=1, ew=9, ns_score=62, ew_score=41), ...],
                        method="matchpoints", fields={"NS": ns_pairs, "EW": ew_pairs})
    event.travellers[1]            # board 1: every table's line with its matchpoints
    event.cards[9]                 # pair 9's personal score card
    event.rankings["NS"]           # NS field, best first, ties sharing the place

On each board every NS result is compared with the other NS results, EW likewise (in a Howell
a pair's results fall in the direction it sat). The values compared are the `board_compare`
values (`BoardScore.compared`).

- Matchpoints: 2 for each result beaten and 1 for each tie; the top is 2 x (E - 1), E being
  the results expected on the board (by default the most results any board has). A board with
  A compared results where E were expected (A != E, e.g. an adjusted result or a sit-out) is
  factored by Neuberg: MP' = (MP + 1) x E / A - 1. A pair's score is its total as a percentage
  of the tops of the boards it played (a sit-out has no top: it neither helps nor hurts).
- Adjusted results (a board not played, or fouled): the director gives each side
  average-plus (60 % of the top), average (50 %) or average-minus (40 %); such a side takes
  no part in the comparison (the others are compared among themselves and factored up by
  Neuberg). In IMPs they are +3, 0 and -3 IMPs (as bridge scores them). An assigned score is
  an ordinary result with the director's scores (`assigned=True` marks it on the traveller).
- Cross-IMPs: each result against every other result in its direction, each difference through
  the IMP scale, summed and divided by the number of comparisons (A - 1).
- Butler: each result against the datum, the average of the direction's results with the
  highest and the lowest dropped (all of them when there are fewer than 3).
- IMP scales are data (`ImpScale`): the difference is multiplied by `factor` and looked up in
  `steps` (the lower bounds of 1, 2, ... IMPs); no steps: the IMPs are the multiplied difference.
  `SPADES_IMPS`: the WBF table on 5 x the Spades point difference; `WHIST_IMPS`: one IMP per
  point (one point per odd trick: one IMP per trick of difference).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .errors import DuplicateError

__all__ = [
    "ADJUSTMENTS",
    "METHODS",
    "SPADES_IMPS",
    "WBF_STEPS",
    "WHIST_IMPS",
    "CardLine",
    "Event",
    "ImpScale",
    "Line",
    "Result",
    "Standing",
    "Traveller",
    "default_scale",
    "matchpoints",
    "neuberg",
    "score_event",
]

Number = int | Fraction
METHODS = ("matchpoints", "cross-imps", "butler")
#: Adjusted results: the share of the top (matchpoints) and the IMPs.
ADJUSTMENTS: dict[str, tuple[Fraction, int]] = {
    "average-plus": (Fraction(60, 100), 3),
    "average": (Fraction(50, 100), 0),
    "average-minus": (Fraction(40, 100), -3),
}
#: The WBF IMP table: the lowest difference for 1, 2, ... 24 IMPs.
WBF_STEPS = (
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
)


@dataclass(frozen=True, slots=True)
class ImpScale:
    """An IMP scale: IMPs for a difference d are sign(d) x (the number of `steps` at or below
    |d| x factor), or d x factor when there are no steps."""

    name: str
    factor: Fraction = Fraction(1)
    steps: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if (
            self.factor <= 0
            or any(b <= a for a, b in zip(self.steps, self.steps[1:], strict=False))
            or any(s <= 0 for s in self.steps)
        ):
            raise DuplicateError(
                "bad-scale",
                f"IMP scale {self.name!r}: a positive factor and increasing positive steps",
            )

    def imps(self, difference: Number) -> Number:
        factor = self.factor
        scaled = difference * (factor.numerator if factor.denominator == 1 else factor)
        if not self.steps:
            return scaled
        if isinstance(scaled, Fraction):  # steps are whole: step <= |a/b| iff step <= |a| // b
            n = bisect_right(self.steps, abs(scaled.numerator) // scaled.denominator)
        else:
            n = bisect_right(self.steps, abs(scaled))
        return n if scaled >= 0 else -n


SPADES_IMPS = ImpScale("wbf-x5", Fraction(5), WBF_STEPS)
WHIST_IMPS = ImpScale("trick")


def default_scale(game: str) -> ImpScale:
    return SPADES_IMPS if game == "spades" else WHIST_IMPS


@dataclass(frozen=True, slots=True)
class Result:
    """One table's result on a board (numbered from 1): the pairs (pair numbers from 1; a
    sit-out never has a result), the compared values, or the sides' adjustments
    ("average-plus", "average", "average-minus") when the board was not played or was fouled;
    never both. `score_event` refuses anything else."""

    board: int
    ns: int
    ew: int
    ns_score: Number | None = None
    ew_score: Number | None = None
    ns_adjusted: str | None = None
    ew_adjusted: str | None = None
    table: int | None = None
    round: int | None = None
    assigned: bool = False

    @property
    def adjusted(self) -> bool:
        return self.ns_adjusted is not None


@dataclass(frozen=True, slots=True)
class Line:
    """A traveller line: the result, and each side's matchpoints or IMPs."""

    result: Result
    ns_points: Number
    ew_points: Number


@dataclass(frozen=True, slots=True)
class Traveller:
    board: int
    top: Number  # matchpoints: 2 x (expected - 1); IMPs: 0
    expected: int
    lines: tuple[Line, ...]
    datum: dict[str, Fraction] = field(default_factory=dict)  # Butler: per direction


@dataclass(frozen=True, slots=True)
class CardLine:
    """A personal score card's line: one board the pair played (or was adjusted on)."""

    board: int
    round: int | None
    table: int | None
    direction: str
    opponents: int
    score: Number | None
    opponents_score: Number | None
    adjusted: str | None
    points: Number
    top: Number


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    tied: bool
    pair: int
    total: Number
    top: Number
    percentage: Fraction | None  # matchpoints; None for IMPs
    boards: int

    @property
    def place_text(self) -> str:
        return f"{self.place}=" if self.tied else str(self.place)


@dataclass(frozen=True, slots=True)
class Event:
    method: str
    travellers: dict[int, Traveller]
    cards: dict[int, tuple[CardLine, ...]]
    rankings: dict[str, tuple[Standing, ...]]


def matchpoints(values: Sequence[Number]) -> list[int]:
    """Each value's matchpoints against the others: 2 per value beaten, 1 per tie."""
    ordered = sorted(values)
    return [
        2 * bisect_left(ordered, v) + (bisect_right(ordered, v) - bisect_left(ordered, v) - 1)
        for v in values
    ]


def neuberg(mp: Number, expected: int, obtained: int) -> Number:
    """MP' = (MP + 1) x E / A - 1 (exact); unchanged when A = E."""
    if obtained == expected:
        return mp
    return Fraction(mp + 1) * expected / obtained - 1


def _whole(value: object) -> bool:
    """A whole number of at least 1 (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _is_score(value: object) -> bool:
    return isinstance(value, int | Fraction) and not isinstance(value, bool)


def _check(results: Sequence[Result]) -> None:
    """Refuse what no evening can produce, before anything is compared: a board numbered below
    1, a pair that is not a pair number, a result without its scores or adjustments (or with
    both), a pair playing itself, and a pair with two results on one board."""
    seen: dict[int, set[int]] = {}
    for r in results:
        if not isinstance(r, Result):
            raise DuplicateError("bad-result", f"a result is a Result, not {r!r}")
        if not _whole(r.board):
            raise DuplicateError(
                "bad-board", f"a board number is a whole number from 1, not {r.board!r}"
            )
        for pair in (r.ns, r.ew):
            if not _whole(pair):
                raise DuplicateError(
                    "bad-pair",
                    f"board {r.board}: a pair is a whole number from 1, not {pair!r}",
                )
        scores = (r.ns_score, r.ew_score)
        if r.ns_adjusted is not None or r.ew_adjusted is not None:
            for a in (r.ns_adjusted, r.ew_adjusted):
                if a not in ADJUSTMENTS:
                    raise DuplicateError(
                        "bad-adjustment",
                        f"an adjusted result is one of {', '.join(ADJUSTMENTS)}, not {a!r}",
                    )
            if any(score is not None for score in scores):
                raise DuplicateError(
                    "bad-result",
                    f"board {r.board}: a result has scores or adjustments, not both",
                )
        elif not all(_is_score(score) for score in scores):
            raise DuplicateError(
                "bad-result",
                f"board {r.board}: a result needs both sides' "
                "scores (int or Fraction) or both sides' adjustments",
            )
        if r.ns == r.ew:
            raise DuplicateError("bad-result", f"board {r.board}: pair {r.ns} cannot play itself")
        pairs = seen.setdefault(r.board, set())
        for pair in (r.ns, r.ew):
            if pair in pairs:
                raise DuplicateError(
                    "pair-twice", f"board {r.board}: pair {pair} has two results on it"
                )
            pairs.add(pair)


def _expected(
    expected: int | Mapping[int, int] | None, by_board: Mapping[int, list[Result]]
) -> dict[int, int]:
    """The results expected on each board: as given (one number, or one per board), else the
    most results any board has. Never fewer than the board's own results (a board cannot be
    played more often than expected: matchpoints would go below 0 and percentages over 100)."""
    most = max((len(v) for v in by_board.values()), default=0)
    if expected is not None and not isinstance(expected, Mapping) and not _whole(expected):
        raise DuplicateError(
            "bad-expected",
            f"the results expected on a board are a whole number from 1, not {expected!r}",
        )
    out: dict[int, int] = {}
    for board, rows in by_board.items():
        if isinstance(expected, Mapping):
            e = expected.get(board, most)
            if not _whole(e):
                raise DuplicateError(
                    "bad-expected",
                    f"board {board}: the results expected are a whole number from 1, not {e!r}",
                )
        else:
            e = most if expected is None else expected
        if e < len(rows):
            raise DuplicateError(
                "bad-expected",
                f"board {board} has {len(rows)} results where {e} were expected",
            )
        out[board] = e
    return out


def score_event(
    *,
    results: Iterable[Result],
    method: str = "matchpoints",
    fields: Mapping[str, Iterable[int]] | None = None,
    expected: int | Mapping[int, int] | None = None,
    scale: ImpScale = SPADES_IMPS,
) -> Event:
    """Compare every board and total every pair (see the module's text). `fields` maps a
    ranking field's name to its pairs (default one field "all" of every pair with a result);
    `expected` is the results expected on every board (or per board; default the most any
    board has): a whole number from 1, never fewer than a board's results. Impossible input
    is refused with a `DuplicateError` (codes in errors.py), before anything is compared."""
    if method not in METHODS:
        raise DuplicateError(
            "bad-option", f"the comparison is one of {', '.join(METHODS)}, not {method!r}"
        )
    results = list(results)
    _check(results)
    by_board: dict[int, list[Result]] = {}
    for r in results:
        by_board.setdefault(r.board, []).append(r)
    expecting = _expected(expected, by_board)
    travellers: dict[int, Traveller] = {}
    cards: dict[int, list[CardLine]] = {}
    for board in sorted(by_board):
        rows = by_board[board]
        e = expecting[board]
        if method == "matchpoints":
            traveller = _matchpoint_board(board, rows, e)
        else:
            traveller = _imp_board(board, rows, e, method, scale)
        travellers[board] = traveller
        for line in traveller.lines:
            r = line.result
            for direction, pair, opp, own, theirs, adj, pts in (
                ("NS", r.ns, r.ew, r.ns_score, r.ew_score, r.ns_adjusted, line.ns_points),
                ("EW", r.ew, r.ns, r.ew_score, r.ns_score, r.ew_adjusted, line.ew_points),
            ):
                cards.setdefault(pair, []).append(
                    CardLine(
                        board=board,
                        round=r.round,
                        table=r.table,
                        direction=direction,
                        opponents=opp,
                        score=None if adj else own,
                        opponents_score=None if adj else theirs,
                        adjusted=adj,
                        points=pts,
                        top=traveller.top,
                    )
                )
    for lines in cards.values():
        lines.sort(key=lambda c: (c.round or 0, c.board))
    chosen = (
        {"all": tuple(sorted(cards))}
        if fields is None
        else {name: tuple(pairs) for name, pairs in fields.items()}
    )
    rankings = {name: _rank(pairs, cards, method) for name, pairs in chosen.items()}
    return Event(
        method=method,
        travellers=travellers,
        cards={p: tuple(v) for p, v in sorted(cards.items())},
        rankings=rankings,
    )


def _matchpoint_board(board: int, rows: list[Result], e: int) -> Traveller:
    top = 2 * (e - 1)
    played = [r for r in rows if not r.adjusted]
    points: dict[int, list[Number]] = {}
    for side in ("ns", "ew"):
        values: list[Number] = [getattr(r, f"{side}_score") for r in played]
        mps = matchpoints(values)
        points[side == "ew"] = [neuberg(mp, e, len(values)) for mp in mps]
    lines = []
    k = 0
    for r in rows:
        if r.adjusted:
            assert r.ns_adjusted is not None and r.ew_adjusted is not None
            lines.append(
                Line(r, ADJUSTMENTS[r.ns_adjusted][0] * top, ADJUSTMENTS[r.ew_adjusted][0] * top)
            )
        else:
            lines.append(Line(r, points[False][k], points[True][k]))
            k += 1
    return Traveller(board=board, top=top, expected=e, lines=tuple(lines))


def _imp_board(board: int, rows: list[Result], e: int, method: str, scale: ImpScale) -> Traveller:
    played = [r for r in rows if not r.adjusted]
    points: dict[bool, list[Number]] = {}
    datum: dict[str, Fraction] = {}
    for side in ("ns", "ew"):
        values: list[Number] = [getattr(r, f"{side}_score") for r in played]
        n = len(values)
        if method == "cross-imps":
            got: list[Number] = []
            imps = scale.imps
            for i, v in enumerate(values):
                total = sum(imps(v - w) for j, w in enumerate(values) if j != i)
                got.append(Fraction(total) / (n - 1) if n > 1 else Fraction(0))
        else:
            kept = sorted(values)[1:-1] if n >= 3 else list(values)
            d = Fraction(sum(kept, start=Fraction(0))) / len(kept) if kept else Fraction(0)
            datum[side.upper()] = d
            got = [scale.imps(v - d) for v in values]
        points[side == "ew"] = got
    lines = []
    k = 0
    for r in rows:
        if r.adjusted:
            assert r.ns_adjusted is not None and r.ew_adjusted is not None
            lines.append(Line(r, ADJUSTMENTS[r.ns_adjusted][1], ADJUSTMENTS[r.ew_adjusted][1]))
        else:
            lines.append(Line(r, points[False][k], points[True][k]))
            k += 1
    return Traveller(board=board, top=0, expected=e, lines=tuple(lines), datum=datum)


def _rank(
    pairs: Iterable[int], cards: Mapping[int, list[CardLine]], method: str
) -> tuple[Standing, ...]:
    """The field's standings, best first; equal scores share the place (1, 2=, 2=, 4).
    A pair without a board (absent all evening) is not ranked."""
    rows = []
    for pair in pairs:
        lines = cards.get(pair)
        if not lines:
            continue
        total: Number = sum((c.points for c in lines), start=Fraction(0))
        top: Number = sum((c.top for c in lines), start=0)
        pct = (
            (Fraction(total) * 100 / top if top else Fraction(50))
            if method == "matchpoints"
            else None
        )
        rows.append(
            (pct if pct is not None else Fraction(total), pair, total, top, pct, len(lines))
        )
    rows.sort(key=lambda row: (-row[0], row[1]))
    out = []
    for i, (key, pair, total, top, pct, boards) in enumerate(rows):
        place = i + 1
        while place > 1 and rows[place - 2][0] == key:
            place -= 1
        tied = sum(1 for row in rows if row[0] == key) > 1
        out.append(
            Standing(
                place=place,
                tied=tied,
                pair=pair,
                total=_plain(total),
                top=top,
                percentage=pct,
                boards=boards,
            )
        )
    return tuple(out)


def _plain(x: Number) -> Number:
    return int(x) if isinstance(x, Fraction) and x.denominator == 1 else x

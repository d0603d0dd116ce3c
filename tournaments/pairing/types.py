"""The pairing engines' plain data: what goes in (`Contender`), what comes out (`Draw`), and the
one error they raise (`PairingError`), with the input checks every engine shares."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["ERROR_CODES", "Contender", "Draw", "PairingError"]

#: Every `PairingError.code` and what it means. Stable: the services and the API rely on them.
ERROR_CODES: dict[str, str] = {
    "bad-contenders": "the contenders are not a sequence of Contender objects",
    "bad-id": "an id is not an int",
    "duplicate-id": "the same id appears twice",
    "bad-points": "points are not an int or a Fraction (floats are refused: points are exact)",
    "bad-rank": "a rank is not an int",
    "duplicate-rank": "two contenders share a rank (ranks are a total order)",
    "bad-history": "opponents/partners/avoid are not sets of ids, or byes/sat_out/first are not"
    " ints, or byes/sat_out are negative",
    "bad-seed": "the seed is not an int",
    "bad-size": "the table size is not 3 or 4 (a cut: fewer than 2)",
    "too-few-entrants": "fewer contenders than one table (two-sided: 2; tables: the table size)",
    "bad-count": "round_robin_rounds: the count is not an int",
    "bad-round": "the round number is not an int",
    "round-out-of-range": "the round number is below 1 or above the number of rounds",
    "no-such-match": "knockout: the bracket has no such match",
    "match-not-made": "knockout: a result for a match whose entrants are not known yet",
    "not-in-match": "knockout: the winner given is not one of the match's two entrants",
    "bad-chain": "cut: no tiebreak chain to draw the line by",
}


class PairingError(ValueError):
    """Bad input to a pairing engine. `code` is stable (see `ERROR_CODES`); the message is English
    for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __repr__(self) -> str:
        return f"PairingError({self.code!r}, {str(self)!r})"


@dataclass(frozen=True, slots=True)
class Contender:
    """One entry (a team or a player) as the engines see it before a round."""

    id: int  # the entry's id
    points: Fraction | int  # match points so far (defines score groups); exact, never float
    rank: int  # 1 = top of the current standings; a total order (unique)
    opponents: frozenset[int] = frozenset()  # ids already met in earlier rounds (any table)
    byes: int = 0  # byes (two-sided) received so far
    first: int = 0  # two-sided: times seated as the first side minus times second
    partners: frozenset[int] = frozenset()  # progressive: ids already partnered
    sat_out: int = 0  # individual/progressive: rounds sat out so far
    #: ids to keep apart from (the same club or family, or a pair the director named): kept
    #: apart while the draw can, below "no rematch" and above everything else. Symmetric: a pair
    #: named by either one is kept apart.
    avoid: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Draw:
    """One round's draw. Table 1 first.

    Two-sided: each table is (first, second). Individual: the ids at the table in seat order.
    Progressive: (N, E, S, W), N+S partners and E+W partners."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]  # ids given a bye (two-sided) or sitting out (tables)
    repeats: int  # repeated meetings the draw could not avoid (0 if none)
    notes: tuple[str, ...] = ()  # short English notes, e.g. "rematch unavoidable: 3 v 7"
    apart: int = 0  # pairs to be kept apart that the draw could not keep apart (0 if none)


# -- shared checks -------------------------------------------------------------------------------


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_seed(seed: object) -> int:
    if not is_int(seed):
        raise PairingError("bad-seed", f"the seed must be an int, not {type(seed).__name__}")
    return seed  # type: ignore[return-value]


def _id_set(values: object, what: str, owner: int) -> frozenset[int]:
    if type(values) is frozenset and all(type(v) is int for v in values):
        return values  # the common case, already right
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise PairingError("bad-history", f"{what} of {owner} must be a set of ids")
    try:
        out = frozenset(values)
    except TypeError:
        raise PairingError("bad-history", f"{what} of {owner} must hold int ids only") from None
    if not all(is_int(v) for v in out):
        raise PairingError("bad-history", f"{what} of {owner} must hold int ids only")
    return out


def check_contenders(contenders: object, *, minimum: int) -> list[Contender]:
    """The contenders, checked, in standings order (rank 1 first). `opponents` and `partners` are
    returned as frozensets without the contender's own id."""
    if isinstance(contenders, (str, bytes)) or not isinstance(contenders, (Sequence, Iterable)):
        raise PairingError("bad-contenders", "contenders must be a sequence of Contender")
    items = list(contenders)
    ids: set[int] = set()
    ranks: set[int] = set()
    out: list[Contender] = []
    for item in items:
        if not isinstance(item, Contender):
            raise PairingError(
                "bad-contenders", f"contenders must be Contender objects, not {type(item).__name__}"
            )
        if not is_int(item.id):
            raise PairingError("bad-id", f"id {item.id!r} is not an int")
        if item.id in ids:
            raise PairingError("duplicate-id", f"id {item.id} appears twice")
        ids.add(item.id)
        if not (is_int(item.points) or isinstance(item.points, Fraction)):
            raise PairingError(
                "bad-points",
                f"points of {item.id} must be an int or a Fraction,"
                f" not {type(item.points).__name__}",
            )
        if not is_int(item.rank):
            raise PairingError("bad-rank", f"rank of {item.id} is not an int")
        if item.rank in ranks:
            raise PairingError("duplicate-rank", f"rank {item.rank} is held twice")
        ranks.add(item.rank)
        for name in ("byes", "sat_out", "first"):
            value = getattr(item, name)
            if not is_int(value) or (name != "first" and value < 0):
                raise PairingError("bad-history", f"{name} of {item.id} must be an int >= 0")
        opponents = _id_set(item.opponents, "opponents", item.id) - {item.id}
        partners = _id_set(item.partners, "partners", item.id) - {item.id}
        avoid = _id_set(item.avoid, "avoid", item.id) - {item.id}
        if opponents != item.opponents or partners != item.partners or avoid != item.avoid:
            item = Contender(
                item.id,
                item.points,
                item.rank,
                opponents,
                item.byes,
                item.first,
                partners,
                item.sat_out,
                avoid,
            )
        out.append(item)
    if len(out) < minimum:
        raise PairingError(
            "too-few-entrants", f"{len(out)} contender(s): at least {minimum} are needed"
        )
    out.sort(key=lambda c: c.rank)
    return out


def sit_outs(players: list[Contender], count: int) -> list[Contender]:
    """The `count` who sit out: those who sat out least, and among them the lowest ranked.
    `players` in standings order."""
    if count <= 0:
        return []
    order = sorted(players, key=lambda c: (c.sat_out, -c.rank))
    return order[:count]


def symmetric(
    players: Sequence[Contender], ids: Callable[[Contender], Iterable[int]]
) -> list[set[int]]:
    """For players numbered 0 … m−1 (their order in `players`): the others each is related to
    by `ids` (whom it met, partnered, is kept apart from), both ways — a relation recorded on
    one side only counts for both; ids not among the players are left out."""
    index = {c.id: i for i, c in enumerate(players)}
    out: list[set[int]] = [set() for _ in players]
    for i, c in enumerate(players):
        for other in ids(c):
            j = index.get(other)
            if j is not None:
                out[i].add(j)
                out[j].add(i)
    return out


def apart(players: Sequence[Contender]) -> list[set[int]]:
    """Whom each player is to be kept apart from (a pair named by either one)."""
    return symmetric(players, lambda c: c.avoid)

"""The standings engine's value types: what goes in (Entrant, Result), what comes out (Row), the
error it raises (StandingsError) and the Column a metric returns. Plain Python, no Django."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

#: The outcomes a Result may carry.
OUTCOMES = ("win", "draw", "loss", "bye")


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant (a team, or a single player) of the tournament."""

    id: int
    order: int  # registration order (final deterministic key after seed)
    seed: int | None = None  # the director's seeding (1 = top); None sorts after all seeded
    withdrawn: bool = False  # still listed (ranked), flagged
    missed: tuple[int, ...] = ()  # rounds before a late entry (or other unplayed rounds), no bye
    missed_points: Fraction = Fraction(0)  # match points credited per missed round
    missed_game_points: Fraction = Fraction(0)  # game points credited per missed round


@dataclass(frozen=True, slots=True)
class Result:
    """One entrant's result in one finished match (or a bye)."""

    round: int
    match: int  # match id (shared by every entrant at the table)
    entrant: int
    opponents: tuple[int, ...]  # entrant ids on the other side(s); () for a bye
    outcome: str  # "win" | "draw" | "loss" | "bye"
    match_points: Fraction
    points_for: Fraction  # the game's own points (Spades score, Solo Whist settlement...)
    points_against: Fraction  # opponents' points (multi-seat tables: the mean of the others)
    place: int | None = None  # finishing place at a table of 3-4 (1 = best; ties share)
    partners: tuple[int, ...] = ()  # progressive play: who partnered this entrant
    hands_won: int = 0  # hands of the match in which the entrant's side made the top score


class Row(NamedTuple):
    """One line of the standings (a named tuple: a thousand of them cost a tenth of what frozen
    dataclasses did to make, and they are as immutable)."""

    rank: int  # shared when the whole chain (before the final key) ties; 1, 1, 3 style
    entrant: int
    values: Values  # every registered metric's value, by name
    tied: bool  # shares its rank with another row


class Values(Mapping[str, Fraction | int]):
    """A row's metric values by name: a read-only mapping over a tuple, the names' positions
    shared by every row of one computation (cheaper than a dict per row)."""

    __slots__ = ("_positions", "_values")

    def __init__(self, positions: Mapping[str, int], values: Sequence[Fraction | int]) -> None:
        self._positions = positions
        self._values = values

    def __getitem__(self, name: str) -> Fraction | int:
        return self._values[self._positions[name]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._positions)

    def __len__(self) -> int:
        return len(self._positions)

    def in_order(self) -> Sequence[Fraction | int]:
        """Every value, in the order the names iterate (what `.values()` gives, without a
        Python-level lookup per name)."""
        return self._values

    def __repr__(self) -> str:
        return f"Values({dict(self)!r})"


class StandingsError(ValueError):
    """Bad input to the engine. `code` is stable: "unknown-metric", "duplicate-metric",
    "empty-chain", "bad-chain", "bad-input", "bad-metric", "metric-exists"."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass(frozen=True, slots=True)
class Column:
    """A metric's values, one per entrant (or per group member), as exact numbers over a common
    `denominator`: the value exposed is `Fraction(values[i], denominator)` (or the int itself
    for a count metric). Integers compare much faster than Fractions, so the built-in metrics
    scale everything to integers; a metric may also return plain Fractions with denominator 1."""

    values: Sequence[int | Fraction]
    denominator: int = 1

"""Standings kept between changes: an event's entrants, its results match by match and the rows
they give, updated one changed match at a time instead of read again from the whole event.

    kept = Standings(entrants, results, tiebreaks=chain)
    kept = kept.changed({match_id: its_results_now})     # [] : the match no longer counts
    kept.rows                                            # == compute(entrants, all results, ...)

A confirmed hand changes at most one match: most hands leave its results as they were (the
match is still being played, or the correction gave the same outcome), and `changed` then does
no work at all (it returns the same standings); a match whose results did change is put in
place of the old ones and the rows are ranked again from the kept results (no database, no
reading of the other matches). The rows are always exactly `compute`'s over the kept entrants
and results (tests/standings/test_incremental.py holds the two equal on random sequences of
hands).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from .engine import compute, validate_tiebreaks
from .types import Entrant, Result, Row, StandingsError


def _same(old: tuple[Result, ...], new: tuple[Result, ...]) -> bool:
    """The same results of one match, whatever their order."""
    return old == new or (len(old) == len(new) and set(old) == set(new))


class Standings:
    """One event's standings, kept: `rows` is `compute(entrants, results, tiebreaks=...)` over
    what is kept. Immutable: `changed` gives new standings. Invalid input raises
    `StandingsError` (as `compute` does)."""

    __slots__ = ("_by_match", "_entrants", "_rows", "_tiebreaks")

    def __init__(
        self, entrants: Sequence[Entrant], results: Sequence[Result], *, tiebreaks: Sequence[str]
    ) -> None:
        self._tiebreaks = validate_tiebreaks(tiebreaks)
        self._entrants = tuple(entrants)
        self._rows = compute(self._entrants, results, tiebreaks=self._tiebreaks)
        by_match: dict[int, list[Result]] = {}
        for r in results:  # valid: compute checked them
            by_match.setdefault(r.match, []).append(r)
        self._by_match = {match: tuple(mine) for match, mine in by_match.items()}

    @property
    def rows(self) -> list[Row]:
        """The standings, best first (a new list each time; the rows themselves are shared)."""
        return list(self._rows)

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        return self._entrants

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        return self._tiebreaks

    def results(self) -> Iterator[Result]:
        """Every kept result, match by match."""
        for mine in self._by_match.values():
            yield from mine

    def changed(
        self,
        changes: Mapping[int, Sequence[Result]],
        *,
        entrants: Sequence[Entrant] | None = None,
    ) -> Standings:
        """The standings after these changes: each changed match's results (`{match:
        results}`; none: the match no longer counts) in place of the kept ones, and the
        entrants when given. Itself when everything is as kept (no work done); otherwise new
        standings, ranked again from the kept results (this one is left as it was)."""
        replaced: dict[int, tuple[Result, ...]] = {}
        for match, results in changes.items():
            new = tuple(results)
            for r in new:
                if type(r) is not Result or r.match != match:
                    raise StandingsError(
                        "bad-input", f"a result given for match {match!r} is not one of it: {r!r}"
                    )
            if not _same(self._by_match.get(match, ()), new):
                replaced[match] = new
        people = self._entrants if entrants is None else tuple(entrants)
        if not replaced and people == self._entrants:
            return self
        by_match = dict(self._by_match)
        for match, new in replaced.items():
            if new:
                by_match[match] = new
            else:
                by_match.pop(match, None)
        out = Standings.__new__(Standings)
        out._tiebreaks = self._tiebreaks
        out._entrants = people
        out._rows = compute(
            people, [r for mine in by_match.values() for r in mine], tiebreaks=self._tiebreaks
        )
        out._by_match = by_match
        return out

"""Per-entrant aggregates, computed once per recompute from the validated input; every metric
reads them. Points are kept as integers over a common denominator per quantity (match points,
points for, points against), so sums and comparisons are integer operations and still exact.

Reading and checking the results is most of a recompute's cost, so it is one tight loop (one
pass when every value is integral, the usual case; a second pass with the right denominators
otherwise), followed by checks and sums over whole lists.

For metric authors, an `Aggregates` has (`i` = an entrant's position in `entrants`):

- `entrants`, `ids`, `index` (id -> i), `n`
- `played`, `won`, `drawn`, `lost`, `byes`, `missed`: counts per entrant (lists of int)
- `hands`: hands won per entrant (the sum of its results' `hands_won`; list of int)
- `mp`, `pf`, `pa`: match points, points for, points against per entrant, scaled integers over
  `mp_den`, `pf_den`, `pa_den` (byes and missed-round credits included)
- `records[i]`: entrant i's `Result`s as given, in the order given; byes included
- `results[i]`: entrant i's results as tuples `(match, round, outcome, match_points,
  opponents, place, points_for, points_against)`, points scaled by their denominators,
  opponents as given (entrant ids); byes included (outcome "bye", opponents ()). For the usual
  event (`whole`) these tuples are made on first use: the built-in metrics read `records`
- `whole`: True when every result's points are whole numbers (Fractions with denominator 1)
  and every match two-sided or a bye; a record's scaled match points are then its match
  points' numerator times `mp_den` (likewise for points for and against)
- `places`: {(match, entrant id): place} for every result with a place
- `rounds`: the sorted rounds of the event (every round of a result or a missed round)
- `opp_lcm`: the least common multiple of the opponent counts of all results (at least 1)
- `cache`: a dict for computations shared by several metrics
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm
from operator import attrgetter, itemgetter
from typing import Any, NoReturn

from .types import OUTCOMES, Entrant, Result, StandingsError

_NUMBER = frozenset({int, Fraction})
_INT = frozenset({int})
# positions in a result record (see the module docstring)
_ROUND, _OUTCOME, _MP, _PF, _PA = (itemgetter(k) for k in (1, 2, 3, 6, 7))
_RECORD_ROUND = attrgetter("round")


def _bad(message: str) -> StandingsError:
    return StandingsError("bad-input", message)


def _check_number(value: object, what: str) -> int | Fraction:
    """`value` itself when it is an int or a Fraction (bool and other numbers: `bad-results`)."""
    if not isinstance(value, int | Fraction) or type(value) not in _NUMBER:
        raise _bad(f"{what} must be an int or a Fraction, not {type(value).__name__} {value!r}")
    return value


class _Rescale(Exception):
    """A value's denominator does not divide the one assumed: start again with all of them."""


def _scaled(value: object, den: int, r: Result, what: str) -> int:
    """`value` * `den` as an exact int (the general path), or _Rescale."""
    if type(value) is int:
        return value * den
    value = _check_number(value, f"entrant {r.entrant}, match {r.match}: {what}")
    d = value.denominator
    if den % d:
        raise _Rescale
    return value.numerator * (den // d)


def _denominators(results: Sequence[Result], dens: tuple[int, int, int]) -> tuple[int, int, int]:
    """The least common denominators of match points, points for and points against."""
    found: list[set[int]] = [{d} for d in dens]
    for r in results:
        for seen, v in zip(found, (r.match_points, r.points_for, r.points_against), strict=True):
            if type(v) is Fraction:
                seen.add(v.denominator)
    mp, pf, pa = (lcm(*seen) for seen in found)
    return mp, pf, pa


class Aggregates:
    __slots__ = (
        "entrants",
        "ids",
        "index",
        "n",
        "played",
        "won",
        "drawn",
        "lost",
        "byes",
        "missed",
        "hands",
        "mp",
        "pf",
        "pa",
        "mp_den",
        "pf_den",
        "pa_den",
        "records",
        "whole",
        "_results",
        "places",
        "rounds",
        "opp_lcm",
        "cache",
    )
    records: list[list[Result]]
    whole: bool
    _results: list[list[tuple[Any, ...]]] | None

    def __init__(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> None:
        self.entrants = tuple(entrants)
        self.cache: dict[str, Any] = {}
        self._index_entrants()
        missed = [e for e in self.entrants if e.missed]
        dens = (
            lcm(1, *(e.missed_points.denominator for e in missed)),
            lcm(1, *(e.missed_game_points.denominator for e in missed)),
            1,
        )
        try:
            if self._accumulate_fast(results, *dens):  # two-sided matches, integral points
                return
            try:  # most events have integral points: one pass, no rescaling
                self._accumulate(results, *dens)
            except _Rescale:
                self._accumulate(results, *_denominators(results, dens))
        except TypeError:  # something unhashable or incomparable where an int belongs
            self._diagnose(results)

    @property
    def results(self) -> list[list[tuple[Any, ...]]]:
        """Each entrant's results as scaled tuples (see the module docstring); made from
        `records` on first use when the fast path left them out."""
        made = self._results
        if made is None:
            mp_den, pf_den, pa_den = self.mp_den, self.pf_den, self.pa_den
            made = self._results = [
                [
                    (
                        r.match,
                        r.round,
                        r.outcome,
                        r.match_points.numerator * mp_den,
                        r.opponents,
                        None,
                        r.points_for.numerator * pf_den,
                        r.points_against.numerator * pa_den,
                    )
                    for r in mine
                ]
                for mine in self.records
            ]
        return made

    # -- entrants ---------------------------------------------------------------------------------

    def _index_entrants(self) -> None:
        index: dict[int, int] = {}
        for i, e in enumerate(self.entrants):
            if type(e) is not Entrant:
                raise _bad(f"entrant #{i} is a {type(e).__name__}, not an Entrant")
            if type(e.id) is not int or type(e.order) is not int:
                raise _bad(f"entrant {e.id!r}: id and order must be ints")
            if e.seed is not None and type(e.seed) is not int:
                raise _bad(f"entrant {e.id}: seed must be an int or None")
            if e.id in index:
                raise _bad(f"entrant {e.id} is listed twice")
            index[e.id] = i
            if e.missed:
                missed = e.missed
                if type(missed) is not tuple or any(type(r) is not int or r < 1 for r in missed):
                    raise _bad(f"entrant {e.id}: missed must be a tuple of round numbers >= 1")
                if len(set(missed)) != len(missed):
                    raise _bad(f"entrant {e.id}: a missed round is listed twice")
            if type(e.missed_points) is not Fraction or type(e.missed_game_points) is not Fraction:
                _check_number(e.missed_points, f"entrant {e.id} missed_points")
                _check_number(e.missed_game_points, f"entrant {e.id} missed_game_points")
        self.index = index
        self.ids = [e.id for e in self.entrants]
        self.n = len(self.entrants)

    # -- results ----------------------------------------------------------------------------------

    def _accumulate(self, results: Sequence[Result], mp_den: int, pf_den: int, pa_den: int) -> None:
        """Check and add up `results`, points scaled by the given denominators; _Rescale when a
        value's denominator does not divide its quantity's.

        The loop does only what must be done per result. The checks that can wait (duplicate
        results, types of match ids and rounds, outcomes, opponents seated in the match) are
        made afterwards over whole lists; when one fails, `_diagnose` finds the culprit."""
        index_get = self.index.get
        n = self.n
        per: list[list[tuple[Any, ...]]] = [[] for _ in range(n)]
        records: list[list[Result]] = [[] for _ in range(n)]
        opp_counts = {1}
        places: dict[tuple[int, int], int] = {}  # (match, entrant id) -> place, when placed
        tables: dict[int, tuple[int, list[int]]] = {}  # match -> (round, entrant ids)
        hands = [0] * n
        table_of = tables.get
        for r in results:
            if type(r) is not Result:
                raise _bad(f"a result is a {type(r).__name__}, not a Result")
            entrant = r.entrant
            i = index_get(entrant)
            if i is None:
                raise _bad(f"result of match {r.match!r}: unknown entrant {entrant!r}")
            match, rnd, place, outcome, opps = r.match, r.round, r.place, r.outcome, r.opponents
            seated = table_of(match)
            if seated is None:
                tables[match] = (rnd, [entrant])
            elif seated[0] != rnd:
                raise _bad(f"match {match} is in rounds {seated[0]} and {rnd}")
            else:
                seated[1].append(entrant)
            if place is not None:
                if type(place) is not int or place < 1:
                    raise _bad(f"entrant {entrant}, match {match}: place must be an int >= 1")
                places[(match, entrant)] = place
            if outcome == "bye":
                if opps or r.partners:
                    raise _bad(
                        f"entrant {entrant}, match {match}: a bye has no opponents or partners"
                    )
            elif type(opps) is not tuple or len(opps) != 1 or r.partners or entrant in opps:
                opps = self._opponents(r)
                opp_counts.add(len(opps))
            v = r.match_points
            if type(v) is Fraction and v.denominator == 1:
                m = v.numerator * mp_den
            else:
                m = _scaled(v, mp_den, r, "match_points")
            v = r.points_for
            if type(v) is Fraction and v.denominator == 1:
                f = v.numerator * pf_den
            else:
                f = _scaled(v, pf_den, r, "points_for")
            v = r.points_against
            if type(v) is Fraction and v.denominator == 1:
                a = v.numerator * pa_den
            else:
                a = _scaled(v, pa_den, r, "points_against")
            won_hands = r.hands_won
            if type(won_hands) is not int or won_hands < 0:
                raise _bad(f"entrant {entrant}, match {match}: hands_won must be an int >= 0")
            hands[i] += won_hands
            per[i].append((match, rnd, outcome, m, opps, place, f, a))
            records[i].append(r)

        rounds = {rnd for rnd, _ in tables.values()}
        if tables and (
            not set(map(type, tables)) <= _INT
            or not set(map(type, rounds)) <= _INT
            or min(rounds) < 1
            or any(len(seated) != len(set(seated)) for _, seated in tables.values())
        ):
            self._diagnose(results)
        played, won, drawn, lost, byes, missed = ([0] * n for _ in range(6))
        mps, pfs, pas = ([0] * n for _ in range(3))
        for i, mine in enumerate(per):
            if not mine:
                continue
            outcomes = list(map(_OUTCOME, mine))
            w = outcomes.count("win")
            d = outcomes.count("draw")
            x = outcomes.count("loss")
            b = outcomes.count("bye")
            if w + d + x + b != len(mine):
                self._diagnose(results)
            played[i] = w + d + x
            won[i] = w
            drawn[i] = d
            lost[i] = x
            byes[i] = b
            mps[i] = sum(map(_MP, mine))
            pfs[i] = sum(map(_PF, mine))
            pas[i] = sum(map(_PA, mine))
            for rec in mine:  # every opponent has a result in the same match
                at_table = tables[rec[0]][1]
                for o in rec[4]:
                    if o not in at_table:
                        self._diagnose(results)
        for i, e in enumerate(self.entrants):
            if e.missed:
                if not set(map(_ROUND, per[i])).isdisjoint(e.missed):
                    self._diagnose(results)
                k = missed[i] = len(e.missed)
                p, g = e.missed_points, e.missed_game_points
                mps[i] += k * p.numerator * (mp_den // p.denominator)
                pfs[i] += k * g.numerator * (pf_den // g.denominator)

        event_rounds = set(rounds)
        for e in self.entrants:
            event_rounds.update(e.missed)
        self.played, self.won, self.drawn, self.lost = played, won, drawn, lost
        self.byes, self.missed, self.hands = byes, missed, hands
        self.mp, self.pf, self.pa = mps, pfs, pas
        self.mp_den, self.pf_den, self.pa_den = mp_den, pf_den, pa_den
        self.records, self._results, self.whole, self.places = records, per, False, places
        self.rounds = tuple(sorted(event_rounds))
        self.opp_lcm = lcm(*opp_counts)

    # -- results, the fast path -------------------------------------------------------------------

    def _accumulate_fast(
        self, results: Sequence[Result], mp_den: int, pf_den: int, pa_den: int
    ) -> bool:
        """`_accumulate` for the usual event: every match two-sided (two results naming each
        other) or a bye, no places or partners, integral points (the profile: this loop was
        over half of a 1,000 x 9 recompute). It checks less per result than the general loop
        by checking the event's shape: each match's second result must mirror its first, so
        seats, rounds and opponents are checked by one tuple comparison per match. True when
        done; False, with nothing set, as soon as anything is unusual or wrong: then
        `_accumulate` does the work and raises the precise error. The two give the same
        Aggregates (tests/standings/test_properties.py compares them)."""
        if type(results) is not list and type(results) is not tuple:
            return False
        if not results:
            return False
        # each entrant's Results themselves: a scaled tuple per result (what the general path
        # keeps as `results`) was a tenth of a 1,000 x 9 recompute to make and free, and its
        # memory slowed the rest
        per: list[list[Result]] = [[] for _ in range(self.n)]
        add_to = dict(zip(self.ids, [mine.append for mine in per], strict=True))  # id -> append
        # match -> its first Result until the mirror comes, then its round
        seen: dict[int, Any] = {}
        seen_setdefault = seen.setdefault
        frac = Fraction
        result = Result
        byes = completed = 0
        try:
            for r in results:
                if type(r) is not result:
                    return False
                entrant = r.entrant  # one by one: a 5-tuple would be built and unpacked
                match = r.match
                rnd = r.round
                outcome = r.outcome
                opps = r.opponents
                if r.place is not None or r.partners or type(opps) is not tuple:
                    return False
                if len(opps) == 1:
                    first = seen_setdefault(match, r)
                    if first is not r:  # the match's second result: the mirror of its first
                        if (
                            type(first) is not Result
                            or first.entrant != opps[0]
                            or first.opponents[0] != entrant
                            or first.round != rnd
                            or entrant == opps[0]
                        ):
                            return False
                        seen[match] = rnd
                        completed += 1
                elif opps or outcome != "bye" or match in seen:
                    return False
                else:
                    seen[match] = rnd  # a second result in a bye's match will not match
                    byes += 1
                m, f, a = r.match_points, r.points_for, r.points_against
                if (
                    type(m) is not frac
                    or type(f) is not frac
                    or type(a) is not frac
                    or m.denominator != 1
                    or f.denominator != 1
                    or a.denominator != 1
                ):
                    return False
                add_to[entrant](r)
        except (KeyError, TypeError):  # an unknown entrant; something unhashable
            return False
        if completed + byes != len(seen) or not set(map(type, seen)) <= _INT:
            return False  # a match with one side only, or a match id that is not an int
        rounds = set(seen.values())  # every match done: its round (a result's, checked equal)
        if not set(map(type, rounds)) <= _INT or min(rounds) < 1:
            return False
        n = self.n
        played, won, drawn, lost, byes_of, missed, hands = ([0] * n for _ in range(7))
        mps, pfs, pas = ([0] * n for _ in range(3))
        counted_byes = 0
        for i, mine in enumerate(per):
            if not mine:
                continue
            # a plain loop: fewer instructions than list(map(itemgetter)) with four counts
            # and three sum(map(...)) (docs/benchmarks.md, the standings engine)
            w = d = x = b = m = f = a = h = 0
            for r in mine:
                outcome = r.outcome
                if outcome == "win":
                    w += 1
                elif outcome == "loss":
                    x += 1
                elif outcome == "draw":
                    d += 1
                elif outcome == "bye":
                    b += 1
                else:
                    return False  # an unknown outcome
                m += r.match_points.numerator
                f += r.points_for.numerator
                a += r.points_against.numerator
                k = r.hands_won
                if type(k) is not int or k < 0:
                    return False  # the general path says what is wrong
                h += k
            won[i], drawn[i], lost[i], byes_of[i], hands[i] = w, d, x, b, h
            counted_byes += b
            played[i] = w + d + x
            mps[i], pfs[i], pas[i] = m * mp_den, f * pf_den, a * pa_den
        if counted_byes != byes:
            return False  # a "bye" with an opponent
        for i, e in enumerate(self.entrants):
            if e.missed:
                if not set(map(_RECORD_ROUND, per[i])).isdisjoint(e.missed):
                    return False
                k = missed[i] = len(e.missed)
                p, g = e.missed_points, e.missed_game_points
                mps[i] += k * p.numerator * (mp_den // p.denominator)
                pfs[i] += k * g.numerator * (pf_den // g.denominator)
                rounds.update(e.missed)
        self.played, self.won, self.drawn, self.lost = played, won, drawn, lost
        self.byes, self.missed, self.hands = byes_of, missed, hands
        self.mp, self.pf, self.pa = mps, pfs, pas
        self.mp_den, self.pf_den, self.pa_den = mp_den, pf_den, pa_den
        self.records, self._results, self.whole, self.places = per, None, True, {}
        self.rounds = tuple(sorted(rounds))
        self.opp_lcm = 1
        return True

    def _opponents(self, r: Result) -> tuple[int, ...]:
        """The opponents of a non-bye result, checked (the general, slower path)."""
        where = f"entrant {r.entrant}, match {r.match}"
        if type(r.opponents) is not tuple or type(r.partners) is not tuple:
            raise _bad(f"{where}: opponents and partners must be tuples")
        if not r.opponents:
            raise _bad(f"{where}: a {r.outcome} needs opponents")
        unknown = [x for x in (*r.opponents, *r.partners) if x not in self.index]
        if unknown:
            raise _bad(f"{where}: unknown opponent or partner {unknown[0]!r}")
        people = [r.entrant, *r.opponents, *r.partners]
        if len(set(people)) != len(people):
            raise _bad(
                f"{where}: an entrant is listed twice among itself, its opponents and partners"
            )
        return r.opponents

    def _diagnose(self, results: Sequence[Result]) -> NoReturn:
        """Walk `results` one by one and raise the first problem a whole-list check found."""
        seen: set[tuple[int, int]] = set()
        missed = {e.id: e.missed for e in self.entrants}
        for r in results:
            if type(r) is not Result:
                raise _bad(f"a result is a {type(r).__name__}, not a Result")
            if type(r.entrant) is not int or r.entrant not in missed:
                raise _bad(f"result of match {r.match!r}: unknown entrant {r.entrant!r}")
            where = f"entrant {r.entrant}, match {r.match}"
            if type(r.round) is not int or r.round < 1 or type(r.match) is not int:
                raise _bad(f"{where}: round must be an int >= 1 and match an int")
            if (r.match, r.entrant) in seen:
                raise _bad(f"entrant {r.entrant} has two results in match {r.match}")
            seen.add((r.match, r.entrant))
            if r.outcome not in OUTCOMES:
                raise _bad(f"{where}: unknown outcome {r.outcome!r} (known: {', '.join(OUTCOMES)})")
            if r.round in missed[r.entrant]:
                raise _bad(f"entrant {r.entrant} has a result in round {r.round}, listed as missed")
        for r in results:
            for o in (*r.opponents, *r.partners):
                if type(o) is not int or o not in self.index:
                    raise _bad(
                        f"entrant {r.entrant}, match {r.match}: unknown opponent or partner {o!r}"
                    )
            for o in r.opponents:
                if (r.match, o) not in seen:
                    raise _bad(
                        f"match {r.match}: opponent {o} of entrant {r.entrant} has no result in it"
                    )
        raise _bad("inconsistent results")  # pragma: no cover - a check without a diagnosis

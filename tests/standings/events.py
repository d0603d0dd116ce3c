"""Builders for standings tests: hand-written matches, random events of every kind, and a
reference implementation of every built-in metric written straight from docs/standings.md
(plain Fractions, no scaling, no shortcuts), to check the engine against."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

from tournaments.standings import Entrant, Result

F = Fraction
MATCH_POINTS = {"win": F(2), "draw": F(1), "loss": F(0)}
OTHER = {"win": "loss", "draw": "draw", "loss": "win"}


def two_sided(
    rnd: int,
    match: int,
    a: int,
    b: int,
    points_a: int,
    points_b: int,
    scheme: dict[str, Fraction] = MATCH_POINTS,
) -> list[Result]:
    """Both Results of a match between a and b, the outcome from the game points."""
    outcome = "win" if points_a > points_b else "loss" if points_a < points_b else "draw"
    return [
        Result(rnd, match, a, (b,), outcome, scheme[outcome], F(points_a), F(points_b)),
        Result(
            rnd, match, b, (a,), OTHER[outcome], scheme[OTHER[outcome]], F(points_b), F(points_a)
        ),
    ]


TWO, ZERO = F(2), F(0)


def bye(
    rnd: int, match: int, entrant: int, points: Fraction = TWO, game_points: Fraction = ZERO
) -> Result:
    return Result(rnd, match, entrant, (), "bye", points, game_points, ZERO)


def table(rnd: int, match: int, seats: list[tuple[int, int, Fraction, Fraction]]) -> list[Result]:
    """The Results of a table of 3-4: seats are (entrant, place, match points, game points);
    points_against is the mean of the others' game points; 1st alone wins, shared 1st draws."""
    out = []
    firsts = sum(1 for _, place, _, _ in seats if place == 1)
    for entrant, place, mp, points in seats:
        others = [s for s in seats if s[0] != entrant]
        against = sum((s[3] for s in others), F(0)) / len(others)
        outcome = "loss" if place != 1 else "win" if firsts == 1 else "draw"
        out.append(
            Result(
                rnd,
                match,
                entrant,
                tuple(s[0] for s in others),
                outcome,
                F(mp),
                F(points),
                against,
                place=place,
            )
        )
    return out


def pairs(
    rnd: int,
    match: int,
    side_a: tuple[int, int],
    side_b: tuple[int, int],
    points_a: int,
    points_b: int,
) -> list[Result]:
    """Progressive play: two partnerships, every player scored individually."""
    outcome = "win" if points_a > points_b else "loss" if points_a < points_b else "draw"
    out = []
    for side, other, result, pf, pa in (
        (side_a, side_b, outcome, points_a, points_b),
        (side_b, side_a, OTHER[outcome], points_b, points_a),
    ):
        for player in side:
            partners = tuple(p for p in side if p != player)
            out.append(
                Result(
                    rnd,
                    match,
                    player,
                    other,
                    result,
                    MATCH_POINTS[result],
                    F(pf),
                    F(pa),
                    partners=partners,
                )
            )
    return out


# -- random events -------------------------------------------------------------------------------

KINDS = ("two-sided", "tables", "progressive")


def random_event(
    rng: random.Random, kind: str, entrants: int, rounds: int
) -> tuple[list[Entrant], list[Result]]:
    """A random finished event: random pairings (rematches allowed), byes for whoever is left
    over, some late entrants (missed rounds) and withdrawals, random seeds and orders, exact
    fractional points now and then."""
    ids = rng.sample(range(1, 10 * entrants + 10), entrants)
    orders = rng.sample(range(entrants * 3), entrants)
    scheme = rng.choice(
        [
            MATCH_POINTS,
            {"win": F(3), "draw": F(1), "loss": F(0)},
            {"win": F(1), "draw": F(1, 2), "loss": F(0)},
        ]
    )
    late = {i: rng.randint(1, rounds) for i in ids if rng.random() < 0.15}
    gone = {i: rng.randint(1, rounds) for i in ids if i not in late and rng.random() < 0.15}
    people = []
    for k, i in enumerate(ids):
        missed = tuple(range(1, late[i])) if i in late else ()
        people.append(
            Entrant(
                id=i,
                order=orders[k],
                seed=rng.choice([None, None, rng.randint(1, entrants)]),
                withdrawn=i in gone,
                missed=missed,
                missed_points=rng.choice([F(0), F(1, 2), F(1)]) if missed else F(0),
                missed_game_points=rng.choice([F(0), F(5, 2)]) if missed else F(0),
            )
        )

    def points() -> Fraction:
        return F(rng.randint(-30, 60) * 10) if rng.random() < 0.8 else F(rng.randint(-9, 9), 4)

    results: list[Result] = []
    match = 100
    for rnd in range(1, rounds + 1):
        played = len(results)
        active = [i for i in ids if late.get(i, 0) <= rnd and gone.get(i, rounds + 1) >= rnd]
        rng.shuffle(active)
        size = {"two-sided": 2, "tables": rng.choice([3, 4]), "progressive": 4}[kind]
        while len(active) >= size:
            seats, active = active[:size], active[size:]
            match += 1
            if kind == "two-sided":
                results += two_sided(rnd, match, *seats, int(points()), int(points()), scheme)
            elif kind == "progressive":
                results += pairs(
                    rnd,
                    match,
                    (seats[0], seats[1]),
                    (seats[2], seats[3]),
                    int(points()),
                    int(points()),
                )
            else:
                scores = sorted((rng.randint(0, 3) for _ in seats), reverse=True)
                placed = [(s, 1 + scores.index(s)) for s in scores]
                results += table(
                    rnd,
                    match,
                    [
                        (e, place, scheme["win"] * F(size - place, size - 1), points())
                        for e, (_, place) in zip(seats, placed, strict=True)
                    ],
                )
        for k in range(played, len(results)):  # hands won, a whist drive's tiebreak
            results[k] = replace(results[k], hands_won=rng.randint(0, 4))
        for i in active:
            match += 1
            results.append(
                bye(
                    rnd,
                    match,
                    i,
                    rng.choice([scheme["win"], scheme["draw"]]),
                    rng.choice([F(0), points()]),
                )
            )
    return people, results


# -- reference metrics -----------------------------------------------------------------------------


def reference(entrants: list[Entrant], results: list[Result]) -> dict[int, dict[str, Fraction]]:
    """Every field-wide built-in metric per entrant id, straight from the definitions."""
    mine = defaultdict(list)
    for r in results:
        mine[r.entrant].append(r)
    place = {(r.match, r.entrant): r.place for r in results}
    rounds = sorted({r.round for r in results} | {x for e in entrants for x in e.missed})
    mp = {}
    for e in entrants:
        mp[e.id] = sum((r.match_points for r in mine[e.id]), F(0)) + len(e.missed) * e.missed_points
    out = {}
    for e in entrants:
        rs = mine[e.id]
        played = [r for r in rs if r.outcome != "bye"]
        v: dict[str, Fraction] = {}
        v["played"] = len(played)
        v["won"] = v["wins"] = sum(r.outcome == "win" for r in rs)
        v["drawn"] = sum(r.outcome == "draw" for r in rs)
        v["lost"] = sum(r.outcome == "loss" for r in rs)
        v["byes"] = sum(r.outcome == "bye" for r in rs)
        v["hands_won"] = sum(r.hands_won for r in rs)
        v["match_points"] = mp[e.id]
        v["points_for"] = (
            sum((r.points_for for r in rs), F(0)) + len(e.missed) * e.missed_game_points
        )
        v["points_against"] = sum((r.points_against for r in rs), F(0))
        v["point_difference"] = v["points_for"] - v["points_against"]
        credited = len(rs) + len(e.missed)
        v["average_points"] = v["points_for"] / credited if credited else F(0)
        # opponents' strength: one contribution per round credited
        strength = []
        sb = F(0)
        for r in rs:
            if r.outcome == "bye":
                strength.append(mp[e.id])
                continue
            strength.append(sum((mp[o] for o in r.opponents), F(0)) / len(r.opponents))
            for o in r.opponents:
                if r.place is not None and place[(r.match, o)] is not None:
                    theirs = place[(r.match, o)]
                    share = F(1) if r.place < theirs else F(1, 2) if r.place == theirs else F(0)
                else:
                    share = {"win": F(1), "draw": F(1, 2), "loss": F(0)}[r.outcome]
                sb += share * mp[o] / len(r.opponents)
        strength += [mp[e.id]] * len(e.missed)
        strength.sort()
        v["buchholz"] = sum(strength, F(0))
        v["buchholz_cut1"] = sum(strength[1:], F(0)) if len(strength) >= 2 else v["buchholz"]
        v["median_buchholz"] = (
            sum(strength[1:-1], F(0)) if len(strength) >= 3 else v["buchholz_cut1"]
        )
        v["sonneborn_berger"] = sb
        per_round = defaultdict(lambda: F(0))
        for r in rs:
            per_round[r.round] += r.match_points
        for x in e.missed:
            per_round[x] += e.missed_points
        running, progressive = F(0), F(0)
        for x in rounds:
            running += per_round[x]
            progressive += running
        v["progressive_score"] = progressive
        places = [r.place for r in rs if r.place is not None]
        unplayed = v["byes"] + len(e.missed)
        v["placings"] = (sum(places) + unplayed * F(sum(places), len(places))) if places else 0
        out[e.id] = v
    return out

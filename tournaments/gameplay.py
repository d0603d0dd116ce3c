"""What the tournament layer needs to know about a game, asked of the rules engine.

Plain Python over `games`: the canonical rules, the sides at a table and which seats each holds,
whether entries are teams or players, and how a match's final state turns into points and a
winner. Nothing here imports Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from games.errors import RecordError
from games.records import get_game

TWO_SIDED = ("swiss", "round-robin", "knockout", "duplicate")


class RulesProblem(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Layout:
    """The shape of a table under some rules."""

    seats: str  # seat letters, clockwise
    sides: tuple[str, ...]  # the scoring sides: "NS"/"EW", or one seat letter each

    @property
    def partnerships(self) -> bool:
        return all(len(side) == 2 for side in self.sides)


def first_dealer(seats: str, round_number: int) -> str:
    """The seat that deals the first hand: North in round 1, then the next seat clockwise each
    round, so the deal does not always start with the same entry. The rules allow any first
    dealer; the table card states it and the scoring page starts from it, so every table
    starts the same way."""
    return seats[(round_number - 1) % len(seats)]


def canonical_rules(game: str, rules: Any) -> Any:
    """The rules as the engine states them (a preset id, or preset + options)."""
    try:
        return get_game(game).book.resolve(rules)[1]
    except RecordError as error:
        raise RulesProblem(error.code, error.message) from error


def layout(game: str, rules: Any) -> Layout:
    g = get_game(game)
    compiled = g.book.resolve(rules)[0]
    return Layout(seats=g.seats(compiled), sides=tuple(g.initial_state(compiled)["score"]))


def entry_kind(game: str, rules: Any, fmt: str) -> str:
    """ "team" when entries are fixed partnerships, "player" otherwise."""
    if fmt in TWO_SIDED and layout(game, rules).partnerships:
        return "team"
    return "player"


def check_format(game: str, rules: Any, fmt: str, table_size: int) -> None:
    """Whether a format can be played under these rules; raises RulesProblem("bad-format")."""
    shape = layout(game, rules)
    # the refusal is read by the director on the setup page: in the director's language
    if fmt in TWO_SIDED and len(shape.sides) != 2:
        raise RulesProblem(
            "bad-format",
            _(
                "This format pairs two sides per table; these rules have %(sides)d "
                "(use the individual movement)."
            )
            % {"sides": len(shape.sides)},
        )
    if fmt == "individual":
        if shape.partnerships:
            raise RulesProblem(
                "bad-format",
                _(
                    "These rules play in fixed partnerships: use Swiss, round robin "
                    "or progressive partnerships."
                ),
            )
        if len(shape.seats) != table_size:
            raise RulesProblem(
                "bad-format",
                _("These rules seat %(seats)d players, not %(size)d.")
                % {"seats": len(shape.seats), "size": table_size},
            )
        if table_size not in (3, 4):  # tournaments.pairing.tables seats 3 or 4 a table
            raise RulesProblem(
                "bad-format",
                _(
                    "The individual movement seats tables of 3 or 4, not %(size)d: "
                    "two players meet in a Swiss or a round robin."
                )
                % {"size": table_size},
            )
    if fmt == "progressive" and not (shape.partnerships and len(shape.seats) == 4):
        raise RulesProblem(
            "bad-format", _("Progressive play needs partnership rules with four seats.")
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    points: dict[str, Fraction]  # the game's own points per side
    places: dict[str, int]  # 1 = best; equal points share a place
    ended: bool  # the rules ended the match


#: Formats whose tables are scored by the total of the hands' points (a whist drive: each hand's
#: tricks over six, honours and penalties, added up over the round), not by the rules' match
#: measure (a rubber's game points), which a drive of a few hands rarely reaches.
HAND_TOTALS = ("progressive",)


def hand_totals(scores: list[dict]) -> dict[str, Fraction]:
    """Each side's points added up over hands' results (`result["score"]` of each hand: the
    points that hand added, per side; every game's engine reports it so)."""
    totals: dict[str, Fraction] = {}
    for score in scores:
        for side, value in score.items():
            totals[side] = totals.get(side, Fraction(0)) + Fraction(str(value))
    return totals


def hand_scores(fmt: str, results: list[dict]) -> list[dict] | None:
    """The hands' own points (`score` of each hand's result), for a format scored by their
    totals (`HAND_TOTALS`: a whist drive); None for the others (the rules' match measure)."""
    if fmt not in HAND_TOTALS:
        return None
    return [result.get("score") or {} for result in results]


def hands_won(results: list[dict], sides: list[str]) -> dict[str, int]:
    """Per side, the hands in which it made the table's top score (`score` of each hand's
    result), shared or not; a hand in which every side scored the same (a thrown-in deal) is
    nobody's. At two sides: the hands a side scored more in (a whist drive's tiebreak)."""
    won = dict.fromkeys(sides, 0)
    for result in results:
        score = {side: Fraction(str(v)) for side, v in (result.get("score") or {}).items()}
        if len(set(score.values())) < 2:
            continue
        top = max(score.values())
        for side, value in score.items():
            if value == top and side in won:
                won[side] += 1
    return won


def outcome(
    game: str, rules: Any, after: dict | None, *, hands: list[dict] | None = None
) -> Outcome:
    """Points, places and whether the rules ended the match, from the state after the last hand
    (`None` before any hand). With `hands` (each hand's `result["score"]`, in order), the points
    are the hands' totals (`hand_totals`, for the formats in `HAND_TOTALS`) instead of the
    rules' match measure."""
    g = get_game(game)
    compiled = g.book.resolve(rules)[0]
    state = after if after is not None else g.initial_state(compiled)
    if hands is not None:
        totals = hand_totals(hands)
        points = {side: totals.get(side, Fraction(0)) for side in state["score"]}
    else:
        summary = g.match_summary(compiled, state)
        source = summary.get("game_points") or state["score"]
        points = {side: Fraction(str(value)) for side, value in source.items()}
    if "won" in state:  # a rule (e.g. a moon) ended the match outright: the winner is first
        points_rank = {s: (0 if s == state["won"] else 1, -points[s]) for s in points}
    else:
        points_rank = {s: (0, -points[s]) for s in points}
    places = {s: 1 + sum(1 for o in points if points_rank[o] < points_rank[s]) for s in points}
    ended, _winner = g.match_end(compiled, state)
    return Outcome(points=points, places=places, ended=ended)


def knockout_ended(
    *,
    length: str,
    count: int | None,
    tiebreak_hands: int,
    hands: int,
    rules_ended: bool,
    tied: bool,
) -> str | None:
    """Why a knockout match is complete after `hands` hands ("rules", "hands", "tie-break"), or
    None: it goes on. A knockout match never ends tied and never by a coin: to a target (and
    each match of a best of N) the rules' own tie rule plays on (a tie at the target is no
    end); after a fixed number of hands a tie adds `tiebreak_hands` more, again and again,
    and the match ends only at the end of such a block with a leader."""
    if rules_ended and not tied:
        return "rules"
    if length != "hands" or count is None or hands < count:
        return None
    if tied:
        return None
    extra = hands - count
    if extra == 0:
        return "hands"
    return "tie-break" if extra % max(1, tiebreak_hands) == 0 else None


def tied(game: str, rules: Any, after: dict | None) -> bool:
    """Whether the sides are level (share the first place) after these hands."""
    places = outcome(game, rules, after).places
    return sum(1 for place in places.values() if place == 1) > 1


def seat_players(
    seatings: list[tuple[str, list[str], str]], seats: str
) -> dict[str, tuple[str, str]]:
    """Who sits in each seat letter: {letter: (player, entry)}, from each entry's seats, its
    players and its name. A team holding two seats (`NS`) puts its first player in the first
    seat and the partner in the second; a single player fills every seat they hold. The one
    rule for the table card and the scoring page's seat diagram."""
    found: dict[str, tuple[str, str]] = {}
    for letters, players, entry in seatings:
        held = [letter for letter in letters if letter in seats] or list(letters)
        people = players if len(players) > 1 else players * len(held)
        for letter, player in zip(held, people, strict=False):
            found[letter] = (player, entry)
    return found


def answer_barred(
    submitted_side: str, result: dict | None, seat_sides: dict[str, str]
) -> dict[str, str]:
    """The sides that may not confirm or reject a hand, each with the refusal's code: the side
    that entered it (`own-side`) and, at an individual table (more than two sides), the hand's
    declarer and the declarer's partner of that hand (`declarer-side`: Solo Whist's proposer
    and acceptor, as the engine read the contract). `seat_sides` maps each seat to its side."""
    barred: dict[str, str] = {}
    if len(set(seat_sides.values())) > 2:
        contract = (result or {}).get("contract") or {}
        for seat in (contract.get("declarer"), contract.get("partner")):
            side = seat_sides.get(seat) if isinstance(seat, str) else None
            if side:
                barred[side] = "declarer-side"
    if submitted_side:
        barred[submitted_side] = "own-side"
    return barred

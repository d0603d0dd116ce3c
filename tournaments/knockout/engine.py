"""Single elimination, seeded: the bracket of a knockout (or of a Swiss's top cut).

Plain data in and out, like the other engines. `bracket(seeded)` takes the entrants in seed order
(seed 1 first) and lays them on a bracket of the next power of two, the standard way: seed 1 meets
the last seed, and the top two can only meet in the final (for eight: 1 v 8, 4 v 5, 2 v 7, 3 v 6).
When the field is not a power of two, the missing places are byes and they fall to the top seeds
(five entrants: 1, 2 and 3 go through; 4 v 5 is the only first-round match).

`advance(bracket, winners)` fills the bracket from the results so far: `winners` maps a match's
(round, index) — both from 1 — to the winning entrant; each later match is made of the winners
of the two matches that feed it; a bye's entrant goes through at once. With `third_place`, the
losers of the two semi-finals meet for third place (round = the final's, index 2).

How a tied match is settled belongs to the match (the rules' own tie rule or a number of
tie-break hands), never to the bracket: a match is decided when its winner is given.

`cut(rows, size, chain)` takes the standings after a Swiss (best first) and says who makes a top
cut of `size`, in seed order, and — when the line falls inside a group level on the chain's first
key — which tiebreak decided it. `placings(bracket)` gives each eliminated entrant its place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.types import PairingError, is_int

__all__ = [
    "Bracket",
    "Cut",
    "KnockoutMatch",
    "Standing",
    "advance",
    "bracket",
    "cut",
    "placings",
    "seed_lines",
]

#: What `Cut.decided_by` names when the whole chain ties across the line: the standings' final
#: key (seed, then registration order) put one above the other.
FINAL_KEY = "final-key"


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    """One match of the bracket. `top`/`bottom`: entrant ids, None while unknown (or a bye in
    round 1, where the other entrant goes through). `winner`: None until decided."""

    round: int  # 1 = the first round; the final is the last
    index: int  # 1 = the top of the bracket; the third-place match is index 2 of the last round
    top: int | None
    bottom: int | None
    winner: int | None = None
    bye: bool = False  # round 1: one side is empty and the other goes through
    third_place: bool = False

    @property
    def ready(self) -> bool:
        """Both entrants are known and the match is not decided: it can be played."""
        return self.top is not None and self.bottom is not None and self.winner is None

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.bye:
            return None
        return self.bottom if self.winner == self.top else self.top


@dataclass(frozen=True, slots=True)
class Bracket:
    """The whole bracket, round by round (`rounds[0]` is round 1). `seeds[id]` = the seed."""

    size: int  # a power of two: the entrants and the byes
    rounds: tuple[tuple[KnockoutMatch, ...], ...]
    seeds: Mapping[int, int]

    @property
    def champion(self) -> int | None:
        return self.final.winner

    @property
    def final(self) -> KnockoutMatch:
        return self.rounds[-1][0]

    def match(self, round_number: int, index: int) -> KnockoutMatch:
        try:
            return self.rounds[round_number - 1][index - 1]
        except IndexError:
            raise PairingError(
                "no-such-match", f"the bracket has no match {index} in round {round_number}"
            ) from None


def seed_lines(size: int) -> list[int]:
    """The seeds on the bracket's lines, top to bottom, for a power-of-two `size`: each pair of
    lines is a first-round match (8: 1, 8, 4, 5, 2, 7, 3, 6)."""
    lines = [1]
    while len(lines) < size:
        total = 2 * len(lines) + 1
        lines = [s for seed in lines for s in (seed, total - seed)]
    return lines


def bracket(seeded: Sequence[int], *, third_place: bool = False) -> Bracket:
    """The empty bracket for these entrants (ids in seed order, seed 1 first), byes through."""
    ids = list(seeded)
    if not all(is_int(i) for i in ids):
        raise PairingError("bad-id", "entrants are int ids")
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate-id", "an entrant is seeded twice")
    if len(ids) < 2:
        raise PairingError("too-few-entrants", f"{len(ids)} entrant(s): a knockout needs 2")
    size = 1 << (len(ids) - 1).bit_length()
    lines = [ids[seed - 1] if seed <= len(ids) else None for seed in seed_lines(size)]
    first = tuple(
        KnockoutMatch(
            1,
            k + 1,
            lines[2 * k],
            lines[2 * k + 1],
            bye=lines[2 * k] is None or lines[2 * k + 1] is None,
        )
        for k in range(size // 2)
    )
    rounds = [first]
    while len(rounds[-1]) > 1:
        number = len(rounds) + 1
        rounds.append(
            tuple(KnockoutMatch(number, k + 1, None, None) for k in range(len(rounds[-1]) // 2))
        )
    if third_place and len(rounds) >= 2:
        last = len(rounds)
        rounds[-1] = (*rounds[-1], KnockoutMatch(last, 2, None, None, third_place=True))
    return advance(Bracket(size, tuple(rounds), {i: n for n, i in enumerate(ids, 1)}), {})


def advance(board: Bracket, winners: Mapping[tuple[int, int], int]) -> Bracket:
    """The bracket with these results: `winners[(round, index)]` = the winning entrant. Refuses a
    winner who is not in that match, or a result for a match not yet made."""
    for (number, index), winner in winners.items():
        board.match(number, index)  # a match the bracket has
        if not is_int(winner):
            raise PairingError(
                "bad-id", f"the winner of match {index} of round {number} is not an int id"
            )
    # One new match per place, made once (dataclasses.replace three times a match cost most
    # of the time for a large bracket).
    rounds: list[list[KnockoutMatch]] = []
    for r, matches in enumerate(board.rounds):
        number = r + 1
        made: list[KnockoutMatch] = []
        for k, match in enumerate(matches):
            top, bottom = match.top, match.bottom
            if match.third_place:
                semis = rounds[r - 1]
                top, bottom = semis[0].loser, semis[1].loser
            elif r > 0:
                feeders = rounds[r - 1]
                top, bottom = feeders[2 * k].winner, feeders[2 * k + 1].winner
            won: int | None
            if match.bye:
                won = top if top is not None else bottom
            else:
                won = winners.get((number, match.index))
                if won is not None:
                    if top is None or bottom is None:
                        raise PairingError(
                            "match-not-made",
                            f"match {match.index} of round {number} is not made yet",
                        )
                    if won not in (top, bottom):
                        raise PairingError(
                            "not-in-match", f"{won} is not in match {match.index} of round {number}"
                        )
            made.append(
                KnockoutMatch(number, match.index, top, bottom, won, match.bye, match.third_place)
            )
        rounds.append(made)
    return Bracket(board.size, tuple(tuple(r) for r in rounds), board.seeds)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings the cut reads: the entrant, its rank (shared by a tie that
    survives the chain) and its values by metric name."""

    entrant: int
    rank: int
    values: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class Cut:
    """Who makes the cut, in seed order (`seeded`), and how the line was drawn.

    `line`: the entrants level with the last one in on the chain's first key (match points),
    in standings order, when that level group crosses the line; empty when it does not.
    `decided_by`: the first metric of the chain that separates the last one in from the first
    one out (`FINAL_KEY` when the whole chain ties), or None when the chain's first key did."""

    size: int
    seeded: tuple[int, ...]
    line: tuple[int, ...] = ()
    decided_by: str | None = None

    @property
    def tie_at_line(self) -> bool:
        return bool(self.line)


def cut(rows: Sequence[Standing], size: int, chain: Sequence[str]) -> Cut:
    """The top `size` of `rows` (the standings, best first, withdrawn entrants already left
    out), seeded by their places, and how the line between place `size` and the next was drawn."""
    if not is_int(size) or size < 2:
        raise PairingError("bad-size", "a cut takes at least 2")
    if len(rows) < size:
        raise PairingError("too-few-entrants", f"{len(rows)} entrant(s) for a cut of {size}")
    if not chain:
        raise PairingError("bad-chain", "the cut needs the tiebreak chain")
    seeded = tuple(row.entrant for row in rows[:size])
    if len(rows) == size:
        return Cut(size, seeded)
    last, first_out = rows[size - 1], rows[size]
    key = chain[0]
    level = last.values.get(key)
    if first_out.values.get(key) != level:
        return Cut(size, seeded)
    line = tuple(row.entrant for row in rows if row.values.get(key) == level)
    if first_out.rank == last.rank:
        return Cut(size, seeded, line, FINAL_KEY)
    decided = next(
        (name for name in chain[1:] if last.values.get(name) != first_out.values.get(name)),
        FINAL_KEY,
    )
    return Cut(size, seeded, line, decided)


def placings(board: Bracket) -> dict[int, int]:
    """Each entrant's place as far as the bracket is decided: the champion 1, the runner-up 2,
    the third-place match's winner 3 and loser 4 (without one, both losing semi-finalists 3),
    and a loser in an earlier round the place after everyone still in then (quarter-final
    losers 5, ...). Entrants still playing have no place yet."""
    out: dict[int, int] = {}
    last = len(board.rounds)
    for number, matches in enumerate(board.rounds, 1):
        main = [m for m in matches if not m.third_place]
        for match in main:
            if match.loser is not None:
                out[match.loser] = len(main) + 1
        for match in matches:
            loser = match.loser
            if match.third_place and match.winner is not None and loser is not None:
                out[match.winner], out[loser] = 3, 4
        if number == last and board.final.winner is not None:
            out[board.final.winner] = 1
    return out

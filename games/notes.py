"""The engines' notes ("NS bid 5, took 3: set (-50)"): each a `Note`, the English text that
records, reports and the command line print, carrying a stable code and its parameters so that
a reader (tournaments/words/engine.py) can say it in another language.

A `Note` is a `str`: a result's `notes` stay a list of strings for every existing reader (JSON,
``check_hands`` reports, comparisons with plain strings); the code and parameters ride along.
The engines build one only where they make a note (a few per hand), never per card.

`NOTE_CODES` is the one list of the codes: never rename one; add new ones here (a test checks
that every note an engine makes carries a code listed here, and that each has a Japanese
translation).
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

#: Every note code, with what it says and its parameters. Seats and sides are seat letters
#: ("N") and side names ("NS"); points are signed text ("+64", "-50") as printed.
NOTE_CODES: dict[str, str] = {
    # Spades
    "spades-nil-made": "a seat made its nil bid (seat, nil, points)",
    "spades-nil-failed": "a seat took tricks on a nil bid (seat, nil, taken, points)",
    "spades-bid-made": "a side made its bid (side, bid, taken, points)",
    "spades-bid-set": "a side was set (side, bid, taken, points)",
    "spades-no-last-trick-bonus": "no last-trick bonus after a claim (side)",
    "spades-last-tricks-bonus": "the last tricks won with high trumps (side, bonus)",
    "spades-all-tricks-bonus": "a side took every trick (side, total, bonus)",
    "spades-all-tricks-wins": "a side took every trick and wins the game (side, total)",
    "spades-bag-penalty": "a side reached the bag limit (side, limit, penalty)",
    # Whist
    "whist-revoke": "a revoke penalty (seat, trick, count, points, to)",
    "whist-odd-tricks": "a side's tricks over six (side, tricks, points)",
    "whist-honours": "a side scored its honours (side, held, points)",
    "whist-honours-barred": "honours not scored: the side was at the bar (side, held, start)",
    "whist-honours-after-game": "honours not scored: the other side reached game (side, held, "
    "other)",
    "whist-game-pays": "a game won, the loser pays (winner, loser, score, other_score, points)",
    "whist-game": "a game won (winner, loser, score, other_score, points)",
    "whist-rubber": "a rubber won (winner, games, other_games, points)",
    # Solo Whist
    "solo-thrown-in": "every player passed: the hand is thrown in",
    "solo-misere": "a misère played (who, contract, trumps, after_lead, taken, made)",
    "solo-declared": "an abundance declared played (who, contract, trumps, lost, made)",
    "solo-made": "a contract made (who, contract, trumps, after_lead, taken, need, extra, scored)",
    "solo-failed": "a contract failed (who, contract, trumps, after_lead, taken, need, short, "
    "under, scored)",
    "solo-paid-pair": "the settlement of a pair (value, who, made)",
    "solo-paid-alone": "the settlement of a lone declarer (value, declarer, made)",
    # German Whist
    "german-whist-tricks": "the tricks each took of those counted (n, s, all, counted)",
    "german-whist-wins": "a seat wins the hand (seat, points)",
    "german-whist-tie": "a tie: no score",
    # Duplicate Spades boards scored by parts (`cga`, `andrews`: tournaments/duplicate/scoring.py)
    "board-nil-made": "a nil made on a board (seat, value, side)",
    "board-nil-failed": "a nil failed on a board (seat, side, value, other)",
    "board-bid-made": "a side's bid made on a board (side, bid, value)",
    "board-bid-set": "a side's bid set on a board (side, bid, value, other)",
    "board-bags": "a side's bags on a board (side, bags)",
    "board-bags-to-other": "the bags given to the other side, CGA (bags, other)",
}


@mypyc_attr(native_class=False)  # compiled (games/accel.py), a str subclass stays a Python class
class Note(str):
    """One note: its English text (the `str` itself), its `code` and its `params`. Made by
    `note()` (a plain function: about half the cost of a constructor override)."""

    code: str
    params: dict[str, Any]

    def __reduce__(self) -> tuple[Any, ...]:  # pickling and copying keep the code and parameters
        return (note, (self.code, str(self), self.params))

    def __repr__(self) -> str:
        return f"Note({self.code!r}, {str(self)!r}, {self.params!r})"


_new = str.__new__


def note(code: str, text: str, params: dict[str, Any] | None = None) -> Note:
    """A note with its code (one of `NOTE_CODES`) and parameters."""
    made = _new(Note, text)
    made.code = code
    made.params = {} if params is None else params
    return made

"""The one error the duplicate engines raise, with its stable codes."""

from __future__ import annotations

from typing import Any

__all__ = ["ERROR_CODES", "DuplicateError"]

#: Every `DuplicateError.code` and what it means. Stable: the services and the API rely on them.
ERROR_CODES: dict[str, str] = {
    "bad-board": "a board number is not a whole number of at least 1",
    "bad-game": "duplicate is played at Spades (partnership) or Whist only",
    "bad-seed": "a deal seed is not an int or a str",
    "bad-tables": "the number of tables is outside the movement's supported range",
    "bad-rounds": "the number of rounds is below 1 or more than the movement allows",
    "bad-movement": "an unknown movement or movement option",
    "bad-pair": "a pair number that is not in the movement, or not a whole number of at least 1",
    "pair-twice": "a pair has two results on one board (in either direction, or in both)",
    "bad-expected": "the results expected on a board are not a whole number of at least 1, or "
    "fewer than the results the board has",
    "bad-option": "an unknown board_scoring, board_compare or comparison method",
    "bad-rules": "the tournament's rules cannot be played in duplicate (e.g. not partnership)",
    "bad-record": "the hand record does not check against the rules (the record's own error "
    "is in `detail`)",
    "board-mismatch": "the record does not carry the board's dealer, or a full record not the "
    "board's deal (and turned card) exactly",
    "bad-result": "a result is not complete (no score and no adjustment), has both scores and "
    "an adjustment, or has a pair play itself",
    "bad-adjustment": "an adjusted result other than average-plus, average or average-minus",
    "bad-scale": "an IMP scale whose steps are not increasing positive numbers",
}


class DuplicateError(ValueError):
    """Bad input to a duplicate engine. `code` is stable (see `ERROR_CODES`); the message is
    English for people; `detail` carries the rules engine's error for `bad-record`."""

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.detail = detail

    def __repr__(self) -> str:
        return f"DuplicateError({self.code!r}, {str(self)!r})"

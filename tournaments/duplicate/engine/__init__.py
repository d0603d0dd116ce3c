"""Duplicate Spades and Whist: boards, movements, the score of a board, and the comparison.

Plain Python (no Django): plain data in, plain data out, exact arithmetic (int and Fraction).

    boards = deal_boards(seed, 27, "spades")             # boards.py
    movement = mitchell(15)                               # movements.py
    score = board_score(game="spades", rules="standard", record=record, board_scoring="cga")
    event = score_event(results=results, method="matchpoints", fields=movement.fields)

How each part works, with worked examples: docs/duplicate.md.
"""

from .boards import Board, board_set, board_sets, deal_board, deal_boards, dealer_of
from .compare import (
    ADJUSTMENTS,
    METHODS,
    SPADES_IMPS,
    WHIST_IMPS,
    CardLine,
    Event,
    ImpScale,
    Line,
    Result,
    Standing,
    Traveller,
    default_scale,
    matchpoints,
    neuberg,
    score_event,
)
from .errors import ERROR_CODES, DuplicateError
from .movements import Movement, Play, Seating, barometer, howell, mitchell, plays, sit_out
from .scoring import (
    BOARD_COMPARE,
    BOARD_SCORING,
    DUPLICATE_GAMES,
    BoardScore,
    DuplicateGame,
    board_score,
    default_compare,
    duplicate_game,
    rules_refusal,
)

__all__ = [
    "ADJUSTMENTS",
    "BOARD_COMPARE",
    "BOARD_SCORING",
    "DUPLICATE_GAMES",
    "ERROR_CODES",
    "METHODS",
    "SPADES_IMPS",
    "WHIST_IMPS",
    "Board",
    "BoardScore",
    "DuplicateGame",
    "CardLine",
    "DuplicateError",
    "Event",
    "ImpScale",
    "Line",
    "Movement",
    "Play",
    "Result",
    "Seating",
    "Standing",
    "Traveller",
    "barometer",
    "board_score",
    "board_set",
    "board_sets",
    "deal_board",
    "deal_boards",
    "dealer_of",
    "default_compare",
    "default_scale",
    "duplicate_game",
    "howell",
    "matchpoints",
    "mitchell",
    "neuberg",
    "plays",
    "rules_refusal",
    "score_event",
    "sit_out",
]

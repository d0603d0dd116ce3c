"""Club ratings engine (OpenSkill, plain Python): see engine.py and docs/ratings.md."""

from tournaments.ratings.engine import (
    DEFAULT_MODEL,
    MODELS,
    HistoryPoint,
    PlayerRating,
    RatedGame,
    RatingError,
    leaderboard,
    new_rating,
    rate,
)

__all__ = [
    "DEFAULT_MODEL",
    "MODELS",
    "HistoryPoint",
    "PlayerRating",
    "RatedGame",
    "RatingError",
    "leaderboard",
    "new_rating",
    "rate",
]

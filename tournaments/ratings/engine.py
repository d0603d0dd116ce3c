"""Club ratings: OpenSkill (Weng–Lin, Plackett–Luce by default) per player, across tournaments.

Plain Python, no Django. The caller turns confirmed matches into `RatedGame`s and stores the
`PlayerRating`s this module returns; see docs/ratings.md for the rules and what to store.

Determinism: games are rated in (played_at, id) order whatever order they are given in, and each
game is put in a canonical form first (players of a side by id, sides by (place, players)), so the
same games give the same floats bit for bit. `rate(b, previous=rate(a))` equals `rate(a + b)`
whenever every game of `b` comes after the games of `a` its players played; when it does not,
`rate` refuses with code "out-of-order" (or "duplicate-game") and the caller recomputes from
scratch.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeGuard

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
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

DEFAULT_MODEL = "plackett-luce"

#: Model names accepted by `rate(model=...)`: openskill's Weng–Lin models, default parameters
#: (mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001, no sigma limit, no balance).
MODELS: dict[str, Any] = {
    "plackett-luce": PlackettLuce,
    "bradley-terry-full": BradleyTerryFull,
    "bradley-terry-part": BradleyTerryPart,
    "thurstone-mosteller-full": ThurstoneMostellerFull,
    "thurstone-mosteller-part": ThurstoneMostellerPart,
}


class RatingError(ValueError):
    """Input the engine refuses. `code` says why:

    - "bad-game": a game is malformed (fewer than 2 sides, an empty side, a player on two sides
      or twice on one, places not matching the sides, a place below 1, a naive datetime, ...);
    - "duplicate-game": a game id appears twice, in the input or already in a player's history;
    - "out-of-order": a game sorts at or before a game already in one of its players' history
      (continue incrementally only with newer games; otherwise recompute from scratch);
    - "bad-previous": a stored rating is inconsistent (key, counts, history, non-finite floats);
    - "bad-model": an unknown model name.

    `game` is the offending game's id when there is one, `player` the player's id.
    """

    def __init__(
        self, code: str, message: str, *, game: int | None = None, player: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.game = game
        self.player = player


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One confirmed match, as far as ratings care.

    `sides` holds the player ids of each side (a partnership, or a single player); `places` the
    finishing place of each side, 1 = best, equal places = a tie. Only the order of the places
    matters: (1, 2) and (1, 3) rate the same.
    """

    id: int  # match id
    played_at: datetime  # when the match finished (aware)
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    tournament: int | None = None


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A player's rating right after one game."""

    played_at: datetime
    game: int
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating after all the games rated so far.

    `wins`: games where the player's side finished first alone. `draws`: games where it shared
    first place with another side (so a shared first is a draw, not a win). Every other game is a
    loss: `games - wins - draws`.
    """

    player: int
    mu: float
    sigma: float
    ordinal: float  # mu - 3 * sigma, openskill's ordinal()
    games: int
    wins: int
    draws: int
    last_played: datetime | None
    history: tuple[HistoryPoint, ...]  # one point per game, in rating order

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def win_rate(self) -> float:
        """wins / games (0.0 before any game)."""
        return self.wins / self.games if self.games else 0.0


def new_rating(player: int, *, model: str = DEFAULT_MODEL) -> PlayerRating:
    """The rating of a player who has not played yet (mu 25, sigma 25/3 by default)."""
    start = _model(model).rating()
    return PlayerRating(
        player=player,
        mu=start.mu,
        sigma=start.sigma,
        ordinal=start.ordinal(),
        games=0,
        wins=0,
        draws=0,
        last_played=None,
        history=(),
    )


class _State:
    """A player's running rating while `rate` works (mutable, private)."""

    __slots__ = ("rating", "games", "wins", "draws", "last_played", "history", "source")

    def __init__(self, rating: Any, source: PlayerRating | None) -> None:
        self.rating = rating  # an openskill rating object
        self.source = source  # the unchanged `previous` entry, until the player plays
        if source is None:
            self.games = self.wins = self.draws = 0
            self.last_played: datetime | None = None
            self.history: list[HistoryPoint] = []
        else:
            self.games, self.wins, self.draws = source.games, source.wins, source.draws
            self.last_played = source.last_played
            self.history = list(source.history)

    def result(self, player: int) -> PlayerRating:
        if self.source is not None:
            return self.source
        return PlayerRating(
            player=player,
            mu=self.rating.mu,
            sigma=self.rating.sigma,
            ordinal=self.rating.ordinal(),
            games=self.games,
            wins=self.wins,
            draws=self.draws,
            last_played=self.last_played,
            history=tuple(self.history),
        )


def _model(name: str) -> Any:
    try:
        factory = MODELS[name]
    except (KeyError, TypeError):
        raise RatingError(
            "bad-model", f"unknown model {name!r}; expected one of {', '.join(MODELS)}"
        ) from None
    return factory()


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _aware(value: object) -> bool:
    return isinstance(value, datetime) and value.utcoffset() is not None


def _canonical(game: object) -> tuple[tuple[datetime, int], list[tuple[int, ...]], list[int]]:
    """Check one game; return its sort key, its sides (players by id, sides by (place, players))
    and the matching places."""
    if not isinstance(game, RatedGame):
        raise RatingError("bad-game", f"expected a RatedGame, got {type(game).__name__}")
    gid = game.id
    if not _is_int(gid):
        raise RatingError("bad-game", f"game id must be an int, got {gid!r}")

    def bad(message: str) -> RatingError:
        return RatingError("bad-game", f"game {gid}: {message}", game=gid)

    if not _aware(game.played_at):
        raise bad(f"played_at must be an aware datetime, got {game.played_at!r}")
    if game.tournament is not None and not _is_int(game.tournament):
        raise bad(f"tournament must be an int or None, got {game.tournament!r}")
    sides, places = game.sides, game.places
    if not isinstance(sides, (tuple, list)) or not isinstance(places, (tuple, list)):
        raise bad("sides and places must be tuples")
    if len(sides) < 2:
        raise bad(f"needs at least 2 sides, got {len(sides)}")
    if len(places) != len(sides):
        raise bad(f"{len(places)} places for {len(sides)} sides")
    seen: set[int] = set()
    canonical: list[tuple[int, ...]] = []
    for side in sides:
        if not isinstance(side, (tuple, list)) or not side:
            raise bad(f"a side must be a non-empty tuple of player ids, got {side!r}")
        for player in side:
            if not _is_int(player):
                raise bad(f"player ids must be ints, got {player!r}")
            if player in seen:
                raise bad(f"player {player} appears more than once")
            seen.add(player)
        canonical.append(tuple(sorted(side)))
    for place in places:
        if not _is_int(place) or place < 1:
            raise bad(f"places must be ints >= 1, got {place!r}")
    order = sorted(range(len(sides)), key=lambda i: (places[i], canonical[i]))
    return (game.played_at, gid), [canonical[i] for i in order], [places[i] for i in order]


def _load_previous(
    previous: Mapping[int, PlayerRating], model: Any
) -> tuple[dict[int, _State], dict[int, tuple[datetime, int]]]:
    states: dict[int, _State] = {}
    last: dict[int, tuple[datetime, int]] = {}
    for key, stored in previous.items():

        def bad(message: str, key: object = key) -> RatingError:
            player = key if _is_int(key) else None
            return RatingError("bad-previous", f"player {key!r}: {message}", player=player)

        if not isinstance(stored, PlayerRating):
            raise bad(f"expected a PlayerRating, got {type(stored).__name__}")
        if not _is_int(key) or stored.player != key:
            raise bad(f"keyed {key!r} but holds player {stored.player!r}")
        if not (math.isfinite(stored.mu) and math.isfinite(stored.sigma) and stored.sigma > 0):
            raise bad(f"mu {stored.mu!r}, sigma {stored.sigma!r} are not usable")
        counts = (stored.games, stored.wins, stored.draws)
        if not all(_is_int(n) and n >= 0 for n in counts) or sum(counts[1:]) > counts[0]:
            raise bad(f"games {stored.games}, wins {stored.wins}, draws {stored.draws}")
        if len(stored.history) != stored.games:
            raise bad(f"{len(stored.history)} history points for {stored.games} games")
        if stored.history:
            end = stored.history[-1]
            if not _aware(end.played_at):
                raise bad("history times must be aware datetimes")
            if (end.mu, end.sigma, end.played_at) != (stored.mu, stored.sigma, stored.last_played):
                raise bad("the last history point does not match mu, sigma and last_played")
            last[key] = (end.played_at, end.game)
        elif stored.last_played is not None:
            raise bad("last_played is set but there are no games")
        states[key] = _State(model.rating(mu=stored.mu, sigma=stored.sigma), stored)
    return states, last


def rate(
    games: Iterable[RatedGame],
    *,
    model: str = DEFAULT_MODEL,
    previous: Mapping[int, PlayerRating] | None = None,
) -> dict[int, PlayerRating]:
    """Rate `games` (in (played_at, id) order, whatever order they come in), starting from
    `previous` (stored ratings; players not in it start at the model's default rating).

    Returns every player of `previous` and of `games`, keyed and ordered by player id; players
    who did not play are returned unchanged (the same objects). Validates everything before
    rating anything; raises RatingError (see its codes) on bad input.
    """
    engine = _model(model)
    states, last = _load_previous(previous or {}, engine)

    checked = [_canonical(game) for game in games]
    ids: set[int] = set()
    for (_, gid), _, _ in checked:
        if gid in ids:
            raise RatingError("duplicate-game", f"game {gid} is given twice", game=gid)
        ids.add(gid)
    checked.sort(key=lambda item: item[0])

    for key, sides, places in checked:
        played_at, gid = key
        teams = []
        for side in sides:
            team = []
            for player in side:
                state = states.get(player)
                if state is None:
                    state = states[player] = _State(engine.rating(), None)
                elif player in last and last[player] >= key:
                    if any(point.game == gid for point in state.history):
                        code, why = "duplicate-game", "is already in the history of"
                    else:
                        code, why = "out-of-order", "is not after the last game of"
                    raise RatingError(
                        code,
                        f"game {gid} {why} player {player} (game {last[player][1]} at "
                        f"{last[player][0].isoformat()}); recompute from scratch",
                        game=gid,
                        player=player,
                    )
                team.append(state.rating)
            teams.append(team)

        rated = engine.rate(teams, ranks=list(places))

        best = places[0]  # sides are sorted by place
        shared = len(places) > 1 and places[1] == best
        for side, place, team in zip(sides, places, rated, strict=True):
            for player, rating in zip(side, team, strict=True):
                state = states[player]
                state.rating = rating
                state.source = None
                state.games += 1
                if place == best:
                    if shared:
                        state.draws += 1
                    else:
                        state.wins += 1
                state.last_played = played_at
                state.history.append(
                    HistoryPoint(played_at, gid, rating.mu, rating.sigma, rating.ordinal())
                )

    return {player: states[player].result(player) for player in sorted(states)}


def leaderboard(ratings: Mapping[int, PlayerRating], *, min_games: int = 0) -> list[PlayerRating]:
    """Players with at least `min_games` games, by ordinal (highest first), then games played
    (most first), then player id (lowest first)."""
    return sorted(
        (r for r in ratings.values() if r.games >= min_games),
        key=lambda r: (-r.ordinal, -r.games, r.player),
    )

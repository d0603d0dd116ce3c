"""The one list of games: each record's `game` and the module whose ``GAME`` checks it.

Adding a game is one engine module (``GAME``, a `games.base.Game`) and one line here; the
tournaments layer adds its presentation (tournaments/presentation/). Engines are imported on
first use, so the command line checking Spades never loads Solo Whist.
"""

from __future__ import annotations

import importlib

from games.base import Game
from games.errors import RecordError

#: Every game, in the club's order: the record's `game` and the engine's module.
GAME_MODULES: dict[str, str] = {
    "spades": "games.spades",
    "whist": "games.whist",
    "solo-whist": "games.solo_whist",
    "german-whist": "games.german_whist",
}
#: The games' names as records spell them, in the club's order.
GAMES: tuple[str, ...] = tuple(GAME_MODULES)

_loaded: dict[str, Game] = {}


def get_game(name: object) -> Game:
    """The engine for a record's `game` (imported on first use), or `bad-format`."""
    game = _loaded.get(name) if isinstance(name, str) else None
    if game is None:
        if not isinstance(name, str) or name not in GAME_MODULES:
            raise RecordError(
                "bad-format",
                f"game must be one of {', '.join(GAME_MODULES)}, not {name!r}",
            )
        found: Game = importlib.import_module(GAME_MODULES[name]).GAME
        game = _loaded[name] = found
    return game

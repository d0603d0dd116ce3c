"""Hostile records for the rules engine: legal records bent out of shape, and the contract every
answer must keep. Shared by the property tests (tests/games/test_fuzz.py) and the long fuzz run
(bench/fuzz.py, hypothesis and atheris). Plain Python, no Django.

The contract: `check_record` never raises, whatever it is given; it answers a dict with a boolean
`ok`; a refusal carries a non-empty list of errors, each with a string `code` and `message`.
"""

from __future__ import annotations

import copy
import importlib
import random
from typing import Any

from games.records import check_record
from games.registry import GAME_MODULES, get_game

SIMULATORS = {
    name: f"games.simulate.{module.split('.')[-1]}" for name, module in GAME_MODULES.items()
}
#: Every named preset of every game, as (game, preset).
PRESETS = [(name, preset) for name in GAME_MODULES for preset in get_game(name).book.presets]


def legal_hand(seed: int, game: str, preset: str) -> dict[str, Any]:
    """A full legal `hand/1` record for the preset, dealt and played at random."""
    simulate = importlib.import_module(SIMULATORS[game])
    record: dict[str, Any] = simulate.random_hand(random.Random(seed), preset)
    record.setdefault("game", game)
    record.setdefault("rules", preset)
    return record


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and list indexes), the root included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of `value` with the item at `path` replaced (the root when `path` is empty)."""
    if not path:
        return new
    out = copy.deepcopy(value)
    holder = out
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return out


def removed(value: Any, path: tuple[Any, ...]) -> Any:
    """A copy of `value` without the item at `path` (unchanged for the root)."""
    if not path:
        return value
    out = copy.deepcopy(value)
    holder = out
    for step in path[:-1]:
        holder = holder[step]
    del holder[path[-1]]
    return out


def cards_in(value: Any) -> list[tuple[Any, ...]]:
    """Paths of every string that looks like a card ("AS", "10H", "TD", "BJ"...)."""
    return [p for p in paths(value) if p and _card_like(_at(value, p))]


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _card_like(item: Any) -> bool:
    return (
        isinstance(item, str)
        and 2 <= len(item) <= 3
        and item[-1] in "SHDCJ"
        and item[:-1]
        in {"A", "K", "Q", "J", "T", "10", "9", "8", "7", "6", "5", "4", "3", "2", "B", "R", "L"}
    )


#: Where every card appears once: the deal, the play and the stock. (A card named elsewhere,
#: such as the turned card, is a second mention of a dealt card, not a second card.)
ONCE_ONLY = ("deal", "play", "stock")


def with_duplicate_card(record: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The record with one dealt, played or stock card replaced by another card the record
    deals or plays elsewhere: an impossible deal or play (None when there is no such pair)."""
    spots = [p for p in cards_in(record) if p[0] in ONCE_ONLY]
    distinct = {_at(record, p) for p in spots}
    if len(distinct) < 2:
        return None
    target = rng.choice(spots)
    other = rng.choice(sorted(distinct - {_at(record, target)}))
    swapped: dict[str, Any] = replaced(record, target, other)
    return swapped


def broken_contract(answer: Any) -> str | None:
    """Why an answer from `check_record` breaks the contract, or None when it keeps it."""
    if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
        return f"not a result: {answer!r:.200}"
    if answer["ok"]:
        return None
    errors = answer.get("errors")
    if not isinstance(errors, list) or not errors:
        return "a refusal without errors"
    for error in errors:
        if not (
            isinstance(error, dict)
            and isinstance(error.get("code"), str)
            and isinstance(error.get("message"), str)
        ):
            return f"an error without code and message: {error!r:.200}"
    return None


def check(value: Any) -> dict[str, Any]:
    """`check_record`, failing loudly if it raises or breaks the contract."""
    answer = check_record(value)
    problem = broken_contract(answer)
    if problem:
        raise AssertionError(f"{problem} for {value!r:.300}")
    return answer

"""The public entry points: check a `hand/1` or `match/1` record and return its result.

Results are plain dicts, exactly as the hand-record format describes: ``ok``, ``game``,
``rules``, ``tricks``, ``score``, ``after``, ``notes`` for a valid hand; ``ok: false`` with
``errors`` (each ``{"code", "message", "trick", "seat", "card"}`` where they apply) otherwise.
A match result carries the result of every hand (``hands``), the final ``after``, ``ended``
(whether the rules ended the match) and ``winner``; an error in a match also names its ``hand``
(1-based).
"""

from __future__ import annotations

import logging
from typing import Any

from games.base import Game
from games.errors import RecordError
from games.registry import get_game as get_game  # re-exported: the engine's door for callers

log = logging.getLogger(__name__)
#: What a field of the wrong shape can raise deep in a game's checks. The engine refuses such a
#: record as `bad-format` rather than fail; the fuzz tests (tests/games/test_fuzz.py) hunt these
#: down so that each gets its own precise error, and the log names any that remain.
SHAPE_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError)


def _unreadable(error: Exception) -> RecordError:
    log.warning("record refused for its shape (%s: %s)", type(error).__name__, error)
    return RecordError("bad-format", "a field of the record has the wrong shape")


def check_record(obj: Any, *, rules: Any = None, game: str | None = None) -> dict[str, Any]:
    """Check a hand or a match; `rules` and `game` are the context's (e.g. the command line's):
    a record may leave them out, and if it states them they must agree."""
    if isinstance(obj, dict) and obj.get("format") == "match/1":
        return check_match(obj, rules=rules, game=game)
    return check_hand(obj, rules=rules, game=game)


def check_hand(record: Any, *, rules: Any = None, game: str | None = None) -> dict[str, Any]:
    g: Game | None = None
    r = None
    try:
        if not isinstance(record, dict):
            raise RecordError("bad-format", "a hand record must be a JSON object")
        if record.get("format") != "hand/1":
            raise RecordError("bad-format", 'a hand record needs "format": "hand/1"')
        g, rules_obj, r = _game_and_rules(record, game, rules)
        before = record.get("before")  # _state, inline: a frame less a hand (issue 18)
        state = g.initial_state(rules_obj) if before is None else g.read_state(before, rules_obj)
        result = {"ok": True, "game": g.name, "rules": r}
        result.update(g.check_hand(record, rules_obj, state))
        return result
    except RecordError as error:
        return _failure(g, r, error)
    except SHAPE_ERRORS as error:
        return _failure(g, r, _unreadable(error))


def check_match(record: Any, *, rules: Any = None, game: str | None = None) -> dict[str, Any]:
    g: Game | None = None
    r = None
    hands: list[dict[str, Any]] = []
    try:
        if not isinstance(record, dict) or record.get("format") != "match/1":
            raise RecordError("bad-format", 'a match record needs "format": "match/1"')
        g, rules_obj, r = _game_and_rules(record, game, rules)
        seats = g.seats(rules_obj)
        named = record.get("seats")
        if named is not None and (not isinstance(named, dict) or not set(named) <= set(seats)):
            raise RecordError("bad-seat", f"`seats` must name players by seat ({seats})")
        raw_hands = record.get("hands")
        if not isinstance(raw_hands, list):
            raise RecordError("bad-format", "a match record needs a list of `hands`")
        state = _state(g, rules_obj, record.get("before"))
        ended, winner = False, None
        dealer = None
        for number, hand in enumerate(raw_hands, 1):
            try:
                if ended:
                    raise RecordError("match-over", f"the match ended before hand {number}")
                if not isinstance(hand, dict):
                    raise RecordError("bad-format", "each hand must be a JSON object")
                if hand.get("format", "hand/1") != "hand/1":
                    raise RecordError("bad-format", 'a hand inside a match is "format": "hand/1"')
                _agree(hand, g, rules_obj)
                if "before" in hand and _state(g, rules_obj, hand["before"]) != state:
                    raise RecordError(
                        "bad-state", "`before` disagrees with the state the earlier hands left"
                    )
                if dealer is not None and hand.get("dealer") != dealer:
                    raise RecordError(
                        "wrong-dealer",
                        f"hand {number} should be dealt by {dealer}, not {hand.get('dealer')!r}",
                        seat=hand.get("dealer") if isinstance(hand.get("dealer"), str) else None,
                    )
                result = g.check_hand(hand, rules_obj, state)
            except RecordError as error:
                error.hand = number
                hands.append(_failure(g, r, error))
                raise
            hands.append({"ok": True, "game": g.name, "rules": r, **result})
            state = result["after"]
            dealer = g.next_dealer(rules_obj, hand["dealer"])
            ended, winner = g.match_end(rules_obj, state)
        out = {"ok": True, "format": "match/1", "game": g.name, "rules": r, "hands": hands}
        out["after"] = state
        out["ended"] = ended
        out["winner"] = winner
        out.update(g.match_summary(rules_obj, state))
        return out
    except (RecordError, *SHAPE_ERRORS) as error:
        if not isinstance(error, RecordError):
            error = _unreadable(error)
        failure = _failure(g, r, error)
        failure["format"] = "match/1"
        if hands:
            failure["hands"] = hands
        return failure


def _game_and_rules(record: dict[str, Any], game: str | None, rules: Any) -> tuple[Game, Any, Any]:
    name = record.get("game", game)
    if name is None:
        raise RecordError("bad-format", "the record does not say which game it is")
    if game is not None and name != game:
        raise RecordError("rules-mismatch", f"the record is {name!r}, expected {game!r}")
    g = get_game(name)
    stated = record.get("rules", rules)
    if stated is None:
        raise RecordError("bad-format", "the record does not say which rules it follows")
    rules_obj, canonical = g.book.resolve(stated)
    if rules is not None and "rules" in record:
        context, _ = g.book.resolve(rules)
        if context.options != rules_obj.options:
            raise RecordError("rules-mismatch", "the record's rules differ from the rules given")
    return g, rules_obj, canonical


def _agree(hand: dict[str, Any], g: Game, rules_obj: Any) -> None:
    """A hand inside a match may restate the game and rules; if it does, they must agree."""
    if "game" in hand and hand["game"] != g.name:
        raise RecordError("rules-mismatch", f"the hand is {hand['game']!r} in a {g.name} match")
    if "rules" in hand and g.book.resolve(hand["rules"])[0].options != rules_obj.options:
        raise RecordError("rules-mismatch", "the hand's rules differ from the match's rules")


def _state(g: Game, rules_obj: Any, before: Any) -> dict[str, Any]:
    if before is None:
        return g.initial_state(rules_obj)
    return g.read_state(before, rules_obj)


def _failure(g: Game | None, r: Any, error: RecordError) -> dict[str, Any]:
    failure: dict[str, Any] = {"ok": False}
    if g is not None:
        failure["game"] = g.name
    if r is not None:
        failure["rules"] = r
    failure["errors"] = [error.as_dict()]
    if error.trick_winners is not None:
        failure["trick_winners"] = error.trick_winners
    if error.next_leader is not None:
        failure["next_leader"] = error.next_leader
    return failure

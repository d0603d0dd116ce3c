"""Rule options, presets and their resolution into a compiled rule set.

Each game declares its options (name, values, default) and its presets: a preset is plain data,
a dict of option values over the game's defaults, kept in one place per game. A rule set in a
record is a preset id or ``{"preset": id, "options": {...}}``; resolving it validates every
option (an unknown option or value is a `bad-rules` error) and returns the game's compiled
rules, cached, so that checking a million hands resolves each distinct rule set once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.cards import CARD_IDS, NAMES
from games.errors import RecordError


@dataclass(frozen=True)
class Option:
    """One named rule option: its default and the values it takes."""

    name: str
    default: Any
    choices: Sequence[Any] = ()  # the values allowed, when they are a short list
    low: int | None = None  # for integers: the range allowed
    high: int | None = None
    cards: bool = False  # the value is a list of cards
    help: str = ""

    def check(self, value: Any) -> Any:
        """The value in canonical form, or a `bad-rules` error."""
        if self.cards:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise self._bad(value, "a list of cards")
            ids = [CARD_IDS[v] for v in value if v in CARD_IDS]
            if len(ids) != len(value) or len(set(ids)) != len(ids):
                raise self._bad(value, "a list of distinct cards")
            return tuple(NAMES[c] for c in ids)
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise self._bad(value, "true or false")
            return value
        if self.choices:
            if value in self.choices and type(value) is type(self.choices[0]):
                return value
            raise self._bad(value, "one of " + ", ".join(json.dumps(c) for c in self.choices))
        if isinstance(self.default, int):
            if (
                not isinstance(value, int)
                or isinstance(value, bool)
                or (self.low is not None and value < self.low)
                or (self.high is not None and value > self.high)
            ):
                raise self._bad(value, f"an integer from {self.low} to {self.high}")
            return value
        raise AssertionError(f"option {self.name} has no value type")  # pragma: no cover

    def _bad(self, value: Any, wanted: str) -> RecordError:
        return RecordError(
            "bad-rules", f"option {self.name!r} takes {wanted}, not {json.dumps(value)}"
        )


@dataclass
class RuleBook:
    """A game's options and presets, and the function that compiles a full option dict."""

    game: str
    options: dict[str, Option]
    presets: dict[str, dict[str, Any]]
    compile: Callable[[dict[str, Any]], Any]
    _cache: dict[str, tuple[Any, Any]] = field(default_factory=dict, repr=False)

    def defaults(self) -> dict[str, Any]:
        return {name: option.default for name, option in self.options.items()}

    def preset_options(self, preset: str) -> dict[str, Any]:
        """The full option dict a preset stands for."""
        if preset not in self.presets:
            raise RecordError(
                "bad-rules",
                f"{self.game} has no preset {preset!r} (presets: {', '.join(self.presets)})",
            )
        options = self.defaults()
        for name, value in self.presets[preset].items():
            options[name] = self.options[name].check(value)
        return options

    def register_preset(
        self, preset: str, options: dict[str, Any], *, base: str | None = None
    ) -> None:
        """Add a (house) preset: `options` over `base` (or over the game's defaults)."""
        values = dict(self.presets[base]) if base is not None else {}
        for name, value in options.items():
            if name not in self.options:
                raise RecordError("bad-rules", f"{self.game} has no rule option {name!r}")
            self.options[name].check(value)
            values[name] = value
        self.presets[preset] = values
        self.compile({**self.preset_options(preset)})  # reject a preset that cannot compile
        self._cache.clear()

    def resolve(self, rules: Any) -> tuple[Any, Any]:
        """(compiled rules, canonical rules value) for a record's `rules` field."""
        key = rules if isinstance(rules, str) else _cache_key(rules)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if isinstance(rules, str):
            options = self.preset_options(rules)
            canonical: Any = rules
        elif isinstance(rules, dict):
            unknown = set(rules) - {"preset", "options"}
            preset, overrides = rules.get("preset"), rules.get("options", {})
            if unknown or not isinstance(preset, str) or not isinstance(overrides, dict):
                raise RecordError(
                    "bad-rules", 'rules must be a preset id or {"preset": id, "options": {...}}'
                )
            options = self.preset_options(preset)
            clean = {}
            for name in sorted(overrides):
                if name not in self.options:
                    raise RecordError("bad-rules", f"{self.game} has no rule option {name!r}")
                clean[name] = options[name] = self.options[name].check(overrides[name])
            canonical = (
                {"preset": preset, "options": {k: _jsonable(v) for k, v in clean.items()}}
                if clean
                else preset
            )
        else:
            raise RecordError("bad-rules", f"rules must be a preset id, not {json.dumps(rules)}")
        compiled = self.compile(options)
        if len(self._cache) > 1000:
            self._cache.clear()
        self._cache[key] = (compiled, canonical)
        return compiled, canonical


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _cache_key(rules: Any) -> str:
    try:
        return json.dumps(rules, sort_keys=True)
    except (TypeError, ValueError):
        raise RecordError("bad-rules", "rules must be JSON data") from None

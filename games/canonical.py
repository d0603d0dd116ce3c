"""A hand record in canonical form, as the format promises output to be ("input is forgiving;
output is always canonical", hand-records.md): only the fields the format defines, cards
written `AS`, `TH`, `BJ`, card lists as JSON lists. Plain Python, no Django.

`canonical_hand` is meant for a record the engine has accepted: it rewrites the spelling of
what the engine read, never its meaning. Fields it does not know are dropped; a card field it
cannot read is left as it was (the engine would have refused such a record).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from typing import Any

from games.cards import NAMES, parse_card, parse_cards
from games.errors import RecordError


@cache
def hand_fields() -> frozenset[str]:
    """The fields a `hand/1` record may carry (the schema's `handFields`)."""
    schema = json.loads(files("games.schema").joinpath("hand-records.schema.json").read_text())
    return frozenset(schema["$defs"]["handFields"]["properties"])


def _cards(value: Any) -> Any:
    try:
        return [NAMES[card] for card in parse_cards(value)]
    except RecordError:
        return value


def _card(value: Any) -> Any:
    try:
        return NAMES[parse_card(value)]
    except RecordError:
        return value


def _each(value: Any, rewrite: Callable[[Any], Any]) -> Any:
    return [rewrite(item) for item in value] if isinstance(value, list) else value


def _exchange(entry: Any) -> Any:
    if isinstance(entry, dict) and "cards" in entry:
        return {**entry, "cards": _cards(entry["cards"])}
    return entry


CARD_FIELDS: dict[str, Callable[[Any], Any]] = {
    "deal": lambda deal: (
        {seat: _cards(cards) for seat, cards in deal.items()} if isinstance(deal, dict) else deal
    ),
    "discard": _cards,
    "turned": _card,
    "stock": _cards,
    "play": lambda play: _each(play, _cards),
    "exchange": lambda exchange: _each(exchange, _exchange),
}


def canonical_hand(record: dict[str, Any]) -> dict[str, Any]:
    """The record with only the format's fields, its cards in canonical spelling."""
    known = hand_fields()
    out = {}
    for name, value in record.items():
        if name not in known:
            continue
        rewrite = CARD_FIELDS.get(name)
        out[name] = rewrite(value) if rewrite else value
    return out

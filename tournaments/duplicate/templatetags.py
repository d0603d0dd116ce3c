"""Duplicate's template filters: how the event's game is played in duplicate, asked of the
duplicate engine (`tournaments.duplicate.duplicate_game`), so no template names a game."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.duplicate import engine

register = template.Library()


@register.filter
def duplicate_game(game: str, fact: str) -> Any:
    """`{% if tournament.game|duplicate_game:"bids" %}`: one fact of `engine.DuplicateGame`
    (`bids`, `turned_card`, `board_scorings`)."""
    return getattr(engine.duplicate_game(game), fact)

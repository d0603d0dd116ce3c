"""The knockout's template filter: a table's bracket round ("Semi-final") on the round pages."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.knockout.selectors import summary, table_label

register = template.Library()


@register.filter
def bracket_label(match: Any, tournament: Any) -> str:
    """The bracket round of a knockout match ("" for a Swiss or consolation match)."""
    return table_label(tournament, match) if match is not None else ""


@register.filter
def knockout_summary(tournament: Any) -> str:
    """A knockout tournament in a line ("Knockout of 8, best of 3, third-place match")."""
    return summary(tournament)

"""Scores on a page written the project's one way (tournaments/words/formatting.py: the minus sign
U+2212, exact fractions as mixed numbers): `{% load numbers %}{{ value|score }}`. An empty value
stays empty (the pages' own cells say what is missing)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.words.formatting import number

register = template.Library()


@register.filter
def score(value: Any) -> str:
    """-50 -> "−50", "129/4" -> "32¼", 12 -> "12"; None or "" -> ""."""
    if value is None or value == "":
        return ""
    return number(value)

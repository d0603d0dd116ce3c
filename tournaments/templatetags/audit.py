"""Who acted, in the reader's language: `{% load audit %}{{ event.actor_label|actor }}`
(tournaments/words/audit.py `actor_words`: "table 2 scorer" reads テーブル2の記録係)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.words.audit import actor_words

register = template.Library()


@register.filter
def actor(label: Any) -> str:
    return actor_words(label)

"""The room's template filters: the round clock as "mm:ss", a time in epoch milliseconds (what
the clock script counts from) and "time since" in whole minutes."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def clock_text(seconds: int | float | timedelta | None) -> str:
    """45:00, 0:09, -2:30 (over time); an hour or more as 1:05:00."""
    if seconds is None:
        return ""
    if isinstance(seconds, timedelta):
        seconds = seconds.total_seconds()
    whole = int(seconds) if seconds >= 0 else -int(-seconds + 0.999)
    sign = "-" if whole < 0 else ""
    whole = abs(whole)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    return f"{sign}{minutes}:{secs:02d}"


@register.filter
def epoch_ms(moment: datetime | None) -> int | str:
    return int(moment.timestamp() * 1000) if moment else ""


@register.filter
def seconds(delta: timedelta | None) -> int | str:
    return int(delta.total_seconds()) if delta is not None else ""


@register.filter
def minutes_ago(delta: timedelta | None) -> str:
    if delta is None:
        return "—"
    minutes = int(delta.total_seconds() // 60)
    return ngettext("%(n)s min", "%(n)s min", minutes) % {"n": minutes}


@register.filter
def whole_minutes(delta: timedelta | None) -> int | str:
    return int(delta.total_seconds() // 60) if delta is not None else ""

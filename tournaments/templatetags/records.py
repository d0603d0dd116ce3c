"""Template filters for showing hand-record results."""

from django import template

register = template.Library()


@register.filter
def rules_label(rules) -> str:
    """A rules value as people read it: "standard", or "standard (target 300, sandbag on)"."""
    if isinstance(rules, dict):
        options = ", ".join(
            f"{name} {_value(value)}" for name, value in rules.get("options", {}).items()
        )
        return f"{rules.get('preset', '?')} ({options})" if options else str(rules.get("preset"))
    return "" if rules is None else str(rules)


@register.filter
def side_scores(scores) -> str:
    """{"NS": 50, "EW": 64} -> "NS 50 · EW 64"."""
    if not isinstance(scores, dict):
        return ""
    return " · ".join(f"{side} {value}" for side, value in scores.items())


def _value(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return " ".join(map(str, value)) or "none"
    return str(value)

"""One way to write a score on a page: the rule and its cases are tests/data/numbers.json, which
the scoring page's script (static/js) mirrors.

Whole numbers plain; the minus sign is U+2212; exact halves, thirds and quarters as a mixed number
with the vulgar-fraction sign (32¼, −3½, ⅔); any other fraction as a decimal with at most two
places (4.29); `signed` adds + to positive values; an empty value is an em dash; anything that is
not a number is shown as given. Exports (CSV, XLSX) keep machine-readable numbers and do not use
this.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

MINUS = "\u2212"
EMPTY = "\u2014"
VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def number(value: Any, *, signed: bool = False) -> str:
    """A score as people write it: 62, −12, 32¼, 4.29; with `signed`, +60 for a gain."""
    if value is None or value == "":
        return EMPTY
    if isinstance(value, bool):
        return str(value)
    try:
        exact = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        return str(value)
    sign = MINUS if exact < 0 else ("+" if signed and exact > 0 else "")
    whole, part = divmod(abs(exact), 1)
    if part == 0:
        return f"{sign}{whole}"
    if part in VULGAR:
        return f"{sign}{whole or ''}{VULGAR[part]}"
    decimal = f"{float(abs(exact)):.2f}".rstrip("0").rstrip(".")
    return f"{sign}{decimal}"


def side_numbers(scores: dict | None, *, signed: bool = False) -> dict[str, str]:
    """Each side's score written: {"NS": "129/4"} -> {"NS": "32¼"}."""
    return {side: number(value, signed=signed) for side, value in (scores or {}).items()}

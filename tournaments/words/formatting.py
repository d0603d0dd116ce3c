"""One way to write a score on a page: the rule and its cases are tests/data/numbers.json, which
the scoring page's script (static/js) mirrors.

Whole numbers plain; the minus sign is U+2212; exact halves, thirds and quarters as a mixed number
with the vulgar-fraction sign (32¼, −3½, ⅔); any other fraction as a decimal with at most two
places (4.29); `signed` adds + to positive values; an empty value is an em dash; anything that is
not a number is shown as given. Exports (CSV, XLSX) keep machine-readable numbers and do not use
this.
"""

from __future__ import annotations

from datetime import UTC
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


def exact(value: Any) -> int | str | None:
    """A number as data (the API's JSON, the standings snapshot) writes it, one way for all:
    a whole number as an integer, any other exactly as the fraction "p/q" ("7/2", "-14/3");
    blank (None, "") is None. Accepts ints, Decimals, Fractions and the strings the database
    keeps ("9/2", "2.5", "160")."""
    if value is None or value == "":
        return None
    fraction = value if isinstance(value, Fraction) else Fraction(str(value))
    if fraction.denominator == 1:
        return fraction.numerator
    return f"{fraction.numerator}/{fraction.denominator}"


def timestamp(value: Any) -> str | None:
    """A moment as data writes it: RFC 3339 in UTC with `Z` ("2026-12-07T19:30:00.123456Z"), as
    DRF writes its own date-time fields; None stays None."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")

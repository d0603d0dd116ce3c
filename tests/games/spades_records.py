"""Compact builders for Spades test records, so each test reads like the rule it checks."""

from __future__ import annotations

from typing import Any


def calls(text: str) -> list[dict]:
    """'E:4 S:nil NS=blind-6' -> seat calls (X:call) and side calls (XY=call), in order."""
    out = []
    for item in text.split():
        if "=" in item:
            side, call = item.split("=")
            out.append({"side": side, "call": call})
        else:
            seat, call = item.split(":")
            out.append({"seat": seat, "call": call})
    return out


def tricks(text: str) -> dict[str, int]:
    """'N3 E4 S0 W6' -> {"N": 3, "E": 4, "S": 0, "W": 6}."""
    return {item[0]: int(item[1:]) for item in text.split()}


def hand(
    call_text: str,
    trick_text: str,
    *,
    rules: Any = "standard",
    dealer: str | None = None,
    before: dict | None = None,
    **extra: Any,
) -> dict:
    """A summary record; the dealer, unless given, sits just before the first seat to call."""
    made = calls(call_text)
    if dealer is None:
        first = next(c["seat"] for c in made if "seat" in c)
        seats = "NES" if len(trick_text.split()) == 3 else "NESW"
        dealer = seats[seats.index(first) - 1]
    record = {
        "format": "hand/1",
        "game": "spades",
        "rules": rules,
        "dealer": dealer,
        "calls": made,
        "tricks": tricks(trick_text),
    }
    if before is not None:
        record["before"] = before
    record.update(extra)
    return record


def opts(preset: str = "standard", **options: Any) -> dict:
    return {"preset": preset, "options": options}


def state(ns: int, ew: int, bags_ns: int = 0, bags_ew: int = 0) -> dict:
    return {"score": {"NS": ns, "EW": ew}, "bags": {"NS": bags_ns, "EW": bags_ew}}


SUITED_DEAL = {
    "N": [r + "S" for r in "AKQJT98765432"],
    "E": [r + "H" for r in "AKQJT98765432"],
    "S": [r + "D" for r in "AKQJT98765432"],
    "W": [r + "C" for r in "AKQJT98765432"],
}

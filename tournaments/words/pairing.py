"""The pairing engines' notes in people's words: the engines note what they could not avoid in
short English with entry ids ("rematch unavoidable: 3 v 7"), kept as written in the round; the
director reads each as a sentence in English or Japanese with the entries' names."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

Names = Mapping[int, str]


def _pair(template: Callable[[], str]) -> Callable[[re.Match, Names], str]:
    def say(found: re.Match, names: Names) -> str:
        a, b = (names.get(int(found[k]), found[k]) for k in ("a", "b"))
        return template() % {"a": a, "b": b}

    return say


def _one(template: Callable[[], str]) -> Callable[[re.Match, Names], str]:
    def say(found: re.Match, names: Names) -> str:
        return template() % {"a": names.get(int(found["a"]), found["a"])}

    return say


def _more(found: re.Match, _names: Names) -> str:
    count = int(found["count"])
    kind: Callable[[], str] = {
        "repeat meeting": lambda: ngettext(
            "%(count)s more repeated meeting.", "%(count)s more repeated meetings.", count
        ),
        "partners again": lambda: ngettext(
            "%(count)s more repeated partnership.", "%(count)s more repeated partnerships.", count
        ),
        "kept apart, unavoidable": lambda: ngettext(
            "%(count)s more pair kept apart could not be.",
            "%(count)s more pairs kept apart could not be.",
            count,
        ),
    }[found["what"]]
    return kind() % {"count": count}


def _matches(found: re.Match, _names: Names) -> str:
    count = int(found["count"])
    return ngettext("Knockout: %(count)s match.", "Knockout: %(count)s matches.", count) % {
        "count": count
    }


def _stale_winner(found: re.Match, _names: Names) -> str:
    return _(
        "Match %(match)s of bracket round %(round)s: its winner is no longer in it (a "
        "result was corrected)."
    ) % {"match": found["match"], "round": found["round"]}


def _consolation(found: re.Match, names: Names) -> str:
    return _("Consolation Swiss: %(note)s") % {"note": note(found["note"], names)}


#: Each note the engines write (tournaments/pairing) and how it reads.
NOTES: list[tuple[re.Pattern, Callable[[re.Match, Names], str]]] = [
    (
        re.compile(r"^rematch unavoidable: (?P<a>\d+) v (?P<b>\d+)$"),
        _pair(lambda: _("%(a)s v %(b)s is a rematch: no pairing avoids every rematch.")),
    ),
    (
        re.compile(r"^kept apart, unavoidable: (?P<a>\d+) (?:v|&) (?P<b>\d+)$"),
        _pair(
            lambda: _(
                "%(a)s and %(b)s meet although they are to be kept apart: no draw "
                "without a rematch keeps them apart."
            )
        ),
    ),
    (
        re.compile(r"^bye again, unavoidable: (?P<a>\d+)$"),
        _one(lambda: _("%(a)s has a second bye: everyone else has had one.")),
    ),
    (re.compile(r"^bye again: (?P<a>\d+)$"), _one(lambda: _("%(a)s has a second bye."))),
    (
        re.compile(r"^repeat meeting: (?P<a>\d+) & (?P<b>\d+)$"),
        _pair(lambda: _("%(a)s and %(b)s meet again at one table.")),
    ),
    (
        re.compile(r"^partners again: (?P<a>\d+) & (?P<b>\d+)$"),
        _pair(lambda: _("%(a)s and %(b)s are partners again.")),
    ),
    (
        re.compile(
            r"^(?P<what>repeat meeting|partners again|kept apart, unavoidable): "
            r"(?P<count>\d+) more$"
        ),
        _more,
    ),
    # the knockout (tournaments/knockout/services.py)
    (re.compile(r"^knockout: (?P<count>\d+) match\(es\)$"), _matches),
    (
        re.compile(r"^knockout: walkover for (?P<a>\d+) \(the other side withdrew\)$"),
        _one(lambda: _("%(a)s goes through: the other side withdrew.")),
    ),
    (
        re.compile(
            r"^match (?P<match>\d+) of bracket round (?P<round>\d+): its winner is no "
            r"longer in it \(a result was corrected\)$"
        ),
        _stale_winner,
    ),
    (re.compile(r"^consolation: (?P<note>.+)$"), _consolation),
]


def note(text: str, names: Names) -> str:
    """One engine note as a sentence in the active language (a note of an unknown form: as
    written)."""
    for pattern, say in NOTES:
        found = pattern.match(text)
        if found:
            return say(found, names)
    return text


#: The notes that say two entries meet again (the round page's rematch warnings say it too).
MEETING_AGAIN = re.compile(
    r"^(?:rematch unavoidable: (?P<a>\d+) v (?P<b>\d+)|repeat meeting: (?P<c>\d+) & (?P<d>\d+))$"
)


def meeting_again(text: str) -> frozenset[int] | None:
    """The two entry ids of a note saying they meet again, or None for any other note."""
    found = MEETING_AGAIN.match(text)
    if found is None:
        return None
    a, b = (found["a"], found["b"]) if found["a"] else (found["c"], found["d"])
    return frozenset((int(a), int(b)))

"""Words the pages, the forms and the exports share, translated into the active language: the
one home of the standings metrics' names (as column headings, and in full for the tiebreak
lists)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: The standings engine's metrics (tournaments.standings.METRICS) as column headings. A metric
#: registered later without a heading here is shown by its name.
METRIC_LABELS = {
    "played": _("Played"),
    "won": _("Won"),
    "drawn": _("Drawn"),
    "lost": _("Lost"),
    "byes": _("Byes"),
    "hands_won": _("Hands won"),
    # Beside "Won" (byes count): said apart in Japanese, where both would be 勝ち.
    "wins": pgettext_lazy("standings column: matches won, byes not counted", "Wins"),
    "match_points": _("Match points"),
    "points_for": _("Points for"),
    "points_against": _("Points against"),
    "point_difference": _("Point difference"),
    "average_points": _("Average points"),
    "progressive_score": _("Progressive score"),
    "placings": _("Placings"),
    "buchholz": _("Buchholz"),
    "buchholz_cut1": _("Buchholz cut 1"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "head_to_head": _("Head to head"),
}


#: The same metrics said in full, where a director picks the tiebreak order from a list.
METRIC_CHOICE_LABELS = {
    "played": _("Matches played"),
    "won": _("Matches won"),
    "drawn": _("Matches drawn"),
    "lost": _("Matches lost"),
    "byes": _("Byes"),
    "wins": _("Wins (byes not counted)"),
    "hands_won": _("Hands won (the side's top score in a hand)"),
    "match_points": _("Match points"),
    "points_for": _("Game points for"),
    "points_against": _("Game points against"),
    "point_difference": _("Point difference"),
    "average_points": _("Average game points"),
    "progressive_score": _("Progressive score"),
    "placings": _("Sum of places"),
    "buchholz": _("Buchholz"),
    "buchholz_cut1": _("Buchholz cut 1"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "head_to_head": _("Head to head"),
}


#: The columns every standings table starts with, before the ranking chain (the page, the CSV,
#: the XLSX and the PDF alike): a partnership's matches won, drawn and lost.
SUMMARY_METRICS = ("played", "won", "drawn", "lost")

#: Tables of 3-4 (Solo Whist, cutthroat Spades): matches played, and the player's own total,
#: whatever the chain ranks by. Won / drawn / lost mean little at a table of four (second of
#: four is no "loss"): the places are in `placings`.
TABLE_SUMMARY = ("played", "points_for")

#: Progressive pairs (a whist drive): tables won as a pair, and the player's own total.
PROGRESSIVE_SUMMARY = ("played", "won", "drawn", "lost", "points_for")


def summary_metrics(fmt: str) -> tuple[str, ...]:
    """The leading standings columns of a format (`Tournament.format`)."""
    if fmt == "individual":
        return TABLE_SUMMARY
    if fmt == "progressive":
        return PROGRESSIVE_SUMMARY
    return SUMMARY_METRICS


def standings_columns(fmt: str, chain: list[str]) -> list[str]:
    """Every standings column of a format, in order: its summary, then the ranking chain in its
    own order (what ranks first is shown first); the one rule for the page and the exports."""
    summary = summary_metrics(fmt)
    return [*summary, *(n for n in chain if n not in summary)]


#: At tables and in a whist drive, a player's points are their own total for the evening.
TOTAL_LABEL = _("Total points")


def column_label(name: str, fmt: str) -> str:
    """A standings column heading in a format: `points_for` is a player's own "Total points"
    at tables of 3-4 and in a whist drive, "Points for" elsewhere."""
    if name == "points_for" and fmt in ("individual", "progressive"):
        return str(TOTAL_LABEL)
    return metric_label(name)


def ranked_by(fmt: str, chain: list[str]) -> str:
    """The standings' ranking said in a sentence ("Ranked by Total points; ties broken by Sum
    of places, then Buchholz."), for the page and the projector."""
    from django.utils.translation import gettext

    if not chain:
        return ""
    words = [
        str(TOTAL_LABEL)
        if n == "points_for" and fmt in ("individual", "progressive")
        else str(metric_choice_label(n))
        for n in chain
    ]
    if len(words) == 1:
        return gettext("Ranked by %(first)s.") % {"first": words[0]}
    return gettext("Ranked by %(first)s; ties broken by %(rest)s.") % {
        "first": words[0],
        "rest": gettext(", then ").join(words[1:]),
    }


def metric_label(name: str) -> str:
    """A standings column heading (a metric registered without one shows its name)."""
    return str(METRIC_LABELS.get(name, name.replace("_", " ")))


def metric_choice_label(name: str) -> Any:
    """A metric as the tiebreak lists name it (lazy: a form's choices are built once)."""
    return METRIC_CHOICE_LABELS.get(name, name.replace("_", " "))

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
#: the XLSX and the PDF alike).
SUMMARY_METRICS = ("played", "won", "drawn", "lost")


def metric_label(name: str) -> str:
    """A standings column heading (a metric registered without one shows its name)."""
    return str(METRIC_LABELS.get(name, name.replace("_", " ")))


def metric_choice_label(name: str) -> Any:
    """A metric as the tiebreak lists name it (lazy: a form's choices are built once)."""
    return METRIC_CHOICE_LABELS.get(name, name.replace("_", " "))

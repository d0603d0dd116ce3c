"""Words the pages and the exports share, translated into the active language."""

from __future__ import annotations

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


#: The columns every standings table starts with, before the ranking chain (the page, the CSV,
#: the XLSX and the PDF alike).
SUMMARY_METRICS = ("played", "won", "drawn", "lost")


def metric_label(name: str) -> str:
    """A standings column heading (a metric registered without one shows its name)."""
    return str(METRIC_LABELS.get(name, name.replace("_", " ")))

"""Column headings and words the exports print, translated into the active language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: The standings engine's metrics (tournaments.standings.METRICS) as column headings. A metric
#: registered later without a heading here is shown by its name.
METRIC_LABELS = {
    "played": _("Played"),
    "won": _("Won"),
    "drawn": _("Drawn"),
    "lost": _("Lost"),
    "byes": _("Byes"),
    "wins": _("Wins"),
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

OUTCOME_LABELS = {
    "win": _("Win"),
    "draw": _("Draw"),
    "loss": _("Loss"),
    "bye": _("Bye"),
}


def metric_label(name: str) -> str:
    return str(METRIC_LABELS.get(name, name.replace("_", " ")))


def outcome_label(outcome: str) -> str:
    return str(OUTCOME_LABELS.get(outcome, outcome))

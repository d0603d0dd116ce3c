"""Column headings and words the exports print, translated into the active language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.words.labels import metric_label

__all__ = ["OUTCOME_LABELS", "metric_label", "outcome_label", "place_label"]

OUTCOME_LABELS = {
    "win": _("Win"),
    "draw": _("Draw"),
    "loss": _("Loss"),
    "bye": _("Bye"),
}


def outcome_label(outcome: str) -> str:
    return str(OUTCOME_LABELS.get(outcome, outcome))


def place_label(place: int) -> str:
    """A place at a table of 3-4, where won / lost would mislead (second of four)."""
    return _("Place %(place)s") % {"place": place}

"""Knockout events in the database: a tournament's knockout settings (a knockout tournament, or
the top cut that ends a Swiss) and a match's place in the bracket.

A knockout has no table of its own: these are abstract models whose columns are
`Tournament`'s and `Match`'s (`tournaments.models`), so the tournaments app's tables are unchanged.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class KnockoutSettings(models.Model):
    """A tournament's knockout: the cut, the length of its matches, its ties and its bracket
    (`tournaments.knockout.services`)."""

    class KnockoutLength(models.TextChoices):
        TARGET = "target", _("To the rules' target score")
        HANDS = "hands", _("A fixed number of hands")
        BEST_OF = "best-of", _("Best of N matches")

    # `bracket` is empty until the director confirms who is in it, in seed order.
    top_cut = models.PositiveSmallIntegerField(
        _("top cut"),
        default=0,
        help_text=_("Swiss: how many go on to a knockout after the last Swiss round (0: none)."),
    )
    knockout_length = models.CharField(
        _("knockout match length"),
        max_length=10,
        choices=KnockoutLength.choices,
        default=KnockoutLength.TARGET,
    )
    knockout_count = models.PositiveSmallIntegerField(
        _("knockout hands or matches"),
        null=True,
        blank=True,
        help_text=_("Hands per knockout match, or N of best of N matches."),
    )
    tiebreak_hands = models.PositiveSmallIntegerField(
        _("tie-break hands"),
        default=1,
        help_text=_(
            "A knockout match tied after its hands plays this many more, again while "
            "it stays tied. Never a coin."
        ),
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    consolation = models.BooleanField(
        _("consolation Swiss"),
        default=False,
        help_text=_("Those outside the top cut play on in a Swiss of their own."),
    )
    bracket = models.JSONField(_("bracket"), default=dict, blank=True, editable=False)

    class Meta:
        abstract = True
        # Tournament's Meta lists these with its own.
        constraints = [
            models.CheckConstraint(
                condition=Q(top_cut__in=[0, 2, 4, 8]), name="tournament_top_cut_known"
            ),
            models.CheckConstraint(
                condition=Q(knockout_length="target")
                | Q(
                    knockout_length__in=["hands", "best-of"],
                    knockout_count__isnull=False,
                    knockout_count__gte=1,
                ),
                name="tournament_knockout_length_counted",
            ),
            models.CheckConstraint(
                condition=Q(tiebreak_hands__gte=1), name="tournament_tiebreak_hands_positive"
            ),
        ]


class BracketPlace(models.Model):
    """A knockout match's place in the bracket (round of the bracket, match from the top); None
    for a Swiss (or consolation) match. Best of N: each leg is a match at this place."""

    bracket_round = models.PositiveSmallIntegerField(null=True, blank=True)
    bracket_index = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        abstract = True
        # Match's Meta lists these with its own.
        constraints = [
            models.CheckConstraint(
                condition=Q(bracket_round__isnull=True, bracket_index__isnull=True)
                | Q(
                    bracket_round__isnull=False,
                    bracket_index__isnull=False,
                    bracket_round__gte=1,
                    bracket_index__gte=1,
                ),
                name="match_bracket_place_whole",
            ),
        ]

"""Season championships in the database: a series (the club's tournaments of one game, added up
by its rule), its members (the evenings) and its tables as computed (immutable snapshots).

Re-exported by `tournaments.models`, so they belong to the tournaments app.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, home_club_pk
from tournaments.presentation import choices as game_choices

#: Placing points a new series starts with (1st, 2nd, ...; nothing beyond the list).
DEFAULT_SEASON_POINTS = [10, 8, 6, 5, 4, 3, 2, 1]


class Series(models.Model):
    """A season championship: a club's tournaments of one game, added up by the club's rule
    (`tournaments.seasons.engine`). The table is recomputed into `SeriesSnapshot`s when a
    member tournament's standings change; `inputs_version` counts those changes."""

    class Rule(models.TextChoices):
        PLACING = "placing", _("Placing points per evening")
        MATCH_POINTS = "match-points", _("Match points per evening")

    club = models.ForeignKey(
        Club, models.PROTECT, related_name="seasons", default=home_club_pk, verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=game_choices())
    rule = models.CharField(_("rule"), max_length=20, choices=Rule.choices, default=Rule.PLACING)
    points = models.JSONField(
        _("placing points"),
        default=list,
        blank=True,
        help_text=_("Points for 1st, 2nd, ... place each evening, e.g. [10, 8, 6, 5, 4, 3, 2, 1]."),
    )
    best = models.PositiveSmallIntegerField(
        _("best evenings counted"),
        null=True,
        blank=True,
        help_text=_("Only each entrant's best K evenings count; empty: every evening."),
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_series",
        verbose_name=_("directors"),
    )
    tournaments = models.ManyToManyField(
        "tournaments.Tournament",
        through="SeriesMember",
        related_name="series",
        blank=True,
    )
    inputs_version = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        # A club's seasons, newest first (the seasons page), from the index.
        indexes = [models.Index(fields=["club", "-created_at", "-id"], name="series_club_created")]
        constraints = [
            models.CheckConstraint(
                condition=Q(rule__in=["placing", "match-points"]), name="series_rule_known"
            ),
            models.CheckConstraint(
                condition=Q(game__in=[g for g, _ in game_choices()]), name="series_game_known"
            ),
            models.CheckConstraint(
                condition=Q(best__isnull=True) | Q(best__gte=1), name="series_best_positive"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="series_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesMember(models.Model):
    """A tournament counted in a series (an evening of the season). Its game is the series'
    (`services.seasons.add_tournament` checks it under both rows' locks)."""

    series = models.ForeignKey(Series, models.CASCADE, related_name="members")
    tournament = models.ForeignKey(
        "tournaments.Tournament", models.CASCADE, related_name="series_members"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_member_once"),
        ]

    def __str__(self) -> str:
        return f"{self.series} — {self.tournament}"


class SeriesSnapshot(models.Model):
    """A season table as computed once: immutable, numbered per series (as StandingsSnapshot)."""

    series = models.ForeignKey(Series, models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    inputs_version = models.PositiveBigIntegerField()
    computed_at = models.DateTimeField(auto_now_add=True)
    payload = models.JSONField()

    class Meta:
        ordering = ["series_id", "-version"]
        get_latest_by = "version"
        constraints = [
            models.UniqueConstraint(
                fields=["series", "version"], name="series_snapshot_version_once"
            ),
            models.UniqueConstraint(
                fields=["series", "inputs_version"], name="series_snapshot_inputs_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} table v{self.version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("a season snapshot is immutable: write a new version")
        super().save(*args, **kwargs)

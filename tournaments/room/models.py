"""The room in the database: a round's clock (kept on the server, so every page counts the same
time left) and the tables' calls to the director.

Re-exported by `tournaments.models`, so they belong to the tournaments app.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class RoundClock(models.Model):
    """A round's clock, kept on the server so every page counts the same time left.

    The time left is `duration` less the running time: from `started_at` to now (or to
    `paused_at` while paused) less the pauses already ended (`paused_for`). Extending adds to
    `duration`. `tournaments.room.services.clock_state` is the one place that reads it.
    """

    round = models.OneToOneField("tournaments.Round", models.CASCADE, related_name="clock")
    duration = models.DurationField(_("length"))
    last_hand = models.DurationField(_("last hand warning"))
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_for = models.DurationField(default=timedelta(0))
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(paused_at__isnull=True) | Q(started_at__isnull=False),
                name="round_clock_paused_after_start",
            ),
            models.CheckConstraint(
                condition=Q(duration__gt=timedelta(0)), name="round_clock_duration_positive"
            ),
            models.CheckConstraint(
                condition=Q(last_hand__gte=timedelta(0)), name="round_clock_last_hand_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(paused_for__gte=timedelta(0)),
                name="round_clock_paused_for_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} — {_('clock')}"


class DirectorCall(models.Model):
    """A table calling the director, open until a director acknowledges it (one open call per
    table: calling again while one is open is the same call)."""

    class Reason(models.TextChoices):
        RULING = "ruling", _("A ruling (revoke, lead out of turn…)")
        SCORE = "score", _("A scoring problem")
        SLOW = "slow", _("Slow play")
        OTHER = "other", _("Something else")

    table = models.ForeignKey("tournaments.Table", models.CASCADE, related_name="calls")
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)
    called_at = models.DateTimeField(auto_now_add=True)
    called_by = models.CharField(max_length=100, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    acknowledged_label = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(acknowledged_at__isnull=True),
                name="director_call_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(reason__in=["", "ruling", "score", "slow", "other"]),
                name="director_call_reason_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} — {self.reason or 'call'}"

    @property
    def is_open(self) -> bool:
        return self.acknowledged_at is None

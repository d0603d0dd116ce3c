"""The members' rows. Re-exported by `tournaments.models`, so they belong to the tournaments app.

`MembersSettings` (one row a club): how the club's site shows members' names on the events rooms
publish to it. `RemovedName`: a person whose name a director removed from the published records
on request; it holds the person's opaque identity (`Player.uid` on the site), never the name.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, home_club_pk


class MembersSettings(models.Model):
    """A club's choice for its site (one row a club; none: full names)."""

    club = models.OneToOneField(
        Club, models.CASCADE, related_name="members_settings", default=home_club_pk
    )

    class Names(models.TextChoices):
        FULL = "full", _("Full names")
        INITIALS = "initials", _("Initials only")

    public_names = models.CharField(
        _("members' names on the public pages"),
        max_length=10,
        choices=Names.choices,
        default=Names.FULL,
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("members' settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(public_names__in=["full", "initials"]),
                name="members_settings_names_known",
            ),
        ]

    def __str__(self) -> str:
        return self.public_names


class RemovedName(models.Model):
    """A person whose name is gone from the site's published records (their results stay).
    Kept so that the room's next publish, which still names them, is shown without it."""

    club = models.ForeignKey(Club, models.CASCADE, related_name="+", default=home_club_pk)
    uid = models.UUIDField(unique=True)  # the site's Player.uid of the person
    removed_at = models.DateTimeField(auto_now_add=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-removed_at", "-id"]
        verbose_name = _("removed name")

    def __str__(self) -> str:
        return str(self.uid)

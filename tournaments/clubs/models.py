"""A club: one tenant of the installation. Re-exported by `tournaments.models`, so it belongs to
the tournaments app (its table is `tournaments_club`).

The club with the lowest id is the installation's home club: its pages are served at the
site's root as well as under `/c/<slug>/`, and the rows made without a club (the embedded
default, the demo, the tests) are its. Accounts that direct no club direct the home club
(`tournaments.clubs.services.directs_club`), so an installation with one club needs no step
to give its directors their club.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: The slug of the club an installation makes first (the migration, an empty database).
HOME_SLUG = "club"


class Club(models.Model):
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(
        _("address"),
        max_length=50,
        unique=True,
        help_text=_("The club's pages are at /c/<address>/ on this site."),
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="directed_clubs",
        verbose_name=_("directors"),
    )
    federation = models.BooleanField(
        _("in the federation ranking"),
        default=False,
        help_text=_("The club's events count in the federation's rating across clubs."),
    )
    suspended_at = models.DateTimeField(_("suspended"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("club")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty"),
            models.CheckConstraint(condition=~Q(slug=""), name="club_slug_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Person(models.Model):
    """One person across clubs: the member records (`Player.person`) that a person confirmed
    are theirs, in whichever clubs they play. A record linked to no person is a person of its
    own (the federation ranking counts it so)."""

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("person")

    def __str__(self) -> str:
        return str(self.uid)


def home_club() -> Club:
    """The installation's home club (the lowest id), made on an empty database."""
    club = Club.objects.order_by("pk").first()
    if club is None:
        club, _made = Club.objects.get_or_create(
            slug=HOME_SLUG, defaults={"name": str(_("Our club"))}
        )
    return club


def home_club_pk() -> int:
    """The default of every `club` column: rows made without a club are the home club's."""
    return home_club().pk

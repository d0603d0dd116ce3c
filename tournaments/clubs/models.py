"""A club: one tenant of the installation. Re-exported by `tournaments.models`, so it belongs to
the tournaments app (its table is `tournaments_club`).

The club with the lowest id is the installation's home club: its pages are served at the
site's root as well as under `/c/<slug>/`, and the rows made without a club (the embedded
default, the demo, the tests) are its. On an installation of one club with no named director,
every director account directs it (`tournaments.clubs.services.directs_club`), so such an
installation needs no step to give its directors their club.

A club's natural key (Django's serialization) is its address: rows saved with `dumpdata
--natural-primary --natural-foreign` load into another database by the club's address, not
by an id that database may give another club.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.tokens import SecretToken

#: The slug of the club an installation makes first (the migration, an empty database).
HOME_SLUG = "club"


class ClubManager(models.Manager["Club"]):
    def get_by_natural_key(self, slug: str) -> Club:
        return self.get(slug=slug)


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

    objects = ClubManager()

    class Meta:
        ordering = ["pk"]
        verbose_name = _("club")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty"),
            models.CheckConstraint(condition=~Q(slug=""), name="club_slug_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        return (self.slug,)


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


#: How long a director's invitation stays open (docs/clubs.md, "Running clubs").
INVITATION_DAYS = 7


class ClubInvitation(SecretToken):
    """A one-time link that makes whoever opens it a director of one club: the secret is shown
    once to the one who invited and kept only as its hash (`SecretToken`). It expires
    (`expires_at`), may be revoked, and is used once (`accepted_at`, `accepted_by`)."""

    club = models.ForeignKey(
        Club, models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("director's invitation")
        constraints = [
            models.CheckConstraint(
                condition=Q(accepted_at__isnull=True) | Q(revoked_at__isnull=True),
                name="club_invitation_used_or_revoked",
            ),
            models.CheckConstraint(
                condition=Q(expires_at__isnull=False), name="club_invitation_expires"
            ),
        ]

    @property
    def used(self) -> bool:
        return self.accepted_at is not None

    def __str__(self) -> str:
        return f"{self.club} {self.label}".strip()


class ClubAction(models.TextChoices):
    """What a club's audit event records."""

    CREATED = "created", _("Club created")
    SUSPENDED = "suspended", _("Club suspended")
    RESUMED = "resumed", _("Club resumed")
    INVITED = "invited", _("Director invited")
    INVITATION_REVOKED = "invitation-revoked", _("Invitation revoked")
    JOINED = "joined", _("Director joined")
    DIRECTOR_REMOVED = "director-removed", _("Director removed")


class ClubAuditEvent(models.Model):
    """An append-only record of what the installation's administrators and a club's directors
    did to the club itself: made it, suspended or resumed it, invited, revoked an invitation,
    a director joined or was removed. It outlives the club (`club` is then null; `club_slug`
    says which it was) and the accounts (`actor_label`, `subject_label`)."""

    club = models.ForeignKey(Club, models.SET_NULL, null=True, blank=True, related_name="audit")
    club_slug = models.CharField(max_length=50)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=40, choices=ClubAction.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor_label = models.CharField(max_length=150, blank=True)
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    subject_label = models.CharField(max_length=150, blank=True)
    invitation = models.ForeignKey(
        ClubInvitation, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("club's audit event")
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=[value for value, _label in ClubAction.choices]),
                name="club_audit_action_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.club_slug} {self.action}"

"""Publishing's rows. Re-exported by `tournaments.models`, so they belong to the tournaments app.

The room (the evening laptop) keeps where to send (`PublishTarget`, one row), and for each event
what was asked and what happened (`Publication`, `PublishAttempt`). The club's site keeps its
publishing keys (`PublishingKey`, shown once, stored hashed) and which of its events came from a
room (`PublishedEvent`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, home_club_pk
from tournaments.tokens import SecretToken

# -- the room ---------------------------------------------------------------------------------


class PublishTarget(models.Model):
    """The club's site this laptop publishes to: one row (the director's setup page). The
    environment's PUBLISH_URL and PUBLISH_KEY win over it when set."""

    url = models.URLField(_("site address"), max_length=300, blank=True)
    key = models.CharField(_("publishing key"), max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("publishing target")

    def __str__(self) -> str:
        return self.url or "-"


class Publication(models.Model):
    """One event's publishing on the room's side: what is owed to the site and what came back.

    `requested_at` moves on every trigger (a round closed, the event ended, "Publish now");
    `sent_requested_at` is the request the last success covered: more is owed while
    `requested_at` is later. `next_attempt_at` is when a failed send is tried again (backoff)."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENT = "sent", _("Sent")
        RETRYING = "retrying", _("Will try again")
        REFUSED = "refused", _("Refused by the site")

    tournament = models.OneToOneField(
        "tournaments.Tournament", models.CASCADE, related_name="publication"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    requested_at = models.DateTimeField()
    reason = models.CharField(max_length=40, blank=True)
    sent_requested_at = models.DateTimeField(null=True, blank=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    last_outcome = models.CharField(max_length=20, blank=True)  # created, updated, unchanged
    site_url = models.URLField(max_length=400, blank=True)  # the event's page on the site
    failures = models.PositiveIntegerField(default=0)  # in a row, since the last success
    next_attempt_at = models.DateTimeField(null=True, blank=True, db_index=True)
    error_code = models.CharField(max_length=40, blank=True)
    error_detail = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name = _("publication")

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.state}"


class PublishAttempt(models.Model):
    """One try at sending an event, kept for the director to read (the newest few per event)."""

    publication = models.ForeignKey(Publication, models.CASCADE, related_name="attempts")
    at = models.DateTimeField()
    reason = models.CharField(max_length=40, blank=True)
    ok = models.BooleanField(default=False)
    outcome = models.CharField(max_length=20, blank=True)  # created/updated/unchanged
    error_code = models.CharField(max_length=40, blank=True)
    error_detail = models.CharField(max_length=300, blank=True)
    size = models.PositiveIntegerField(default=0)  # bytes sent

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["publication", "-at"], name="publish_attempt_newest")]


# -- the club's site --------------------------------------------------------------------------


class PublishingKey(SecretToken):
    """A key a room publishes with (`Authorization: Bearer <secret>`): shown once, stored as
    its hash, revocable. The events it publishes are directed on the site by its owner."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="publishing_keys"
    )
    # The club the key publishes into: its events are that club's.
    club = models.ForeignKey(
        Club, models.CASCADE, related_name="publishing_keys", default=home_club_pk
    )
    prefix = models.CharField(
        max_length=8, editable=False
    )  # the secret's start, to tell keys apart

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("publishing key")
        # A club's keys, newest first (the publishing page), from the index.
        indexes = [models.Index(fields=["club", "-created_at", "-id"], name="key_club_created")]

    def __str__(self) -> str:
        return f"{self.prefix}… {self.label}"


class PublishedEvent(models.Model):
    """An event of this site that a room publishes: its slug is the room's, its tournament is
    updated in place on every publish that changes it (publishing.services). Taken over
    (`taken_over_at`), it is the site's own event and the room's publishes are refused."""

    slug = models.SlugField(max_length=80, unique=True)
    key = models.ForeignKey(PublishingKey, models.PROTECT, related_name="events")
    tournament = models.OneToOneField(
        "tournaments.Tournament",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="published",
    )
    digest = models.CharField(max_length=64)  # sha-256 of the payload, its export time left out
    # The last document received, as the site keeps it (tournaments.members.names.for_site:
    # the site's identities, names removed on request withheld): the event is restored from it
    # again when the club changes how names are shown.
    document = models.JSONField(default=dict, blank=True, editable=False)
    first_published_at = models.DateTimeField()
    updated_at = models.DateTimeField()  # the last publish that changed something
    received_at = models.DateTimeField()  # the last publish, changed or not
    taken_over_at = models.DateTimeField(null=True, blank=True)
    taken_over_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("published event")

    def __str__(self) -> str:
        return self.slug

    @property
    def from_room(self) -> bool:
        return self.taken_over_at is None

"""The federation ranking in the database: a rating per game per person across the opted-in
clubs (`FederationRating`, with its history after each event) and each game's recompute state
(`FederationRun`). Re-exported by `tournaments.models`, so they belong to the tournaments app.

Both are written only by `tournaments.federation.services.recompute`, from scratch.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Person
from tournaments.presentation import choices as game_choices


class FederationRating(models.Model):
    """One person's federation rating in one game: a `Person` when their member records are
    linked (they count once across clubs), else the member record itself (`player`). Exactly
    one of the two is set. Rows keep their id across recomputes while the person keeps playing
    (the history page's address)."""

    game = models.CharField(_("game"), max_length=20, choices=game_choices())
    person = models.ForeignKey(
        Person, models.CASCADE, null=True, blank=True, related_name="federation_ratings"
    )
    player = models.ForeignKey(
        "tournaments.Player",
        models.CASCADE,
        null=True,
        blank=True,
        related_name="federation_ratings",
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(_("events counted"), default=0)
    clubs = models.JSONField(default=list, blank=True, help_text=_("The clubs' ids, by id."))
    last_played = models.DateTimeField(null=True, blank=True)
    history = models.JSONField(
        default=list,
        blank=True,
        help_text=_("One point per event: [ended at, event id, club id, mu, sigma, ordinal]."),
    )
    version = models.PositiveBigIntegerField(
        default=0, help_text=_("The recompute (FederationRun.version) that wrote the row.")
    )

    class Meta:
        ordering = ["game", "-ordinal", "-games", "pk"]
        indexes = [models.Index(fields=["game", "-ordinal"], name="federation_board")]
        constraints = [
            models.CheckConstraint(
                condition=Q(person__isnull=False, player__isnull=True)
                | Q(person__isnull=True, player__isnull=False),
                name="federation_person_or_record",
            ),
            models.UniqueConstraint(fields=["game", "person"], name="federation_person_once"),
            models.UniqueConstraint(fields=["game", "player"], name="federation_record_once"),
            models.CheckConstraint(
                condition=Q(events__lte=F("games")), name="federation_events_played"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person_id or self.player_id} ({self.game}): {self.ordinal:.1f}"


class FederationRun(models.Model):
    """A game's federation recompute: what the ratings were computed from (`inputs`, the
    engine's digest of the events), how many times they were written (`version`: a run writes
    only if no other run wrote since it started reading) and the last run's figures."""

    game = models.CharField(_("game"), max_length=20, choices=game_choices(), unique=True)
    version = models.PositiveBigIntegerField(default=0)
    inputs = models.CharField(max_length=64, blank=True)
    events = models.PositiveIntegerField(default=0)
    people = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(
        default=0, help_text=_("Matches left out: two records of one person on opposite sides.")
    )
    seconds = models.FloatField(default=0.0, help_text=_("How long the last computation took."))
    computed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.game} v{self.version}"

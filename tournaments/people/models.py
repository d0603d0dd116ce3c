"""The rows of one person across clubs. Re-exported by `tournaments.models`, so they belong to
the tournaments app (tables `tournaments_claimcode`, `tournaments_claimfailure`). The person
itself is `tournaments.clubs.models.Person` (`Player.person`).

`ClaimCode`: a member record's claim code, a secret kept only as its keyed hash (one a record;
issuing another replaces it; it expires). `ClaimFailure`: a wrong claim code typed on a club's
member page, counted to slow guessing down (`tournaments.people.services`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club
from tournaments.tokens import SecretToken


class ClaimCode(SecretToken):
    """A member record's claim code: the person shows it to a director of another club, who
    links that club's record of them to this one. `key_hash` is the code's keyed hash
    (`tournaments.people.services.code_hash`); the code itself is shown once, when issued."""

    player = models.OneToOneField(
        "tournaments.Player", models.CASCADE, related_name="claim_code", verbose_name=_("player")
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("claim code")
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_at__isnull=False), name="claim_code_expires"
            ),
        ]

    def __str__(self) -> str:
        return f"claim code of player {self.player_id}"


class ClaimFailure(models.Model):
    """A wrong claim code typed at a club (by one of its directors, from an address)."""

    club = models.ForeignKey(Club, models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    client = models.CharField(max_length=100, blank=True)
    at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["club", "at"], name="claimfailure_club_at")]

    def __str__(self) -> str:
        return f"{self.club_id} {self.at:%Y-%m-%d %H:%M}"

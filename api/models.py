"""Credentials for the REST API: directors' API tokens.

A random secret shown once and stored only as its SHA-256 hash; it may expire and be revoked.
A token made with another token (`POST /auth/tokens` under `Authorization: Token`, password
required) records it as its `parent`: it never outlives it (its expiry is at most the parent's)
and revoking a token revokes every token made from it, in one transaction.

Table scorers' tokens belong to the domain (`tournaments.models.TableToken`): the director's pages
print them on table cards.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import SecretToken, TokenState, hash_secret, new_secret

__all__ = ["ApiToken", "TokenState", "hash_secret", "new_secret"]


class ApiToken(SecretToken):
    """A director's (or any user's) API token: `Authorization: Token <secret>`."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="api_tokens", verbose_name=_("user")
    )
    parent = models.ForeignKey(
        "self",
        models.CASCADE,
        null=True,
        blank=True,
        related_name="children",
        verbose_name=_("made with"),
        editable=False,
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")

    def __str__(self) -> str:
        return f"{self.user} — {self.label or self.pk}"

    def revoke(self) -> None:
        """Revoke this token and every token made from it (children, their children...), in
        one transaction; those already revoked keep their time."""
        now = timezone.now()
        with transaction.atomic():
            family, level = [self.pk], [self.pk]
            while level:
                level = list(ApiToken.objects.filter(parent__in=level).values_list("pk", flat=True))
                family += level
            ApiToken.objects.filter(pk__in=family, revoked_at__isnull=True).update(revoked_at=now)
        if self.revoked_at is None:
            self.revoked_at = now

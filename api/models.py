"""Credentials for the REST API: directors' API tokens.

A random secret shown once and stored only as its SHA-256 hash; it may expire and be revoked.
Table scorers' tokens belong to the domain (`tournaments.models.TableToken`): the director's pages
print them on table cards.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import SecretToken, TokenState, hash_secret, new_secret

__all__ = ["ApiToken", "TokenState", "hash_secret", "new_secret"]

class ApiToken(SecretToken):
    """A director's (or any user's) API token: `Authorization: Token <secret>`."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="api_tokens", verbose_name=_("user")
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")

    def __str__(self) -> str:
        return f"{self.user} — {self.label or self.pk}"

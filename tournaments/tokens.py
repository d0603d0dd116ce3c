"""Secrets shown once and kept only as their hash: the table cards' tokens, the API's tokens and
the publishing keys are `SecretToken`s (re-exported by `tournaments.models`)."""

from __future__ import annotations

import hashlib
import secrets
from typing import Self

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

SECRET_BYTES = 32


def new_secret() -> str:
    """A fresh random secret (URL-safe, 43 characters)."""
    return secrets.token_urlsafe(SECRET_BYTES)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class TokenState(models.TextChoices):
    ACTIVE = "active", _("Active")
    EXPIRED = "expired", _("Expired")
    REVOKED = "revoked", _("Revoked")


class SecretToken(models.Model):
    """A random secret shown once and stored only as its SHA-256 hash; may expire or be revoked."""

    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    label = models.CharField(_("label"), max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        abstract = True

    @property
    def state(self) -> str:
        if self.revoked_at is not None:
            return TokenState.REVOKED
        if self.expires_at is not None and self.expires_at <= timezone.now():
            return TokenState.EXPIRED
        return TokenState.ACTIVE

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])

    @classmethod
    def by_secret(cls, secret: str) -> Self | None:
        """The token with this secret, or None (the hash is unique: no ordering needed)."""
        try:
            return cls._default_manager.get(key_hash=hash_secret(secret))
        except cls.DoesNotExist:
            return None

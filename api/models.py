"""Credentials for the REST API: directors' API tokens and table scorers' table tokens.

Both are random secrets shown once and stored only as their SHA-256 hash; both may expire and be
revoked. A table token is scoped to one table (and so to its match): its bearer scores there.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
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


class _Token(models.Model):
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
    def by_secret(cls, secret: str):
        return cls.objects.filter(key_hash=hash_secret(secret)).first()


class ApiToken(_Token):
    """A director's (or any user's) API token: `Authorization: Token <secret>`."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.CASCADE, related_name="api_tokens", verbose_name=_("user")
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")

    def __str__(self) -> str:
        return f"{self.user} — {self.label or self.pk}"


class TableToken(_Token):
    """A scorer's token for one table: `Authorization: Table <secret>`."""

    table = models.ForeignKey(
        "tournaments.Table", models.CASCADE, related_name="tokens", verbose_name=_("table")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("table token")

    def __str__(self) -> str:
        return f"{self.table} — {self.label or self.pk}"

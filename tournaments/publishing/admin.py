"""Publishing's rows in the admin: shown, never written there (the publishing page and the
services write them). No key is shown: the room's is a secret, the site's is only a hash."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import (
    Publication,
    PublishAttempt,
    PublishedEvent,
    PublishingKey,
    PublishTarget,
)


class _Shown(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PublishTarget)
class PublishTargetAdmin(_Shown):
    list_display = ["url", "updated_at"]
    exclude = ["key"]


@admin.register(Publication)
class PublicationAdmin(_Shown):
    list_display = ["tournament", "state", "requested_at", "last_sent_at", "error_code"]
    list_filter = ["state"]


@admin.register(PublishAttempt)
class PublishAttemptAdmin(_Shown):
    list_display = ["publication", "at", "ok", "outcome", "error_code", "size"]


@admin.register(PublishingKey)
class PublishingKeyAdmin(_Shown):
    list_display = ["prefix", "label", "owner", "created_at", "last_used_at", "revoked_at"]
    exclude = ["key_hash"]


@admin.register(PublishedEvent)
class PublishedEventAdmin(_Shown):
    list_display = ["slug", "tournament", "key", "updated_at", "taken_over_at"]
    exclude = ["digest"]

"""Publishing's rows in the admin: shown, never written there (the publishing page and the
services write them). No key is shown: the room's is a secret, the site's is only a hash."""

from __future__ import annotations

from django.contrib import admin

from tournaments.models import (
    Publication,
    PublishAttempt,
    PublishedEvent,
    PublishingKey,
    PublishTarget,
)
from tournaments.web.admin import ReadOnlyAdmin


@admin.register(PublishTarget)
class PublishTargetAdmin(ReadOnlyAdmin):
    list_display = ["url", "updated_at"]
    exclude = ["key"]


@admin.register(Publication)
class PublicationAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "state", "requested_at", "last_sent_at", "error_code"]
    list_filter = ["state"]


@admin.register(PublishAttempt)
class PublishAttemptAdmin(ReadOnlyAdmin):
    list_display = ["publication", "at", "ok", "outcome", "error_code", "size"]


@admin.register(PublishingKey)
class PublishingKeyAdmin(ReadOnlyAdmin):
    list_display = ["prefix", "label", "owner", "created_at", "last_used_at", "revoked_at"]
    exclude = ["key_hash"]


@admin.register(PublishedEvent)
class PublishedEventAdmin(ReadOnlyAdmin):
    list_display = ["slug", "tournament", "key", "updated_at", "taken_over_at"]
    exclude = ["digest"]

"""The members' rows in the admin: shown, never written there (the members' page and its
services write them: changing them by hand would not restore the published events)."""

from __future__ import annotations

from django.contrib import admin

from tournaments.models import MembersSettings, RemovedName
from tournaments.web.admin import ReadOnlyAdmin


@admin.register(MembersSettings)
class MembersSettingsAdmin(ReadOnlyAdmin):
    list_display = ["public_names", "updated_at"]


@admin.register(RemovedName)
class RemovedNameAdmin(ReadOnlyAdmin):
    list_display = ["uid", "removed_at", "removed_by"]

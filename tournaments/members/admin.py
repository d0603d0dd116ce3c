"""The members' rows in the admin: shown, never written there (the members' page and its
services write them: changing them by hand would not restore the published events)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import MembersSettings, RemovedName


class _Shown(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MembersSettings)
class MembersSettingsAdmin(_Shown):
    list_display = ["public_names", "updated_at"]


@admin.register(RemovedName)
class RemovedNameAdmin(_Shown):
    list_display = ["uid", "removed_at", "removed_by"]

"""The clubs' rows in the admin (and the standings' change log): shown, never written there.
Clubs and invitations are made by their pages and services, which check who may and keep the
audit trail; the change log is written by the standings' service."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import (
    Club,
    ClubAuditEvent,
    ClubInvitation,
    Person,
    StandingsChange,
)


class _Shown(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(_Shown):
    list_display = ["name", "slug", "federation", "suspended_at", "created_at"]


for model in (Person, ClubInvitation, ClubAuditEvent, StandingsChange):
    admin.site.register(model, _Shown)

"""The clubs' rows in the admin (and those of the features that came with them: people across
clubs, the federation ranking, the standings' change log): shown, never written there. Clubs,
invitations and links are made by their pages and services, which check who may and keep the
audit trail; the federation and the change log are computed."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import (
    ClaimCode,
    ClaimFailure,
    Club,
    ClubAuditEvent,
    ClubInvitation,
    FederationRating,
    FederationRun,
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


for model in (
    Person,
    ClubInvitation,
    ClubAuditEvent,
    ClaimCode,
    ClaimFailure,
    FederationRating,
    FederationRun,
    StandingsChange,
):
    admin.site.register(model, _Shown)

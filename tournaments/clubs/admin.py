"""The clubs' rows in the admin (and those of the features that came with them: people across
clubs, the federation ranking, the standings' change log): shown, never written there. Clubs,
invitations and links are made by their pages and services, which check who may and keep the
audit trail; the federation and the change log are computed."""

from __future__ import annotations

from django.contrib import admin

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
from tournaments.web.admin import ReadOnlyAdmin


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
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
    admin.site.register(model, ReadOnlyAdmin)

"""Tokens in the admin: shown by label and state; the secret is never stored, so never shown."""

from django.contrib import admin

from tournaments.models import TableToken

from .models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["id", "user", "label", "state", "created_at", "expires_at", "revoked_at"]
    readonly_fields = ["key_hash", "created_at", "last_used_at"]
    search_fields = ["label", "user__username"]


@admin.register(TableToken)
class TableTokenAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "label", "state", "created_at", "expires_at", "revoked_at"]
    readonly_fields = ["key_hash", "created_at", "last_used_at"]
    list_select_related = ["table__round__tournament"]

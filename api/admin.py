"""Tokens in the admin: shown by label and state; the secret is never stored, so never shown.

An API token's expiry, revocation and parent are read-only: a token made with a token never
outlives it, and revoking one revokes those made from it (the "Revoke" action, in one
transaction), which editing the dates by hand would get round.
"""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import TableToken

from .models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "user",
        "label",
        "state",
        "created_at",
        "expires_at",
        "revoked_at",
        "parent",
    ]
    readonly_fields = [
        "key_hash",
        "created_at",
        "last_used_at",
        "expires_at",
        "revoked_at",
        "parent",
    ]
    search_fields = ["label", "user__username"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a token's secret is shown once, to whoever makes it: POST /auth/tokens

    @admin.action(description=_("Revoke (with the tokens made from them)"))
    def revoke(self, request: HttpRequest, queryset: QuerySet) -> None:
        for token in queryset:
            token.revoke()


@admin.register(TableToken)
class TableTokenAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "label", "state", "created_at", "expires_at", "revoked_at"]
    readonly_fields = ["key_hash", "created_at", "last_used_at"]
    list_select_related = ["table__tournament"]

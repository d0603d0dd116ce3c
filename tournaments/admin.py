"""The Django admin: every model, for anything the director's pages do not cover yet.

Hand versions and the audit trail are read-only here: versions change only through the
services (a correction is a new version), and the audit trail is append-only.
"""

from django.contrib import admin

from .models import (
    AuditEvent,
    Entry,
    Hand,
    HandSubmission,
    ImportJob,
    Match,
    Player,
    Rating,
    Round,
    Seat,
    StandingsSnapshot,
    Table,
    Team,
    Tournament,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club_number", "email", "created_at"]
    search_fields = ["name", "club_number", "email"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "first", "second"]
    search_fields = ["name", "first__name", "second__name"]
    autocomplete_fields = ["first", "second"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["team", "player", "status", "seed", "joined_round", "late_entry", "fixed_table"]
    autocomplete_fields = ["team", "player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "rounds", "state", "starts_at"]
    list_filter = ["game", "format", "state"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "status", "seed", "joined_round", "fixed_table"]
    list_filter = ["status", "tournament"]
    search_fields = ["team__name", "player__name"]
    autocomplete_fields = ["team", "player"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "state", "published_at", "closed_at"]
    list_filter = ["state", "tournament"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["entry", "side", "seats", "outcome", "match_points", "points_for",
              "points_against", "place"]
    autocomplete_fields = ["entry"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "state", "is_bye", "finished_at"]
    list_filter = ["state", "is_bye", "round__tournament"]
    inlines = [SeatInline]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round"]
    list_filter = ["round__tournament"]


class VersionInline(admin.TabularInline):
    model = HandSubmission
    fk_name = "hand"
    extra = 0
    can_delete = False
    fields = ["version", "status", "is_current", "source", "submitted_label", "decided_label",
              "reason", "submitted_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "created_at"]
    list_filter = ["match__round__tournament"]
    inlines = [VersionInline]


@admin.register(HandSubmission)
class HandSubmissionAdmin(admin.ModelAdmin):
    list_display = ["hand", "version", "status", "is_current", "source", "submitted_at"]
    list_filter = ["status", "is_current", "source"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ["at", "tournament", "actor_label", "action", "subject", "reason"]
    list_filter = ["action", "tournament"]
    search_fields = ["subject", "reason", "actor_label"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["tournament", "version", "inputs_version", "computed_at"]
    list_filter = ["tournament"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "ordinal", "mu", "sigma", "games", "wins", "last_played"]
    list_filter = ["game"]
    search_fields = ["player__name"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["__str__", "match", "side", "outcome", "match_points", "place"]
    list_filter = ["outcome", "match__round__tournament"]
    search_fields = ["entry__team__name", "entry__player__name"]
    autocomplete_fields = ["entry"]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Hand-record imports: read-only (a job is started from the director's import page)."""

    list_display = ["id", "tournament", "filename", "state", "total", "stored", "duplicates",
                    "failed", "created_at"]
    list_filter = ["state", "tournament"]
    exclude = ["content"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

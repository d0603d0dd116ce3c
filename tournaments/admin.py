"""The Django admin: every model, for anything the director's pages do not cover yet.

Hand versions and the audit trail are read-only here and can never be deleted: versions change
only through the services (a correction is a new version), and the audit trail is append-only.
Since the admin refuses to delete anything whose deletion would take hand versions with it, a
match, round or tournament with hands cannot be deleted here either. A match's state, result and
seats' results are read-only: they follow from the confirmed hands (finishing a match early,
confirming, correcting a hand: the director's match page, which calls the services).
"""

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournaments.web.admin import ReadOnlyAdmin

from .models import (
    AuditEvent,
    DirectorCall,
    Entry,
    EventTable,
    Hand,
    HandSubmission,
    ImportJob,
    KeepApart,
    Match,
    PinFailure,
    Player,
    Rating,
    Round,
    RoundClock,
    Seat,
    Series,
    SeriesMember,
    SeriesSnapshot,
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
    list_display = [
        "__str__",
        "tournament",
        "status",
        "seed",
        "joined_round",
        "fixed_table",
        "affiliation",
    ]
    list_filter = ["status", "tournament"]
    search_fields = ["team__name", "player__name", "affiliation"]
    autocomplete_fields = ["team", "player"]


@admin.register(KeepApart)
class KeepApartAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "reason", "created_at"]
    list_filter = ["tournament"]
    autocomplete_fields = ["first", "second"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "state", "published_at", "closed_at"]
    list_filter = ["state", "tournament"]
    inlines = [TableInline]


#: A seat's share of the match's result: computed from the confirmed hands, never typed in.
SEAT_RESULT = ["outcome", "match_points", "points_for", "points_against", "place"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["entry", "side", "seats", *SEAT_RESULT]
    readonly_fields = SEAT_RESULT
    autocomplete_fields = ["entry"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """A match's state and result follow from its confirmed hands: read-only here. Corrections
    go through the services, on the director's match page (linked)."""

    list_display = ["__str__", "state", "is_bye", "finished_at"]
    list_filter = ["state", "is_bye", "round__tournament"]
    readonly_fields = ["state", "result", "finished_at", "director_page"]
    inlines = [SeatInline]

    @admin.display(description=_("Corrections"))
    def director_page(self, obj: Match | None) -> str:
        if obj is None or obj.pk is None:
            return "-"
        url = reverse("tournaments:director-match", args=[obj.round.tournament.slug, obj.pk])
        return format_html(
            '<a href="{}">{}</a>',
            url,
            _("Finish the match or correct a hand on the director's match page"),
        )


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "event_table"]
    list_filter = ["round__tournament"]


@admin.register(EventTable)
class EventTableAdmin(admin.ModelAdmin):
    """The event's numbered tables (their cards' tables): made by the services when a round is
    drawn or a card printed, never typed in; its cards are revoked on the match page."""

    list_display = ["__str__", "tournament"]
    list_filter = ["tournament"]
    readonly_fields = ["tournament", "number"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class VersionInline(admin.TabularInline):
    model = HandSubmission
    fk_name = "hand"
    extra = 0
    can_delete = False
    fields = (
        "version",
        "status",
        "is_current",
        "source",
        "submitted_label",
        "decided_label",
        "reason",
        "submitted_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    """Read-only: a hand is its versions (deleting it would delete them)."""

    list_display = ["__str__", "created_at"]
    list_filter = ["match__round__tournament"]
    inlines = [VersionInline]


@admin.register(HandSubmission)
class HandSubmissionAdmin(ReadOnlyAdmin):
    """Read-only and never deleted: deleting the current version would leave a hand that can
    never be scored again. The admin asks this before deleting anything that would cascade to
    versions (a hand, match, round, table, tournament), so those are refused too."""

    list_display = ["hand", "version", "status", "is_current", "source", "submitted_at"]
    list_filter = ["status", "is_current", "source"]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "tournament", "actor_label", "action", "subject", "reason"]
    list_filter = ["action", "tournament"]
    search_fields = ["subject", "reason", "actor_label"]


@admin.register(PinFailure)
class PinFailureAdmin(ReadOnlyAdmin):
    """Wrong PINs, kept an hour (services.side_pins): a director clears a table's from the
    dashboard, in the audit trail."""

    list_display = ["at", "entry", "client"]


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["tournament", "version", "inputs_version", "computed_at"]
    list_filter = ["tournament"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "ordinal", "mu", "sigma", "games", "wins", "last_played"]
    list_filter = ["game"]
    search_fields = ["player__name"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
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

    list_display = [
        "id",
        "tournament",
        "filename",
        "state",
        "total",
        "stored",
        "duplicates",
        "failed",
        "created_at",
    ]
    list_filter = ["state", "tournament"]
    exclude = ["content"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


# Seasons are written by their services (the game check, the recompute): shown here only.
@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug", "game", "rule", "best", "inputs_version", "created_at"]
    list_filter = ["game", "rule"]
    search_fields = ["name", "slug"]


@admin.register(SeriesMember)
class SeriesMemberAdmin(ReadOnlyAdmin):
    list_display = ["series", "tournament", "added_at"]
    list_filter = ["series"]


@admin.register(SeriesSnapshot)
class SeriesSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["series", "version", "inputs_version", "computed_at"]
    list_filter = ["series"]


@admin.register(RoundClock)
class RoundClockAdmin(ReadOnlyAdmin):
    """Round clocks: run from the director's room panel (tournaments.room.services)."""

    list_display = ["round", "duration", "last_hand", "started_at", "paused_at", "paused_for"]


@admin.register(DirectorCall)
class DirectorCallAdmin(ReadOnlyAdmin):
    """Calls for the director: made from a table's phone, answered on the room panel."""

    list_display = ["table", "reason", "note", "called_at", "acknowledged_at", "acknowledged_label"]
    list_filter = ["reason"]


# -- duplicate events: shown here, written by the services (tournaments/duplicate/services.py) --


from .models import Board, BoardResult, DuplicateEvent, DuplicatePair  # noqa: E402


@admin.register(DuplicateEvent)
class DuplicateEventAdmin(ReadOnlyAdmin):
    list_display = [
        "tournament",
        "movement",
        "tables",
        "boards_per_round",
        "comparison",
        "released_round",
    ]


@admin.register(DuplicatePair)
class DuplicatePairAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "number", "entry"]
    list_filter = ["tournament"]


@admin.register(Board)
class BoardAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "number", "dealer", "source"]
    list_filter = ["tournament"]


@admin.register(BoardResult)
class BoardResultAdmin(ReadOnlyAdmin):
    """Board results are versioned: a correction or an adjustment is a new version."""

    list_display = [
        "tournament",
        "board",
        "round_number",
        "table_number",
        "version",
        "status",
        "kind",
        "ns_score",
        "ew_score",
    ]
    list_filter = ["tournament", "status", "kind"]


from tournaments.clubs import admin as clubs_admin  # noqa: E402, F401 - registers
from tournaments.members import admin as members_admin  # noqa: E402, F401 - registers
from tournaments.publishing import admin as publishing_admin  # noqa: E402, F401 - registers

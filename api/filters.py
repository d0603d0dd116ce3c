"""django-filter sets for the list endpoints."""

from __future__ import annotations

import django_filters

from tournaments.models import (
    AuditEvent,
    Entry,
    HandSubmission,
    Match,
    Player,
    Rating,
    Round,
    Tournament,
)


class TournamentFilter(django_filters.FilterSet):
    class Meta:
        model = Tournament
        fields = ["game", "state", "format"]


class EntryFilter(django_filters.FilterSet):
    class Meta:
        model = Entry
        fields = ["status"]


class RoundFilter(django_filters.FilterSet):
    class Meta:
        model = Round
        fields = ["state"]


class MatchFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(
        field_name="round__tournament__slug", help_text="The tournament's slug."
    )
    round = django_filters.NumberFilter(field_name="round__number", help_text="The round number.")

    class Meta:
        model = Match
        fields = ["tournament", "round", "state", "is_bye"]


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", help_text="Part of the name.")

    class Meta:
        model = Player
        fields = ["name", "club_number"]


class RatingFilter(django_filters.FilterSet):
    min_games = django_filters.NumberFilter(
        field_name="games", lookup_expr="gte", help_text="Only players with this many games."
    )

    class Meta:
        model = Rating
        fields = ["min_games"]


class AuditFilter(django_filters.FilterSet):
    class Meta:
        model = AuditEvent
        fields = ["action"]


class QueueFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(
        choices=[("pending", "pending"), ("rejected", "rejected")],
        help_text="only hands awaiting confirmation, or only disputed ones",
    )

    class Meta:
        model = HandSubmission
        fields = ["status"]

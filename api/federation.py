"""The federation ranking in the API (read-only, anyone): thin over `tournaments.federation`.

- `GET /api/v1/federation/{game}`: the game's federation ratings, best first (paged like every
  list); each with its person's uid (records linked across clubs) or its member record, and
  the slugs of the clubs whose events it counts
- `GET /api/v1/federation/{game}/{id}`: one rating with its history (after each event)
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers

from tournaments.models import GAMES, Club, FederationRating

from .errors import ApiError
from .serializers import PlayerBriefSerializer
from .views import ApiView

GAME = OpenApiParameter(
    "game", str, OpenApiParameter.PATH, enum=[g for g, _ in GAMES], description="The game."
)
RATING = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The rating's id.")


class FederationPointSerializer(serializers.Serializer):
    ended_at = serializers.CharField(help_text="When the event ended (RFC 3339, UTC).")
    tournament = serializers.IntegerField(help_text="The event's id.")
    club = serializers.IntegerField(help_text="The event's club's id.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class FederationRatingSerializer(serializers.ModelSerializer):
    person = serializers.UUIDField(
        source="person.uid",
        read_only=True,
        allow_null=True,
        help_text="The person's uid when their member records are linked; else null.",
    )
    player = PlayerBriefSerializer(
        read_only=True, allow_null=True, help_text="The member record of no person; else null."
    )
    clubs = serializers.SerializerMethodField()

    class Meta:
        model = FederationRating
        fields = [
            "id",
            "game",
            "person",
            "player",
            "clubs",
            "ordinal",
            "mu",
            "sigma",
            "events",
            "games",
            "wins",
            "draws",
            "last_played",
        ]
        read_only_fields = fields

    def get_clubs(self, rating: FederationRating) -> list[str]:
        """The slugs of the clubs whose events count, by the clubs' ids."""
        slugs: dict[int, str] = self.context["club_slugs"]
        return [slugs[c] for c in rating.clubs if c in slugs]


class FederationRatingDetailSerializer(FederationRatingSerializer):
    history = serializers.SerializerMethodField()

    class Meta(FederationRatingSerializer.Meta):
        fields = [*FederationRatingSerializer.Meta.fields, "history"]
        read_only_fields = fields

    @extend_schema_field(FederationPointSerializer(many=True))
    def get_history(self, rating: FederationRating) -> list[dict[str, Any]]:
        keys = ("ended_at", "tournament", "club", "mu", "sigma", "ordinal")
        return [dict(zip(keys, point, strict=True)) for point in rating.history]


class FederationView(ApiView):
    """The clubs' slugs, read once for a page of ratings."""

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if getattr(self, "swagger_fake_view", False):
            # drf-spectacular builds the document from a fake view: no request, no rows to
            # read (reading here opened a connection wherever the document was made).
            return context
        return {**context, "club_slugs": dict(Club.objects.values_list("pk", "slug"))}


def _game(kwargs: dict[str, Any]) -> str:
    game = kwargs["game"]
    if game not in {g for g, _ in GAMES}:
        raise ApiError("unknown-game", f"no game {game!r}", status_code=404)
    return str(game)


@extend_schema(
    tags=["players"],
    parameters=[GAME],
    summary="The federation ranking of a game: across the clubs that take part, best first",
)
class FederationLeaderboard(generics.ListAPIView, FederationView):
    serializer_class = FederationRatingSerializer
    queryset = FederationRating.objects.none()

    def get_queryset(self) -> QuerySet[FederationRating]:
        if getattr(self, "swagger_fake_view", False):
            return FederationRating.objects.none()
        return (
            FederationRating.objects.filter(game=_game(self.kwargs))
            .select_related("person", "player")
            .order_by("-ordinal", "-games", "pk")
        )


@extend_schema(
    tags=["players"],
    parameters=[GAME, RATING],
    summary="One federation rating with its rating after each event",
)
class FederationRatingDetail(generics.RetrieveAPIView, FederationView):
    serializer_class = FederationRatingDetailSerializer
    queryset = FederationRating.objects.none()
    lookup_field = "pk"
    lookup_url_kwarg = "id"

    def get_queryset(self) -> QuerySet[FederationRating]:
        if getattr(self, "swagger_fake_view", False):
            return FederationRating.objects.none()
        return FederationRating.objects.filter(game=_game(self.kwargs)).select_related(
            "person", "player"
        )

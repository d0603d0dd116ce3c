"""Season championships in the API: thin over `tournaments.seasons.services`.

- `GET /api/v1/seasons` (anyone), `POST` (a signed-in user; it becomes the season's director)
- `GET /api/v1/seasons/{slug}`, `PATCH` (its directors: name, rule, points, best)
- `GET /api/v1/seasons/{slug}/table`: the latest season snapshot, with an ETag (a poll with
  `If-None-Match` for the same version and staleness gets 304)
- `POST /api/v1/seasons/{slug}/tournaments` `{"tournament": slug}`, and
  `DELETE /api/v1/seasons/{slug}/tournaments/{tournament}` (the season's directors; adding
  needs the tournament's too, and its game must be the season's: 422 `game-mismatch`)
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.models import GAMES, Series, Tournament
from tournaments.seasons import services as seasons
from tournaments.words.formatting import timestamp

from .errors import ApiError
from .views import ActionView, ApiView, actor_for, in_club, tournament_of, valid

SEASON = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The season's slug.")
MEMBER = OpenApiParameter(
    "tournament", str, OpenApiParameter.PATH, description="The tournament's slug."
)


class SeasonSerializer(serializers.ModelSerializer):
    points = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="Placing points by place; exact numbers as text.",
    )
    tournaments = serializers.SerializerMethodField()

    class Meta:
        model = Series
        fields = [
            "id",
            "slug",
            "name",
            "game",
            "rule",
            "points",
            "best",
            "tournaments",
            "inputs_version",
            "created_at",
        ]
        read_only_fields = fields

    def get_tournaments(self, series: Series) -> list[str]:
        return list(
            Tournament.objects.filter(series_members__series=series)
            .order_by("starts_at", "id")
            .values_list("slug", flat=True)
        )


class PointsField(serializers.ListField):
    child = serializers.CharField(max_length=30)
    max_length = seasons.MAX_PLACES


class SeasonCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=150)
    game = serializers.ChoiceField(choices=GAMES)
    rule = serializers.ChoiceField(choices=Series.Rule.choices, default=Series.Rule.PLACING)
    points = PointsField(required=False)
    best = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=seasons.MAX_BEST
    )
    slug = serializers.SlugField(required=False, max_length=80)


class SeasonUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=150, required=False)
    rule = serializers.ChoiceField(choices=Series.Rule.choices, required=False)
    points = PointsField(required=False)
    best = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=seasons.MAX_BEST,
        help_text="null: every evening counts",
    )


class MemberSerializer(serializers.Serializer):
    tournament = serializers.SlugField(max_length=80, help_text="The tournament's slug.")


def season_of(request: Request, slug: str) -> Series:
    """The address's club's season of this slug (404 for another club's)."""
    return get_object_or_404(in_club(request, Series.objects), slug=slug)


@extend_schema(tags=["seasons"])
class SeasonList(generics.ListAPIView, ApiView):
    queryset = Series.objects.all()
    serializer_class = SeasonSerializer
    filterset_fields = ["game"]

    @extend_schema(
        summary="Create a season (you become its director)",
        request=SeasonCreateSerializer,
        responses={201: SeasonSerializer},
    )
    def post(self, request: Request) -> Response:
        data = valid(SeasonCreateSerializer, request)
        series = seasons.create_series(actor=actor_for(request), **data)
        return Response(SeasonSerializer(series).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["seasons"], parameters=[SEASON])
class SeasonDetail(generics.RetrieveAPIView, ApiView):
    queryset = Series.objects.all()
    serializer_class = SeasonSerializer
    lookup_field = "slug"

    @extend_schema(
        summary="Change the season's name, rule, placing points or best K (its directors)",
        request=SeasonUpdateSerializer,
        responses={200: SeasonSerializer},
    )
    def patch(self, request: Request, slug: str) -> Response:
        found = season_of(request, slug)  # another club's: 404 before the body is read
        actor = actor_for(request)
        seasons.require_series_director(actor, found)  # and someone else's: 403 before it
        changes = valid(SeasonUpdateSerializer, request)
        if not changes:
            raise ApiError("no-changes", "send at least one field to change")
        series = seasons.update_series(actor=actor, series=found, **changes)
        return Response(SeasonSerializer(series).data)


def _etag(series: Series, version: int, stale: bool) -> str:
    return f'"season-{series.pk}-{version}-{int(stale)}"'


@extend_schema(
    tags=["seasons"],
    parameters=[SEASON],
    summary="The season table: the latest snapshot (304 for a current If-None-Match)",
    responses={
        200: OpenApiResponse(
            OpenApiTypes.OBJECT,
            description=(
                "series, game, rule, points, best, chain, evenings [{tournament, name, state, "
                "starts_at, standings_version}], rows [{rank, tied, entrant, name, players, score, "
                "wins, best, total, played, evenings [{score, counted, place}]}], plus version, "
                "stale, computed_at. Exact numbers are ints or 'a/b' strings."
            ),
        ),
        304: OpenApiResponse(description="Not modified"),
    },
)
class SeasonTable(ActionView):
    serializer_class = None

    def get(self, request: Request, slug: str) -> Response:
        series = season_of(request, slug)
        latest = seasons.latest(series=series)
        version = latest.snapshot.version if latest.snapshot else 0
        etag = _etag(series, version, latest.stale)
        if etag in {
            t.strip().removeprefix("W/")
            for t in request.headers.get("If-None-Match", "").split(",")
        }:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            payload = (
                dict(latest.snapshot.payload)
                if latest.snapshot
                else {"series": series.slug, "evenings": [], "rows": []}
            )
            payload.update(
                version=version,
                stale=latest.stale,
                computed_at=timestamp(latest.snapshot.computed_at if latest.snapshot else None),
            )
            response = Response(payload)
        response["ETag"] = etag
        response["Cache-Control"] = "public, no-cache"
        return response


@extend_schema(
    tags=["seasons"],
    parameters=[SEASON],
    summary="Count a tournament in the season (same game)",
    request=MemberSerializer,
    responses={200: SeasonSerializer},
)
class SeasonTournaments(ActionView):
    serializer_class = SeasonSerializer

    def post(self, request: Request, slug: str) -> Response:
        series = season_of(request, slug)
        actor = actor_for(request)
        seasons.require_series_director(actor, series)
        data = valid(MemberSerializer, request)
        tournament = tournament_of(request, data["tournament"])
        seasons.add_tournament(actor=actor, series=series, tournament=tournament)
        return Response(SeasonSerializer(series).data)


@extend_schema(
    tags=["seasons"],
    parameters=[SEASON, MEMBER],
    summary="Stop counting a tournament in the season",
    request=None,
    responses={200: SeasonSerializer},
)
class SeasonTournament(ActionView):
    serializer_class = SeasonSerializer

    def delete(self, request: Request, slug: str, tournament: str) -> Response:
        series = season_of(request, slug)
        member = tournament_of(request, tournament)
        seasons.remove_tournament(actor=actor_for(request), series=series, tournament=member)
        return Response(SeasonSerializer(series).data)

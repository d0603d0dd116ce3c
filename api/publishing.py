"""PUT /api/v1/publish/{slug}: a room publishes an event to this site (docs/publishing.md).

Authenticated by a publishing key (`Authorization: Bearer <key>`, made on the site's
publishing page), not by a user; throttled per client address (scope `publish`); the body is a
`tricktable-archive/1` within REQUEST_BODY_LIMIT. The work is `tournaments.publishing.services
.receive`: one transaction, created, updated or unchanged; refused with a stable code, changing
nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.clubs.services import address_slug
from tournaments.models import PublishingKey, home_club_pk
from tournaments.publishing import services

from .errors import ApiError
from .parsers import ArchiveJSONParser
from .serializers import ErrorSerializer

KEYWORD = b"bearer"


class PublishingKeyAuthentication(BaseAuthentication):
    """`Authorization: Bearer <publishing key>`: the request's `auth` is the key (no user)."""

    def authenticate(self, request: Any) -> tuple[Any, PublishingKey] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].lower() != KEYWORD:
            return None
        if len(header) != 2:
            raise ApiError(
                "publish-key-invalid", "the header is 'Bearer <publishing key>'", status_code=401
            )
        try:
            secret = header[1].decode("ascii")
        except UnicodeDecodeError:
            secret = ""
        return AnonymousUser(), services.key_for(secret)

    def authenticate_header(self, request: Any) -> str:
        return "Bearer"


class PublishingKeyScheme(OpenApiAuthenticationExtension):
    target_class = "api.publishing.PublishingKeyAuthentication"
    name = "publishingKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A publishing key made on the site's publishing page (shown once): "
            "`Authorization: Bearer <key>`. A room sends its events with it.",
        }


class PublishedSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=["created", "updated", "unchanged"])
    slug = serializers.SlugField()
    url = serializers.URLField(help_text="The event's public page on this site.")
    updated_at = serializers.DateTimeField(help_text="The last publish that changed the event.")


REFUSALS = (
    "`publish-key-invalid` (401: no key, an unknown or revoked key); `bad-archive`, "
    "`unsupported-archive`, `archive-inconsistent` (400: not a tricktable-archive/1 this site "
    "restores), `publish-slug-mismatch` (422: the archive is another slug's); "
    "`publish-slug-taken` (409: the site's own event has this slug), `publish-other-key` (409: "
    "another key publishes it), `publish-taken-over` (409: the site's directors took it over), "
    "`publish-busy` (409: the same event's first publish twice at once: try again); "
    "`too-large` (413); `throttled` (429)."
)


class PublishEvent(APIView):
    authentication_classes = [PublishingKeyAuthentication]
    parser_classes = [ArchiveJSONParser]  # an evening's archive: up to REQUEST_BODY_LIMIT
    permission_classes = [AllowAny]  # the key is checked below: a refusal with our code
    throttle_scope = "publish"

    @extend_schema(
        tags=["publishing"],
        operation_id="publish_event",
        summary="Publish an event from the room (create, update in place, or find it unchanged)",
        description="The body is the event's archive (`tricktable-archive/1`, secrets left "
        "out). A changed document updates the event in place: the same tournament, rounds, "
        "entries, matches, players and teams (the same ids), people known again by their "
        "record's `uid`. The same document again answers `unchanged` and changes nothing. "
        "Refusals, which change nothing: " + REFUSALS,
        request={"application/json": OpenApiTypes.OBJECT},
        responses={
            201: OpenApiResponse(PublishedSerializer, description="Created"),
            200: OpenApiResponse(
                PublishedSerializer, description="Replaced (`updated`) or `unchanged`"
            ),
            401: OpenApiResponse(ErrorSerializer, description="`publish-key-invalid`"),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`publish-slug-taken`, `publish-other-key`, `publish-taken-over`, "
                "`publish-busy`",
            ),
        },
        examples=[
            OpenApiExample(
                "Updated",
                value={
                    "outcome": "updated",
                    "slug": "club-night",
                    "url": "https://club.example/t/club-night/",
                    "updated_at": "2026-12-07T21:40:00Z",
                },
                response_only=True,
                status_codes=["200"],
            )
        ],
    )
    def put(self, request: Any, slug: str) -> Response:
        if not isinstance(request.auth, PublishingKey):
            raise ApiError(
                "publish-key-invalid",
                "send the site's publishing key: Authorization: Bearer <key>",
                status_code=401,
            )
        club = request.auth.club
        named = address_slug(request)
        if named is not None and named != club.slug:
            # a key publishes into its own club: at another club's address it is not known
            raise ApiError(
                "publish-key-invalid",
                "this publishing key is not known to this club's site",
                status_code=401,
            )
        received = services.receive(key=request.auth, slug=slug, document=request.data)
        path = reverse("tournaments:public-tournament", args=[received.tournament.slug])
        if named is None and club.pk != home_club_pk():  # the event's page is at its club's
            path = f"/c/{club.slug}{path}"
        page = request.build_absolute_uri(path)
        return Response(
            PublishedSerializer(
                {
                    "outcome": received.outcome,
                    "slug": received.event.slug,
                    "url": page,
                    "updated_at": received.event.updated_at,
                }
            ).data,
            status=201 if received.outcome == "created" else 200,
        )
